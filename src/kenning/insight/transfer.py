"""Facts in and out: `kenning export` (json, csv, md) and `kenning import` of Claude Code's
auto-memory files.

Claude Code keeps auto memory in `~/.claude/projects/<slug>/memory/` (`$CLAUDE_CONFIG_DIR`
instead of `~/.claude` when set; `<slug>` is the project path with every character that is
not a letter or digit turned into `-`): a `MEMORY.md` index plus one note per file, with YAML
frontmatter (`name`, `description`, `type` — at the top level or under `metadata:`).

| memory type | fact kind   | store                                   |
|-------------|-------------|-----------------------------------------|
| user        | interaction | personal (one person's preferences)     |
| feedback    | interaction | personal                                |
| project     | decision    | project store once `kenning init` ran   |
| reference   | codebase    | project store once `kenning init` ran   |

Imported facts have origin `import` (confidence 0.70, like anything not said by a person),
tags `claude-memory` and the type, and topic `claude-memory/<name>`: re-importing a note
whose text changed supersedes the old fact. A note whose text is already known (any status,
so a forgotten import is not resurrected) is skipped without touching the existing fact, so
importing the same folder twice adds nothing.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kenning.core.errors import KenningError

if TYPE_CHECKING:
    from kenning.index.facts import FactView
    from kenning.lifecycle.writes import FactWriter

FORMATS = ("json", "csv", "md")
TYPE_TO_KIND = {"user": "interaction", "feedback": "interaction", "project": "decision",
                "reference": "codebase"}
MAX_NOTE_BYTES = 64 * 1024
MAX_TEXT_CHARS = 2000
INDEX_FILE = "MEMORY.md"
CSV_COLUMNS = ("id", "kind", "status", "confidence", "text", "rationale", "tags", "topic",
               "about", "origin", "store", "created", "confirmed", "last_used")

_WHY = re.compile(r"^\s*(?:[-*]\s*)?\**\s*why\s*:?\s*\**\s*:?\s*(.*)$", re.IGNORECASE)
_WIKI = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")


# ---- export -------------------------------------------------------------------------------
def fact_record(view: FactView) -> dict[str, Any]:
    row = view.row
    return {
        "id": row.id, "kind": row.kind, "status": view.status,
        "confidence": view.current / 100, "text": row.text, "rationale": row.rationale or None,
        "tags": list(row.tags), "topic": row.topic,
        "about": [{"file": a.file, "symbol": a.symbol} for a in row.about],
        "origin": row.origin, "store": row.store,
        "created": _iso(row.created), "confirmed": _iso(row.confirmed),
        "last_used": _iso(row.last_used),
    }


def select(views: Iterable[FactView], statuses: Iterable[str] | None = ("active",)) -> list:
    """Facts with one of `statuses` (effective status; None for all), oldest first."""
    wanted = set(statuses) if statuses is not None else None
    chosen = [v for v in views if wanted is None or v.status in wanted]
    chosen.sort(key=lambda v: (v.row.created, v.row.id))
    return chosen


def export(views: Sequence[FactView], fmt: str, title: str = "kenning facts") -> str:
    """Render facts as JSON (a list), CSV (one row per fact) or Markdown (by kind)."""
    records = [fact_record(v) for v in views]
    if fmt == "json":
        return json.dumps(records, ensure_ascii=False, indent=1) + "\n"
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
        writer.writeheader()
        for rec in records:
            flat = dict(rec)
            flat["tags"] = " ".join(rec["tags"])
            flat["about"] = ";".join(a["file"] + (f":{a['symbol']}" if a["symbol"] else "")
                                     for a in rec["about"])
            writer.writerow({k: "" if flat[k] is None else flat[k] for k in CSV_COLUMNS})
        return buffer.getvalue()
    if fmt == "md":
        return _markdown(records, title)
    raise KenningError(f"unknown export format {fmt!r}; use one of: {', '.join(FORMATS)}")


def _markdown(records: list[dict[str, Any]], title: str) -> str:
    lines = [f"# {title}", "", f"{len(records)} facts.", ""]
    from kenning.core.records import KINDS

    for kind in KINDS:
        group = [r for r in records if r["kind"] == kind]
        if not group:
            continue
        lines += [f"## {kind} ({len(group)})", ""]
        for rec in group:
            meta = [f"{rec['confidence']:.2f}", rec["status"], f"`{rec['id']}`"]
            if rec["about"]:
                meta.append(", ".join(f"`{a['file']}`" for a in rec["about"]))
            if rec["tags"]:
                meta.append(" ".join(f"#{t}" for t in rec["tags"]))
            lines.append(f"- {_md_escape(rec['text'])} — {'; '.join(meta)}")
            if rec["rationale"]:
                lines.append(f"  - why: {_md_escape(rec['rationale'])}")
        lines.append("")
    return "\n".join(lines)


def _md_escape(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>|])", r"\\\1", text)


def _iso(value) -> str | None:
    if value is None:
        return None
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")


# ---- import: Claude Code auto memory ------------------------------------------------------
@dataclass(frozen=True)
class MemoryNote:
    path: Path
    name: str
    type: str
    description: str
    body: str

    @property
    def kind(self) -> str:
        return TYPE_TO_KIND[self.type]


@dataclass(frozen=True)
class ImportItem:
    path: str
    action: str  # added | duplicate | skipped (| would-add in a dry run)
    kind: str | None = None
    fact_id: str | None = None
    text: str | None = None
    reason: str | None = None


@dataclass
class ImportReport:
    source: Path
    dry_run: bool
    items: list[ImportItem] = field(default_factory=list)

    def count(self, action: str) -> int:
        return sum(1 for item in self.items if item.action == action)


def project_slug(root: Path) -> str:
    return re.sub(r"[^A-Za-z0-9]", "-", str(root))


def claude_memory_dir(root: Path, env: dict[str, str] | None = None) -> Path:
    """Where Claude Code keeps auto memory for the project at `root`."""
    env = dict(os.environ) if env is None else env
    base = Path(env["CLAUDE_CONFIG_DIR"]).expanduser() if env.get("CLAUDE_CONFIG_DIR") \
        else Path.home() / ".claude"
    return base / "projects" / project_slug(root) / "memory"


def split_frontmatter(text: str) -> tuple[dict[str, Any], str] | None:
    """YAML frontmatter and body, or None when the file has no frontmatter."""
    import yaml

    text = text.lstrip("\ufeff")
    match = re.match(r"^---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|$)", text, re.DOTALL)
    if not match:
        return None
    try:
        data = yaml.safe_load(match.group(1)) or {}
    except yaml.YAMLError as exc:
        raise KenningError(f"bad frontmatter: {exc}") from exc
    if not isinstance(data, dict):
        raise KenningError("frontmatter is not a mapping")
    return data, text[match.end():]


def parse_note(path: Path) -> MemoryNote:
    """One auto-memory file; raises KenningError saying why it cannot be imported."""
    try:
        if path.stat().st_size > MAX_NOTE_BYTES:
            raise KenningError(f"larger than {MAX_NOTE_BYTES} bytes")
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise KenningError(f"unreadable ({exc})") from exc
    parsed = split_frontmatter(raw)
    if parsed is None:
        raise KenningError("no frontmatter (not an auto-memory note)")
    data, body = parsed
    metadata = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    kind = str(data.get("type") or metadata.get("type") or "").strip().lower()
    if kind not in TYPE_TO_KIND:
        raise KenningError(f"type {kind or '(missing)'!r} is not one of "
                           f"{', '.join(TYPE_TO_KIND)}")
    return MemoryNote(path, str(data.get("name") or path.stem).strip(), kind,
                      " ".join(str(data.get("description") or "").split()), body)


def note_fact(note: MemoryNote) -> tuple[str, str | None]:
    """(text, rationale): the body without markdown noise; a `Why:` line becomes the rationale."""
    rationale = None
    kept = []
    for line in note.body.splitlines():
        why = _WHY.match(line)
        if why and why.group(1).strip() and rationale is None:
            rationale = _plain(why.group(1))
            continue
        if line.strip().startswith("#") and not kept:
            continue  # a leading heading repeats the name
        kept.append(line)
    text = _plain(" ".join(kept)) or note.description
    return text[:MAX_TEXT_CHARS], rationale


def _plain(text: str) -> str:
    text = _WIKI.sub(lambda m: m.group(2) or m.group(1), text)
    text = re.sub(r"\*\*|__", "", text)
    return " ".join(text.split())


def note_files(source: Path) -> list[Path]:
    if source.is_file():
        return [source]
    if not source.is_dir():
        raise KenningError(f"no Claude Code memory at {source}; pass the memory folder: "
                           "`kenning import PATH`")
    return sorted(p for p in source.glob("*.md") if p.is_file())


def import_claude_memory(
    memory: FactWriter, source: Path | None = None, *, dry_run: bool = False
) -> ImportReport:
    """Import auto-memory notes as facts (origin `import`), skipping what is already known."""
    from kenning.core.records import Source
    from kenning.core.redact import redact
    from kenning.lifecycle.dedup import find_duplicate

    source = source or claude_memory_dir(memory.project.root)
    report = ImportReport(source, dry_run)
    pool: list[_Known] = [_Known(v.row.id, v.row.text) for v in memory.fact_index.views()]
    for path in note_files(source):
        if path.name == INDEX_FILE:
            report.items.append(ImportItem(str(path), "skipped", reason="the index file"))
            continue
        try:
            note = parse_note(path)
        except KenningError as exc:
            report.items.append(ImportItem(str(path), "skipped", reason=str(exc)))
            continue
        text, rationale = note_fact(note)
        text = " ".join(redact(text).split())  # compare as it would be stored
        if not text:
            report.items.append(ImportItem(str(path), "skipped", note.kind, reason="empty"))
            continue
        duplicate = find_duplicate(text, pool)
        if duplicate is not None:
            report.items.append(ImportItem(str(path), "duplicate", note.kind, duplicate, text))
            continue
        if dry_run:
            report.items.append(ImportItem(str(path), "would-add", note.kind, None, text))
            pool.append(_Known(f"new:{path.name}", text))
            continue
        result = memory.add(
            text, note.kind, origin="import", rationale=rationale,
            tags=("claude-memory", note.type), topic=f"claude-memory/{note.name}",
            source=Source(origin="import", evidence=path.name, rule=f"claude-memory:{note.type}"),
        )
        action = "added" if result.created else "duplicate"
        report.items.append(ImportItem(str(path), action, note.kind, result.fact.id, text))
        pool.append(_Known(result.fact.id, result.fact.text))
    return report


@dataclass(frozen=True)
class _Known:
    id: str
    text: str
