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
  mostly the same terms.

Word-level rules rather than embeddings: static embeddings put "always X" and "never X" at
0.9+ cosine (the negation is one token of many), so similarity alone cannot see polarity.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Protocol

from kenning.core.textutil import STOPWORDS, strip_suffix

# Dice overlap of content terms above which two texts talk about the same thing.
SAME_SUBJECT = 0.6
# A conflict that rests only on a contrast ("A, not B", "A instead of B") needs more.
SAME_SUBJECT_CONTRAST = 0.75
# A value contradiction's two texts share this much of their terms (one number changed).
SAME_VALUE_SUBJECT = 0.8
# For facts anchored to the same symbol, a value change may come with more rewording.
SAME_ANCHOR_SUBJECT = 0.5
# Order-sensitive similarity required when the only conflict is before/after: "lint after
# tests" and "tests before lint" say the same thing.
RELATIONAL_ORDER = 80.0
# Negation scope: this many content words after the cue, or up to a clause boundary.
SCOPE_WORDS = 6
# Candidate generation skips terms carried by more facts than this (they say nothing).
MAX_POSTING = 2000

_NEG = "\x00neg"  # a strong negation cue
_CONTRAST = "\x00contrast"  # "A, not B", "A instead of B": only B is negated
_PHRASES = [
    (r"\bno longer\b", _NEG), (r"\bnot anymore\b", _NEG), (r"\bany ?more\b", ""),
    (r"\binstead of\b", _CONTRAST), (r"\brather than\b", _CONTRAST),
    (r"\bin place of\b", _CONTRAST), (r",\s*not\b", f", {_CONTRAST}"),
    (r"\b(prefer\w*\b[^.;:!?,]*?)\bover\b", rf"\1 {_CONTRAST}"),
    (r"\bdo not\b", _NEG), (r"\bdoes not\b", _NEG), (r"\bdid not\b", _NEG),
    (r"\bmust not\b", _NEG), (r"\bshould not\b", _NEG), (r"\bcan not\b", _NEG),
    (r"\bturn(?:ed|s|ing)? off\b", "disable"), (r"\bswitch(?:ed|es|ing)? off\b", "disable"),
    (r"\bturn(?:ed|s|ing)? on\b", "enable"), (r"\bswitch(?:ed|es|ing)? on\b", "enable"),
    (r"\bahead of\b", "before"), (r"\bprior to\b", "before"), (r"\bafterwards?\b", "after"),
]
_PHRASE_RE = [(re.compile(p), r) for p, r in _PHRASES]
_NEGATORS = frozenset(
    """not no never nor neither without avoid avoids avoided avoiding stop stops stopped
    stopping skip skips skipped skipping omit omits omitted dont don't doesnt doesn't didnt
    didn't isnt isn't arent aren't wasnt wasn't wont won't cannot cant can't shouldnt
    shouldn't mustnt mustn't drop dropped dropping removed deprecated banned forbid forbids
    forbidden disallow disallowed prohibit prohibited abandon abandoned ditch ditched""".split()
) | {_NEG}
# negative form -> (positive term, relational?)
_ANTONYMS: dict[str, tuple[str, bool]] = {
    "disable": ("enable", False), "disabled": ("enable", False), "disables": ("enable", False),
    "disabling": ("enable", False),
    "exclude": ("include", False), "excluded": ("include", False),
    "excludes": ("include", False), "excluding": ("include", False),
    "deny": ("allow", False), "denied": ("allow", False), "denies": ("allow", False),
    "optional": ("required", False), "private": ("public", False),
    "immutable": ("mutable", False), "false": ("true", False),
    "asynchronous": ("synchronous", False), "async": ("synchronous", False),
    "after": ("before", True),
}
_POSITIVE_FORMS = {"enabled": "enable", "enables": "enable", "enabling": "enable",
                   "included": "include", "includes": "include", "including": "include",
                   "allowed": "allow", "allows": "allow", "require": "required",
                   "requires": "required", "sync": "synchronous"}
_KEEP = frozenset(term for term, _ in _ANTONYMS.values())  # never dropped as stopwords
_RELATIONAL = frozenset(term for term, relational in _ANTONYMS.values() if relational)
# Words that carry polarity or emphasis but no subject.
_NEUTRAL = frozenset("always must should please every all ever still just".split())
# A dot inside a number ("3.2", "v2.3.0") is not a clause boundary: versions stay whole.
_BOUNDARY = re.compile(r"\.(?![0-9])|[;:!?,()\[\]]|\bbut\b|\bhowever\b|\bso\b|\bbecause\b"
                       r"|\bwhile\b")
_TOKEN = re.compile(r"v?[0-9]+(?:\.[0-9]+)+|[a-z0-9_']+|\x00neg|\x00contrast")
# A number after one of these names *when or where* a claim holds (a release, a version, a
# period), not the claim's value: "release 2.0 dropped X" and "release 3.0 dropped Y" are both
# true. Claims whose scope numbers differ never contradict.
# A dotted number ("0.25", "3.2") or a year is read as a version or period too.
# "since" / "before" ... mark a period before a version or a year ("since 2.0", "until 2023"),
# not before a duration ("after 30 minutes").
_SCOPE_CUES = frozenset("since until till before after starting from".split())
_VERSION_WORDS = frozenset("release releases released version versions v python node".split())
_NUMBER = re.compile(r"\d")


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


