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
  and negated in the other; or when the clause that holds the negation lies within the
  other's claim and the rest of the text is a reason or an aside ("we never squash PRs;
  merge commits keep the history"). What a cue negates is the whole phrase after it ("never
  runs *in parallel*"), so the other text must assert all of it; two texts that deny the
  same thing agree, however else they are worded.
- **Different values for the same subject**: the numbers differ while everything else is the
  same claim: identical content terms, or (for facts anchored to the same file and symbol)
  mostly the same terms. In other words too: each text has one value of a measured kind (a
  duration or size, compared in one unit, an interval apart from a deadline; an HTTP
  status; a port; a time of day), the values differ, and the texts share the subject (two
  terms besides the value's frame: "expire after" / "valid for", "listens on" / "binds";
  a Dice overlap of 0.6; or the same few terms) with no word swapped and no qualifier
  telling them apart where the value is said ("staging" / "production", "POST" / "PUT",
  "default" / "maximum").

A claim scoped to a release or period ("since 2.0", "before 0.18") never contradicts one
about another period, nor an unscoped claim (history is not a claim about today); a version
number is never a negation cue ("python 3.12 is required" requires it). Number words count
as numbers ("five minutes").

Word-level rules rather than embeddings: static embeddings put "always X" and "never X" at
0.9+ cosine (the negation is one token of many), so similarity alone cannot see polarity.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations
from typing import Protocol

from kenning.core.textutil import STOPWORDS
from kenning.lifecycle.claimwords import (
    ANTONYMS,
    CONTRAST,
    DURATION_SLOTS,
    IRREGULAR,
    KEEP,
    NEGATORS,
    NEUTRAL,
    NUMBER_WORD_RE,
    NUMBER_WORDS,
    ONE_UNIT_RE,
    PHRASE_RE,
    POSITIVE_FORMS,
    PURE_NEGATORS,
    RELATIONAL,
    SCOPE_CUES,
    STEMMED_FRAME,
    STEMMED_QUALIFIERS,
    SYNONYMS,
    UNIT_TERMS,
    VERSION_WORDS,
    stem,
    value_of,
)

# Dice overlap of content terms above which two texts talk about the same thing.
SAME_SUBJECT = 0.6
# ... or the clauses that carry the conflict share this many terms, one within the other (the
# rest of a text is a reason or an aside).
SAME_CLAUSE_TERMS = 3
# The clause holding a denial shares this many terms with the text it contradicts.
DENIED_SHARED = 2
# A clause that denies shares this many terms with a clause of the other text that asserts.
DENIED_TERMS = 3
# A conflict that rests only on a contrast ("A, not B", "A instead of B") needs more.
SAME_SUBJECT_CONTRAST = 0.75
# A value contradiction's two texts share this much of their terms (one number changed).
SAME_VALUE_SUBJECT = 0.8
# Terms two reworded texts share besides their value's unit, for "same claim, another value".
SAME_VALUE_TERMS = 2
# Whether a count of things ("8 processes") is a value two reworded texts can disagree on.
COUNTS_REWORDED = False
# ... and this Dice overlap of their subject terms: long facts share two words with many
# others, and "password reset links" / "email verification links expire after ..." are two
# kinds of link (contradiction_pairs_dev.yaml: 0.5 let it through, 0.6 loses one paraphrase).
SAME_VALUE_DICE = 0.3
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
# A dot ends a sentence only before a space or the end: "orders.events" is one name, "3.2" and
# "v2.3.0" versions; a colon between digits is a time of day ("02:00").
_BOUNDARY = re.compile(r"\.(?=\s|$)|:(?![0-9])|[;!?,()\[\]]|\bbut\b|\bhowever\b|\bso\b"
                       r"|\bbecause\b|\bwhile\b")
_TOKEN = re.compile(r"[0-9]{1,2}:[0-9]{2}\b|v?[0-9]+(?:\.[0-9]+)+|[a-z0-9_']+|\x00neg"
                    r"|\x00contrast")
