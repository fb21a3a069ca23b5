"""Stale anchors on real git repositories: fresh, drifted, orphaned, followed."""

import json
import textwrap
from pathlib import Path

import pytest

from conftest import git
from kenning.core.paths import current_project
from kenning.core.records import Anchor
from kenning.lifecycle.stale import anchor_state, stale_report
from kenning.memory import Memory

RETRY = '''\
class RetryPolicy:
    """Backoff shared by every transport."""

    def backoff(self, attempt):
        return min(2 ** attempt, 30)

    def give_up(self, attempt):
        return attempt > 5
'''
UTIL = '''\
import tomllib


def parse_config(path):
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def legacy_export(rows):
    return [list(r) for r in rows]
'''


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


def commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


@pytest.fixture
def project(repo, kenning):
    write(repo, "src/http/retry.py", RETRY)
    write(repo, "src/util.py", UTIL)
    commit(repo, "code")
    assert kenning("index").code == 0
    ids = {}
    for name, about, text in [
        ("backoff", "src/http/retry.py:RetryPolicy.backoff",
         "RetryPolicy.backoff caps the delay at 30 seconds."),
        ("parse", "src/util.py:parse_config", "Config files are parsed as TOML."),
        ("export", "src/util.py:legacy_export", "legacy_export turns rows into lists."),
        ("file", "src/http/retry.py", "Every transport shares the retry module."),
    ]:
        out = json.loads(kenning("add", "--json", "--about", about, text).out)
        ids[name] = out["id"]
    return repo, ids


def states(kenning) -> dict[str, str]:
    return {r["id"]: r["state"] for r in json.loads(kenning("stale", "--all", "--json").out)}


def reindex(kenning, repo, message):
    commit(repo, message)
    assert kenning("index").code == 0


def test_anchors_record_the_symbol_body_hash(project):
    repo, ids = project
    fact = Memory(current_project()).store.get(ids["backoff"])
    assert fact.about[0].symbol == "RetryPolicy.backoff"
    assert fact.about[0].hash and len(fact.about[0].hash) == 12


def test_whitespace_edits_and_moving_a_function_keep_it_fresh(project, kenning):
    repo, ids = project
    reformatted = '''\
    import tomllib

    def legacy_export(rows):
        # moved up, and reformatted
        return [ list(r)   for r in rows ]



    def parse_config(path):
        with open(path, "rb") as handle:

            return tomllib.load(handle)
    '''
    write(repo, "src/util.py", reformatted)
    reindex(kenning, repo, "reformat")
    assert set(states(kenning).values()) == {"fresh"}


def test_a_function_moved_to_another_file_is_followed_and_fresh(project, kenning):
    repo, ids = project
    write(repo, "src/util.py", UTIL.split("\n\ndef legacy_export")[0] + "\n")
    write(repo, "src/export/legacy.py", "def legacy_export(rows):\n"
                                        "    return [list(r) for r in rows]\n")
    reindex(kenning, repo, "move")
    report = {r["id"]: r for r in json.loads(kenning("stale", "--all", "--json").out)}
    assert report[ids["export"]]["state"] == "fresh"
    assert report[ids["export"]]["anchors"][0]["now"] == "src/export/legacy.py:legacy_export"


def test_a_body_change_drifts_and_reconfirming_refreshes_the_hash(project, kenning):
    repo, ids = project
    write(repo, "src/http/retry.py", RETRY.replace("min(2 ** attempt, 30)",
                                                   "min(3 ** attempt, 60)"))
    reindex(kenning, repo, "change")
    assert states(kenning)[ids["backoff"]] == "drifted"
    result = kenning("stale")
    assert "drifted" in result.out and "body changed" in result.out
    old_hash = Memory(current_project()).store.get(ids["backoff"]).about[0].hash
    assert kenning("confirm", ids["backoff"]).code == 0
    fact = Memory(current_project()).store.get(ids["backoff"])
    assert fact.about[0].hash != old_hash
    assert states(kenning)[ids["backoff"]] == "fresh"


