"""Bring the index up to date with the fact files and the local event log.

Files are compared by (mtime, size) first and content hash second, so a `git pull` that
touches three facts costs three parses, and an unchanged tree costs one directory listing.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kenning.core.errors import FactFileError, FileProblemError
from kenning.core.paths import Project
from kenning.core.records import Fact
from kenning.core.safeio import display, read_bytes
from kenning.core.textutil import cjk_terms, identifier_terms, version_terms
from kenning.index.db import get_meta, set_meta, transaction
from kenning.store import events as eventlog
from kenning.store.events import FileTouch

if TYPE_CHECKING:
    from kenning.index.embed import Embedder

EmbedderFactory = Callable[[], "Embedder"]


@dataclass
class SyncReport:
    added: int = 0
    updated: int = 0
    removed: int = 0
    embedded: int = 0
    usage_events: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed or self.usage_events)


# Timestamps are coarse (a clock tick of a few ms; 1-2 s on some file systems): a file
# changed in the same tick as a sync leaves every mtime it could change equal. As git does for
# "racily clean" entries, anything this recent is not trusted to be unchanged.
RACY_NS = 2_000_000_000


def fact_dir_signature(project: Project) -> str:
    """Cheap freshness key: each store folder's mtime.

    Atomic writes and git checkouts both replace files, which changes the folder mtime. A
    folder changed in the last RACY_NS gets a key that matches nothing, so it is listed again.
    """
    parts = []
    now = time.time_ns()
    for _, directory in project.fact_dirs():
        try:
            mtime = os.stat(directory).st_mtime_ns
        except FileNotFoundError:
            parts.append("-")
            continue
        parts.append(str(mtime) if now - mtime > RACY_NS else f"racy@{now}")
    return "|".join(parts)


def _listing(project: Project) -> dict[str, tuple[str, int, int]]:
    """Fact file path -> (store, mtime, size). A name that is not UTF-8 is keyed by its
    escaped form (SQLite stores text as UTF-8) and reported, never read."""
    found: dict[str, tuple[str, int, int]] = {}
    for store, directory in project.fact_dirs():
        try:
            entries = list(os.scandir(directory))
        except (FileNotFoundError, NotADirectoryError):
            continue
        for entry in entries:
            if entry.name.endswith(".yaml") and not entry.name.startswith("."):
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                found[display(entry.path)] = (store, st.st_mtime_ns, st.st_size)
    return found


# What `fact_row` puts in the FTS `terms` column; a change re-indexes every fact row.
# 2: dotted numbers kept whole (textutil.version_terms). 3: CJK runs as character pairs.
FACT_TERMS_VERSION = "3"


def embed_text(fact: Fact) -> str:
    parts = [fact.text]
    if fact.rationale:
        parts.append(fact.rationale)
    if fact.tags:
        parts.append(" ".join(fact.tags))
    return " ".join(parts)


def fact_row(fact: Fact, path: str, store: str) -> dict[str, object]:
    from kenning.store.factfile import format_time

    anchors = " ".join(f"{a.file} {a.symbol or ''}" for a in fact.about)
    said = " ".join([fact.text, fact.rationale or "", anchors])
    terms = version_terms(said) + identifier_terms(said)
    terms += cjk_terms(" ".join([fact.text, fact.rationale or ""]))
    return {
        "id": fact.id, "kind": fact.kind, "text": fact.text, "rationale": fact.rationale or "",
        "tags": " ".join(fact.tags), "topic": fact.topic, "status": fact.status,
        "origin": fact.source.origin, "confidence": fact.confidence,
        "created": format_time(fact.created), "confirmed": format_time(fact.confirmed),
        "store": store, "path": path,
        "about": json.dumps([[a.file, a.symbol, a.hash] for a in fact.about]),
        "terms": " ".join(terms + [anchors]), "superseded_by": fact.superseded_by,
        "format": fact.format,
    }


def sync_facts(
    conn: sqlite3.Connection,
    project: Project,
    embedder_name: str,
    embedder_factory: EmbedderFactory,
    *,
    force_signature: bool = False,
) -> SyncReport:
    """Index changed fact files, drop vanished ones, embed what changed."""
    report = SyncReport()
    signature = fact_dir_signature(project)
    stale_terms = get_meta(conn, "fact_terms") != FACT_TERMS_VERSION
    if not force_signature and not stale_terms and get_meta(conn, "fact_signature") == signature:
        return report
    listing = _listing(project)
    known = {
        row["path"]: row
        for row in conn.execute("SELECT path, fact_id, mtime_ns, size, hash FROM fact_files")
    }
    if stale_terms:  # indexed by an older tokenisation: every fact row is written again
        known = {path: {**dict(row), "mtime_ns": None, "hash": None}
                 for path, row in known.items()}
    problems_before = {r[0] for r in conn.execute("SELECT path FROM problems")}
    to_embed: dict[str, str] = {}
    racy_after = time.time_ns() - RACY_NS
    with transaction(conn):
        _index_listing(conn, listing, known, problems_before, racy_after, report, to_embed)
        if get_meta(conn, "embedder") != embedder_name:
            to_embed.update(
                {r[0]: _embed_source(r) for r in conn.execute(
                    "SELECT id, text, rationale, tags FROM facts")}
            )
        if to_embed:
            embedder = embedder_factory()
            _store_vectors(conn, embedder, to_embed)
            report.embedded = len(to_embed)
            set_meta(conn, "embedder", embedder_name)
            set_meta(conn, "embedder_id", embedder.id)
            set_meta(conn, "embedder_dim", embedder.dim)
        set_meta(conn, "fact_signature", signature)
        set_meta(conn, "fact_terms", FACT_TERMS_VERSION)
        if report.changed or report.embedded:
            generation = int(get_meta(conn, "generation") or 0) + 1
            set_meta(conn, "generation", generation)
    report.problems = [
        f"{r[0]}: {r[1]}" for r in conn.execute("SELECT path, message FROM problems")
    ]
    return report


def _index_listing(conn: sqlite3.Connection, listing: dict[str, tuple[str, int, int]],
                   known: dict, problems_before: set[str], racy_after: int, report: SyncReport,
                   to_embed: dict[str, str]) -> None:
    """Drop vanished files, (re)index changed ones and forget problems of vanished files;
    a file changed after `racy_after` is hashed even when its stat looks unchanged."""
    # Removals first: a fact moved between stores is dropped, then indexed anew.
    for path, old in known.items():
        if path not in listing:
            _drop_file(conn, path, old["fact_id"])
            report.removed += 1
    for path, (store, mtime_ns, size) in listing.items():
        old = known.get(path)
        if old and old["mtime_ns"] == mtime_ns and old["size"] == size \
                and path not in problems_before and mtime_ns < racy_after:
            continue  # (a racily recent file is hashed: same size, new content)
        _index_file(conn, path, store, mtime_ns, size, old, report, to_embed)
    for path in problems_before - set(listing):
        conn.execute("DELETE FROM problems WHERE path = ?", (path,))


def _embed_source(row: sqlite3.Row) -> str:
    return " ".join(part for part in (row[1], row[2], row[3]) if part)


def _index_file(conn, path, store, mtime_ns, size, old, report, to_embed) -> None:
    # Imported here: a sync with nothing changed (every fresh search) needs no YAML parser.
    from kenning.store.factfile import MAX_FILE_BYTES, parse_fact

    problem: FileProblemError | None = None
    try:
        if "\\udc" in path and not os.path.lexists(path):  # `display` escaped the name
            raw, problem = b"", FactFileError(path, "file", "name is not UTF-8; rename it")
        else:
            raw = read_bytes(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        return
    except FileProblemError as exc:  # a symlink, a FIFO, a huge file: never read past the cap
        raw, problem = f"{exc.problem}".encode(), exc
    digest = hashlib.sha1(raw).hexdigest()
    if old and old["hash"] == digest:
        conn.execute(
            "UPDATE fact_files SET mtime_ns = ?, size = ? WHERE path = ?", (mtime_ns, size, path)
        )
        return
    try:
        if problem is not None:
            raise problem
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise FactFileError(path, "file", "not UTF-8") from exc
        fact = parse_fact(text, path)
        if fact.id != Path(path).stem:
            raise FactFileError(path, "id", f"{fact.id} does not match the file name")
    except FileProblemError as exc:
        if old and old["fact_id"]:
            _drop_fact(conn, old["fact_id"])
        conn.execute(
            "INSERT OR REPLACE INTO fact_files(path, fact_id, mtime_ns, size, hash) "
            "VALUES (?, NULL, ?, ?, ?)", (path, mtime_ns, size, digest),
        )
        conn.execute(
            "INSERT OR REPLACE INTO problems(path, message) VALUES (?, ?)", (path, str(exc))
        )
        return
    conn.execute("DELETE FROM problems WHERE path = ?", (path,))
    row = fact_row(fact, path, store)
    existing = conn.execute(
        "SELECT id, text, rationale, tags FROM facts WHERE id = ?", (fact.id,)
    ).fetchone()
    columns = ", ".join(row)
    marks = ", ".join("?" for _ in row)
    # Delete then insert: REPLACE would skip the FTS delete trigger.
    conn.execute("DELETE FROM facts WHERE id = ?", (fact.id,))
    conn.execute(f"INSERT INTO facts({columns}) VALUES ({marks})", list(row.values()))
    conn.execute(
        "INSERT OR REPLACE INTO fact_files(path, fact_id, mtime_ns, size, hash) "
        "VALUES (?, ?, ?, ?, ?)", (path, fact.id, mtime_ns, size, digest),
    )
    source = embed_text(fact)
    if existing is None:
        report.added += 1
        to_embed[fact.id] = source
    else:
        report.updated += 1
        if _embed_source(existing) != source:
            to_embed[fact.id] = source


def _drop_file(conn: sqlite3.Connection, path: str, fact_id: str | None) -> None:
    conn.execute("DELETE FROM fact_files WHERE path = ?", (path,))
    conn.execute("DELETE FROM problems WHERE path = ?", (path,))
    if fact_id:
        _drop_fact(conn, fact_id)


def _drop_fact(conn: sqlite3.Connection, fact_id: str) -> None:
    conn.execute("DELETE FROM facts WHERE id = ?", (fact_id,))
    conn.execute("DELETE FROM fact_vectors WHERE id = ?", (fact_id,))


def _store_vectors(conn: sqlite3.Connection, embedder: Embedder, texts: dict[str, str]) -> None:
    ids = list(texts)
    batch = 512
    for start in range(0, len(ids), batch):
        chunk = ids[start:start + batch]
        vectors = embedder.encode([texts[i] for i in chunk])
        conn.executemany(
            "INSERT OR REPLACE INTO fact_vectors(id, vec) VALUES (?, ?)",
            [(fid, vectors[n].astype("float32").tobytes()) for n, fid in enumerate(chunk)],
        )


def replay_usage(conn: sqlite3.Connection, events_path: Path) -> int:
    """Fold `use` events since the last offset into the usage table (last_used, uses).

    The event log is the truth; the usage table is its fold, so deleting the index
    loses no `last_used`.
    """
    offset = int(get_meta(conn, "events_offset") or 0)
    try:
        size = events_path.stat().st_size
    except FileNotFoundError:
        size = 0
    if size < offset:  # the log was replaced or purged: replay from the start
        conn.execute("DELETE FROM usage")
        conn.execute("DELETE FROM file_activity")
        offset = 0
    events, new_offset = eventlog.read_from(events_path, offset)
    _fold_activity(conn, eventlog.file_touches(events))
    count = 0
    for event in events:
        ts, ids = event.ts, event.data.get("facts")
        if event.type != "use" or not ts or not isinstance(ids, list):
            continue
        stamp = ts[:19] + "Z"
        for fact_id in ids:
            conn.execute(
                "INSERT INTO usage(fact_id, last_used, uses) VALUES (?, ?, 1) "
                "ON CONFLICT(fact_id) DO UPDATE SET uses = uses + 1, "
                "last_used = max(last_used, excluded.last_used)",
                (str(fact_id), stamp),
            )
        count += 1
    if new_offset != offset:
        set_meta(conn, "events_offset", new_offset)
    return count


def _fold_activity(conn: sqlite3.Connection, touches: Iterable[FileTouch]) -> None:
    for touch in touches:
        if touch.ts:
            conn.execute(
                "INSERT INTO file_activity(path, day, count) VALUES (?, ?, 1) "
                "ON CONFLICT(path, day) DO UPDATE SET count = count + 1",
                (touch.path, touch.ts[:10]),
            )
