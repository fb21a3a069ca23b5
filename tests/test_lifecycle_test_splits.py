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

from kenning.contradictions import analyse, check_pair

SPLIT = Path(__file__).parents[1] / "bench" / "data" / "lifecycle_test"


def _pairs(name: str) -> list[dict]:
    return yaml.safe_load((SPLIT / name).read_text(encoding="utf-8"))["pairs"]


def test_contradictions_on_the_test_split_are_right_at_least_four_times_in_five():
    pairs = _pairs("contradiction_pairs.yaml")
    flagged = [p for p in pairs if check_pair(analyse(p["a"]), analyse(p["b"]))]
    right = [p for p in flagged if p["contradiction"]]
    assert flagged, "no contradiction found at all"
    assert len(right) / len(flagged) >= 0.8, [(p["a"], p["b"]) for p in flagged
                                              if not p["contradiction"]]


@pytest.mark.model
@pytest.mark.xfail(reason="issue 17, open: 17 of the 32 test paraphrases are found (merged or "
                          "queued), the bar is 0.6: the bundled static model puts rewrites in "
                          "other words at cosine 0.2-0.75", strict=False)
def test_paraphrases_on_the_test_split_are_found_and_no_distinct_pair_is_merged():
    from kenning.consolidate import judge
    from kenning.embed import load_embedder

    pairs = _pairs("duplicate_pairs.yaml")
    embedder = load_embedder("bundled")
    verdicts = []
    for p in pairs:
        va, vb = embedder.encode([p["a"], p["b"]])
        verdicts.append(judge(p["a"], p["b"], float(va @ vb))[0])
    found = [v != "distinct" for p, v in zip(pairs, verdicts, strict=True) if p["duplicate"]]
    merged_wrongly = [(p["why"], p["a"], p["b"]) for p, v in zip(pairs, verdicts, strict=True)
                      if not p["duplicate"] and v == "duplicate"]
    assert sum(found) / len(found) >= 0.6
    assert not [m for m in merged_wrongly if m[0] in ("near-miss", "opposite")], merged_wrongly