_NUMBER = re.compile(r"\d")
_ARTICLES = frozenset("the a an is are was were be been being it its this that".split())
# Words that open a condition, to the end of their clause.
CONDITION_CUES = frozenset("when whenever if unless once".split())
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")


# Where a claim holds (an environment) is no subject of its own.
ENVIRONMENT_TERMS = STEMMED_QUALIFIERS[0]
QUALIFIER_TERMS = frozenset().union(*STEMMED_QUALIFIERS)


def _qualifiers(claim: Claim) -> list[frozenset[str]]:
    return [c & claim.terms for c in STEMMED_QUALIFIERS]


def _apart(a: Claim, b: Claim, focus_a: frozenset[str], focus_b: frozenset[str]) -> bool:
    """A qualifier tells the claims apart where they are made (the clauses that hold the focus
    terms, `_qualifiers_near`): one names it and the other does not name it anywhere."""
    return any(not (x <= all_y and y <= all_x) for x, y, all_x, all_y in zip(
        _qualifiers_near(a, focus_a), _qualifiers_near(b, focus_b), _qualifiers(a),
        _qualifiers(b), strict=True))


def _qualifiers_near(claim: Claim, terms: frozenset[str]) -> list[frozenset[str]]:
    """The qualifiers of the clauses that hold `terms`, and of clauses of nothing but
    qualifiers ("in production, ..."): not those of a reason beside the claim ("installing
    the hooks is optional because CI runs the same checks")."""
    near = frozenset().union(*(c for c in claim.clauses
                               if c & terms or (c and c <= QUALIFIER_TERMS | STEMMED_FRAME)))
    return [c & near for c in STEMMED_QUALIFIERS]


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
    clauses: tuple[frozenset[str], ...] = ()  # the content terms of each clause, in order
    value_clauses: tuple[int, ...] = ()  # the clause each of `values` sits in
    clause_negated: tuple[frozenset[str], ...] = ()  # the negated terms of each clause
    # a term a cue negated, with the terms in the cue's scope after it ("never runs in
    # parallel": run, {parallel})
    denied_with: tuple[tuple[str, frozenset[str]], ...] = ()
    # the terms of a condition ("when the database is reachable"): what holds it to a case
    conditions: frozenset[str] = frozenset()
    # the names a text gives a slot ("the gh-pages branch", "bucket acme-tfstate"): (slot, name)
    names: tuple[tuple[str, str], ...] = ()
    # the URL paths a text names without a number ("/search", "/api/orders"): what it is about
    paths: frozenset[str] = frozenset()

    def clause_of(self, term: str) -> frozenset[str]:
        """The terms of the clauses that hold `term` (a term may recur in several)."""
        return frozenset().union(*(c for c in self.clauses if term in c))


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
    lowered = ONE_UNIT_RE.sub("1 ", lowered)
    lowered = _THOUSANDS.sub("", lowered)  # "2,000 steps" is one number
    return NUMBER_WORD_RE.sub(lambda m: NUMBER_WORDS[m.group(1)], lowered)


def normalised_tokens(text: str) -> list[str]:
    """The tokens `analyse` reads, negation phrases already cues ("no longer" -> a cue)."""
    return [t.strip("'") for t in _TOKEN.findall(_normalise(text))]


