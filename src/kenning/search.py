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


def fuse(
    legs: Mapping[str, Sequence[str]],
    boosts: Mapping[str, Sequence[tuple[str, float]]] | None = None,
    k: int = RRF_K,
    notes: Mapping[str, Mapping[str, str]] | None = None,
) -> list[Ranked]:
    """Reciprocal Rank Fusion of the legs plus named boosts; ties broken by key for stability.

    `notes[key][leg]` adds detail to that leg's part of `why` (e.g. the cosine).
    Equal leg weights: per-leg weights were measured (0.5-2x on the semantic leg) and
    gained nothing on the frozen eval set.
    """
    boosts = boosts or {}
    notes = notes or {}
    ranked: list[Ranked] = []
    for key, per_leg in rrf_contributions(legs, k).items():
        score = sum(1.0 / (k + rank) for rank in per_leg.values())
        reasons = []
        for leg, rank in per_leg.items():
            detail = notes.get(key, {}).get(leg)
            reasons.append(f"{leg} #{rank}" + (f" ({detail})" if detail else ""))
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
