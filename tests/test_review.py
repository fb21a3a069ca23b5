"""The review queue: what needs a person, and the actions that settle it."""

import json
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner

from kenning.cli import lifecycle as cli_lifecycle
from kenning.cli.app import cli
from kenning.core.paths import current_project
from kenning.lifecycle.review import ITEM_ORDER, apply, load_dismissed, queue
from kenning.memory import Memory

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def memory_at(now):
    return Memory(current_project(), embedder_name="fake", clock=lambda: now)


@pytest.fixture
def seeded(repo):
    memory = memory_at(T0)
    store = memory.store
    ids = {
        "on": store.create("The request cache is enabled in production.", "codebase",
                           origin="user", now=T0).id,
        "off": store.create("The request cache is disabled in production.", "codebase",
                            origin="transcript", now=T0 + timedelta(hours=1)).id,
        "old": store.create("Deploys go out from the deploy-bot account.", "codebase",
                            origin="transcript", now=T0 - timedelta(weeks=10)).id,
        "new": store.create("Feature flags live in flags.yaml at the repo root.", "codebase",
                            origin="agent", now=T0).id,
        "dup1": store.create("Docker images are built with multi-stage Dockerfiles.",
                             "codebase", origin="user", now=T0).id,
        "dup2": store.create("Multi-stage Dockerfiles build our Docker images for CI.",
                             "codebase", origin="user", now=T0).id,
    }
    return memory, ids


def test_the_queue_lists_contradictions_first_then_decay_then_unconfirmed(seeded):
    memory, ids = seeded
    items = queue(memory)
    kinds = [i.kind for i in items]
    assert kinds == sorted(kinds, key=ITEM_ORDER.index)
    by_kind = {}
    for item in items:
        by_kind.setdefault(item.kind, []).append(set(item.ids))
    assert by_kind["contradiction"] == [{ids["on"], ids["off"]}]
    assert by_kind["archived"] == [{ids["old"]}]
    # "off" is already in the queue as half of a contradiction
    assert by_kind["unconfirmed"] == [{ids["new"]}]
    assert queue(memory, kinds=["archived"])[0].ids == (ids["old"],)
    assert len(queue(memory, limit=1)) == 1


def test_keep_resolves_a_contradiction(seeded):
    memory, ids = seeded
    apply(memory, "keep", [ids["off"], ids["on"]])
    kept, other = memory.store.get(ids["off"]), memory.store.get(ids["on"])
    assert kept.confidence == 100
    assert (other.status, other.superseded_by) == ("superseded", ids["off"])
    assert not [i for i in queue(memory) if i.kind == "contradiction"]


def test_dismissed_pairs_stay_out_of_the_queue(seeded):
    memory, ids = seeded
    apply(memory, "dismiss", [ids["on"], ids["off"]])
    assert len(load_dismissed(memory)) == 2
    assert not [i for i in queue(memory) if i.kind == "contradiction"]
    # the dismissal is local history: no fact file changed
    assert memory.store.get(ids["on"]).confidence == 100


def test_archive_records_the_status_and_restore_undoes_it(seeded):
    memory, ids = seeded
    apply(memory, "archive", [ids["old"]])
    assert memory.store.get(ids["old"]).status == "archived"
    apply(memory, "restore", [ids["old"]])
    fact = memory.store.get(ids["old"])
    assert (fact.status, fact.confidence, fact.confirmed) == ("active", 90, T0)


def test_accept_edit_reject(seeded):
    memory, ids = seeded
    apply(memory, "accept", [ids["new"]])
    assert memory.store.get(ids["new"]).confidence == 100
    apply(memory, "edit", [ids["new"]], text="Feature flags live in config/flags.yaml.")
    assert memory.store.get(ids["new"]).text == "Feature flags live in config/flags.yaml."
    apply(memory, "reject", [ids["new"]])
    assert memory.store.get(ids["new"]).status == "forgotten"


def test_merge_folds_the_newer_into_the_older(seeded):
    memory, ids = seeded
    outcome = apply(memory, "merge", [ids["dup2"], ids["dup1"]])
    assert ids["dup1"] in outcome.message
    merged = memory.store.get(ids["dup2"])
    assert merged.superseded_by in (ids["dup1"], ids["dup2"])


def test_actions_check_their_arguments(seeded):
    from kenning.core.errors import KenningError

    memory, ids = seeded
    with pytest.raises(KenningError):
        apply(memory, "keep", [ids["on"]])
    with pytest.raises(KenningError):
        apply(memory, "edit", [ids["on"]])
    with pytest.raises(KenningError):
        apply(memory, "accept", [ids["on"], ids["off"]])


def test_review_prints_json_when_not_on_a_terminal(seeded, kenning, monkeypatch):
    monkeypatch.setenv("KENNING_NOW", T0.isoformat())
    memory, ids = seeded
    items = json.loads(kenning("review").out)
    assert items[0]["kind"] == "contradiction"
    assert any(c.startswith("kenning review keep") for c in items[0]["commands"])
    result = kenning("review", "accept", ids["new"])
    assert result.code == 0 and "confirmed" in result.out
    assert kenning("review", "keep", ids["on"]).code == 1


def test_review_is_interactive_on_a_terminal(seeded, monkeypatch):
    monkeypatch.setenv("KENNING_NOW", T0.isoformat())
    monkeypatch.setattr(cli_lifecycle, "_is_tty", lambda: True)
    memory, ids = seeded
    kinds = [i.kind for i in queue(memory)]
    assert kinds == ["contradiction", "duplicate", "archived", "unconfirmed"]
    # contradiction: keep #2 ("off"); duplicate: skip; archived: restore; then quit
    result = CliRunner().invoke(cli, ["review"], input="k\n2\ns\nr\nq\n")
    assert result.exit_code == 0, result.output
    assert "2 action(s) applied" in result.output
    assert memory.store.get(ids["on"]).superseded_by == ids["off"]
    assert memory.store.get(ids["old"]).confidence == 90
