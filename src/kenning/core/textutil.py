"""Tokenising shared by the FTS text, the FTS query and the reference BM25. Stdlib only.

The tokens every hook needs (words, identifier parts, dotted numbers) are found without `re`:
importing it (with `enum`) costs a fresh hook process about as much as starting the
interpreter. ASCII text is split with `bytes.translate`, which runs in C; each function says
the pattern it is equal to, and tests/test_textutil_tokens.py checks them against it.
"""

from __future__ import annotations

from functools import cache, lru_cache

TYPE_CHECKING = False  # `typing` imports re
if TYPE_CHECKING:
    import re


def _table(keep: str) -> bytes:
    """A bytes.translate table: the ASCII characters in `keep` stay, all others become spaces."""
    return bytes(c if chr(c) in keep else 32 for c in range(256))


_DIGITS = "0123456789"
_LOWER = "abcdefghijklmnopqrstuvwxyz"
_UPPER = _LOWER.upper()
_VERSION_START = _DIGITS + "vV"
_WORD_CHARS = _table(_LOWER + _UPPER + _DIGITS + "_")
_VERSION_CHARS = _table(_LOWER + _UPPER + _DIGITS + ".")
_DOTTED_CHARS = _table(_LOWER + _UPPER + _DIGITS + "_.")


def _runs(text: str, table: bytes) -> list[str]:
    """The maximal runs of `table`'s characters in `text` (non-ASCII characters separate)."""
    return text.encode("ascii", "replace").translate(table).decode("ascii").split()


