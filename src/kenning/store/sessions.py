"""Saved session files: the `save` skill's structured record, kept as
`<sessions_dir>/<name>.yaml`, and the latest one's summary cached for SessionStart.

A saved session is what the agent (or a person) says the session was about: a summary, the
decisions, constraints and assumptions, blockers, pending tasks and files touched. It lives
next to the facts (`.kenning/sessions/` once the project is initialised, else the personal
store) so it travels with the branch. This module validates, renders, reads and writes those
files; turning a save into facts is `kenning.extract.sessions`. Every text is redacted before
it is written; files are written atomically.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

from kenning.core.atomic import write_atomic
from kenning.core.errors import FileProblemError, KenningError, NotFoundError
from kenning.core.paths import Project
from kenning.core.private import strip_private
from kenning.core.redact import redact
from kenning.core.safeio import display
from kenning.store.factfile import format_time, parse_time
from kenning.store.yamlio import parse_yaml, read_yaml

FORMAT = 1
LIST_FIELDS = ("decisions", "constraints", "assumptions", "blockers", "pending_tasks",
               "files_touched")
FIELDS = ("name", "summary", *LIST_FIELDS)
MAX_ITEMS = 100
MAX_ITEM_CHARS = 2000
MAX_SUMMARY_CHARS = 4000
MAX_FILE_BYTES = 512 * 1024
RECENT_WINDOW = timedelta(hours=72)
# DESIGN §4.3: words that mark a session worth more than its fields alone say.
HIGH_VALUE = ("invalidates if", "do not retry", "failed because", "tried:", "blocked",
              "security", "compliance")
# Which fact each list yields: (field, fact kind, tag).
FACT_FIELDS = (("decisions", "decision", None), ("constraints", "codebase", "constraint"),
               ("assumptions", "codebase", "assumption"))
SUMMARY_NAME = "last-session.json"  # in the project's local folder; SessionStart reads it
_BECAUSE = re.compile(r",?\s+(?:because|since|as)\s+", re.I)


@dataclass(frozen=True)
class Item:
    """One entry of a list field; decisions may carry a rationale."""

    text: str
    rationale: str | None = None


@dataclass
class SavedSession:
    name: str
    saved: datetime
    summary: str
    value: float
    session: str | None = None
    lists: dict[str, list[Item]] = field(default_factory=dict)
    facts: list[str] = field(default_factory=list)


# --- parsing and validation ------------------------------------------------------------------


def parse_input(text: str) -> dict[str, Any]:
    """The fields of a save, from YAML or JSON text (what `kenning save` reads on stdin)."""
    if not text.strip():
        raise KenningError("nothing on stdin; pipe YAML or JSON with at least a summary")
    try:
        data = json.loads(text)
    except ValueError:
        try:
            data = parse_yaml(text, "stdin")
        except FileProblemError as exc:
            raise KenningError(f"stdin is neither JSON nor YAML ({exc.problem})") from exc
    if not isinstance(data, dict):
        raise KenningError("the session must be a mapping with keys: " + ", ".join(FIELDS))
    return data


def _text(value: Any, where: str, limit: int = MAX_ITEM_CHARS) -> str:
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise KenningError(f"{where}: expected text, got {type(value).__name__}")
    try:
        str(value).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise KenningError(f"{where}: holds bytes that are not UTF-8 text") from exc
    cleaned = " ".join(redact(strip_private(str(value))).split())
    if len(cleaned) > limit:
        raise KenningError(f"{where}: longer than {limit} characters; shorten it")
    return cleaned


def _items(name: str, value: Any) -> list[Item]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise KenningError(f"{name}: expected a list of sentences")
    if len(value) > MAX_ITEMS:
        raise KenningError(f"{name}: more than {MAX_ITEMS} entries")
    out: list[Item] = []
    for n, entry in enumerate(value):
        where = f"{name}[{n}]"
        if isinstance(entry, dict):
            text = entry.get("text") or entry.get("decision")
            why = entry.get("rationale") or entry.get("why")
            item = Item(_text(text, where), _text(why, f"{where}.rationale") if why else None)
        else:
            item = Item(_text(entry, where))
        if item.text:
            out.append(item)
    return out


def _split_rationale(item: Item) -> Item:
    """"Use X, because Y" -> text "Use X", rationale "Y" (the save skill asks for that)."""
    if item.rationale:
        return item
    parts = _BECAUSE.split(item.text, maxsplit=1)
    if len(parts) == 2 and len(parts[0].split()) >= 3 and len(parts[1].split()) >= 2:
        return Item(parts[0].rstrip(" ,;") + ".", parts[1][0].upper() + parts[1][1:])
    return item


def slug(text: str, limit: int = 60) -> str:
    """Lower-case words joined by '-', cut at a word boundary within `limit` characters."""
    out = ""
    for word in re.sub(r"[^a-z0-9]+", " ", text.lower()).split():
        if out and len(out) + 1 + len(word) > limit:
            break
        out = f"{out}-{word}" if out else word[:limit]
    return out


def validate(fields: Mapping[str, Any], now: datetime, session: str | None = None
             ) -> SavedSession:
    """A `SavedSession` from raw fields; redacted, with its value score and a safe name."""
    unknown = sorted(set(fields) - set(FIELDS) - {"session"})
    if unknown:
        raise KenningError(f"unknown field(s) {', '.join(unknown)}; use: {', '.join(FIELDS)}")
    summary = _text(fields.get("summary") or "", "summary", MAX_SUMMARY_CHARS)
    if not summary:
        raise KenningError("summary is required: 2-4 sentences on the goal, what was done "
                           "and where it stands")
    lists = {name: _items(name, fields.get(name)) for name in LIST_FIELDS}
    lists["decisions"] = [_split_rationale(i) for i in lists["decisions"]]
    raw_name = fields.get("name")
    name = slug(_text(raw_name, "name", 200)) if raw_name else ""
    if not name:
        name = f"{now:%Y%m%d-%H%M}-{slug(summary, 32)}".rstrip("-")
    session = session or fields.get("session")
    record = SavedSession(name=name, saved=now, summary=summary, value=0.0,
                          session=_text(session, "session", 200) if session else None,
                          lists=lists)
    record.value = value_score(record)
    return record


def value_score(record: SavedSession) -> float:
    """DESIGN §4.3 (the seed's scale): 0.9 for high-value words, 0.85 with constraints or
    blockers, 0.7 with decisions or assumptions, else 0.5."""
    texts = [record.summary] + [
        t for items in record.lists.values() for i in items for t in (i.text, i.rationale or "")
    ]
    blob = " ".join(texts).lower()
    if any(marker in blob for marker in HIGH_VALUE):
        return 0.9
    if record.lists.get("constraints") or record.lists.get("blockers"):
        return 0.85
    if record.lists.get("decisions") or record.lists.get("assumptions"):
        return 0.7
    return 0.5


# --- files --------------------------------------------------------------------------------


def to_mapping(record: SavedSession) -> dict[str, Any]:
    data: dict[str, Any] = {"format": FORMAT, "name": record.name,
                            "saved": format_time(record.saved), "session": record.session,
                            "value": record.value, "summary": record.summary}
    for name in LIST_FIELDS:
        data[name] = [{"text": i.text, "rationale": i.rationale} if i.rationale else i.text
                      for i in record.lists.get(name, [])]
    data["facts"] = list(record.facts)
    return data


def render(record: SavedSession) -> str:
    """The file's text; refused (before anything is written) if the reader would refuse it."""
    text = yaml.safe_dump(to_mapping(record), sort_keys=False, allow_unicode=True, width=100,
                          default_flow_style=False)
    size = len(text.encode("utf-8"))
    # Each fact id the save adds costs a line: keep room for one per list item.
    room = 32 * sum(len(record.lists.get(n, [])) for n, _, _ in FACT_FIELDS)
    if size + room > MAX_FILE_BYTES:
        raise KenningError(f"the saved session would be {size} bytes, over the "
                           f"{MAX_FILE_BYTES // 1024} KB a session file may hold; shorten it")
    try:
        parse_yaml(text, "the saved session")
    except FileProblemError as exc:  # e.g. text that is not UTF-8 (a lone surrogate)
        raise KenningError(f"the saved session {exc.problem}; nothing was written") from exc
    return text


def llm_input(record: SavedSession) -> str:
    """What the LLM extractor reads: the record's words, without ids or bookkeeping."""
    data = {k: v for k, v in to_mapping(record).items()
            if k not in ("format", "saved", "session", "value", "facts") and v}
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def _from_mapping(data: Any, path: Path) -> SavedSession:
    where = display(path)
    if not isinstance(data, dict) or not isinstance(data.get("summary"), str):
        raise FileProblemError(where, "summary", "missing; not a saved session")
    try:
        lists = {name: _items(name, data.get(name)) for name in LIST_FIELDS}
    except KenningError as exc:
        raise FileProblemError(where, "lists", str(exc)) from exc
    value = data.get("value")
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise FileProblemError(where, "name", "must be text")
    return SavedSession(
        name=name or path.stem,
        saved=parse_time(data.get("saved"), where, "saved"),
        summary=data["summary"],
        value=float(value) if isinstance(value, int | float) and 0 <= value <= 1 else 0.5,
        session=data.get("session") if isinstance(data.get("session"), str) else None,
        lists=lists,
        facts=[str(f) for f in data.get("facts") or [] if isinstance(f, str)],
    )


def read_session(path: Path) -> SavedSession:
    """One saved session through the read path (regular file, size cap, no aliases)."""
    try:
        data = read_yaml(path, MAX_FILE_BYTES)
    except FileNotFoundError as exc:
        raise FileProblemError(display(path), "file", "missing") from exc
    return _from_mapping(data, path)


def session_dirs(project: Project) -> list[Path]:
    """Where saved sessions are read from: the project store first, then the personal one."""
    dirs = [project.sessions_dir]
    if project.personal_sessions_dir not in dirs:
        dirs.append(project.personal_sessions_dir)
    return dirs


def all_sessions(project: Project) -> tuple[list[SavedSession], list[str]]:
    """Every readable saved session (one per name, project store first) and the problems."""
    found: dict[str, SavedSession] = {}
    problems: list[str] = []
    for directory in session_dirs(project):
        if directory.is_symlink():  # never follow a committed folder out of the project
            problems.append(f"{display(directory)}: is a symlink; not read")
            continue
        for path in sorted(directory.glob("*.yaml")) if directory.is_dir() else ():
            if path.name.startswith("."):
                continue
            try:
                record = read_session(path)
            except KenningError as exc:
                problems.append(str(exc))
                continue
            found.setdefault(record.name, record)
    return sorted(found.values(), key=lambda r: r.saved, reverse=True), problems


def find_sessions(project: Project, name: str | None = None,
                  problems: list[str] | None = None) -> list[SavedSession]:
    """The named session, or the latest ones: every session saved within 72 hours of the
    newest, newest first. Files that could not be read are added to `problems`."""
    records, found = all_sessions(project)
    if problems is not None:
        problems.extend(found)
    if name is not None:
        wanted = slug(name) or name
        for record in records:
            if record.name in (name, wanted):
                return [record]
        raise NotFoundError(f"no saved session named {name!r}; `kenning sessions` lists them")
    if not records:
        return []
    newest = records[0].saved
    return [r for r in records if newest - r.saved <= RECENT_WINDOW]


def write_session(project: Project, record: SavedSession) -> Path:
    """Write (or rewrite) `<sessions_dir>/<name>.yaml`; returns its path."""
    path = session_path(project, record)
    write_atomic(path, render(record))
    return path


def session_path(project: Project, record: SavedSession) -> Path:
    return project.sessions_dir / f"{record.name}.yaml"


def latest_summary(project: Project) -> dict[str, Any] | None:
    """The newest saved session's name and summary (what SessionStart shows), or None."""
    records, _ = all_sessions(project)
    if not records:
        return None
    r = records[0]
    return {"name": r.name, "summary": r.summary, "saved": format_time(r.saved),
            "value": r.value}


def cache_latest_summary(project: Project) -> None:
    """Write `last-session.json`, what SessionStart (stdlib, no YAML) shows as the last saved
    session; the only writer of that file."""
    summary = latest_summary(project)
    if summary:
        write_atomic(project.local_dir / SUMMARY_NAME, json.dumps(summary, ensure_ascii=False))