def test_a_rename_in_another_file_is_followed(project, kenning):
    repo, ids = project
    write(repo, "src/util.py", UTIL.replace(UTIL[UTIL.index("def parse_config"):
                                                 UTIL.index("def legacy_export")], ""))
    write(repo, "src/config/loader.py", '''\
    import tomllib


    def parse_config_file(path):
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    ''')
    reindex(kenning, repo, "rename")
    report = {r["id"]: r for r in json.loads(kenning("stale", "--json").out)}
    anchor = report[ids["parse"]]["anchors"][0]
    assert report[ids["parse"]]["state"] == "drifted"
    assert anchor["now"] == "src/config/loader.py:parse_config_file"
    assert "renamed" in anchor["note"]
    # a person confirms: the anchor now points at the new name
    kenning("review", "accept", ids["parse"])
    fact = Memory(current_project()).store.get(ids["parse"])
    assert (fact.about[0].file, fact.about[0].symbol) == ("src/config/loader.py",
                                                          "parse_config_file")
    assert states(kenning)[ids["parse"]] == "fresh"


def test_a_deletion_orphans_and_accepting_drops_the_dead_anchor(project, kenning):
    repo, ids = project
    write(repo, "src/util.py", UTIL.split("\n\ndef legacy_export")[0] + "\n")
    reindex(kenning, repo, "delete")
    assert states(kenning)[ids["export"]] == "orphaned"
    assert "symbol deleted" in kenning("stale").out
    kenning("review", "accept", ids["export"])
    assert Memory(current_project()).store.get(ids["export"]).about == ()


def test_deleting_the_file_orphans_file_anchors(project, kenning):
    repo, ids = project
    git(repo, "rm", "-q", "src/http/retry.py")
    reindex(kenning, repo, "rm")
    found = states(kenning)
    assert found[ids["file"]] == "orphaned"
    assert found[ids["backoff"]] == "orphaned"


def test_anchor_state_accepts_index_rows_hook_rows_and_facts(project, kenning):
    repo, ids = project
    write(repo, "src/http/retry.py", RETRY.replace("30)", "45)"))
    reindex(kenning, repo, "change")
    memory = Memory(current_project())
    row = memory.get_view(ids["backoff"]).row
    assert anchor_state(row, memory.index.conn) == "drifted"
    hook_row = {"id": row.id, "about": json.dumps([[a.file, a.symbol, a.hash]
                                                   for a in row.about])}
    assert anchor_state(hook_row, memory.index.conn) == "drifted"
    assert anchor_state(memory.store.get(ids["parse"]), memory.index.conn) == "fresh"
    assert anchor_state({"id": "x", "about": "[]"}, memory.index.conn) == "unanchored"


def test_without_a_code_index_nothing_is_hidden(kenning, repo):
    out = json.loads(kenning("add", "--json", "--about", "src/gone.py:f", "A fact.").out)
    memory = Memory(current_project())
    row = memory.get_view(out["id"]).row
    assert anchor_state(row, memory.index.conn) == "fresh"
    assert "not indexed" in kenning("stale").out


def test_a_file_the_index_skips_is_not_orphaned(project, kenning):
    repo, ids = project
    write(repo, "data/big.lock", "x\n")
    memory = Memory(current_project())
    fact = memory.store.create("The lock file pins the toolchain.", "codebase",
                               about=(Anchor("data/big.lock"),))
    row = memory.get_view(fact.id).row
    assert stale_report(memory.index.conn, [row], repo)[0].state == "fresh"


def test_a_rename_in_place_is_followed_and_the_hook_path_hides_nothing_on_a_guess(project, kenning):
    import subprocess
    import sys

    repo, ids = project
    write(repo, "src/util.py", UTIL.replace("def parse_config", "def parse_settings"))
    reindex(kenning, repo, "rename in place")
    memory = Memory(current_project())
    about = json.dumps([[a.file, a.symbol, a.hash]
                        for a in memory.store.get(ids["parse"]).about])
    script = (
        "import sqlite3, sys, json\n"
        "from kenning.lifecycle.stale import anchor_state\n"
        f"conn = sqlite3.connect({str(memory.project.index_path)!r})\n"
        f"state = anchor_state({{'id': 'x', 'about': {about!r}}}, conn, follow=False)\n"
        "print(state, 'rapidfuzz' in sys.modules, 'numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["drifted", "False", "False"]
    # with the files at hand, a pure rename is recognised however different the names
    assert anchor_state(memory.store.get(ids["parse"]), memory.index.conn, root=repo) == "drifted"
    report = {r["id"]: r for r in json.loads(kenning("stale", "--json").out)}
    assert report[ids["parse"]]["anchors"][0]["note"] == (
        "renamed to src/util.py:parse_settings (body unchanged)")
