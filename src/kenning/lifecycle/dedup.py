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


# Not "one" nor "once": far more often a pronoun or a conjunction ("one of", "once a PR
# lands", "read once at startup") than a claim's value, and then a paraphrase that drops it
# was never a duplicate (three of hard_pairs_dev.yaml's sixteen).
_NUMBER_WORDS = {w: str(n) for n, w in enumerate(
    "zero _ two three four five six seven eight nine ten eleven twelve".split()) if w != "_"} | {
    "fifteen": "15", "twenty": "20", "thirty": "30", "forty": "40", "fifty": "50",
    "sixty": "60", "hundred": "100", "thousand": "1000", "twice": "2"}


def numbers_in(normalised: str) -> list[str]:
    """The numbers a text states, digits or words ("five minutes" is "5 minutes")."""
    return sorted(_NUMBER_WORDS.get(w, w) for w in normalised.split()
                  if w in _NUMBER_WORDS or any(c.isdigit() for c in w))


def same_claim_words(a: str, b: str) -> bool:
    """One text's content words lie within the other's: a rewording that adds or drops words,
    not one that swaps a subject or scope ("the admin endpoints" / "the public endpoints",
    "on Linux" / "on macOS"), and not two releases or periods ("since 2.0" / "before 2.0")."""
    from kenning.lifecycle.contradictions import analyse, different_scope

    first, second = analyse(a), analyse(b)
    if different_scope(first, second):
        return False
    return first.terms <= second.terms or second.terms <= first.terms


def find_duplicate(text: str, candidates: Iterable[_HasText]) -> str | None:
    """The id of the existing fact that says the same thing, if any.

    Texts that differ in a number ("port 8080" / "port 9090", "five" / "ten minutes") are
    never duplicates, however similar the rest: that is a different (maybe contradicting)
    claim. Nor are opposite claims ("the cache is enabled" / "disabled"): they differ by one
    word. Nor texts where a word was swapped rather than added (`same_claim_words`).
    """
    from rapidfuzz import fuzz, process, utils

    from kenning.lifecycle.contradictions import analyse, opposite

    texts = {c.id: c.text for c in candidates}
    if not texts:
        return None
    query = normalise(text)
    numbers = numbers_in(query)
    # rapidfuzz's own processor (lower case, non-alphanumerics to spaces) is `normalise` as
    # token_sort_ratio reads it, in C: a 10,000-fact store is not normalised in Python per add.
    for _, _score, fact_id in process.extract(
        query, texts, scorer=fuzz.token_sort_ratio, processor=utils.default_process,
        score_cutoff=DUPLICATE_RATIO, limit=5
    ):
        if numbers_in(normalise(texts[fact_id])) == numbers and not opposite(
                analyse(text), analyse(texts[fact_id])) and same_claim_words(
                text, texts[fact_id]):
            return fact_id
    return None
