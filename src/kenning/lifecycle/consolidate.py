"""Consolidation (docs/design.md): merge clear near-duplicates, queue borderline ones.

Pairs are scored with the index's fact vectors (cosine) and rapidfuzz on the normalised
texts, then judged:

- **duplicate** (merged automatically): same numbers, no contradiction, and either the
  word-order-insensitive edit similarity is >= CLEAR_RATIO on its own or the cosine is
  >= CLEAR_COSINE with edit similarity >= CLEAR_LEXICAL. Thresholds were calibrated on
  `bench/data/labelled_pairs.yaml` for the bundled static model, where related-but-distinct
  facts sit around 0.6-0.8 cosine (so the seed's 0.7 would merge distinct facts).
- **borderline** (a person decides, in `kenning review`): not a clear duplicate, but the cosine
  is >= BORDER_COSINE or the edit similarity >= BORDER_LEXICAL, or the two state the same
  values at cosine >= VALUE_COSINE, or one leaves out some of the other's numbers at cosine
  >= FEWER_NUMBERS_COSINE; also clear duplicates of different kinds, and clear duplicates
  where a word was swapped or the polarity words differ.
- distinct otherwise; and always when the numbers conflict, the releases or periods differ, the
  two name other things in code (`dedup.other_names`) or the pair contradicts.

Duplicates are grouped by union-find and each group merges into its oldest fact: it keeps its
id, text and anchors (gaining the others' anchors and tags), its confidence becomes the
maximum current confidence of the group, and the others become `superseded` with
`superseded_by` pointing at it. Only facts of one store and kind merge: a project fact must
never be superseded by a personal fact the team cannot see.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING

from kenning.lifecycle.coaccess import UnionFind
from kenning.lifecycle.contradictions import analyse, check_pair, different_scope
from kenning.lifecycle.dedup import (
    DUPLICATE_RATIO,
    fewer_numbers,
    normalise,
    other_names,
    safe_to_merge,
    same_claim_words,
    same_numbers,
    same_values,
    states_a_quantity,
)
from kenning.search.topk import top_k

if TYPE_CHECKING:
    import numpy as np

    from kenning.core.records import Fact
    from kenning.index.facts import FactView
    from kenning.lifecycle.writes import FactWriter

CLEAR_RATIO = DUPLICATE_RATIO  # token_sort_ratio alone
CLEAR_COSINE = 0.85
CLEAR_LEXICAL = 70.0  # token_sort_ratio, together with CLEAR_COSINE
# Paraphrases rewritten in other words sit at 0.5-0.75 with the bundled model
# (bench/data/hard_pairs_dev.yaml); at 0.75 one of its 16 was offered for review, at 0.6
# eight, at 0.55 ten, while the 300 tessera facts gave 7 / 43 / 73 review pairs. With "once"
# no longer read as a number (dedup.numbers_in), 0.55 / 0.5 / 0.45 offered 10 / 12 / 12 of the
# 16 and 29 / 46 / 99 pairs among the tessera facts' ten nearest neighbours: 0.5 (issue 17's
# bar is 0.6 of paraphrases found, merged or offered).
BORDER_COSINE = 0.5
BORDER_LEXICAL = 80.0  # token_set_ratio
# Rewordings the static model puts lower still, found by what they state: the same values
# ("25 MB" / "twenty-five megabytes", "60 Hz" / "sixty times per second", "503" / "Service
# Unavailable"; `dedup.same_values`), offered for review at cosine >= VALUE_COSINE. Chosen on
# the development pair sets (lifecycle_test to lifecycle_test4, hard_pairs_dev): 0.3 / 0.35 /
# 0.4 found lifecycle_test4's paraphrases 28 / 28 / 27 of 45 and lifecycle_test's 20 / 20 / 19
# of 32, while review pairs among the 300 tessera facts went 46 (none) -> 49 / 48 / 46.
VALUE_COSINE = 0.35
# A long fact and its rewording that leaves out a version or an issue number ("since 0.20.0",
# "(issue #2018)"): one side's numbers within the other's, none of its own, is offered for
# review (never merged) at cosine >= FEWER_NUMBERS_COSINE. On the paraphrase distractors of
# fact_test to fact_test4 (real facts): 9 -> 13 of 20 found, review pairs among their 320
# facts +2, the tessera facts' +1; 0.6 / 0.7 / 0.8 found the same. A side with no number at all
# is not offered (0.8: 2 more of those 20, but +14 review pairs among pip-tools' 80 facts).
FEWER_NUMBERS_COSINE = 0.7
# The lowest cosine any rule above offers for review: consolidation judges each fact's
# NEIGHBOURS nearest at or above it.
CANDIDATE_COSINE = min(BORDER_COSINE, CLEAR_COSINE, VALUE_COSINE, FEWER_NUMBERS_COSINE)
# Consolidation runs after extraction only once a project has more facts than this.
AUTO_MIN_FACTS = 50
# Nearest neighbours considered per fact: duplicates are always among the closest.
NEIGHBOURS = 10
_BLOCK = 1024


@dataclass(frozen=True)
class PairVerdict:
    a: str
    b: str
    verdict: str  # duplicate | borderline | distinct
    cosine: float
    lexical: float  # token_sort_ratio of the normalised texts
    reason: str


@dataclass(frozen=True)
class Merge:
    survivor: str
    absorbed: tuple[str, ...]
    confidence: int  # hundredths: the group's maximum current confidence
    survivor_current: int  # the survivor's own current confidence when planned


@dataclass
class Plan:
    merges: list[Merge] = field(default_factory=list)
    borderline: list[PairVerdict] = field(default_factory=list)
    considered: int = 0  # facts looked at


@lru_cache(maxsize=32768)
def _prepared(text: str) -> str:
    return normalise(text)


def judge(text_a: str, text_b: str, cosine: float) -> tuple[str, float, str]:
    """(verdict, lexical score, reason) for two fact texts and their cosine."""
    from rapidfuzz import fuzz

    norm_a, norm_b = _prepared(text_a), _prepared(text_b)
    if not same_numbers(text_a, text_b):
        if not (cosine >= FEWER_NUMBERS_COSINE and fewer_numbers(text_a, text_b)):
            return "distinct", 0.0, "different numbers"
        lexical = fuzz.token_sort_ratio(norm_a, norm_b)
        verdict, reason = "borderline", f"cosine {cosine:.2f}, numbers left out"
    elif (lexical := fuzz.token_sort_ratio(norm_a, norm_b)) >= CLEAR_RATIO:
        verdict, reason = "duplicate", f"edit similarity {lexical:.0f}"
    elif cosine >= CLEAR_COSINE and lexical >= CLEAR_LEXICAL:
        verdict, reason = "duplicate", f"cosine {cosine:.2f}, edit similarity {lexical:.0f}"
    elif cosine >= BORDER_COSINE or fuzz.token_set_ratio(norm_a, norm_b) >= BORDER_LEXICAL:
        verdict, reason = "borderline", f"cosine {cosine:.2f}, edit similarity {lexical:.0f}"
    elif cosine >= VALUE_COSINE and (states_a_quantity(text_a) or states_a_quantity(text_b)) \
            and same_values(text_a, text_b):
        verdict, reason = "borderline", f"cosine {cosine:.2f}, the same values"
    else:
        return "distinct", lexical, f"cosine {cosine:.2f}"
    if other_names(text_a, text_b):
        return "distinct", lexical, "names other things"
    claim_a, claim_b = analyse(text_a), analyse(text_b)
    if different_scope(claim_a, claim_b):
        return "distinct", lexical, "different releases or periods"
    found = check_pair(claim_a, claim_b)
    if found:
        return "distinct", lexical, f"contradiction ({found[0]}: {found[1]})"
    if verdict == "duplicate" and not (same_claim_words(text_a, text_b)
                                       and safe_to_merge(text_a, text_b)):
        # A swapped word may be another subject or scope ("the orders service" / "the
        # billing service", "phone" / "tablet" at cosine 0.98), and other polarity words may
        # invert the claim ("keeps the radio on" / "turns it off", 0.97): a person decides.
        return "borderline", lexical, reason + ", a word differs"
    return verdict, lexical, reason


def neighbour_pairs(
    matrix: np.ndarray, threshold: float, k: int = NEIGHBOURS
) -> dict[tuple[int, int], float]:
    """(i, j) with i < j -> cosine, for each row's k nearest rows at or above `threshold`."""
    import numpy as np

    n = matrix.shape[0]
    if n < 2:
        return {}
    k = min(k, n - 1)
    found_i, found_j, found_s = [], [], []
    for start in range(0, n, _BLOCK):
        block = matrix[start:start + _BLOCK] @ matrix.T
        rows = np.arange(block.shape[0])
        block[rows, rows + start] = -1.0  # not one's own neighbour
        top = top_k(block, k, ordered=False)
        scores = np.take_along_axis(block, top, axis=1)
        keep = scores >= threshold
        left = np.broadcast_to((rows + start)[:, None], top.shape)[keep]
        right = top[keep]
        found_i.append(np.minimum(left, right))
        found_j.append(np.maximum(left, right))
        found_s.append(scores[keep])
    pairs_i, pairs_j = np.concatenate(found_i), np.concatenate(found_j)
    cosines = np.concatenate(found_s)
    keys, first = np.unique(pairs_i.astype(np.int64) * n + pairs_j, return_index=True)
    return {(int(key // n), int(key % n)): float(cosines[f]) for key, f in zip(keys, first,
                                                                            strict=True)}


def plan(views: Sequence[FactView], ids: Sequence[str], matrix: np.ndarray) -> Plan:
    """What consolidation would do to `views`, given the index's vectors (`ids`, `matrix`)."""
    import numpy as np

    result = Plan(considered=len(views))
    by_id = {v.row.id: v for v in views}
    position = {fid: n for n, fid in enumerate(ids)}
    chosen = [fid for fid in sorted(by_id) if fid in position]
    if len(chosen) < 2:
        return result
    sub = matrix[[position[fid] for fid in chosen]].astype(np.float32, copy=False)
    threshold = CANDIDATE_COSINE
    uf = UnionFind()
    for (i, j), cosine in sorted(neighbour_pairs(sub, threshold).items()):
        a, b = by_id[chosen[i]], by_id[chosen[j]]
        if a.row.store != b.row.store:
            continue
        verdict, lexical, reason = judge(a.row.text, b.row.text, cosine)
        if verdict == "duplicate" and a.row.kind != b.row.kind:
            verdict, reason = "borderline", reason + "; different kinds"
        if verdict == "duplicate":
            uf.union(a.row.id, b.row.id)
        elif verdict == "borderline":
            result.borderline.append(
                PairVerdict(a.row.id, b.row.id, verdict, round(cosine, 3), lexical, reason))
    for group in uf.groups():
        members = sorted(group, key=lambda fid: (by_id[fid].row.created, fid))
        result.merges.append(Merge(members[0], tuple(members[1:]),
                                   max(by_id[fid].current for fid in members),
                                   by_id[members[0]].current))
    result.merges.sort(key=lambda m: m.survivor)
    merged = {fid for m in result.merges for fid in (m.survivor, *m.absorbed)}
    result.borderline = [p for p in result.borderline
                         if not (p.a in merged and p.b in merged and _same_group(result, p))]
    result.borderline.sort(key=lambda p: (-p.cosine, p.a, p.b))
    return result


def _same_group(result: Plan, pair: PairVerdict) -> bool:
    for merge in result.merges:
        members = {merge.survivor, *merge.absorbed}
        if pair.a in members:
            return pair.b in members
    return False


def eligible(memory: FactWriter) -> list[FactView]:
    """Facts consolidation may touch: stored as active (decay's archival included)."""
    return [v for v in memory.fact_index.views() if v.row.status == "active"]


def consolidate(memory: FactWriter, dry_run: bool = False) -> Plan:
    """Merge the clear duplicates (unless `dry_run`); borderline pairs are only reported."""

    views = eligible(memory)
    ids, matrix = memory.index.fact_vectors()
    result = plan(views, ids, matrix)
    if not dry_run:
        for merge in result.merges:
            apply_merge(memory, merge)
    return result


def after_extraction(memory: FactWriter) -> Plan | None:
    """The automatic run: only once the project has more than AUTO_MIN_FACTS active facts."""
    if len(eligible(memory)) <= AUTO_MIN_FACTS:
        return None
    return consolidate(memory)


def merge_facts(memory: FactWriter, fact_ids: Sequence[str]) -> Merge:
    """A person's merge (review): the oldest of `fact_ids` absorbs the others."""
    from kenning.core.errors import KenningError

    ids = list(dict.fromkeys(fact_ids))
    if len(ids) < 2:
        raise KenningError("merge needs two or more fact ids")
    views = [memory.fact_index.get_view(fid) for fid in ids]
    stores = {v.row.store for v in views}
    if len(stores) > 1:
        raise KenningError("these facts live in different stores (project and personal); "
                           "move one with `kenning init --move-facts` first")
    members = sorted(views, key=lambda v: (v.row.created, v.row.id))
    merge = Merge(members[0].row.id, tuple(v.row.id for v in members[1:]),
                  max(v.current for v in views), members[0].current)
    apply_merge(memory, merge)
    return merge


def apply_merge(memory: FactWriter, merge: Merge) -> Fact:
    """Write one merge: the survivor gains anchors, tags and confidence; the rest supersede."""
    store = memory.store
    now: datetime = memory.clock()
    survivor = store.get(merge.survivor)
    about = list(survivor.about)
    tags = list(survivor.tags)
    for fid in merge.absorbed:
        other = store.get(fid)
        known = {(a.file, a.symbol) for a in about}
        about.extend(a for a in other.about if (a.file, a.symbol) not in known)
        tags.extend(t for t in other.tags if t not in tags)
    changes: dict[str, object] = {}
    if tuple(about) != survivor.about:
        changes["about"] = tuple(about)
    if tuple(tags) != survivor.tags:
        changes["tags"] = tuple(tags)
    if merge.confidence > merge.survivor_current:
        # `confidence` is the value at `confirmed`, so the raised value is dated now.
        changes.update(confidence=merge.confidence, confirmed=now)
    if survivor.status != "active":
        changes["status"] = "active"
    if changes:
        survivor = store.update(merge.survivor, **changes)
    for fid in merge.absorbed:
        store.set_status(fid, "superseded", superseded_by=merge.survivor)
    return survivor
