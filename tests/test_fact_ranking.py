"""Fact ranking (issue 17): the score fusion of the keyword and vector legs, the relevance
floor, versions kept whole, and the prompt gate's word counting."""

from __future__ import annotations

import json
import sqlite3

from hypothesis import given
from hypothesis import strategies as st

from kenning.core import clock
from kenning.core.paths import current_project
from kenning.core.textutil import fact_query_terms, prompt_words, version_terms
from kenning.hooks import factdb
from kenning.index.db import set_meta
from kenning.memory import Memory
from kenning.search.fusion import (
    COSINE_FLOOR,
    COSINE_WEIGHT,
    KEYWORD_FLOOR,
    fact_score,
    fuse_facts,
)

N = 200  # a corpus size above search.SMALL_STORE, so the keyword floor applies
SCALE = 5.303  # ln(N + 1)


def test_versions_and_numbers_stay_whole():
    assert version_terms("dropped in v2.3.0, added in 3.2; returns 404") == ["2dot3dot0", "3dot2"]
    terms = fact_query_terms("What changed in 3.2?")
    assert "3dot2" in terms and "3" not in terms and "2" not in terms  # or 2.3.0 would match
    assert "404" in fact_query_terms("why a 404")


@given(st.floats(0, 10), st.floats(0, 10), st.floats(-1, 1), st.floats(-1, 1))
def test_a_fact_scores_higher_for_a_stronger_match_on_either_leg(a, b, c, d):
    (low, high), (near, far) = sorted((a, b)), sorted((c, d))
    assert fact_score(low, near) <= fact_score(high, near)
    assert fact_score(low, near) <= fact_score(low, far)


def test_a_fact_below_both_floors_is_not_returned():
    weak_kw = (KEYWORD_FLOOR - 0.1) * SCALE
    fused = fuse_facts([("weak", weak_kw), ("strong", 3 * SCALE)],
                       [("weak", COSINE_FLOOR - 0.05), ("vague", COSINE_FLOOR - 0.01)], N)
    assert [r.key for r in fused] == ["strong"]


def test_a_clear_keyword_first_is_not_lost_to_a_fact_both_legs_half_liked():
    keyword = [("exact", 4.0 * SCALE)] + [(f"k{i}", (1.2 - i / 10) * SCALE) for i in range(8)]
    keyword.insert(8, ("both", 0.6 * SCALE))
    semantic = [("both", 0.62), ("s1", 0.6), ("s2", 0.58), ("exact", 0.45)]
    semantic += [(f"s{i}", 0.5 - i / 100) for i in range(3, 25)]
    assert fuse_facts(keyword, semantic, N)[0].key == "exact"


def test_a_flat_vector_leg_does_not_overturn_a_clear_keyword_first():
    # Every fact names the project, so the cosines bunch up: a lead of 0.02 is a near-tie.
    keyword = [("named", 2.0 * SCALE), ("other", 1.7 * SCALE)]
    semantic = [("other", 0.66), ("named", 0.64)] + [(f"s{i}", 0.635 - i / 500) for i in range(20)]
    assert fuse_facts(keyword, semantic, N)[0].key == "named"


def test_the_vectors_decide_between_alike_keyword_scores_not_against_a_clear_lead():
    # Issue 17's sixth round: one sum of keyword strength and COSINE_WEIGHT x cosine.
    alike = [("a", 2.02 * SCALE), ("b", 2.0 * SCALE)]
    semantic = [("b", 0.7), ("a", 0.5)]
    assert [r.key for r in fuse_facts(alike, semantic, N)] == ["b", "a"]
    lead = 2.0 + COSINE_WEIGHT * (0.9 - 0.3) + 0.1  # more than the vectors' difference
    clear = [("a", lead * SCALE), ("b", 2.0 * SCALE)]
    assert [r.key for r in fuse_facts(clear, [("b", 0.9), ("a", 0.3)], N)] == ["a", "b"]
    alone = [r.key for r in fuse_facts([], [("x", 0.5), ("y", 0.45)], N)]
    assert alone == ["x", "y"]