def _content_term(token: str) -> tuple[str | None, bool]:
    """The stemmed term `token` stands for (None for a stopword or a neutral word), and
    whether it is the negative side of an antonym pair."""
    flip = False
    if token in ANTONYMS:
        token, flip = ANTONYMS[token][0], True
    token = SYNONYMS.get(token, token)
    token = POSITIVE_FORMS.get(token, IRREGULAR.get(token, token))
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
        self.clauses: list[set[str]] = []
        self.clause_negated: list[set[str]] = []
        self.denied_with: dict[str, set[str]] = {}
        self.unit_clauses: list[int] = []
        self.conditions: set[str] = set()

    def negate(self, term: str, cue: str) -> None:
        self.negated.add(term)
        if cue in ("strong", "pure"):
            self.strong.add(term)
        if cue == "pure":  # "not", "never", "disabled": no verb that may mean something else
            self.clause_negated[-1].add(term)

    def number(self, token: str, previous: str, following: str, clause: str) -> str:
        """Record a number; when it names a release, version or period, also with the cue
        word before it ("since 2.0"); else the kind of value it is (`_unit`)."""
        named = token[:1] == "v" and token[1:2].isdigit()  # "v2", "/v2/invoices"
        token = token.lstrip("v") if token[1:2].isdigit() else token
        self.numbers.append(token)
        versionish = named or "." in token or (len(token) == 4 and token[:2] in ("19", "20"))
        if previous not in VERSION_WORDS and not versionish:
            self.units.append(value_of(token, previous, following, clause))
            self.unit_clauses.append(len(self.clauses) - 1)
            return token
        self.scoped.add(token)
        cue = previous if previous in SCOPE_CUES else ""
        self.scopes.add(f"{cue} {token}".strip())
        return token

    def clause(self, clause: str) -> None:
        self.clauses.append(set())
        self.clause_negated.append(set())
        previous = ""
        cue: str | None = None  # the open cue, until its head term is found
        scope = 0  # neutral terms left after the head
        before: list[str] = []  # terms asserted before the cue
        head = ""  # the term the last cue negated
        tokens = [t.strip("'") for t in _TOKEN.findall(clause)]
        conditional = False
        for at, token in enumerate(tokens):
            if not token:
                continue
            if token in CONDITION_CUES:
                conditional = True
                continue
            if token in NEGATORS or token == CONTRAST:
                cue = "contrast" if token == CONTRAST else (
                    "pure" if token in PURE_NEGATORS else "strong")
                scope = 0
                continue
            if _NUMBER.search(token):
                if cue is not None and token.isdigit():  # "200, not 201": no value
                    cue = None
                    continue
                # A number is never a negation cue: "python 3.12 is required" requires it.
                following = " ".join(tokens[at + 1:at + 5])
                token = self.number(token, previous, following, clause)
                previous = token
                continue
            previous = token
            if conditional and token not in _ARTICLES:  # "down" is a stopword, not here
                self.conditions.add(stem(token))
            term, flip = _content_term(token)
            if term is None:
                continue
            self.sequence.append(term)
            self.clauses[-1].add(term)
            if cue is not None:
                if flip:  # "never disable": the two negations cancel
                    self.positive.add(term)
                else:
                    self.negate(term, cue)
                    head = term
                cue, scope = None, SCOPE_WORDS
            elif scope:
                scope -= 1
                if head:  # "never runs *in parallel*": what is denied is the whole phrase
                    self.denied_with.setdefault(head, set()).add(term)
            elif flip:
                self.negate(term, "pure")
            else:
                self.positive.add(term)
                before.append(term)
        if cue is not None and before:  # passive: "support for X has been dropped"
            for term in before:  # the whole subject is denied, not its last word
                self.positive.discard(term)
                self.negate(term, cue)

    def claim(self) -> Claim:
        terms = frozenset(self.positive | self.negated | set(self.sequence))
        return Claim(terms, frozenset(self.positive), frozenset(self.negated),
                     frozenset(self.strong), tuple(sorted(self.numbers)), tuple(self.sequence),
                     frozenset(self.scoped), frozenset(self.scopes), tuple(self.units),
                     tuple(frozenset(c) for c in self.clauses), tuple(self.unit_clauses),
                     tuple(frozenset(c) for c in self.clause_negated),
                     tuple((h, frozenset(t)) for h, t in self.denied_with.items()),
                     frozenset(self.conditions))


# Nouns whose name is a claim's value: "published from the gh-pages branch" / "deployed from
# the docs-live branch" name two branches for one slot.
NAMED_SLOTS = frozenset("branch branches bucket buckets header headers topic queue "
                        "registry namespace workspace".split())
# Words before such a noun that describe it rather than name it ("a feature branch", "the
# remote branch", "an S3 bucket").
_NOT_NAMES = frozenset("""feature remote local shared same separate own new existing default
    long-lived protected git s3 gcs storage http request response custom kafka message
    dedicated single each every its their this that""".split())
_NAME = re.compile(r"[a-z0-9][a-z0-9._/*-]*")
_DEFINITE = frozenset("the its their our".split())


