"""Lifecycle judgements and the prompt gate, asserted on the blind splits (issue 12 §4).

bench/data/lifecycle_test/ and lifecycle_test2/ were written blind to kenning and committed
before any run; since issue 17's third round their pairs are development data (their texts
were read and the contradiction rules worked on them, bench/data/SPLITS.md), so the assertions
on them hold a development level. bench/data/lifecycle_test3/ was the test split of that round
(run once, development since issue 17's fourth round); bench/data/lifecycle_test4/ was the test
split of the fourth round (run once at its end; development since issue 17's sixth round);
bench/data/lifecycle_test5/ was the test split of the sixth round (run once at its end;
development since the seventh, when its one merged opposite was read);
bench/data/lifecycle_test6/ is the test split of the seventh, run once and asserted here at what
that one run measured.
The bars are issue 17's acceptance: contradiction precision >= 0.8; paraphrases found (merged
or offered for review) >= 0.6 with no near-miss or opposite merged; at most 5 % of unrelated
prompts given a fact.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kenning.lifecycle.contradictions import analyse, check_pair

SPLIT = Path(__file__).parents[1] / "bench" / "data" / "lifecycle_test"
# A second blind split (2026-12-01), run once for the closing note after issue 17's second
# round; its duplicate pairs are held here at that first run's level.
SPLIT2 = SPLIT.with_name("lifecycle_test2")
SPLIT3 = SPLIT.with_name("lifecycle_test3")
SPLIT4 = SPLIT.with_name("lifecycle_test4")
SPLIT5 = SPLIT.with_name("lifecycle_test5")
SPLIT6 = SPLIT.with_name("lifecycle_test6")


def _pairs(name: str, split: Path = SPLIT) -> list[dict]:
    return yaml.safe_load((split / name).read_text(encoding="utf-8"))["pairs"]


def test_contradictions_on_the_test_split_are_right_at_least_four_times_in_five():
    pairs = _pairs("contradiction_pairs.yaml")
    flagged = [p for p in pairs if check_pair(analyse(p["a"]), analyse(p["b"]))]
    right = [p for p in flagged if p["contradiction"]]
    assert flagged, "no contradiction found at all"
    assert len(right) / len(flagged) >= 0.8, [(p["a"], p["b"]) for p in flagged
                                              if not p["contradiction"]]


def _duplicate_verdicts(split: Path = SPLIT) -> list[tuple[dict, str]]:
    """Each pair's verdict as consolidation reaches it: never judged below CANDIDATE_COSINE."""
    from kenning.index.embed import load_embedder
    from kenning.lifecycle.consolidate import CANDIDATE_COSINE, judge

    embedder = load_embedder("bundled")
    verdicts = []
    for p in _pairs("duplicate_pairs.yaml", split):
        va, vb = embedder.encode([p["a"], p["b"]])
        cosine = float(va @ vb)
        verdicts.append((p, judge(p["a"], p["b"], cosine)[0] if cosine >= CANDIDATE_COSINE
                         else "distinct"))
    return verdicts


@pytest.mark.model
def test_no_distinct_pair_of_the_first_split_is_merged():
    """One generalisation pair merged until issue 17's fourth round ("all list endpoints" /
    "the /orders list endpoint"); a rule and one case of it go to review now."""
    merged_wrongly = [(p["why"], p["a"], p["b"]) for p, v in _duplicate_verdicts()
                      if not p["duplicate"] and v == "duplicate"]
    assert not merged_wrongly


@pytest.mark.model
def test_paraphrases_on_the_test_split_are_found():
    """Issue 17's bar is 0.6: 19 of the 32 paraphrases were found, merged or queued (17
    before the review threshold went from cosine 0.55 to 0.5 on hard_pairs_dev.yaml), since
    the bundled static model puts rewrites in other words at cosine 0.2-0.75; 20 since issue
    17's sixth round ("returns 503" / "responds with Service Unavailable": the same values)."""
    found = [v != "distinct" for p, v in _duplicate_verdicts() if p["duplicate"]]
    assert sum(found) >= 20
    assert sum(found) / len(found) >= 0.6


@pytest.mark.model
def test_the_second_split_merges_no_near_miss_or_opposite_and_finds_its_paraphrases():
    """First run: 27 of 42 paraphrases found (8 merged, 19 queued for review), no near-miss,
    opposite, number or scope pair merged; one generalisation pair merged (none since issue
    17's fourth round: "every table" / "the invoices table" goes to review)."""
    verdicts = _duplicate_verdicts(SPLIT2)
    wrong = [(p["why"], p["a"], p["b"]) for p, v in verdicts
             if not p["duplicate"] and v == "duplicate"]
    assert not wrong, wrong
    found = [v != "distinct" for p, v in verdicts if p["duplicate"]]
    assert sum(found) / len(found) >= 0.6


def test_the_third_split_flags_no_contradiction_wrongly_and_finds_some():
    """Its one run (issue 17's third round): no pair flagged, of 45 contradictions (value 28,
    polarity 17). Development data since issue 17's fourth round (its texts were read): the
    same-slot value rules find 3 value pairs of 28, with no false alarm."""
    pairs = _pairs("contradiction_pairs.yaml", SPLIT3)
    flagged = [p for p in pairs if check_pair(analyse(p["a"]), analyse(p["b"]))]
    assert not [p["why"] for p in flagged if not p["contradiction"]]
    assert len(flagged) >= 3