@given(st.permutations(["a", "b", "c", "d"]))
def test_ties_are_broken_by_score_and_key_never_by_insertion_order(order):
    keyword = [(key, 2.0 * SCALE) for key in order]
    semantic = [(key, 0.5) for key in order]
    assert [r.key for r in fuse_facts(keyword, semantic, N)] == ["a", "b", "c", "d"]


def test_a_version_in_the_query_finds_its_own_version_first(kenning, repo):
    from kenning.store.facts import FactStore

    store = FactStore(current_project(repo))
    topics = ["lint", "deploy", "cache", "queue", "auth", "docs", "build", "tests", "api", "ui"]
    for n in range(60):  # a store of realistic size: BM25's IDF means little in ten facts
        topic = topics[n % 10]
        store.create(f"The {topic} setup is described in docs/{topic}.md, section {n}.",
                     "codebase", origin="agent")
    kenning("add", "Release 2.3.0 removed the legacy sync command.")
    kenning("add", "Python 3.2 support ended long ago; the floor is the oldest supported CPython.")
    hits = json.loads(kenning("search", "what happened in 3.2", "--type", "fact", "--json").out)
    assert hits and hits[0]["snippet"].startswith("Python 3.2")


def test_an_index_built_before_whole_versions_is_reindexed(kenning, repo):
    kenning("add", "Release 2.3.0 removed the legacy sync command.")
    memory = Memory(current_project(repo), "fake")
    memory.sync()
    memory.index.conn.execute("UPDATE facts SET terms = ''")
    set_meta(memory.index.conn, "fact_terms", "1")
    memory.close()
    memory = Memory(current_project(repo), "fake")
    memory.sync()
    terms = memory.index.conn.execute("SELECT terms FROM facts").fetchone()[0]
    memory.close()
    assert "2dot3dot0" in terms


def test_prompt_words_keep_an_identifier_as_one_word():
    groups = prompt_words("Rename compute_line_total in invoicing/lines.py")
    assert ("compute_line_total", "compute", "line", "total") in groups
    assert ("rename",) in groups and ("py",) in groups


def _gate(repo, texts: list[str], prompt: str) -> list[factdb.Candidate]:
    memory = Memory(current_project(repo), "fake")
    for text in texts:
        memory.add(text, "codebase", origin="agent")
    memory.sync()
    memory.close()
    conn = factdb.connect(str(current_project(repo).index_path))
    assert isinstance(conn, sqlite3.Connection)
    try:
        return sorted(factdb.prompt_matches(conn, prompt, clock.now_us()),
                      key=lambda r: r.text)
    finally:
        conn.close()


def test_word_forms_request_words_and_identifier_parts_count_once_or_not_at_all(repo):
    rows = _gate(repo, ["The client returns a Response for every first page of a list.",
                        "Totals are computed per invoice line."],
                 "What does return_value return on every first list page and returns?")
    client = next(r for r in rows if r.text.startswith("The client"))
    # "return"/"returns" are one word; "every", "first", "list", "page" are request words;
    # return_value is held only if both its parts are.
    assert client.matched == 1
    rows = _gate(repo, [], "Rename compute_line_total to line_total_minor")
    totals = next(r for r in rows if r.text.startswith("Totals"))
    assert totals.matched <= 1  # "computed" and "line" do not make compute_line_total


def test_an_identifier_the_fact_spells_whole_counts_as_two_words(repo):
    rows = _gate(repo, ["max_redirects defaults to 30 on every client.",
                        "The client follows at most a few redirects by default."],
                 "what is max_redirects if I never change it?")
    named = next(r for r in rows if r.text.startswith("max_redirects"))
    assert named.matched == 2  # one identifier of two parts, spelled whole
    assert all(r.matched <= 1 for r in rows if r is not named)  # "redirects" alone is one


def test_a_stemmer_collision_is_not_a_shared_word(repo):
    rows = _gate(repo, ["The generated TypeScript client lives in web/api."],
                 "What does this generic constraint mean?")
    assert all(r.matched == 0 for r in rows)
    assert factdb.same_word("policy", "policies") and not factdb.same_word("generic",
                                                                           "generated")