def _names(normalised: str) -> tuple[tuple[str, str], ...]:
    """(slot, name) for each named slot: the word before the slot noun, skipping words that
    describe it ("the acme-builds s3 bucket"), or the name right after it ("bucket
    acme-tfstate-prod", "header x-signature-256")."""
    words = normalised.replace("`", " ").split()
    words = [w.strip(".,;:()'\"") for w in words]
    found = []
    for at, word in enumerate(words):
        if word not in NAMED_SLOTS:
            continue
        slot = word.rstrip("es") if word.endswith("hes") else word.rstrip("s")
        back = at - 1
        while back >= 0 and words[back] in _NOT_NAMES:
            back -= 1
        # a name before the noun follows "the" ("the release branch"; "keeps branches" and
        # "a dated header" name nothing); one after it looks like a name ("bucket acme-x")
        before = (words[back] if back >= 1 and words[back - 1] in _DEFINITE
                  and word == slot else "")
        after = words[at + 1] if at + 1 < len(words) else ""
        if not any(c in after for c in "-_./*0123456789"):
            after = ""
        for name in (before, after):
            if (name and _NAME.fullmatch(name) and name not in STOPWORDS
                    and name not in _NOT_NAMES and not name.isdigit()):
                # a name that repeats the text's own words names the subject's thing, not a
                # value for it: "orders events go to the orders.events topic"
                parts = set(re.split(r"[^a-z0-9]+", name)) - {""}
                elsewhere = {w.rstrip("s") for n, w in enumerate(words) if n not in (
                    at - 1, at + 1)}
                if not {p.rstrip("s") for p in parts} & elsewhere:
                    found.append((slot, name))
                break
    return tuple(found)


@lru_cache(maxsize=32768)
def analyse(text: str) -> Claim:
    """Terms of `text` with their polarity.

    A negation cue negates the first content term after it (the verb or the object:
    "never *squash* commits", "stopped using *Celery*"), or, when nothing follows in the
    clause, the last one before it ("black is no longer used"). The rest of its scope is
    left neutral, so "don't edit generated files" does not deny that files are generated.
    """
    reading = _Reading()
    normalised = _normalise(text)
    for clause in _BOUNDARY.split(normalised):
        reading.clause(clause)
    claim = reading.claim()
    names = _names(normalised)
    paths = frozenset(_PATH.findall(normalised))
    return replace(claim, names=names, paths=paths) if names or paths else claim


# A URL path with no digit: an endpoint a claim is about, not a value ("/v2" is a version).
_PATH = re.compile(r"(?<![\w./$~-])/[a-z][a-z_/-]*[a-z](?![\w./])")


def other_paths(a: Claim, b: Claim) -> bool:
    """Both texts name endpoints and none is the same ("Cobble's /search endpoint ... 50 a
    second" / "its /suggest endpoint allows 500"): two subjects, whatever their values."""
    return bool(a.paths and b.paths and not a.paths & b.paths)


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
    """The conflicting terms when `a` and `b` say opposite things about one subject: the two
    texts share most of their terms, or, where one adds a reason or an aside in another clause
    ("we never squash PRs; merge commits keep the history"), the clauses that carry the
    conflict do (one within the other, SAME_CLAUSE_TERMS shared, a strong negation only), or
    a clause of one plainly denies a clause of the other (`denied_clause`)."""
    if swapped_word(a, b) or any(x and y and x != y for x, y in zip(
            _qualifiers(a), _qualifiers(b), strict=True)):
        return set()
    if (a.negated - a.positive) & (b.negated - b.positive):
        # Both deny the same thing ("Node 16 is no longer supported" / "support for Node 16
        # has been dropped"): where else their negations fall is wording, not a conflict.
        return set()
    conflicts = conflict_terms(a, b)
    overlap = dice(a.terms, b.terms)
    if overlap < SAME_SUBJECT:
        conflicts = {t for t in conflicts & (a.strong | b.strong)
                     if _same_clause(a.clause_of(t), b.clause_of(t))}
    elif overlap < SAME_SUBJECT_CONTRAST and not conflicts & (a.strong | b.strong):
        conflicts = set()
    conflicts = {t for t in conflicts if _denial_holds(*((a, b) if t in a.negated else (b, a)), t)}
    conflicts |= denied_clause(a, b) | denied_clause(b, a)
    if not (a.terms & b.terms) - conflicts - ENVIRONMENT_TERMS:
        return set()  # "timeouts are enabled in production" / "DEBUG is off in production"
    if conflicts and _apart(a, b, frozenset(conflicts), frozenset(conflicts)):
        return set()  # "in production" on one side only, beside the claim
    if conflicts and conflicts <= RELATIONAL:
        from rapidfuzz import fuzz

        strip = [t for t in a.sequence if t not in RELATIONAL]
        other = [t for t in b.sequence if t not in RELATIONAL]
        if fuzz.ratio(" ".join(strip), " ".join(other)) < RELATIONAL_ORDER:
            return set()
    return conflicts