# A dotted number ("3.2", "v2.3.0", "1.10.x"): FTS5's tokenizer splits it at each dot, so
# "3.2" would also match "2.3.0". It is indexed and queried once more as one token too.
_VERSION = r"(?<![A-Za-z0-9.])[vV]?([0-9]+(?:\.[0-9]+)+)(?![0-9])"
# Han, kana and Hangul: written without spaces, so FTS5's tokenizer sees a whole sentence as
# one token. Their overlapping pairs are added as terms (the usual bigram approach).
_CJK_RUN = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+"

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    use used using does did get got make made we're it's i'm don't doesn't shall may might must
    also via""".split()
)


# Words of ordinary requests ("fix the first failing test on every page") that say nothing
# about which fact applies: not counted by the prompt gate's shared-term rule (hooks.factdb).
# Written from the calibration prompts' false matches and common request vocabulary; stems
# and plain forms both, since the gate compares porter stems.
GATE_STOPWORDS = frozenset(
    """add ad added adding also alway always anoth another anyth anything ask back becaus
    because befor before best better bit can chang change changed changes check could
    current differ different do done each easi easy else ever everi every exampl example
    exist existing explain few find first fix fixed follow following get give go good help
    how instead just keep kind know last later let like list littl little look make mani
    many mayb maybe mean much need needs new next now old one onli only other page pleas
    please possibl possible print problem put quick quickli quickly read realli really
    right run same second see seem set show simpl simple someth something sure take tell
    thing think tri try two want way what work works write wrong yet""".split()
)


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """A pattern compiled on first use, by the functions no hook needs."""
    import re

    return re.compile(pattern)


def split_identifier(word: str) -> list[str]:
    """`RetryPolicy.backoff_ms` -> ['retry', 'policy', 'backoff', 'ms'] (lower-cased parts)."""
    return list(_split_cached(word))


@lru_cache(maxsize=65536)
def _split_cached(word: str) -> tuple[str, ...]:
    parts: list[str] = []
    for piece in word.split("_"):
        parts.extend(part.lower() for part in _camel_parts(piece))
    return tuple(p for p in parts if p)


def _camel_parts(piece: str) -> list[str]:
    """What `[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+` finds in `piece`: "HTTPServer2"
    -> HTTP, Server, 2. Other characters are skipped."""
    out: list[str] = []
    at, end = 0, len(piece)
    while at < end:
        char = piece[at]
        if char in _DIGITS or char in _LOWER:
            kind = _DIGITS if char in _DIGITS else _LOWER
            stop = at + 1
            while stop < end and piece[stop] in kind:
                stop += 1
        elif char in _UPPER:
            stop = at + 1
            while stop < end and piece[stop] in _UPPER:
                stop += 1
            if stop < end and piece[stop] in _LOWER:
                if stop - at > 1:
                    stop -= 1  # "HTTPServer": the last capital starts the next word
                else:
                    while stop < end and piece[stop] in _LOWER:
                        stop += 1
        else:
            at += 1
            continue
        out.append(piece[at:stop])
        at = stop
    return out


def words(text: str) -> list[str]:
    """Raw word tokens, identifiers whole: what `[A-Za-z0-9_]+` finds."""
    return _runs(text, _WORD_CHARS)


def version_terms(text: str) -> list[str]:
    """Dotted numbers as one alphanumeric token each: "v2.3.0" -> "2dot3dot0".

    Added to the FTS text and the FTS query, so a version matches itself as a whole (a rare,
    high-IDF term) and not only as its parts.
    """
    out = []
    for run in _runs(text, _VERSION_CHARS):  # what `_VERSION` finds: one per run, at its start
        if "." not in run or run[0] not in _VERSION_START:
            continue
        start = 1 if run[0] in "vV" else 0
        digits = _digits_end(run, start)
        stop = _dotted_end(run, digits)
        if digits > start and stop > digits:
            out.append(run[start:stop].replace(".", "dot"))
    return out


def _digits_end(text: str, at: int) -> int:
    while at < len(text) and text[at] in _DIGITS:
        at += 1
    return at


def _dotted_end(text: str, at: int) -> int:
    """Past every "." + digits group from `at` on: `(?:\\.[0-9]+)*`."""
    while at + 1 < len(text) and text[at] == "." and text[at + 1] in _DIGITS:
        at = _digits_end(text, at + 1)
    return at


def identifier_terms(text: str) -> list[str]:
    """Each identifier's split parts, plus the whole identifier when it had parts.

    Adding these to the FTS text lets `backoff` find `RetryPolicy.backoff_ms`.
    """
    out: list[str] = []
    for word in words(text):
        if word.islower() and "_" not in word:
            continue  # plain words have nothing to split
        parts = _split_cached(word)
        if len(parts) > 1:
            out.extend(parts)
    return out


def cjk_terms(text: str) -> list[str]:
    """Overlapping pairs of each CJK run (a lone character stands for itself)."""
    out: list[str] = []
    for run in _compiled(_CJK_RUN).findall(text):
        out.extend([run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)])
    return out


def query_terms(query: str) -> list[str]:
    """Non-stopword terms of a query, identifiers split, CJK runs in pairs, de-duplicated in
    order."""
    seen: dict[str, None] = dict.fromkeys(cjk_terms(query))
    for word in words(query):
        lowered = word.lower()
        split = not word.islower() or "_" in word
        candidates = [lowered] + (split_identifier(word) if split else [])
        for term in candidates:
            if term and term not in STOPWORDS and (len(term) > 1 or term.isdigit()):
                seen.setdefault(term, None)
    return list(seen)


def fact_query_terms(query: str) -> list[str]:
    """`query_terms` with each dotted number whole instead of its parts: what the fact legs
    ask the fact index for (its `terms` column holds `version_terms` of each fact). Asking
    for "3" and "2" too would let "3.2" match "2.3.0"."""
    plain = _compiled(_VERSION).sub(" ", query)
    return list(dict.fromkeys(version_terms(query) + query_terms(plain)))


def prompt_words(query: str) -> list[tuple[str, ...]]:
    """The query's words, each as the terms `fact_query_terms` asks for it (a word first, then
    its identifier parts; a dotted number whole): `compute_line_total` is one word of four
    terms, so a gate that counts shared words is not fooled by an identifier's parts."""
    out: list[tuple[str, ...]] = []
    for token in _dotted_words(query):
        terms = version_terms(token)  # a dotted number is one word, never its parts
        for word in [] if terms else words(token):
            lowered = word.lower()
            split = not word.islower() or "_" in word
            for term in [lowered] + (split_identifier(word) if split else []):
                if term and term not in STOPWORDS and (len(term) > 1 or term.isdigit()):
                    terms.append(term)
        if terms:
            out.append(tuple(dict.fromkeys(terms)))
    return out


def _dotted_words(text: str) -> list[str]:
    """What `[A-Za-z0-9_]+(?:\\.[0-9]+)*` finds: words, a dotted number's groups kept on."""
    out = []
    for run in _runs(text, _DOTTED_CHARS):
        at = 0
        while at < len(run):
            if run[at] == ".":
                at += 1
                continue
            stop = run.find(".", at)
            stop = _dotted_end(run, len(run) if stop < 0 else stop)
            out.append(run[at:stop])
            at = stop
    return out


def fts_or_query(query: str, terms: list[str] | None = None, prefix: bool = False
                 ) -> str | None:
    """An FTS5 MATCH expression: the OR of the quoted non-stopword terms, or None if none.

    A peer that ANDed every word found nothing for most natural-language queries; OR lets
    BM25 do the ranking. With `prefix`, each term of 3+ characters matches as a prefix (a
    typed fragment, "retr") and shorter ones are left out.
    """
    terms = query_terms(query) if terms is None else terms
    if prefix:
        terms = [t for t in terms if len(t) >= 3]
    if not terms:
        return None
    star = "*" if prefix else ""
    return " OR ".join('"' + t.replace('"', '""') + '"' + star for t in terms)


def strip_suffix(word: str, suffixes: tuple[str, ...]) -> str:
    """Crude stemming: drop the first of `suffixes` the word ends with (keeping at least three
    letters, never splitting a double "ss"), then a final "e"."""
    for suffix in suffixes:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: -len(suffix)]
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word
