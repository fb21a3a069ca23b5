"""Lifecycle judgements and the prompt gate, asserted on the blind TEST splits (issue 12 §4).

bench/data/lifecycle_test/ was written blind to kenning and committed before any run; its
rules and thresholds were chosen on the calibration sets (bench/data/labelled_pairs.yaml,
tests/fixtures/hooks/relevance.json, bench/data/unrelated_prompts_dev.yaml), never on these.
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
    from kenning.index.embed import load_embedder
    from kenning.lifecycle.consolidate import judge

    embedder = load_embedder("bundled")
    verdicts = []
    for p in _pairs("duplicate_pairs.yaml", split):
        va, vb = embedder.encode([p["a"], p["b"]])
        verdicts.append((p, judge(p["a"], p["b"], float(va @ vb))[0]))
    return verdicts


@pytest.mark.model
def test_no_near_miss_or_opposite_pair_of_the_test_split_is_merged():
    merged_wrongly = [(p["why"], p["a"], p["b"]) for p, v in _duplicate_verdicts()
                      if not p["duplicate"] and v == "duplicate"]
    assert not [m for m in merged_wrongly if m[0] in ("near-miss", "opposite")], merged_wrongly


@pytest.mark.model
def test_paraphrases_on_the_test_split_are_found():
    """Issue 17's bar is 0.6 and is open (bench/lifecycle_bench.py reports it): 19 of the 32
    test paraphrases are found, merged or queued (17 before the review threshold went from
    cosine 0.55 to 0.5 on hard_pairs_dev.yaml), since the bundled static model puts rewrites
    in other words at cosine 0.2-0.75. This holds today's level so it cannot slip unseen."""
    found = [v != "distinct" for p, v in _duplicate_verdicts() if p["duplicate"]]
    assert sum(found) / len(found) >= 19 / 32


@pytest.mark.model
def test_the_second_split_merges_no_near_miss_or_opposite_and_finds_its_paraphrases():
    """First run: 27 of 42 paraphrases found (8 merged, 19 queued for review), no near-miss,
    opposite, number or scope pair merged; one generalisation pair merged."""
    verdicts = _duplicate_verdicts(SPLIT2)
    wrong = [(p["why"], p["a"], p["b"]) for p, v in verdicts
             if not p["duplicate"] and v == "duplicate" and p["why"] != "generalisation"]
    assert not wrong, wrong
    found = [v != "distinct" for p, v in verdicts if p["duplicate"]]
    assert sum(found) / len(found) >= 0.6
