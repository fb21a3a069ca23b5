"""Contradictions between facts (docs/design.md, "Keeping knowledge true"): pure functions, no I/O.

Two kinds are detected, precision first (a false alarm costs a person a look, but a flood of
them teaches people to ignore the list):

- **Opposite polarity on the same subject**: "always squash commits" / "never squash
  commits", "we use Celery" / "we stopped using Celery", "the cache is enabled" / "the
  cache is disabled", "run migrations before deploying" / "after deploying". Each text is
  reduced to stemmed content terms, each marked negated when it sits in the scope of a
  negation cue (`never`, `not`, `stopped`, `instead of`, ...) or is the negative side of an
  antonym pair (`disabled` is `enabled` negated). A pair contradicts when the two texts
  share most of their terms (Dice >= SAME_SUBJECT) and some shared term is asserted in one
  and negated in the other.
- **Different values for the same subject**: the numbers differ while everything else is the
  same claim: identical content terms, or (for facts anchored to the same file and symbol)
  mostly the same terms. In other words too: each text has one value of a measured kind (a
  duration or size, compared in one unit, an interval apart from a deadline; an HTTP
  status; a port), the values differ, and the texts share the subject (two terms besides the
  value's frame, a Dice overlap of 0.6) with no qualifier telling them apart ("staging" /
  "production", "POST" / "PUT", "default" / "maximum").

A claim scoped to a release or period ("since 2.0", "before 0.18") never contradicts one
about another period, nor an unscoped claim (history is not a claim about today); a version
number is never a negation cue ("python 3.12 is required" requires it). Number words count
as numbers ("five minutes").

Word-level rules rather than embeddings: static embeddings put "always X" and "never X" at
0.9+ cosine (the negation is one token of many), so similarity alone cannot see polarity.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Protocol

from kenning.core.textutil import STOPWORDS
from kenning.lifecycle.claimwords import (
    ANTONYMS,
    CONTRAST,
    KEEP,
    NEGATORS,
    NEUTRAL,
    NUMBER_WORD_RE,
    NUMBER_WORDS,
    PHRASE_RE,
    POSITIVE_FORMS,
    RELATIONAL,
    SCOPE_CUES,
    STEMMED_FRAME,
    STEMMED_QUALIFIERS,
    UNIT_TERMS,
    VERSION_WORDS,
    stem,
    value_of,
)

# Dice overlap of content terms above which two texts talk about the same thing.
SAME_SUBJECT = 0.6
# A conflict that rests only on a contrast ("A, not B", "A instead of B") needs more.
SAME_SUBJECT_CONTRAST = 0.75
# A value contradiction's two texts share this much of their terms (one number changed).
SAME_VALUE_SUBJECT = 0.8
# Terms two reworded texts share besides their value's unit, for "same claim, another value".
SAME_VALUE_TERMS = 2
# ... and this Dice overlap of their subject terms: long facts share two words with many
# others, and "password reset links" / "email verification links expire after ..." are two
# kinds of link (contradiction_pairs_dev.yaml: 0.5 let it through, 0.6 loses one paraphrase).
SAME_VALUE_DICE = 0.6
# For facts anchored to the same symbol, a value change may come with more rewording.
SAME_ANCHOR_SUBJECT = 0.5
# Order-sensitive similarity required when the only conflict is before/after: "lint after
# tests" and "tests before lint" say the same thing.
RELATIONAL_ORDER = 80.0
# Negation scope: this many content words after the cue, or up to a clause boundary.
SCOPE_WORDS = 6
# Candidate generation skips terms carried by more facts than this (they say nothing).
MAX_POSTING = 2000

# A dot inside a number ("3.2", "v2.3.0") is not a clause boundary: versions stay whole.
_BOUNDARY = re.compile(r"\.(?![0-9])|[;:!?,()\[\]]|\bbut\b|\bhowever\b|\bso\b|\bbecause\b"
                       r"|\bwhile\b")
_TOKEN = re.compile(r"v?[0-9]+(?:\.[0-9]+)+|[a-z0-9_']+|\x00neg|\x00contrast")
_NUMBER = re.compile(r"\d")


def _qualifiers(claim: Claim) -> list[frozenset[str]]:
    return [c & claim.terms for c in STEMMED_QUALIFIERS]


def different_things(a: Claim, b: Claim) -> bool:
    """The claims name different qualifiers of one class ("staging" / "production"), or only
    one of them names one."""
    return any(x != y for x, y in zip(_qualifiers(a), _qualifiers(b), strict=True))


@dataclass(frozen=True)
class Claim:
    """What one text asserts, reduced to terms (see the module docstring)."""

    terms: frozenset[str]  # stemmed content terms, numbers excluded
    positive: frozenset[str]  # terms asserted somewhere
    negated: frozenset[str]  # terms negated somewhere
    strong: frozenset[str]  # negated by a strong cue or an antonym (not "A, not B")
    numbers: tuple[str, ...]  # sorted
    sequence: tuple[str, ...]  # content terms in order (for before/after)
    scoped: frozenset[str] = frozenset()  # numbers that name a release, version or period
    scopes: frozenset[str] = frozenset()  # those numbers with their cue: "since 2.0"
    values: tuple[tuple[float, str | None], ...] = ()  # the other numbers: (value, kind)


class _FactLike(Protocol):
    id: str
    text: str


@dataclass(frozen=True)
class Contradiction:
    a: str
    b: str
    reason: str  # "opposite" | "value"
    detail: str  # the conflicting terms or numbers


def _normalise(text: str) -> str:
    lowered = text.lower().replace("\u2019", "'").replace("`", " ")
    for pattern, replacement in PHRASE_RE:
        lowered = pattern.sub(f" {replacement} " if replacement else " ", lowered)
    return NUMBER_WORD_RE.sub(lambda m: NUMBER_WORDS[m.group(1)], lowered)


def _content_term(token: str) -> tuple[str | None, bool]:
    """The stemmed term `token` stands for (None for a stopword or a neutral word), and
    whether it is the negative side of an antonym pair."""
    flip = False
    if token in ANTONYMS:
        token, flip = ANTONYMS[token][0], True
    token = POSITIVE_FORMS.get(token, token)
    if token not in KEEP and (token in STOPWORDS or token in NEUTRAL or len(token) < 2):
        return None, flip
    return (token if token in KEEP else stem(token)), flip


class _Reading:
    """What `analyse` has collected so far from one text, clause by clause."""

    def __init__(self) -> None:
        self.positive: set[str] = set()
        self.negated: set[str] = set()
        self.strong: set[str] = set()
        self.numbers: list[str] = []
        self.scoped: set[str] = set()
        self.scopes: set[str] = set()
        self.sequence: list[str] = []
        self.units: list[tuple[float, str | None]] = []

    def negate(self, term: str, cue: str) -> None:
        self.negated.add(term)
        if cue == "strong":
            self.strong.add(term)

    def number(self, token: str, previous: str, following: str, clause: str) -> str:
        """Record a number; when it names a release, version or period, also with the cue
        word before it ("since 2.0"); else the kind of value it is (`_unit`)."""
        token = token.lstrip("v") if token[1:2].isdigit() else token
        self.numbers.append(token)
        versionish = "." in token or (len(token) == 4 and token[:2] in ("19", "20"))
        if previous not in VERSION_WORDS and not versionish:
            self.units.append(value_of(token, previous, following, clause))
            return token
        self.scoped.add(token)
        cue = previous if previous in SCOPE_CUES else ""
        self.scopes.add(f"{cue} {token}".strip())
        return token

    def clause(self, clause: str) -> None:
        previous = ""
        cue: str | None = None  # the open cue, until its head term is found
        scope = 0  # neutral terms left after the head
        before: list[str] = []  # terms asserted before the cue
        tokens = [t.strip("'") for t in _TOKEN.findall(clause)]
        for at, token in enumerate(tokens):
            if not token:
                continue
            if token in NEGATORS or token == CONTRAST:
                cue, scope = ("strong" if token != CONTRAST else "contrast"), 0
                continue
            if _NUMBER.search(token):
                # A number is never a negation cue: "python 3.12 is required" requires it.
                following = " ".join(tokens[at + 1:at + 4])
                token = self.number(token, previous, following, clause)
                previous = token
                continue
            previous = token
            term, flip = _content_term(token)
            if term is None:
                continue
            self.sequence.append(term)
            if cue is not None:
                if flip:  # "never disable": the two negations cancel
                    self.positive.add(term)
                else:
                    self.negate(term, cue)
                cue, scope = None, SCOPE_WORDS
            elif scope:
                scope -= 1
            elif flip:
                self.negate(term, "strong")
            else:
                self.positive.add(term)
                before.append(term)
        if cue is not None and before:  # passive: "X is no longer used"
            self.positive.discard(before[-1])
            self.negate(before[-1], cue)

    def claim(self) -> Claim:
        terms = frozenset(self.positive | self.negated | set(self.sequence))
        return Claim(terms, frozenset(self.positive), frozenset(self.negated),
                     frozenset(self.strong), tuple(sorted(self.numbers)), tuple(self.sequence),
                     frozenset(self.scoped), frozenset(self.scopes), tuple(self.units))


@lru_cache(maxsize=32768)
def analyse(text: str) -> Claim:
    """Terms of `text` with their polarity.

    A negation cue negates the first content term after it (the verb or the object:
    "never *squash* commits", "stopped using *Celery*"), or, when nothing follows in the
    clause, the last one before it ("black is no longer used"). The rest of its scope is
    left neutral, so "don't edit generated files" does not deny that files are generated.
    """
    reading = _Reading()
    for clause in _BOUNDARY.split(_normalise(text)):
        reading.clause(clause)
    return reading.claim()


def dice(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 0.0
    return 2 * len(a & b) / (len(a) + len(b))


def conflict_terms(a: Claim, b: Claim) -> set[str]:
    """Shared terms only asserted in one text and only negated in the other."""
    only_pos_a, only_neg_a = a.positive - a.negated, a.negated - a.positive
    only_pos_b, only_neg_b = b.positive - b.negated, b.negated - b.positive
    return (only_pos_a & only_neg_b) | (only_neg_a & only_pos_b)


def swapped_word(a: Claim, b: Claim) -> bool:
    """Each text has exactly one term the other lacks, and one of the two sits in a negation's
    scope: the negation may be about that thing, not the claim ("we pin dependencies with
    uv" / "we no longer pin dependencies with pip" is a change of tool, both true)."""
    only_a, only_b = a.terms - b.terms, b.terms - a.terms
    if len(only_a) != 1 or len(only_b) != 1:
        return False
    return bool(only_a - a.positive - a.negated or only_b - b.positive - b.negated)


def one_word_apart(a: frozenset[str], b: frozenset[str]) -> bool:
    """Each set of terms has exactly one the other lacks: "the API server listens on port
    8080" / "the metrics server listens on port 9090" are two servers."""
    return len(a - b) == 1 and len(b - a) == 1


def opposite(a: Claim, b: Claim) -> set[str]:
    """The conflicting terms when `a` and `b` say opposite things about one subject."""
    overlap = dice(a.terms, b.terms)
    if overlap < SAME_SUBJECT or different_things(a, b) or swapped_word(a, b):
        return set()
    conflicts = conflict_terms(a, b)
    if overlap < SAME_SUBJECT_CONTRAST and not conflicts & (a.strong | b.strong):
        return set()
    if conflicts and conflicts <= RELATIONAL:
        from rapidfuzz import fuzz

        strip = [t for t in a.sequence if t not in RELATIONAL]
        other = [t for t in b.sequence if t not in RELATIONAL]
        if fuzz.ratio(" ".join(strip), " ".join(other)) < RELATIONAL_ORDER:
            return set()
    return conflicts


def different_scope(a: Claim, b: Claim) -> bool:
    """Both claims name a release, version or period, and not the same one ("since 2.0" and
    "before 2.0" are two periods), or only one names a period ("before 0.18 redirects were
    followed" is history, not a claim about today)."""
    if a.scopes and b.scopes:
        return not a.scopes & b.scopes
    return _period(a) != _period(b)


def _period(claim: Claim) -> bool:
    return any(" " in scope for scope in claim.scopes)  # "since 2.0", not a bare "3.12"


def different_values(a: Claim, b: Claim, same_anchor: bool = False) -> bool:
    """Same claim, one value changed ("expire after 30 minutes" / "after 60 minutes", "returns
    404" / "returns 410"): exactly one number differs, it names no scope, the rest is the same
    claim (the same terms, one text's terms within the other's and SAME_VALUE_SUBJECT of them,
    or mostly the same terms on one anchor)."""
    if not a.numbers or not b.numbers or a.numbers == b.numbers:
        return False
    only_a = set(a.numbers) - set(b.numbers)
    only_b = set(b.numbers) - set(a.numbers)
    if len(only_a) != 1 or len(only_b) != 1 or (only_a | only_b) & (a.scoped | b.scoped):
        return False
    kinds_a, kinds_b = {k for _, k in a.values if k}, {k for _, k in b.values if k}
    if kinds_a and kinds_b and not kinds_a & kinds_b:
        return False  # "8 processes" and "4 processes per CPU" are two kinds of value
    if a.terms == b.terms and a.terms:
        return True
    if reworded_value(a, b):
        return True
    overlap = dice(a.terms, b.terms)
    # One text may add a word to the other's claim; a swapped word is a different subject or
    # scope ("the API server ... 8080" / "the metrics server ... 9090", "production" / "staging").
    nested = a.terms <= b.terms or b.terms <= a.terms
    return (nested and overlap >= SAME_VALUE_SUBJECT) or (
        same_anchor and overlap >= SAME_ANCHOR_SUBJECT)


def reworded_value(a: Claim, b: Claim) -> bool:
    """The same claim in other words with another value of one kind: each text has one value
    whose kind is known and measured (a duration, a size, an HTTP status, a port), the two
    differ, and the texts share at least SAME_VALUE_TERMS other terms and no
    qualifier tells them apart ("the login endpoint answers a wrong password with HTTP 401" /
    "a bad password on login gets a 403 response")."""
    known_a = [v for v in a.values if v[1]]
    known_b = [v for v in b.values if v[1]]
    if len(known_a) != 1 or len(known_b) != 1:
        return False
    (x, kind), (y, other_kind) = known_a[0], known_b[0]
    if kind != other_kind or x == y or kind.startswith("count:"):
        # A count of things ("10 connections", "2 connections") is too often a count of
        # another scope (per pool, per worker) to call in other words; the same words with
        # another count still are a value contradiction (`different_values`).
        return False
    unit = {kind.removeprefix("count:").partition("/")[0]} | UNIT_TERMS
    subject_a, subject_b = a.terms - unit - STEMMED_FRAME, b.terms - unit - STEMMED_FRAME
    return (len(subject_a & subject_b) >= SAME_VALUE_TERMS
            and dice(subject_a, subject_b) >= SAME_VALUE_DICE
            and not different_things(a, b)
            and not one_word_apart(a.terms - UNIT_TERMS, b.terms - UNIT_TERMS))


def check_pair(a: Claim, b: Claim, same_anchor: bool = False) -> tuple[str, str] | None:
    """("opposite", terms) or ("value", numbers) when the claims contradict, else None."""
    if different_scope(a, b):
        return None
    conflicts = opposite(a, b)
    if conflicts:
        return "opposite", ", ".join(sorted(conflicts))
    if different_values(a, b, same_anchor):
        return "value", f"{' '.join(a.numbers)} vs {' '.join(b.numbers)}"
    return None


def _anchor_keys(fact: object) -> set[tuple[str, str | None]]:
    about = getattr(fact, "about", ()) or ()
    return {(a.file, a.symbol) for a in about if getattr(a, "symbol", None)}


def contradicting(
    text: str, candidates: Iterable[_FactLike], about: Sequence[object] = ()
) -> list[Contradiction]:
    """Existing facts that `text` (a new fact anchored to `about`) contradicts."""
    claim = analyse(text)
    keys = {(a.file, a.symbol) for a in about if getattr(a, "symbol", None)}  # type: ignore[attr-defined]
    shares = _sharing(text)
    out: list[Contradiction] = []
    for fact in candidates:
        same_anchor = bool(keys & _anchor_keys(fact))
        if not same_anchor and not shares(fact.text):
            continue
        other = analyse(fact.text)
        if not (claim.terms & other.terms):
            continue
        found = check_pair(claim, other, same_anchor)
        if found:
            out.append(Contradiction("", fact.id, *found))
    return out


# Two texts that share fewer word stems than this (by their first four letters) never make one
# claim: `contradicting` reads no further (an add on a 10,000-fact store analyses the few facts
# that share its words, not all of them).
SHARED_WORDS = 2
_WORD = re.compile(r"[a-z0-9][a-z0-9_]{2,}|[0-9]+")


def _sharing(text: str) -> Callable[[str], bool]:
    """A cheap test that another text shares SHARED_WORDS words with `text` (first four
    letters, stopwords and polarity words aside): every pair `check_pair` flags passes it."""
    words = {w[:4] for w in _WORD.findall(text.lower())
             if w not in STOPWORDS and w not in NEUTRAL}
    if len(words) < SHARED_WORDS:
        return lambda _other: False
    pattern = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, words))) + ")")

    def shares(other: str) -> bool:
        found = pattern.findall(other.lower())
        return len(set(found)) >= SHARED_WORDS

    return shares


