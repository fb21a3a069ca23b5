"""Opening the index: WAL, a busy timeout, schema checks, and recovery from corruption.

Reads use plain sqlite3 (cheap to import); sqlite_utils is imported only to create or
migrate the schema and for bulk writes.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kenning.core.errors import KenningError

BUSY_TIMEOUT_MS = 10_000
# Bump with every new migration in migrations.py (kept here so reads need no sqlite_utils).
SCHEMA_VERSION = 4


def connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():  # private like the other local files (it holds the facts' text)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    _set_wal(conn)
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def _set_wal(conn: sqlite3.Connection) -> None:
    """WAL mode, waiting for it as for any lock: SQLite reports a journal-mode change that
    meets another connection's lock as "locked" at once, without its busy handler (processes
    opening a new index at once hit this)."""
    import time

    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


class IndexQueryError(KenningError):
    """A read of the index failed: the file is busy, damaged or unreadable (never an empty
    result: a search that could not run is not a knowledge gap)."""


def is_query_syntax_error(exc: sqlite3.OperationalError) -> bool:
    """FTS5 rejected the MATCH expression itself (the query's text), the one expected error."""
    text = str(exc)
    return text.startswith(("fts5: syntax error", "unterminated string"))


def query_failed(exc: sqlite3.OperationalError) -> IndexQueryError:
    """The error to raise for a failed index read, saying what to do next."""
    if "locked" in str(exc) or "busy" in str(exc):
        return IndexQueryError(f"the index is busy ({exc}); try again in a moment")
    return IndexQueryError(f"the index could not be searched ({exc}); run `kenning rebuild` "
                           "to build it again from the fact files")


def match_rows(conn: sqlite3.Connection, sql: str, params: tuple) -> list:
    """Rows of an FTS5 MATCH query; a MATCH expression FTS5 rejects (the query's own text)
    matches nothing, any other failure is a `query_failed` error."""
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.OperationalError as exc:
        if is_query_syntax_error(exc):
            return []
        raise query_failed(exc) from exc


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction: `BEGIN IMMEDIATE` (the write lock up front, so a busy index
    waits at the start rather than failing half-way), committed on success, rolled back on
    any exception (KeyboardInterrupt included)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    except sqlite3.OperationalError:
        return None
    return None if row is None else row[0]


def set_meta(conn: sqlite3.Connection, key: str, value: object) -> None:
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, str(value)),
    )


def migrate(conn: sqlite3.Connection) -> None:
    """Apply pending named migrations; a new, empty file is given the schema script they
    amount to (index/schema.py), without importing sqlite_utils."""
    from kenning.index.schema import create

    empty = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
    if empty and create(conn, SCHEMA_VERSION):
        set_meta(conn, "schema_version", SCHEMA_VERSION)
        return
    migrate_with_sqlite_utils(conn)


def migrate_with_sqlite_utils(conn: sqlite3.Connection) -> None:
    """Apply pending named migrations (imports sqlite_utils, so only when needed)."""
    from sqlite_utils import Database

    from kenning.index.migrations import migrations

    db = Database(conn)
    migrations.apply(db)
    set_meta(conn, "schema_version", SCHEMA_VERSION)


def schema_state(conn: sqlite3.Connection) -> str:
    """'current', 'missing' (needs migrating) or 'newer' (written by newer code: read-only)."""
    value = get_meta(conn, "schema_version")
    if value is None:
        return "missing"
    version = int(value)
    if version > SCHEMA_VERSION:
        return "newer"
    return "current" if version == SCHEMA_VERSION else "missing"


def is_writable(conn: sqlite3.Connection) -> bool:
    """False for an index a newer kenning wrote: its schema is not ours to change."""
    return schema_state(conn) != "newer"


def ensure_writable(conn: sqlite3.Connection) -> None:
    """The one guard every writer calls before its first write (sync skips silently instead).

    Asked of the file, not remembered from the open: a long-lived process may hold a
    connection to a file a newer kenning has since migrated.
    """
    if not is_writable(conn):
        path = conn.execute("PRAGMA database_list").fetchone()[2]
        raise KenningError(f"the index at {path} was written by a newer kenning; upgrade "
                           "kenning, or `kenning rebuild` to start over")


def open_index(path: Path) -> tuple[sqlite3.Connection, bool]:
    """An index connection ready for use, and whether it may be written.

    A truncated or garbage file is moved aside and rebuilt, with a one-line notice: the
    index is derived, so nothing is lost. Creating, migrating and discarding happen under a
    file lock, so processes opening a new index at once (hooks' catch-up, the CLI, the MCP
    server) do not race on its schema.
    """
    conn, state = _probe(path)
    if state in ("current", "newer"):
        return conn, state == "current"  # type: ignore[return-value]
    from kenning.core.locks import exclusive_lock

    with exclusive_lock(lock_path(path)):
        # Look again under the lock: another process may have migrated the file meanwhile,
        # rebuilt it, or thrown it away and started a new one.
        if conn is not None:
            conn.close()
        conn, state = _probe(path)
        if conn is None:
            discard(path)
            print(f"kenning: the index at {path} was unreadable; rebuilding it",
                  file=sys.stderr)
            conn, state = connect(path), "missing"
        if state == "missing":
            migrate(conn)
    return conn, state != "newer"


def _probe(path: Path) -> tuple[sqlite3.Connection | None, str]:
    """A connection and its schema state, or (None, 'corrupt')."""
    conn = None
    try:
        conn = connect(path)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        if _shorter_than_its_header(conn, path):  # SQLite reads missing pages as zeros, silently
            quick = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
            if quick != "ok":
                raise sqlite3.DatabaseError(f"truncated ({quick})")
        return conn, schema_state(conn)
    except sqlite3.DatabaseError as exc:
        if conn is not None:
            conn.close()
        if not (is_damaged(exc) or str(exc).startswith("truncated")):
            # busy, a full disk, a read-only file: not damaged, never throw a good index away
            raise
        return None, "corrupt"


def _shorter_than_its_header(conn: sqlite3.Connection, path: Path) -> bool:
    """The file holds fewer pages than its header counts: cut short by a copy or a full disk.

    Only a suspicion, which `quick_check` then settles. Sizes come from `stat` and SQLite:
    opening the file here would drop SQLite's POSIX locks in this process (closing any
    descriptor of a file releases them all) and corrupt it under concurrent writers. With
    frames waiting in the WAL the database may rightly be larger than its file: no check.
    """
    try:
        size = os.stat(path).st_size
        wal = os.stat(str(path) + "-wal").st_size if os.path.exists(str(path) + "-wal") else 0
    except OSError:
        return False
    if wal:
        return False
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    return size < pages * conn.execute("PRAGMA page_size").fetchone()[0]


def is_damaged(exc: BaseException) -> bool:
    """An error saying the index file itself is broken (not busy, not a query bug)."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    name = getattr(exc, "sqlite_errorname", None) or ""
    text = str(exc)
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or any(
        marker in text for marker in ("malformed", "not a database", "vtable constructor"))


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def throw_away(path: Path) -> None:
    """`discard` under the schema lock, so never in the middle of another process's
    migration (processes with the old file open notice the new one at their next sync)."""
    from kenning.core.locks import exclusive_lock

    with exclusive_lock(lock_path(path)):
        discard(path)


def discard(path: Path) -> None:
    """Remove the index, its WAL and shared-memory files, and the chunk-vector cache."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            Path(str(path) + suffix).unlink()
        except FileNotFoundError:
            pass
    for cache in path.parent.glob("chunk-vectors-*.npz"):
        cache.unlink(missing_ok=True)
