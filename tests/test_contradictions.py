"""Contradictions: opposite claims and different values, found at write time and on demand."""

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from kenning.core.records import Anchor
from kenning.lifecycle.contradictions import analyse, check_pair, contradicting, find_all

PAIRS = Path(__file__).parents[1] / "bench" / "data" / "labelled_pairs.yaml"


def fact(fid, text, about=()):
    return SimpleNamespace(id=fid, text=text, about=tuple(about))


@pytest.mark.parametrize("a, b", [
    ("Always squash commits before merging a pull request.",
     "Never squash commits; merge pull requests with a merge commit."),
    ("We use Celery for background jobs.", "We stopped using Celery for background jobs."),
    ("Run migrations before deploying the new version.",
     "Run migrations after deploying the new version."),
    ("The request cache is enabled in production.",
     "Turn off the request cache in production; it served stale prices."),
    ("Tests may hit the network.", "Tests must not hit the network."),
    ("Black formats the code.", "Black is no longer used to format the code."),
])
def test_opposite_claims_about_one_subject_contradict(a, b):
    assert check_pair(analyse(a), analyse(b))[0] == "opposite"
    assert check_pair(analyse(b), analyse(a))[0] == "opposite"


@pytest.mark.parametrize("a, b", [
    # the negation is about the verb, not about the files being generated
    ("Don't edit generated files under src/gen; regenerate them with make proto.",
     "Files under src/gen are generated: regenerate them with make proto instead of editing."),
    # same claim, both negative
    ("Never commit .env files; secrets come from the vault.",
     "Do not commit .env files, secrets are loaded from the vault."),
    # "A, not B" and "A rather than B" say the same
    ("The frontend is built with Vite, not webpack.",
     "We build the frontend with Vite rather than webpack."),
    # different subjects
    ("The search endpoint paginates with cursors, not offsets.",
     "The admin list endpoints still paginate with offsets."),
    # the same words in another order: before/after alone is not enough
    ("Run lint after the tests.", "Run the tests before lint."),
])
def test_agreeing_or_unrelated_claims_do_not_contradict(a, b):
    assert check_pair(analyse(a), analyse(b)) is None


def test_same_claim_with_different_numbers_is_a_value_contradiction():
    found = check_pair(analyse("Sessions expire after 30 minutes of inactivity."),
                       analyse("Sessions expire after 60 minutes of inactivity."))
    assert found == ("value", "30 vs 60")


def test_different_values_need_the_same_subject_or_the_same_anchor():
    a, b = "The worker pool runs 8 processes in production.", "The pool has 4 workers."
    assert check_pair(analyse(a), analyse(b)) is None
    anchored = [Anchor("app/pool.py", "POOL_SIZE")]
    found = contradicting("The worker pool runs 4 processes in production.",
                          [fact("F1", a, anchored)], anchored)
    assert [(c.b, c.reason) for c in found] == [("F1", "value")]


def test_labelled_pairs_opposites_are_found_and_nothing_else():
    pairs = yaml.safe_load(PAIRS.read_text(encoding="utf-8"))["pairs"]
    flagged = [p for p in pairs if check_pair(analyse(p["a"]), analyse(p["b"]))]
    assert [p["a"] for p in flagged] == [p["a"] for p in pairs if p.get("opposite")]


def test_find_all_reports_each_pair_once_in_id_order():
    facts = [fact("B", "We use Celery for background jobs."),
             fact("A", "We stopped using Celery for background jobs."),
             fact("C", "The release branch is cut every Thursday.")]
    found = find_all(facts)
    assert [(c.a, c.b, c.reason) for c in found] == [("A", "B", "opposite")]


def test_add_reports_a_contradiction_at_write_time(kenning, repo):
    kenning("add", "Always squash commits before merging a pull request.")
    out = json.loads(kenning("add", "--json", "Never squash commits;",
                             "merge pull requests with a merge commit.").out)
    assert out["created"] is True
    assert len(out["contradictions"]) == 1


def test_a_superseded_fact_is_not_reported_as_contradicting_its_replacement(kenning, repo):
    old = json.loads(kenning("add", "--json", "--topic", "cache",
                             "The request cache is enabled in production.").out)["id"]
    out = json.loads(kenning("add", "--json", "--topic", "cache",
                             "The request cache is disabled in production.").out)
    assert out["superseded"] == [old]
    assert out["contradictions"] == []


def test_contradictions_command_lists_pairs(kenning, repo):
    kenning("add", "The request cache is enabled in production.")
    kenning("add", "The request cache is disabled in production.")
    result = kenning("contradictions")
    assert result.code == 0
    assert "opposite (enable)" in result.out
    listed = json.loads(kenning("contradictions", "--json").out)
    assert len(listed) == 1 and listed[0]["reason"] == "opposite"


def test_contradictions_command_says_so_when_there_are_none(kenning, repo):
    kenning("add", "The release branch is cut every Thursday.")
    assert "no contradictions" in kenning("contradictions").out


_WORDS = ("never always not cache enabled disabled run migrations before after deploy use "
          "celery stopped the jobs instead of tests 30 60 minutes skip lint, ; webhooks").split()
_sentences = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=12).map(" ".join)


@given(_sentences, _sentences)
def test_contradiction_is_symmetric(a, b):
    one, other = check_pair(analyse(a), analyse(b)), check_pair(analyse(b), analyse(a))
    assert (one is None) == (other is None)


@given(_sentences)
def test_a_text_never_contradicts_itself(a):
    assert check_pair(analyse(a), analyse(a)) is None