def find_all(facts: Sequence[_FactLike]) -> list[Contradiction]:
    """Every contradicting pair among `facts`, each pair once (a.id < b.id).

    Candidates come from four cheap groupings instead of all n² pairs: a fact with a
    negated term meets the facts asserting that term; facts with identical terms but
    different numbers; facts anchored to the same symbol; facts with one value of the same
    kind that share a term.
    """
    claims = {f.id: analyse(f.text) for f in facts}
    by_id = {f.id: f for f in facts}
    candidates: set[tuple[str, str]] = set()

    def pair(x: str, y: str) -> None:
        if x != y:
            candidates.add((x, y) if x < y else (y, x))

    asserting: dict[str, list[str]] = {}
    for fid, claim in claims.items():
        for term in claim.positive:
            asserting.setdefault(term, []).append(fid)
    for fid, claim in claims.items():
        for term in claim.negated - claim.positive:
            posting = asserting.get(term, ())
            if len(posting) <= MAX_POSTING:
                for other in posting:
                    pair(fid, other)
    groups: dict[frozenset[str], list[str]] = {}
    anchored: dict[tuple[str, str | None], list[str]] = {}
    for fid, claim in claims.items():
        if claim.numbers:
            groups.setdefault(claim.terms, []).append(fid)
        for key in _anchor_keys(by_id[fid]):
            anchored.setdefault(key, []).append(fid)
    for members in list(groups.values()) + list(anchored.values()):
        if len(members) <= 200:
            for x, y in combinations(members, 2):
                pair(x, y)
    # A reworded value: facts with one measured value of a kind, sharing a term.
    valued: dict[tuple[str, str], list[str]] = {}
    for fid, claim in claims.items():
        known = [kind for _, kind in claim.values if kind]
        if len(known) == 1 and not known[0].startswith("count:"):
            for term in claim.terms:
                valued.setdefault((known[0], term), []).append(fid)
    for members in valued.values():
        if len(members) <= 200:
            for x, y in combinations(members, 2):
                pair(x, y)
    out = []
    for x, y in sorted(candidates):
        same_anchor = bool(_anchor_keys(by_id[x]) & _anchor_keys(by_id[y]))
        found = check_pair(claims[x], claims[y], same_anchor)
        if found:
            out.append(Contradiction(x, y, *found))
    return out
