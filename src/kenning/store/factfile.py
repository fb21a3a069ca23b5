"""The fact file format (`format: 1`): parse, validate and render one YAML file.

Parsing validates at the file boundary and names the file and field on failure, so one bad
file is reported and skipped rather than breaking the rest.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from kenning.core.errors import FactFileError, FileProblemError, KenningError
from kenning.core.ids import is_ulid
from kenning.core.records import KINDS, ORIGINS, STATUSES, Anchor, Fact, Source
from kenning.core.safeio import display, read_text
from kenning.lifecycle.confidence import to_hundredths
from kenning.store.yamlio import parse_yaml

FORMAT = 1
MAX_FORMAT = 999  # a later format stays readable by number; a huge one would overflow SQLite
MAX_FILE_BYTES = 64 * 1024
MIN_YEAR, MAX_YEAR = 1970, 9000
KEY_ORDER = (
    "format", "id", "kind", "text", "rationale", "about", "tags", "topic", "source",
    "created", "confirmed", "confidence", "status", "superseded_by",
)
_CONFLICT_PREFIXES = ("<<<<<<< ", "=======", ">>>>>>> ", "||||||| ")


def format_time(value: datetime) -> str:
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(value: Any, path: str, field: str) -> datetime:
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError as exc:
            raise FactFileError(path, field, f"not an ISO timestamp: {value!r}") from exc
    else:
        raise FactFileError(path, field, "missing or not a timestamp")
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        parsed = parsed.astimezone(UTC)
    except (OverflowError, ValueError) as exc:
        raise FactFileError(path, field, "out of range") from exc
    if not MIN_YEAR <= parsed.year <= MAX_YEAR:  # date arithmetic (decay, windows) stays in range
        raise FactFileError(path, field, f"year must be from {MIN_YEAR} to {MAX_YEAR}")
    return parsed


def has_conflict_markers(text: str) -> bool:
    return any(line.startswith(_CONFLICT_PREFIXES) for line in text.splitlines())


def parse_fact(raw: str, path: str) -> Fact:
    """Validate one fact file's text; raises FactFileError naming the field."""
    if len(raw.encode("utf-8")) > MAX_FILE_BYTES:
        raise FactFileError(path, "file", f"larger than {MAX_FILE_BYTES} bytes")
    if has_conflict_markers(raw):
        raise FactFileError(path, "file", "holds git conflict markers; resolve the merge")
    try:
        data = parse_yaml(raw, path)
    except FileProblemError as exc:
        raise FactFileError(exc.path, exc.field, exc.problem) from exc
    if not isinstance(data, dict):
        raise FactFileError(path, "file", "not a YAML mapping")
    return fact_from_mapping(data, path)


def fact_from_mapping(data: dict[str, Any], path: str) -> Fact:
    fmt = data.get("format")
    if isinstance(fmt, bool) or not isinstance(fmt, int) or not 1 <= fmt <= MAX_FORMAT:
        raise FactFileError(path, "format", f"missing or not an integer from 1 to {MAX_FORMAT}")
    fact_id = data.get("id")
    if not is_ulid(fact_id):
        raise FactFileError(path, "id", "missing or not a ULID")
    kind = data.get("kind")
    if kind not in KINDS:
        raise FactFileError(path, "kind", f"must be one of {', '.join(KINDS)}")
    text = data.get("text")
    if not isinstance(text, str) or not text.strip():
        raise FactFileError(path, "text", "missing or empty")
    status = data.get("status", "active")
    if status not in STATUSES:
        raise FactFileError(path, "status", f"must be one of {', '.join(STATUSES)}")
    confidence = data.get("confidence")
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        raise FactFileError(path, "confidence", "missing or not a number")
    if not 0 <= confidence <= 1:
        raise FactFileError(path, "confidence", "must be between 0 and 1")
    rationale = data.get("rationale")
    if rationale is not None and not isinstance(rationale, str):
        raise FactFileError(path, "rationale", "must be text")
    topic = data.get("topic")
    if topic is not None and not isinstance(topic, str):
        raise FactFileError(path, "topic", "must be text")
    superseded_by = data.get("superseded_by")
    if superseded_by is not None and not is_ulid(superseded_by):
        raise FactFileError(path, "superseded_by", "must be a fact id")
    tags = data.get("tags") or []
    if not isinstance(tags, list) or not all(
            isinstance(t, str) or (isinstance(t, int) and abs(t) < 10**18) for t in tags):
        raise FactFileError(path, "tags", "must be a list of words")
    return Fact(
        format=fmt,
        id=fact_id,
        kind=kind,
        text=text,
        rationale=rationale,
        about=_parse_about(data.get("about"), path),
        tags=tuple(str(t) for t in tags),
        topic=topic,
        source=_parse_source(data.get("source"), path),
        created=parse_time(data.get("created"), path, "created"),
        confirmed=parse_time(data.get("confirmed"), path, "confirmed"),
        confidence=to_hundredths(confidence),
        status=status,
        superseded_by=superseded_by,
        extra=tuple((k, v) for k, v in data.items() if k not in KEY_ORDER),
    )


