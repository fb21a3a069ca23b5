"""Rank fusion and boosts (DESIGN §6): pure functions, no I/O.

Boosts are expressed on the RRF scale and kept small: a measured peer's usage boost was
three times the top RRF score, so any often-read file won every query.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

RRF_K = 60
RANKING_VERSION = "1"
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
    *,
    leg_k: Mapping[str, int] | None = None,
    scale: Mapping[str, Sequence[tuple[str, float]]] | None = None,
) -> list[Ranked]:
    """Reciprocal Rank Fusion of the legs plus named boosts; ties broken by key for stability.

    `notes[key][leg]` adds detail to that leg's part of `why` (e.g. the cosine).
    Equal leg weights: per-leg weights were measured (0.5-2x on the semantic leg) and
    gained nothing on the frozen eval set. `leg_k[leg]` gives a leg its own k (see
    `rrf_term`); `scale[key]` multiplies a key's fused score by named factors (a test file's
    demotion) before the additive boosts. Legs and keys not named in them fuse as plain RRF.
    """
    boosts = boosts or {}
    notes = notes or {}
    leg_k = leg_k or {}
    scale = scale or {}
    ranked: list[Ranked] = []
    for key, per_leg in rrf_contributions(legs, k).items():
        score = sum(rrf_term(rank, leg_k[leg], k) if leg in leg_k else 1.0 / (k + rank)
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


# A file read or edited often lately nudges its chunks up, capped at about four ranks near
# the top: a peer's uncapped usage boost let any often-read file win every query.
ACTIVITY_CAP = 10
ACTIVITY_MAX_BOOST = 0.001


def activity_boost(events_last_30_days: int) -> float:
    return min(events_last_30_days, ACTIVITY_CAP) / ACTIVITY_CAP * ACTIVITY_MAX_BOOST
