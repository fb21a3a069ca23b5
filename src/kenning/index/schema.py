"""A new index's schema in one script (`schema.sql`): what the named migrations build.

Opening a new index is the fixed cost of every first `kenning index`, and the migrations need
sqlite_utils, whose import (with numpy, dateutil and its plugins) cost more than the rest of a
small project's indexing. An empty file is given this script instead, with the migrations
recorded as applied, so later ones apply as usual. A test builds an index both ways and
compares them. After adding a migration, regenerate the script with
`python scripts/schema_sql.py`; until then a new index is migrated the slow way, since the
script's version no longer matches `db.SCHEMA_VERSION`.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

SCRIPT_PATH = Path(__file__).with_name("schema.sql")
MIGRATION_SET = "kenning"
_SHADOW = ("data", "idx", "content", "docsize", "config")  # tables FTS5 makes for itself


def read_script() -> tuple[int, list[str], str]:
    """(schema version, migration names, SQL) of `schema.sql`."""
    text = SCRIPT_PATH.read_text(encoding="utf-8")
    version_line, names_line, sql = text.split("\n", 2)
    return (int(version_line.removeprefix("-- schema_version ")),
            names_line.removeprefix("-- migrations ").split(), sql)


def create(conn: sqlite3.Connection, version: int) -> bool:
    """Create the schema of `version` in an empty database; False (nothing done) when the
    script is of another version."""
    script_version, names, sql = read_script()
    if script_version != version:
        return False
    now = datetime.now(UTC).isoformat(sep=" ")
    applied = "".join(
        "INSERT INTO _sqlite_migrations(migration_set, name, applied_at) "
        f"VALUES ('{MIGRATION_SET}', '{name}', '{now}');\n" for name in names)
    conn.executescript(f"BEGIN IMMEDIATE;\n{sql}{applied}COMMIT;")
    return True


def dump(conn: sqlite3.Connection, version: int) -> str:
    """`schema.sql` for a migrated database: its DDL in creation order, FTS5's own tables
    left out (creating the virtual table makes them)."""
    virtual = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%'")]
    shadow = {f"{table}_{suffix}" for table in virtual for suffix in _SHADOW}
    statements = [sql for name, sql in conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
        if name not in shadow]
    names = [r[0] for r in conn.execute(
        "SELECT name FROM _sqlite_migrations WHERE migration_set = ? ORDER BY id",
        (MIGRATION_SET,))]
    return (f"-- schema_version {version}\n-- migrations {' '.join(names)}\n"
            + "".join(f"{s};\n" for s in statements))
