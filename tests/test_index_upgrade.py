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