def _parse_about(value: Any, path: str) -> tuple[Anchor, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise FactFileError(path, "about", "must be a list of {file, symbol, hash}")
    anchors = []
    for i, item in enumerate(value):
        if not isinstance(item, dict) or not isinstance(item.get("file"), str):
            raise FactFileError(path, f"about[{i}].file", "missing or not a path")
        file = normalise_anchor_path(item["file"], path, f"about[{i}].file")
        symbol, digest = item.get("symbol"), item.get("hash")
        if symbol is not None and not isinstance(symbol, str):
            raise FactFileError(path, f"about[{i}].symbol", "must be text")
        if digest is not None and not isinstance(digest, str):
            raise FactFileError(path, f"about[{i}].hash", "must be text")
        anchors.append(Anchor(file=file, symbol=symbol, hash=digest))
    return tuple(anchors)


def normalise_anchor_path(file: str, path: str = "<input>", field: str = "about") -> str:
    """POSIX, relative, inside the project: `..` or absolute paths are refused."""
    posix = file.replace("\\", "/").strip()
    while posix.startswith("./"):
        posix = posix[2:]
    parts = [p for p in posix.split("/") if p not in ("", ".")]
    if not parts or posix.startswith("/") or ".." in parts or ":" in parts[0]:
        raise FactFileError(path, field, f"must be a path inside the project: {file!r}")
    return "/".join(parts)


def _parse_source(value: Any, path: str) -> Source:
    if value is None:
        return Source(origin="user")
    if not isinstance(value, dict):
        raise FactFileError(path, "source", "must be a mapping")
    origin = value.get("origin", "user")
    if origin not in ORIGINS:
        raise FactFileError(path, "source.origin", f"must be one of {', '.join(ORIGINS)}")

    def text(key: str) -> str | None:
        item = value.get(key)
        return None if item is None else str(item)

    return Source(origin=origin, session=text("session"), evidence=text("evidence"),
                  rule=text("rule"))


class _Confidence(float):
    """Marks the confidence so it renders with two decimals (0.70, not 0.7)."""


class _FlowList(list):
    """Tags render inline (`[http, retries]`), as people write them."""


class _FactDumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True  # `created` and `confirmed` are often equal: never emit &id001 anchors


# YAML reads these as line breaks (or refuses them) in plain and block scalars.
_NEEDS_QUOTES = frozenset("\x85\u2028\u2029\ufeff")


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    if any(ch in _NEEDS_QUOTES or (ord(ch) < 32 and ch not in "\n\t") for ch in value):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')
    return dumper.represent_str(value)


def _represent_flow_list(dumper: yaml.SafeDumper, value: _FlowList) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=True)


def _represent_confidence(dumper: yaml.SafeDumper, value: _Confidence) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:float", f"{value:.2f}")


def _represent_time(dumper: yaml.SafeDumper, value: datetime) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:timestamp", format_time(value))


_FactDumper.add_representer(_Confidence, _represent_confidence)
_FactDumper.add_representer(datetime, _represent_time)
_FactDumper.add_representer(_FlowList, _represent_flow_list)
_FactDumper.add_representer(str, _represent_str)


def fact_to_mapping(fact: Fact) -> dict[str, Any]:
    """Keys in the fixed order; unknown keys from the file kept after them."""
    data: dict[str, Any] = {
        "format": fact.format,
        "id": fact.id,
        "kind": fact.kind,
        "text": fact.text,
    }
    if fact.rationale is not None:
        data["rationale"] = fact.rationale
    data["about"] = [
        {k: v for k, v in (("file", a.file), ("symbol", a.symbol), ("hash", a.hash)) if v}
        for a in fact.about
    ]
    data["tags"] = _FlowList(fact.tags)
    if fact.topic is not None:
        data["topic"] = fact.topic
    src = fact.source
    data["source"] = {
        k: v
        for k, v in (("origin", src.origin), ("session", src.session),
                     ("evidence", src.evidence), ("rule", src.rule))
        if v is not None
    }
    data["created"] = fact.created
    data["confirmed"] = fact.confirmed
    data["confidence"] = _Confidence(fact.confidence / 100)
    data["status"] = fact.status
    data["superseded_by"] = fact.superseded_by
    for key, value in fact.extra:
        data.setdefault(key, value)
    return data


def render_fact(fact: Fact) -> str:
    return yaml.dump(
        fact_to_mapping(fact), Dumper=_FactDumper, sort_keys=False, allow_unicode=True,
        default_flow_style=False, width=100,
    )


def render_checked(fact: Fact) -> str:
    """The one write path's check: the text `render_fact` gives, or a KenningError if the
    reader would refuse it (over the size cap, not UTF-8, or a value out of range). Nothing
    is written before this passes, so a write can never leave a file no command can read."""
    raw = render_fact(fact)
    try:
        size = len(raw.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise KenningError("the fact holds bytes that are not UTF-8 text; nothing was "
                           "written") from exc
    if size > MAX_FILE_BYTES:
        raise KenningError(f"the fact would be {size} bytes, over the {MAX_FILE_BYTES // 1024} "
                           "KB a fact file may hold; shorten its text, rationale or tags "
                           "(nothing was written)")
    try:
        parse_fact(raw, f"{fact.id}.yaml")
    except FactFileError as exc:
        raise KenningError(f"{exc.field}: {exc.problem}; nothing was written") from exc
    return raw


def read_fact_file(path: Path) -> Fact:
    """Read and validate one fact file; the id must match the file name."""
    try:
        raw = read_text(path, MAX_FILE_BYTES)
    except FileNotFoundError as exc:
        raise FactFileError(display(path), "file", "missing") from exc
    except FileProblemError as exc:
        raise FactFileError(exc.path, exc.field, exc.problem) from exc
    fact = parse_fact(raw, display(path))
    if fact.id != path.stem:
        raise FactFileError(display(path), "id", f"{fact.id} does not match the file name")
    return fact
