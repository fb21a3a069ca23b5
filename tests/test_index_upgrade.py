"""An index written by an older release learns what the new tokenisation adds on its next
command, without `kenning rebuild`."""

from __future__ import annotations

import json
import sqlite3

from kenning.core.paths import current_project


def test_an_old_index_learns_cjk_terms_without_a_rebuild(kenning, repo) -> None:
    fid = json.loads(kenning("add", "ビルドは日本語の説明書に従って make で行う。",
                             "--json").out)["id"]
    index = current_project(str(repo)).index_path
    with sqlite3.connect(index) as conn:  # as an older release left it: no CJK pairs
        conn.execute("UPDATE meta SET value = '2' WHERE key = 'fact_terms'")
        conn.execute("UPDATE facts SET terms = ''")
        conn.execute("INSERT INTO facts_fts(facts_fts) VALUES ('rebuild')")
    conn.close()
    result = kenning("search", "日本語", "--type", "fact", "--json")
    assert result.code == 0 and fid in result.out, result.out


def test_a_new_index_is_given_the_schema_its_migrations_build(tmp_path) -> None:
    """A new index is created from `schema.sql` (no sqlite_utils import); it must be the
    schema the named migrations build, with every migration recorded as applied, so the next
    migration applies to it as to any older index."""
    from sqlite_utils import Database

    from kenning.index import schema
    from kenning.index.db import SCHEMA_VERSION, connect, migrate, migrate_with_sqlite_utils
    from kenning.index.migrations import migrations

    by_migrations, by_script = connect(tmp_path / "a.db"), connect(tmp_path / "b.db")
    migrate_with_sqlite_utils(by_migrations)
    migrate(by_script)
    assert schema.SCRIPT_PATH.read_text(encoding="utf-8") == \
        schema.dump(by_migrations, SCHEMA_VERSION), "run `python scripts/schema_sql.py`"

    def master(conn: sqlite3.Connection) -> list[tuple]:
        return [tuple(r) for r in conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")]

    assert master(by_script) == master(by_migrations)
    assert migrations.pending(Database(by_script)) == []
    assert [m.name for m in migrations.applied(Database(by_script))] == \
        [m.name for m in migrations.applied(Database(by_migrations))]
    assert by_script.execute("SELECT value FROM meta WHERE key = 'schema_version'"
                             ).fetchone()[0] == str(SCHEMA_VERSION)


def test_a_schema_script_of_another_version_is_not_used(tmp_path) -> None:
    from kenning.index import schema
    from kenning.index.db import connect

    conn = connect(tmp_path / "c.db")
    assert schema.create(conn, version=999) is False
    assert conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