@pytest.mark.model
def test_the_third_split_finds_its_paraphrases_and_merges_no_distinct_pair():
    """Its one run: 31 of 45 paraphrases found (16 merged, 15 queued for review); merged
    wrongly: one opposite pair of 13 and two scope pairs of 13. Since issue 17's fourth round
    (development data now) a swapped word or other polarity words send a clear duplicate to
    review: no distinct pair merges, 31 found (12 merged, 19 queued)."""
    verdicts = _duplicate_verdicts(SPLIT3)
    merged = [p["why"] for p, v in verdicts if not p["duplicate"] and v == "duplicate"]
    assert not merged, merged
    found = [v != "distinct" for p, v in verdicts if p["duplicate"]]
    assert sum(found) >= 31


def test_the_fourth_split_flags_contradictions_without_a_false_alarm():
    """Its one run (issue 17's fourth round, texts not read): 9 flagged, 8 right (value 4 of
    28, polarity 4 of 17), one scope pair flagged wrongly: precision 0.89, recall 0.18. Read in
    the sixth round (development since): two endpoints named by their paths are two subjects,
    and a rate said as "120 times a second" or "20 search requests per second" is read: 10
    flagged, 10 right."""
    pairs = _pairs("contradiction_pairs.yaml", SPLIT4)
    flagged = [p for p in pairs if check_pair(analyse(p["a"]), analyse(p["b"]))]
    right = [p for p in flagged if p["contradiction"]]
    assert len(right) >= 10
    assert len(right) == len(flagged), [p["why"] for p in flagged if not p["contradiction"]]


@pytest.mark.model
def test_the_fourth_split_merges_no_distinct_pair():
    """Its one run: no distinct pair merged (of 13 near-miss, opposite, number, scope and
    generalisation pairs each; 34 queued for review); paraphrases found 23 of 45 (5 merged,
    18 queued), below issue 17's 0.6. Development since issue 17's sixth round, which read its
    misses: numbers in words and other units, a status's reason phrase, the same values at a
    lower cosine (`consolidate.VALUE_COSINE`) find 28 of 45, no distinct pair merged, 34 of
    65 queued."""
    verdicts = _duplicate_verdicts(SPLIT4)
    merged = [p["why"] for p, v in verdicts if not p["duplicate"] and v == "duplicate"]
    assert not merged, merged
    found = [v != "distinct" for p, v in verdicts if p["duplicate"]]
    assert sum(found) >= 28
    assert sum(v != "distinct" for p, v in verdicts if not p["duplicate"]) <= 34


def test_the_fifth_split_flags_contradictions_at_its_one_runs_precision():
    """Its one run (issue 17's sixth round, texts not read): 6 flagged, 6 right (value 4 of
    28, polarity 2 of 17): precision 1.0, recall 0.13."""
    pairs = _pairs("contradiction_pairs.yaml", SPLIT5)
    flagged = [p for p in pairs if check_pair(analyse(p["a"]), analyse(p["b"]))]
    right = [p for p in flagged if p["contradiction"]]
    assert len(right) >= 6
    assert len(right) / len(flagged) >= 0.8


@pytest.mark.model
def test_the_fifth_split_finds_its_paraphrases_and_merges_no_distinct_pair():
    """Its one run: paraphrases found 30 of 45 (5 merged, 25 queued for review); distinct
    pairs queued 35 of 65; one opposite pair merged ("can arm without GPS in manual mode" /
    "cannot arm without GPS, even in manual mode": two negations against one). Read in issue
    17's seventh round: a second negation is polarity of its own (`dedup.polarity_words`), so
    the pair goes to review."""
    verdicts = _duplicate_verdicts(SPLIT5)
    merged = [p["why"] for p, v in verdicts if not p["duplicate"] and v == "duplicate"]
    assert not merged, merged
    found = [v != "distinct" for p, v in verdicts if p["duplicate"]]
    assert sum(found) >= 30
    assert sum(v == "borderline" for p, v in verdicts if not p["duplicate"]) <= 36


def test_the_sixth_split_flags_contradictions_at_its_one_runs_precision():
    """Its one run (issue 17's seventh round, texts not read): 12 flagged, 10 right (value 6
    of 28, polarity 4 of 17; one scope pair and one paraphrase flagged wrongly): precision
    0.83, recall 0.22."""
    pairs = _pairs("contradiction_pairs.yaml", SPLIT6)
    flagged = [p for p in pairs if check_pair(analyse(p["a"]), analyse(p["b"]))]
    right = [p for p in flagged if p["contradiction"]]
    assert len(right) >= 10
    assert len(right) / len(flagged) >= 0.8


@pytest.mark.model
def test_the_sixth_split_merges_no_distinct_pair():
    """Its one run: no distinct pair merged (near-miss, opposite, number, scope,
    generalisation); distinct pairs queued 41 of 65. Paraphrases found 20 of 45 (5 merged, 15
    queued): **below issue 17's 0.6** (27 of its 45 are full rewrites sharing at most a fifth
    of their words, which the bundled static model places at low cosine); held here at that
    level, not at the bar."""
    verdicts = _duplicate_verdicts(SPLIT6)
    merged = [p["why"] for p, v in verdicts if not p["duplicate"] and v == "duplicate"]
    assert not merged, merged
    found = [v != "distinct" for p, v in verdicts if p["duplicate"]]
    assert sum(found) >= 20
    assert sum(v == "borderline" for p, v in verdicts if not p["duplicate"]) <= 41