def _denial_holds(denying: Claim, other: Claim, term: str) -> bool:
    """`other` asserts what `denying` denies of `term`: the rest of the denied phrase too ("the
    test suite never runs in parallel" denies nothing "run the tests with make" says), and the
    clause that denies shares DENIED_SHARED terms with it ("don't use requests; httpx is the
    HTTP client" says nothing of "the HTTP client retries failed requests")."""
    with_term = dict(denying.denied_with).get(term, frozenset())
    return with_term <= other.terms and len(
        denying.clause_of(term) & other.terms) >= DENIED_SHARED


def denied_clause(a: Claim, b: Claim) -> set[str]:
    """The negated terms of a clause of `a` that denies what a clause of `b` asserts: `b`'s
    clause has no negation and holds every term of the denying clause, DENIED_TERMS at least
    ("background refresh is not used" / "syncs in the background using background refresh").
    Not with another verb: "must not be stored in Redis" / "are kept in Redis" reads as "don't
    mock the database in unit tests" / "unit tests run against an in-memory database"."""
    found: set[str] = set()
    for terms, negated in zip(a.clauses, a.clause_negated, strict=True):
        if not negated:
            continue
        for other, other_negated in zip(b.clauses, b.clause_negated, strict=True):
            if (not other_negated and negated <= other
                    and len(terms & other) >= DENIED_TERMS and terms <= other):
                # what `b` denies elsewhere it does not plainly assert: a text saying both
                # ("cache disabled lint, cache enabled lint") takes no side, not even
                # against itself
                found |= negated - b.negated
    return found


def _same_clause(a: frozenset[str], b: frozenset[str]) -> bool:
    """One clause's terms lie within the other's (a word swapped is another subject: "plan
    upgrades are prorated" / "plan downgrades are not prorated"), SAME_CLAUSE_TERMS shared."""
    return len(a & b) >= SAME_CLAUSE_TERMS and (a <= b or b <= a)


def different_scope(a: Claim, b: Claim) -> bool:
    """Both claims name a release, version or period, and not the same one ("since 2.0" and
    "before 2.0" are two periods), or only one names a period ("before 0.18 redirects were
    followed" is history, not a claim about today)."""
    if a.scoped and b.scoped and a.scoped != b.scoped:
        # "Python 3.10 support was dropped in 4.0" / "4.0 dropped support for Python 3.8"
        return True
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
    if kinds_a and kinds_b and not any(same_slot(x, y) for x in kinds_a for y in kinds_b):
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


