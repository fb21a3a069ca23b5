"""Near-duplicate detection for new facts: a duplicate re-confirms instead of piling up.

Deliberately strict (word-order-insensitive edit similarity >= 90): merging two distinct
facts loses knowledge, while a missed duplicate only costs a review.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import Protocol

DUPLICATE_RATIO = 90.0


class _HasText(Protocol):
    id: str
    text: str


# Not a letter or digit (`\w` is `str.isalnum` or "_"): a word break.
_NOT_ALNUM = re.compile(r"[\W_]+")


def normalise(text: str) -> str:
    return " ".join(_NOT_ALNUM.sub(" ", text.lower()).split())


# Not "one" nor "once": far more often a pronoun or a conjunction ("one of", "once a PR
# lands", "read once at startup") than a claim's value, and then a paraphrase that drops it
# was never a duplicate (three of hard_pairs_dev.yaml's sixteen). "one" before a unit is a
# number ("one day").
_NUMBER_WORDS = {w: str(n) for n, w in enumerate(
    "zero _ two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split()) if w != "_"} | {
    "twenty": "20", "thirty": "30", "forty": "40", "fifty": "50", "sixty": "60",
    "seventy": "70", "eighty": "80", "ninety": "90", "hundred": "100", "thousand": "1000",
    "twice": "2"}
_TENS = frozenset("twenty thirty forty fifty sixty seventy eighty ninety".split())
_DIGIT_WORDS = frozenset("one two three four five six seven eight nine".split())
# A number followed by one of these is one value in one unit: "24 hours" is "one day",
# "25 MB" is "twenty-five megabytes".
_UNITS = {word: ("s", factor) for words, factor in (
    ("ms millisecond milliseconds", 0.001), ("s sec secs second seconds", 1),
    ("min mins minute minutes", 60), ("h hr hrs hour hours", 3600), ("day days", 86400),
    ("week weeks", 604800)) for word in words.split()} | {
    word: ("b", factor) for words, factor in (
        ("b byte bytes", 1), ("kb kilobyte kilobytes", 1e3), ("kib", 1024),
        ("mb megabyte megabytes", 1e6), ("mib", 1024 ** 2), ("gb gigabyte gigabytes", 1e9),
        ("gib", 1024 ** 3), ("tb terabyte terabytes", 1e12)) for word in words.split()}
# The reason phrase of an HTTP status: "returns 503" and "responds with Service Unavailable"
# state one value. Read only against the other text's number (`same_values`): "accepted"
# alone is no status.
STATUS_PHRASES = {
    "200": "ok", "201": "created", "202": "accepted", "204": "no content",
    "301": "moved permanently", "304": "not modified", "400": "bad request",
    "401": "unauthorized", "403": "forbidden", "404": "not found",
    "405": "method not allowed", "409": "conflict", "410": "gone",
    "413": "payload too large", "415": "unsupported media type",
    "422": "unprocessable", "429": "too many requests", "500": "internal server error",
    "502": "bad gateway", "503": "service unavailable", "504": "gateway timeout"}


def _number_words(words: list[str]) -> list[str]:
    """Words with number words as digits: "twenty five" is 25, "one day" is "1 day"."""
    out: list[str] = []
    for n, word in enumerate(words):
        following = words[n + 1] if n + 1 < len(words) else ""
        if word in _DIGIT_WORDS and out and words[n - 1] in _TENS:
            out[-1] = str(int(out[-1]) + int(_NUMBER_WORDS.get(word, "1")))
        elif word == "one" and following in _UNITS:
            out.append("1")
        else:
            out.append(_NUMBER_WORDS.get(word, word))
    return out


def numbers_in(normalised: str) -> list[str]:
    """The numbers a text states, digits or words ("five minutes" is "5 minutes")."""
    return _numbers_of(_number_words(normalised.split()))


def _numbers_of(words: list[str]) -> list[str]:
    return sorted(w for w in words if _has_digit(w))


def _has_digit(word: str) -> bool:
    # `isalpha` first: most words are letters only, and C-fast to rule out.
    return not word.isalpha() and any(c.isdigit() for c in word)


def values_in(normalised: str) -> list[str]:
    """The numbers a text states, each in its unit's base when a unit follows it: "24 hours"
    and "one day" are one value, "25 MB" and "twenty-five megabytes" another, "an hour" and
    "60 minutes" a third (not "once a day": a rate, not an amount)."""
    return _values_of(_number_words(normalised.split()))


def _values_of(words: list[str]) -> list[str]:
    out = []
    for n, word in enumerate(words):
        unit = _UNITS.get(words[n + 1]) if n + 1 < len(words) else None
        if word in ("a", "an") and unit and (n == 0 or words[n - 1] not in _RATE_WORDS):
            word = "1"
        if not _has_digit(word):
            continue
        if unit and word.isdigit():
            out.append(f"{round(int(word) * unit[1], 3):f}".rstrip("0").rstrip(".") + unit[0])
        else:
            out.append(word)
    return sorted(out)


_RATE_WORDS = frozenset("once twice times per".split())


def same_numbers(a: str, b: str) -> bool:
    """Whether two texts state the same numbers: as written, or as values (`same_values`)."""
    return _numbers(a)[0] == _numbers(b)[0] or same_values(a, b)


def same_values(a: str, b: str) -> bool:
    """Whether two texts state the same values: numbers in their units' base, or a status
    code on one side and its reason phrase on the other ("404" / "not found")."""
    (_, values_a, norm_a), (_, values_b, norm_b) = _numbers(a), _numbers(b)
    if values_a == values_b:
        return True
    phrased_a = {code for code in values_b if code not in values_a
                 and f" {STATUS_PHRASES.get(code)} " in norm_a}
    phrased_b = {code for code in values_a if code not in values_b
                 and f" {STATUS_PHRASES.get(code)} " in norm_b}
    return bool(phrased_a or phrased_b) and sorted([*values_a, *phrased_a]) == sorted(
        [*values_b, *phrased_b])


def fewer_numbers(a: str, b: str) -> bool:
    """Whether one text states only numbers the other states too (a version, an issue number
    left out), none of its own."""
    for first, second in ((a, b), (b, a)):
        (numbers_1, values_1), (numbers_2, values_2) = _number_sets(first), _number_sets(second)
        if numbers_1 and (numbers_1 <= numbers_2 or values_1 <= values_2):
            return True
    return False


@lru_cache(maxsize=32768)
def _number_sets(text: str) -> tuple[frozenset[str], frozenset[str]]:
    numbers, values, _ = _numbers(text)
    return frozenset(numbers), frozenset(values)


_QUANTITY = re.compile(r"\d[\d.]*[sb]?")


def states_a_quantity(text: str) -> bool:
    """Whether a text states a number as such (not only inside a name: "urllib3", "UART0")."""
    return any(_QUANTITY.fullmatch(v) for v in _numbers(text)[1])


_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")


@lru_cache(maxsize=32768)
def _numbers(text: str) -> tuple[tuple[str, ...], tuple[str, ...], str]:
    """The numbers of a text as written, its values, and its normalised form padded with
    spaces; "1,000" is one number."""
    normalised = normalise(_THOUSANDS.sub("", text))
    words = _number_words(normalised.split())  # once for both readings
    return tuple(_numbers_of(words)), tuple(_values_of(words)), f" {normalised} "


# A name in code: a path ("src/api/orders.py", "~/.cache/acme", "tests/orders/", "/v2/orders"),
# a dotted name ("orders.events", "com.pinecrest.app") or a snake_case identifier. Not a pair
# of words with a slash ("read/write", "client/server"), nor "e.g." or a version.
_NAME = re.compile(r"[\w$~./-]*\w/?")
_DOTTED = re.compile(r"[a-z][a-z0-9-]+(?:\.[a-z][a-z0-9-]*)+")


def names_in(text: str) -> frozenset[str]:
    """The names in code a text gives (`_NAME`), lower case, without a leading "$", "~", "./"
    or a trailing dot."""
    found = set()
    for token in _NAME.findall(text.lower()):
        token = token.strip(".")
        if not any(c.isalpha() for c in token):
            continue
        path = token.count("/") >= 2 or (token.count("/") == 1 and (
            token[0] in "/~.$" or "." in token.rpartition("/")[2]))
        if path or "_" in token.strip("_") or _DOTTED.fullmatch(token):
            found.add(token.lstrip("$~./").rstrip("/"))
    return frozenset(found)


def other_names(a: str, b: str) -> bool:
    """Both texts name things in code and no name of one is within a name of the other
    ("tests/orders/" / "tests/shipping/", "orders.events" / "refunds.events"): two facts about
    two things, however alike their words ("should_strip_auth" is within
    "session.should_strip_auth": one thing)."""
    names_a, names_b = _names(a), _names(b)
    return bool(names_a and names_b) and not any(
        x in y or y in x for x in names_a for y in names_b)


@lru_cache(maxsize=32768)
def _names(text: str) -> frozenset[str]:
    return names_in(text)


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
    "A instead of B"; a second one adds "neg2": "cannot arm without GPS" is not "can arm
    without GPS"), each antonym's side
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
    negations = 0
    # punctuation aside: "use uv, not pip" and "use uv not pip" carry one negation
    for token in normalised_tokens(_PUNCTUATION.sub(" ", text)):
        if token in NEGATORS or token in PURE_NEGATORS or token == CONTRAST:
            negations += 1
            found.add("neg2" if negations > 1 else "neg")
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
    # rapidfuzz's own processor (lower case, non-alphanumerics to spaces) is `normalise` as
    # token_sort_ratio reads it, in C: a 10,000-fact store is not normalised in Python per add.
    for _, _score, fact_id in process.extract(
        query, texts, scorer=fuzz.token_sort_ratio, processor=utils.default_process,
        score_cutoff=DUPLICATE_RATIO, limit=5
    ):
        if same_numbers(text, texts[fact_id]) and not opposite(
                analyse(text), analyse(texts[fact_id])) and same_claim_words(
                text, texts[fact_id]) and safe_to_merge(text, texts[fact_id]):
            return fact_id
    return None
