"""Opening the index: WAL, a busy timeout, schema checks, and recovery from corruption.

Reads use plain sqlite3 (cheap to import); sqlite_utils is imported only to create or
migrate the schema and for bulk writes.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

BUSY_TIMEOUT_MS = 10_000
# Bump with every new migration in migrations.py (kept here so reads need no sqlite_utils).
SCHEMA_VERSION = 4


class IndexUnavailable(Exception):
    """The index file exists but cannot be used as is."""


def connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


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
    """Apply pending named migrations (imports sqlite_utils, so only when needed)."""
    from sqlite_utils import Database

    from .migrations import migrations

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
    from ..locks import exclusive_lock

    with exclusive_lock(path.with_name(path.name + ".lock")):
        if conn is not None:
            state = schema_state(conn)  # another process may have migrated it meanwhile
        else:
            conn, state = _probe(path)  # ... or rebuilt it
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
        return conn, schema_state(conn)
    except sqlite3.DatabaseError as exc:
        if conn is not None:
            conn.close()
        if (getattr(exc, "sqlite_errorname", None) or "").startswith(
                ("SQLITE_BUSY", "SQLITE_LOCKED")):
            raise  # busy is not damaged: never throw a good index away
        return None, "corrupt"


def discard(path: Path) -> None:
    """Remove the index and its WAL and shared-memory files."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            Path(str(path) + suffix).unlink()
        except FileNotFoundError:
            pass