def reworded_value(a: Claim, b: Claim, counts: bool = COUNTS_REWORDED) -> bool:
    """The same claim in other words with another value in the same slot: for a measured kind
    both texts name (a duration, a size, a rate, an HTTP status, a port, a time of day), each
    has exactly one value of it, the two differ and no value is said on both sides; the texts
    share SAME_VALUE_TERMS subject terms (units, frame words and qualifiers aside: "the login
    endpoint answers a wrong password with HTTP 401" / "a bad password on login gets a 403
    response"), or the same few; no qualifier tells them apart where the value is said, and no
    subject word is swapped for another ("the API server" / "the metrics server")."""
    known_a = [(i, v) for i, v in enumerate(a.values) if v[1]]
    known_b = [(i, v) for i, v in enumerate(b.values) if v[1]]
    if {x for x, _ in a.values} & {y for y, _ in b.values}:
        return False  # one value said on both sides: the other is another value's claim
    for kind in sorted({_base(v[1]) for _, v in known_a} & {_base(v[1]) for _, v in known_b}):
        if kind.startswith("count:") and not counts:
            # A count of things ("10 connections", "2 connections") is too often a count of
            # another scope (per pool, per worker) to call in other words; the same words with
            # another count still are a value contradiction (`different_values`).
            continue
        of_a = [(i, k) for i, (_, k) in known_a if _base(k) == kind]
        of_b = [(i, k) for i, (_, k) in known_b if _base(k) == kind]
        if len(of_a) != 1 or len(of_b) != 1 or not same_slot(of_a[0][1], of_b[0][1]):
            continue
        (index_a, _), (index_b, _) = of_a[0], of_b[0]
        unit = {kind.removeprefix("count:").partition("/")[0]} | UNIT_TERMS
        subject_a = a.terms - unit - STEMMED_FRAME
        subject_b = b.terms - unit - STEMMED_FRAME
        # "Application logs are kept for 30 days" / "we retain application logs for 90 days":
        # the same subject (however short) framed by other verbs.
        same = (subject_a == subject_b and bool(subject_a)) or (
            len(subject_a & subject_b) >= SAME_VALUE_TERMS
            and dice(subject_a, subject_b) >= SAME_VALUE_DICE)
        near_a = a.clauses[a.value_clauses[index_a]]
        near_b = b.clauses[b.value_clauses[index_b]]
        if two_cases(a, b):
            continue
        if (same and not _apart(a, b, near_a, near_b)
                and not one_word_apart(subject_a, subject_b)):
            return True
    return False


def two_cases(a: Claim, b: Claim) -> bool:
    """Both texts hold their claim to a condition, and the two conditions share no word: "200
    when the cache is warm" / "503 if a migration is running" are two cases. (Conditions that
    share words may say one thing: "when the database is up" / "is reachable".)"""
    return bool(a.conditions and b.conditions and not a.conditions & b.conditions)


def _base(kind: str) -> str:
    """A value's kind without the slot it fills: "duration:every", not ":timeout"."""
    base, _, slot = kind.rpartition(":")
    return base if base and slot in SLOTS else kind


def same_slot(kind_a: str, kind_b: str) -> bool:
    """Two kinds of value fill one slot: the same kind, and the same slot where both texts say
    what the value measures ("cached for" / "time out after" are two)."""
    if _base(kind_a) != _base(kind_b):
        return False
    return kind_a == kind_b or kind_a == _base(kind_a) or kind_b == _base(kind_b)


SLOTS = frozenset(DURATION_SLOTS.values())


def check_pair(a: Claim, b: Claim, same_anchor: bool = False) -> tuple[str, str] | None:
    """("opposite", terms) or ("value", numbers) when the claims contradict, else None."""
    if different_scope(a, b) or other_paths(a, b):
        return None
    conflicts = opposite(a, b)
    if conflicts:
        return "opposite", ", ".join(sorted(conflicts))
    if different_values(a, b, same_anchor):
        return "value", f"{' '.join(a.numbers)} vs {' '.join(b.numbers)}"
    named = different_names(a, b)
    if named:
        return "value", named
    return None


