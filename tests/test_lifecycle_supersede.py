"""Supersession: `kenning supersede`, topic upserts, and the chain `kenning show` prints."""

import json

from kenning.core.paths import current_project
from kenning.memory import Memory


def add(kenning, *args) -> str:
    return json.loads(kenning("add", "--json", *args).out)["id"]


def test_supersede_replaces_a_fact_keeping_kind_tags_topic_and_anchors(kenning, repo):
    old = add(kenning, "--kind", "decision", "--tag", "http", "--topic", "retries",
              "--about", "src/http/retry.py", "Retries back off linearly.")
    result = kenning("supersede", "--json", old, "Retries back off exponentially, capped at 30s.")
    assert result.code == 0, result.err
    out = json.loads(result.out)
    assert out["superseded"] == [old]
    store = Memory(current_project()).store
    new, previous = store.get(out["id"]), store.get(old)
    assert (new.kind, new.tags, new.topic) == ("decision", ("http",), "retries")
    assert [a.file for a in new.about] == ["src/http/retry.py"]
    assert new.confidence == 100
    assert (previous.status, previous.superseded_by) == ("superseded", new.id)


def test_superseded_facts_leave_default_search_and_show_prints_the_chain(kenning, repo):
    first = add(kenning, "The deploy script lives in scripts/deploy.sh.")
    second = json.loads(kenning("supersede", "--json", first,
                                "The deploy script lives in tools/deploy.py.").out)["id"]
    third = json.loads(kenning("supersede", "--json", second,
                               "Deploys run from the release GitHub workflow.").out)["id"]
    hits = kenning("search", "deploy script").out
    assert first not in hits and second not in hits
    assert f"superseded by: {second} -> {third}" in kenning("show", first).out
    assert first in kenning("search", "--status", "superseded", "deploy script").out


def test_supersede_prints_what_it_did(kenning, repo):
    old = add(kenning, "The request cache is enabled in production.")
    result = kenning("supersede", old, "The request cache is disabled in production.")
    assert result.code == 0
    assert f"superseded {old}" in result.out
    assert "contradicts" not in result.out  # the replaced fact is not a contradiction


def test_supersede_an_unknown_id_is_one_error_line(kenning, repo):
    result = kenning("supersede", "01JF3Z8Q6T1V3N1C2X7D9K4M5P", "New text.")
    assert result.code == 1
    assert result.err.startswith("Error: no fact 01JF3Z8Q6T1V3N1C2X7D9K4M5P")


def test_topic_upsert_supersedes_and_the_new_fact_is_searchable(kenning, repo):
    old = add(kenning, "--topic", "ci", "CI runs on Jenkins.")
    new = add(kenning, "--topic", "ci", "CI runs on GitHub Actions.")
    assert Memory(current_project()).store.get(old).superseded_by == new
    hits = kenning("search", "where does CI run").out
    assert new in hits and old not in hits
