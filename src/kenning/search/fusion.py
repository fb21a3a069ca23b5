"""Rank fusion and boosts (docs/design.md, "Search"): pure functions, no I/O.

Boosts are expressed on the RRF scale and kept small: a measured peer's usage boost was
three times the top RRF score, so any often-read file won every query.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

RRF_K = 60
RANKING_VERSION = "2"
LEG_DEPTH = 50
# RRF-scale worth of +0.1 confidence: about two ranks near the top of one leg.
BOOST_PER_TENTH = 0.0005
NEUTRAL_CONFIDENCE = 50


@dataclass(frozen=True)
class Ranked:
    key: str
    score: float
    why: str


def rrf_contributions(
    legs: Mapping[str, Sequence[str]], k: int = RRF_K
) -> dict[str, dict[str, int]]:
    """For each key, its 1-based rank in every leg that returned it."""
    ranks: dict[str, dict[str, int]] = {}
    for leg, keys in legs.items():
        for position, key in enumerate(keys, start=1):
            ranks.setdefault(key, {}).setdefault(leg, position)
    return ranks


def confidence_boost(confidence: int) -> float:
    """Confidence (hundredths) on the RRF scale, zero at 0.50."""
    return (confidence - NEUTRAL_CONFIDENCE) / 10 * BOOST_PER_TENTH


def rrf_term(rank: int, leg_k: int, k: int = RRF_K) -> float:
    """One leg's share for a 1-based rank: 1/(leg_k + rank), rescaled so that rank 1 is worth
    1/(k + 1) whatever `leg_k` is. A smaller `leg_k` falls off faster below the top, so a
    leg's clear #1 beats a chunk both legs only half like; rank 1 keeps its worth against
    the legs fused with the default k (facts beside code)."""
    return (leg_k + 1) / ((k + 1) * (leg_k + rank))


def fuse(
    legs: Mapping[str, Sequence[str]],
    boosts: Mapping[str, Sequence[tuple[str, float]]] | None = None,
    k: int = RRF_K,
    notes: Mapping[str, Mapping[str, str]] | None = None,
    weights: Mapping[str, float] | None = None,
    *,
    leg_k: Mapping[str, int] | None = None,
    scale: Mapping[str, Sequence[tuple[str, float]]] | None = None,
    key_weights: Mapping[str, Mapping[str, float]] | None = None,
) -> list[Ranked]:
    """Reciprocal Rank Fusion of the legs plus named boosts; ties broken by key for stability.

    `notes[key][leg]` adds detail to that leg's part of `why` (e.g. the cosine).
    `weights[leg]` (default 1) scales a leg: the facts' one fused leg stands for two legs.
    `leg_k[leg]` gives a leg its own k (see `rrf_term`); `scale[key]` multiplies a key's fused
    score by named factors (a test file's demotion) before the additive boosts;
    `key_weights[key][leg]` stands for `weights[leg]` for that key alone. Legs and keys not
    named in them fuse as plain RRF.
    """
    boosts = boosts or {}
    notes = notes or {}
    weights = weights or {}
    leg_k = leg_k or {}
    scale = scale or {}
    key_weights = key_weights or {}
    ranked: list[Ranked] = []
    for key, per_leg in rrf_contributions(legs, k).items():
        own = key_weights.get(key, weights)
        score = sum(own.get(leg, weights.get(leg, 1.0))
                    * (rrf_term(rank, leg_k[leg], k) if leg in leg_k else 1.0 / (k + rank))
                    for leg, rank in per_leg.items())
        reasons = []
        for leg, rank in per_leg.items():
            detail = notes.get(key, {}).get(leg)
            reasons.append(f"{leg} #{rank}" + (f" ({detail})" if detail else ""))
        for name, factor in scale.get(key, ()):
            score *= factor
            if factor != 1:
                reasons.append(f"{name} x{factor:g}")
        for name, value in boosts.get(key, ()):
            score += value
            if value:
                reasons.append(f"{name} {value:+.4f}")
        ranked.append(Ranked(key, score, ", ".join(reasons)))
    ranked.sort(key=lambda r: (-r.score, r.key))
    return ranked


# ---- facts: one ranking from the keyword and vector legs ----------------------------------
# A fact's score is its keyword strength, BM25 over ln(N + 1) (the IDF scale, so one weight
# holds from 80 facts to 10,000), plus COSINE_WEIGHT times its cosine: one linear sum of the
# two legs' own scores, not of their ranks (issue 17's sixth round).
#
# Why a sum of scores: the keyword leg was the reliable one on every unseen project so far
# (R@1 0.78-0.86 against the vector leg's 0.55-0.78), so rank fusions (equal-weight RRF, a
# per-query keyword share, the vectors reordering only when sure) either let a weak vector leg
# overturn a clear keyword first or kept the keyword order and gave up what the vectors knew.
# A sum keeps a clear keyword lead (strength gaps of 1-3 between a right fact and a near-miss
# are common; the cosine term moves at most COSINE_WEIGHT * (1 - MIN_COSINE)) and lets the
# vectors decide between facts the keywords scored alike. COSINE_WEIGHT was chosen with each
# of the six development projects held out in turn (tessera, httpx, requests, uvicorn,
# pip-tools, loguru; grid 0-2): 0.5 was the pick on every fold, and with each project held
# out the hybrid's R@1 is at or above its keyword leg's (bench/data/SPLITS.md).
# On the blind fact_test6: R@1 0.842 against its keyword leg's 0.817 (the keyword order 0.817).
COSINE_WEIGHT = 0.5
# The relevance floor: a fact reaches a result only if its keyword strength or its cosine
# clears one of these (below both, it shares a word or a vague topic, nothing more).
KEYWORD_FLOOR = 0.5
COSINE_FLOOR = 0.28
# A fact the keyword leg found but the vector leg did not return scored below the vector
# leg's own floor (search.topk.MIN_COSINE): it counts at that floor.
UNSEEN_COSINE = 0.15
# Below this many facts BM25's IDF is near zero for any shared term (FTS5 floors it), so a
# keyword match alone clears the floor.
SMALL_STORE = 50
# Confidence only breaks near-ties among facts: at most this much of the fused [0, 1] score.
CONFIDENCE_TIEBREAK = 0.01


@dataclass(frozen=True)
class FactScore:
    key: str
    score: float  # fused, in [0, 1]
    keyword: float  # BM25 / ln(N + 1), 0 when the keyword leg did not return it
    cosine: float | None
    why: str


def fact_score(strength: float, cosine: float | None) -> float:
    """The fused score of one fact before scaling: keyword strength (BM25 / ln(N + 1)) plus
    COSINE_WEIGHT times its cosine; monotone in both."""
    return strength + COSINE_WEIGHT * (UNSEEN_COSINE if cosine is None else cosine)


def fuse_facts(
    keyword: Sequence[tuple[str, float]],
    semantic: Sequence[tuple[str, float]],
    corpus_size: int,
    *,
    confidence: Mapping[str, int] | None = None,
) -> list[FactScore]:
    """Score fusion of the fact legs, floor applied, best first; ties broken by score parts
    (keyword strength, then cosine), then key, never by insertion order.

    `keyword`: (key, BM25 score, higher better), best first. `semantic`: (key, cosine), best
    first. `confidence`: current confidence (hundredths) per key, a tie-breaker only.
    """
    import math

    scale = math.log(corpus_size + 1) or 1.0
    strength = {key: score / scale for key, score in keyword}
    keyword_rank = {key: n for n, (key, _) in enumerate(keyword, start=1)}
    semantic_rank = {key: n for n, (key, _) in enumerate(semantic, start=1)}
    keyword_floor = KEYWORD_FLOOR if corpus_size >= SMALL_STORE else 0.0
    cosine = dict(semantic)
    kept: list[tuple[str, float, float, float | None]] = []
    for key in dict.fromkeys([k for k, _ in keyword] + [k for k, _ in semantic]):
        kw = strength.get(key, 0.0)
        cos = cosine.get(key)
        if (key not in strength or kw < keyword_floor) and (cos is None or cos < COSINE_FLOOR):
            continue
        kept.append((key, fact_score(kw, cos), kw, cos))  # not found by keywords: kw is 0
    best = max((raw for _, raw, _, _ in kept), default=0.0) or 1.0
    out: list[FactScore] = []
    for key, raw, kw, cos in kept:
        score = raw / best
        if confidence and key in confidence:
            score += (confidence[key] - 50) / 50 * CONFIDENCE_TIEBREAK
        parts = []
        if key in keyword_rank:  # BM25 gives words found in (nearly) every fact about 0
            parts.append(f"keyword #{keyword_rank[key]} " + (
                f"(bm25 {kw:.2f})" if kw >= 0.005 else "(its words are in most facts)"))
        if key in semantic_rank:
            parts.append(f"semantic #{semantic_rank[key]} (cos {cos:.2f})")
        out.append(FactScore(key, score, kw, cos, ", ".join(parts)))
    out.sort(key=lambda r: (-r.score, -r.keyword, -(r.cosine or 0.0), r.key))
    return out


# A file read or edited often lately nudges its chunks up, capped at about four ranks near
# the top: a peer's uncapped usage boost let any often-read file win every query.
ACTIVITY_CAP = 10
ACTIVITY_MAX_BOOST = 0.001


def activity_boost(events_last_30_days: int) -> float:
    return min(events_last_30_days, ACTIVITY_CAP) / ACTIVITY_CAP * ACTIVITY_MAX_BOOST


# A co-access peer's boost: worth +0.1 on the confidence scale, expressed on the RRF scale.
PEER_BOOST = BOOST_PER_TENTH


def peers_map(groups: Iterable[frozenset[str]]) -> dict[str, frozenset[str]]:
    """file -> the other files of its cluster."""
    out: dict[str, frozenset[str]] = {}
    for group in groups:
        for member in group:
            out[member] = group - {member}
    return out


def boosts_for(
    paths: Sequence[str | None],
    groups: Iterable[frozenset[str]] | Mapping[str, frozenset[str]],
    seeds: int = 3,
    boost: float = PEER_BOOST,
) -> dict[str, float]:
    """RRF-scale boosts for candidates that are cluster peers of a top candidate.

    `paths`: the candidates' files in fused rank order (None for a hit without a file).
    The first `seeds` distinct files are the seeds; every candidate file in a seed's
    cluster, other than that seed itself, gets `boost` once (it does not add up across
    seeds, so a big cluster cannot outvote relevance).
    """
    peers = groups if isinstance(groups, Mapping) else peers_map(groups)
    seed_files: list[str] = []
    for path in paths:
        if path and path not in seed_files:
            seed_files.append(path)
        if len(seed_files) >= seeds:
            break
    near: set[str] = set()
    for seed in seed_files:
        near |= peers.get(seed, frozenset())
    return {path: boost for path in dict.fromkeys(p for p in paths if p) if path in near}