def different_names(a: Claim, b: Claim) -> str:
    """"x vs y" when the texts name one slot differently ("the gh-pages branch" / "the
    docs-live branch"): each names it once, neither name is said in the other text, and the
    rest is one subject as for a reworded value (SAME_VALUE_TERMS shared, SAME_VALUE_DICE, no
    qualifier or condition telling them apart, no subject word swapped)."""
    for slot in sorted({s for s, _ in a.names} & {s for s, _ in b.names}):
        of_a = [n for s, n in a.names if s == slot]
        of_b = [n for s, n in b.names if s == slot]
        if len(of_a) != 1 or len(of_b) != 1 or of_a[0] == of_b[0]:
            continue
        words_a = {stem(w) for w in re.split(r"[^a-z0-9]+", of_a[0]) if w}
        words_b = {stem(w) for w in re.split(r"[^a-z0-9]+", of_b[0]) if w}
        if words_a <= b.terms or words_b <= a.terms:
            continue  # the other text names it too
        # the names stay in the subject: "orders events go to the orders.events topic" and
        # "refunds events go to the refunds.events topic" swap a subject word
        frame = {stem(slot)} | STEMMED_FRAME
        subject_a, subject_b = a.terms - frame, b.terms - frame
        if not (len(subject_a & subject_b) >= SAME_VALUE_TERMS
                and dice(subject_a, subject_b) >= SAME_VALUE_DICE):
            continue
        if two_cases(a, b):
            continue
        if _apart(a, b, a.terms, b.terms) or one_word_apart(subject_a, subject_b):
            continue
        return f"{slot} {of_a[0]} vs {of_b[0]}"
    return ""


def _anchor_keys(fact: object) -> set[tuple[str, str | None]]:
    about = getattr(fact, "about", ()) or ()
    return {(a.file, a.symbol) for a in about if getattr(a, "symbol", None)}


def contradicting(
    text: str, candidates: Iterable[_FactLike], about: Sequence[object] = ()
) -> list[Contradiction]:
    """Existing facts that `text` (a new fact anchored to `about`) contradicts.

    Only the facts that share SHARED_WORDS of its words are read (`_sharing`); when more than
    COMMON_POOL do, each must also share a word that no more than COMMON_SHARE of all the
    facts carry ("the billing module ..." on a store where every fact names a module)."""
    claim = analyse(text)
    keys = {(a.file, a.symbol) for a in about if getattr(a, "symbol", None)}  # type: ignore[attr-defined]
    shared_with = _sharing(text)
    near: list[tuple[_FactLike, bool, set[str]]] = []
    total = 0
    for fact in candidates:
        total += 1
        same_anchor = bool(keys & _anchor_keys(fact))
        words = shared_with(fact.text)
        if same_anchor or len(words) >= SHARED_WORDS:
            near.append((fact, same_anchor, words))
    if len(near) > COMMON_POOL:
        carried = Counter(w for _, _, words in near for w in words)
        rare = {w for w, n in carried.items() if n <= COMMON_SHARE * total}
        near = [(f, anchored, words) for f, anchored, words in near
                if anchored or words & rare]
    out: list[Contradiction] = []
    for fact, same_anchor, _ in near:
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
# ... and when more facts than this share them, one shared word must be carried by no more than
# this share of all facts.
COMMON_POOL = 1000
COMMON_SHARE = 0.05
_WORD = re.compile(r"[a-z0-9][a-z0-9_]+")


def _sharing(text: str) -> Callable[[str], set[str]]:
    """A cheap test: the words (first four letters, stopwords and polarity words aside) another
    text shares with `text`. Every pair `check_pair` flags on the labelled sets shares
    SHARED_WORDS of them."""
    words = {w[:4] for w in _WORD.findall(text.lower())
             if w not in STOPWORDS and w not in NEUTRAL}
    if len(words) < SHARED_WORDS:
        return lambda _other: set()
    pattern = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, words))) + ")")

    def shared(other: str) -> set[str]:
        return {w[:4] for w in pattern.findall(other.lower())}

    return shared


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
        denying = set().union(*(c for c, n in zip(claim.clauses, claim.clause_negated,
                                                  strict=True) if n))
        for term in (claim.negated - claim.positive) | denying:
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
    # A reworded value or another name for one slot: facts with a measured value of a kind,
    # or a named slot, sharing a term.
    valued: dict[tuple[str, str], list[str]] = {}
    for fid, claim in claims.items():
        kinds = {_base(kind) for _, kind in claim.values
                 if kind and not kind.startswith("count:")} | {
            f"name:{slot}" for slot, _ in claim.names}
        for kind in kinds:
            for term in claim.terms:
                valued.setdefault((kind, term), []).append(fid)
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