class _FactLike(Protocol):
    id: str
    text: str


@dataclass(frozen=True)
class Contradiction:
    a: str
    b: str
    reason: str  # "opposite" | "value"
    detail: str  # the conflicting terms or numbers


def stem(word: str) -> str:
    """Crude English stemming, enough to make "deploying" meet "deploy"."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return strip_suffix(word, ("ments", "ment", "ing", "ed", "es", "s", "ly"))


def _normalise(text: str) -> str:
    lowered = text.lower().replace("\u2019", "'").replace("`", " ")
    for pattern, replacement in _PHRASE_RE:
        lowered = pattern.sub(f" {replacement} " if replacement else " ", lowered)
    return lowered


def _content_term(token: str) -> tuple[str | None, bool]:
    """The stemmed term `token` stands for (None for a stopword or a neutral word), and
    whether it is the negative side of an antonym pair."""
    flip = False
    if token in _ANTONYMS:
        token, flip = _ANTONYMS[token][0], True
    token = _POSITIVE_FORMS.get(token, token)
    if token not in _KEEP and (token in STOPWORDS or token in _NEUTRAL or len(token) < 2):
        return None, flip
    return (token if token in _KEEP else stem(token)), flip


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

    def negate(self, term: str, cue: str) -> None:
        self.negated.add(term)
        if cue == "strong":
            self.strong.add(term)

    def number(self, token: str, previous: str) -> tuple[str, str | None]:
        """Record a number; when it names a release, version or period, also the cue word
        before it ("since", or "" for none), which the caller takes as its open cue."""
        token = token.lstrip("v") if token[1:2].isdigit() else token
        self.numbers.append(token)
        versionish = "." in token or (len(token) == 4 and token[:2] in ("19", "20"))
        if previous not in _VERSION_WORDS and not versionish:
            return token, None
        self.scoped.add(token)
        cue = previous if previous in _SCOPE_CUES else ""
        self.scopes.add(f"{cue} {token}".strip())
        return token, cue

    def clause(self, clause: str) -> None:
        previous = ""
        cue: str | None = None  # the open cue, until its head term is found
        scope = 0  # neutral terms left after the head
        before: list[str] = []  # terms asserted before the cue
        for token in _TOKEN.findall(clause):
            token = token.strip("'")
            if not token:
                continue
            if token in _NEGATORS or token == _CONTRAST:
                cue, scope = ("strong" if token != _CONTRAST else "contrast"), 0
                continue
            if _NUMBER.search(token):
                token, scope_cue = self.number(token, previous)
                if scope_cue is not None:
                    cue = scope_cue  # a scoped number leaves a cue open, as it always has
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
                     frozenset(self.scoped), frozenset(self.scopes))


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


def opposite(a: Claim, b: Claim) -> set[str]:
    """The conflicting terms when `a` and `b` say opposite things about one subject."""
    overlap = dice(a.terms, b.terms)
    if overlap < SAME_SUBJECT:
        return set()
    conflicts = conflict_terms(a, b)
    if overlap < SAME_SUBJECT_CONTRAST and not conflicts & (a.strong | b.strong):
        return set()
    if conflicts and conflicts <= _RELATIONAL:
        from rapidfuzz import fuzz

        strip = [t for t in a.sequence if t not in _RELATIONAL]
        other = [t for t in b.sequence if t not in _RELATIONAL]
        if fuzz.ratio(" ".join(strip), " ".join(other)) < RELATIONAL_ORDER:
            return set()
    return conflicts


def different_scope(a: Claim, b: Claim) -> bool:
    """Both claims name a release, version or period, and not the same one ("since 2.0" and
    "before 2.0" are two periods)."""
    return bool(a.scopes and b.scopes and not a.scopes & b.scopes)


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
    if a.terms == b.terms and a.terms:
        return True
    overlap = dice(a.terms, b.terms)
    # One text may add a word to the other's claim; a swapped word is a different subject or
    # scope ("the API server ... 8080" / "the metrics server ... 9090", "production" / "staging").
    nested = a.terms <= b.terms or b.terms <= a.terms
    return (nested and overlap >= SAME_VALUE_SUBJECT) or (
        same_anchor and overlap >= SAME_ANCHOR_SUBJECT)


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
    out: list[Contradiction] = []
    for fact in candidates:
        other = analyse(fact.text)
        if not (claim.terms & other.terms):
            continue
        found = check_pair(claim, other, bool(keys & _anchor_keys(fact)))
        if found:
            out.append(Contradiction("", fact.id, *found))
    return out


def find_all(facts: Sequence[_FactLike]) -> list[Contradiction]:
    """Every contradicting pair among `facts`, each pair once (a.id < b.id).

    Candidates come from three cheap groupings instead of all n² pairs: a fact with a
    negated term meets the facts asserting that term; facts with identical terms but
    different numbers; facts anchored to the same symbol.
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
    out = []
    for x, y in sorted(candidates):
        same_anchor = bool(_anchor_keys(by_id[x]) & _anchor_keys(by_id[y]))
        found = check_pair(claims[x], claims[y], same_anchor)
        if found:
            out.append(Contradiction(x, y, *found))
    return out
