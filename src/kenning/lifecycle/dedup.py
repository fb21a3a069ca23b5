"""Near-duplicate detection for new facts: a duplicate re-confirms instead of piling up.

Deliberately strict (word-order-insensitive edit similarity >= 90): merging two distinct
facts loses knowledge, while a missed duplicate only costs a review.
"""

from __future__ import annotations

import re
from collections import Counter
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


# Words that set which way a claim goes: a merge needs the same ones on both sides ("keeps
# the radio on" / "turns the radio off", cosine 0.97, is an inversion, not a rewording).
_POLARITY_PAIRS = {"on": "on", "off": "off", "only": "only", "always": "always",
                   "never": "neg", "true": "true", "false": "false", "before": "before",
                   # a rule for all things is not the same fact as one case of it
                   "all": "all", "every": "all", "each": "all", "any": "all"}


_PUNCTUATION = re.compile(r"[^\w\s'\u2019-]")


def polarity_words(text: str) -> frozenset[str]:
    """The polarity a text carries, as words: a negation or a contrast ("neg": "A, not B",
    "A instead of B"), each antonym's side
    ("-enable" for "disabled", "enable" for "enabled"), on / off, only, always, true / false,
    and a quantifier over all things ("all", "every")."""
    from kenning.lifecycle.claimwords import (
        ANTONYMS,
        CONTRAST,
        NEGATORS,
        POSITIVE_FORMS,
        PURE_NEGATORS,
    )
    from kenning.lifecycle.contradictions import normalised_tokens

    found: set[str] = set()
    # punctuation aside: "use uv, not pip" and "use uv not pip" carry one negation
    for token in normalised_tokens(_PUNCTUATION.sub(" ", text)):
        if token in NEGATORS or token in PURE_NEGATORS or token == CONTRAST:
            found.add("neg")
        elif token in ANTONYMS:
            found.add("-" + ANTONYMS[token][0])
        elif token in POSITIVE_FORMS:
            found.add(POSITIVE_FORMS[token])
        elif token in _POLARITY_PAIRS:
            found.add(_POLARITY_PAIRS[token])
    return frozenset(found)


def _words(text: str) -> Counter[str]:
    """Content words, stemmed, with their counts; an all-capitals word counts even when it is
    a stopword ("US" / "EU" are two regions, and "the US stack ... us-east-1" has "us" twice)."""
    from kenning.core.textutil import STOPWORDS
    from kenning.lifecycle.claimwords import IRREGULAR, stem

    out: Counter[str] = Counter()
    for raw in "".join(c if c.isalnum() else " " for c in text).split():
        word = raw.lower()
        if word not in STOPWORDS or (raw.isupper() and len(raw) > 1):
            word = stem(IRREGULAR.get(word, word))
            if len(word) > 4 and word[-1] == word[-2] and word[-1] not in "aeiousl":
                word = word[:-1]  # "shipped" -> "shipp" -> "ship"
            out[word] += 1
    return out


def safe_to_merge(a: str, b: str) -> bool:
    """Whether two texts that read alike may merge without a person: one's words lie within
    the other's (a word swapped may be another subject, scope or environment: "phone" /
    "tablet", "US" / "EU"), and both carry the same polarity words (`polarity_words`);
    otherwise a person decides. Two exceptions: "all" said on one side of the same words
    ("all outgoing calls" / "outgoing calls"; not "all list endpoints" / "the /orders list
    endpoint", a rule and one case of it), and before / after on one side only (a time, not an
    order: "cached for 60 seconds after they are read")."""
    words_a, words_b = _words(a), _words(b)
    if words_a - words_b and words_b - words_a:
        return False
    polarity_a, polarity_b = polarity_words(a), polarity_words(b)
    allowed = set()
    if words_a == words_b:
        allowed.add("all")
    if not (polarity_a & _ORDER and polarity_b & _ORDER):
        allowed |= _ORDER
    return not (polarity_a ^ polarity_b) - allowed


_ORDER = frozenset({"before", "-before"})


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
                text, texts[fact_id]) and safe_to_merge(text, texts[fact_id]):
            return fact_id
    return None
