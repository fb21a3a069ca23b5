"""Co-access clusters: files read or edited together in >= 3 sessions (union-find)."""

import random

from hypothesis import given
from hypothesis import strategies as st

from kenning.lifecycle.coaccess import (
    PEER_BOOST,
    boosts_for,
    clusters,
    load_clusters,
    peers_map,
)
from kenning.search.fusion import BOOST_PER_TENTH
from kenning.store import eventlog


def touch(session, *paths, kind="read"):
    return {"type": kind, "paths": list(paths), "session": session, "ts": "2026-01-01T00:00:00Z"}


def sessions_touching(n, *paths, prefix="s"):
    return [touch(f"{prefix}{i}", p, kind="edit" if j else "read")
            for i in range(n) for j, p in enumerate(paths)]


def test_files_read_together_in_three_sessions_form_a_cluster():
    records = sessions_touching(3, "a.py", "b.py")
    records += sessions_touching(2, "c.py", "d.py", prefix="t")
    assert clusters(records) == [frozenset({"a.py", "b.py"})]


def test_two_sessions_are_not_enough():
    assert clusters(sessions_touching(2, "a.py", "b.py")) == []


def test_links_chain_into_one_cluster():
    records = sessions_touching(3, "a.py", "b.py") + sessions_touching(3, "b.py", "c.py",
                                                                        prefix="t")
    assert clusters(records) == [frozenset({"a.py", "b.py", "c.py"})]


def test_a_file_every_session_opens_does_not_glue_everything_together():
    records = []
    for i in range(12):
        pair = ("a.py", "b.py") if i % 2 else ("c.py", "d.py")
        records += [touch(f"s{i}", "README.md", *pair)]
    assert sorted(map(sorted, clusters(records))) == [["a.py", "b.py"], ["c.py", "d.py"]]


def test_searches_subagents_and_sessionless_events_are_ignored():
    records = sessions_touching(3, "a.py", "b.py")
    noise = [{"type": "search", "paths": ["x.py", "y.py"], "session": f"s{i}"} for i in range(5)]
    noise += [dict(touch(f"s{i}", "x.py", "y.py"), agent="sub") for i in range(5)]
    noise += [{"type": "read", "paths": ["x.py", "y.py"]} for _ in range(5)]
    assert clusters(records + noise) == [frozenset({"a.py", "b.py"})]


@given(st.randoms(use_true_random=False))
def test_clusters_do_not_depend_on_event_order(rng):
    records = (sessions_touching(3, "a.py", "b.py") + sessions_touching(4, "b.py", "c.py",
                                                                        prefix="t")
               + sessions_touching(3, "x.py", "y.py", "z.py", prefix="u"))
    shuffled = list(records)
    rng.shuffle(shuffled)
    assert clusters(shuffled) == clusters(records)


def test_peers_of_a_top_hit_get_a_boost_worth_a_tenth_of_confidence():
    groups = [frozenset({"a.py", "b.py", "c.py"}), frozenset({"x.py", "y.py"})]
    boosts = boosts_for(["a.py", "q.py", "b.py", None, "y.py", "c.py"], groups, seeds=1)
    assert boosts == {"b.py": PEER_BOOST, "c.py": PEER_BOOST}
    assert PEER_BOOST == BOOST_PER_TENTH


def test_boosts_do_not_add_up_across_seeds():
    groups = [frozenset({"a.py", "b.py", "c.py"})]
    boosts = boosts_for(["a.py", "b.py", "c.py"], peers_map(groups), seeds=3)
    assert boosts == {"a.py": PEER_BOOST, "b.py": PEER_BOOST, "c.py": PEER_BOOST}


def test_no_clusters_no_boosts():
    assert boosts_for(["a.py", "b.py"], []) == {}


def test_clusters_load_from_the_event_log(tmp_path):
    path = tmp_path / "events.jsonl"
    records = sessions_touching(3, "src/a.py", "src/b.py")
    random.Random(1).shuffle(records)
    for record in records:
        eventlog.append(path, record)
    assert load_clusters(path) == [frozenset({"src/a.py", "src/b.py"})]
