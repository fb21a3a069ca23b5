"""Near-duplicate detection for new facts: a duplicate re-confirms instead of piling up.

Deliberately strict (word-order-insensitive edit similarity >= 90): merging two distinct
facts loses knowledge, while a missed duplicate only costs a review.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

DUPLICATE_RATIO = 90.0


class _HasText(Protocol):
    id: str
    text: str


def normalise(text: str) -> str:
    return " ".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def _numbers(normalised: str) -> list[str]:
    return sorted(w for w in normalised.split() if any(c.isdigit() for c in w))


def find_duplicate(text: str, candidates: Iterable[_HasText]) -> str | None:
    """The id of the existing fact that says the same thing, if any.

    Texts that differ in a number ("port 8080" / "port 9090") are never duplicates, however
    similar the rest: that is a different (maybe contradicting) claim. Nor are opposite
    claims ("the cache is enabled" / "disabled"): they differ by one word.
    """
    from rapidfuzz import fuzz, process

    from .contradictions import analyse, opposite

    texts = {c.id: c.text for c in candidates}
    pool = {fid: normalise(text) for fid, text in texts.items()}
    if not pool:
        return None
    query = normalise(text)
    numbers = _numbers(query)
    for _, _score, fact_id in process.extract(
        query, pool, scorer=fuzz.token_sort_ratio, score_cutoff=DUPLICATE_RATIO, limit=5
    ):
        if _numbers(pool[fact_id]) == numbers and not opposite(
                analyse(text), analyse(texts[fact_id])):
            return fact_id
    return None
