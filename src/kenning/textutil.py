"""Tokenising shared by the FTS text, the FTS query and the reference BM25. Stdlib only."""

from __future__ import annotations

import re
from functools import lru_cache

_WORD = re.compile(r"[A-Za-z0-9_]+")
# Han, kana and Hangul: written without spaces, so FTS5's tokenizer sees a whole sentence as
# one token. Their overlapping pairs are added as terms (the usual bigram approach).
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

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


def split_identifier(word: str) -> list[str]:
    """`RetryPolicy.backoff_ms` -> ['retry', 'policy', 'backoff', 'ms'] (lower-cased parts)."""
    return list(_split_cached(word))


@lru_cache(maxsize=65536)
def _split_cached(word: str) -> tuple[str, ...]:
    parts: list[str] = []
    for piece in word.split("_"):
        parts.extend(m.group(0).lower() for m in _CAMEL.finditer(piece))
    return tuple(p for p in parts if p)


def words(text: str) -> list[str]:
    """Raw word tokens, identifiers whole."""
    return _WORD.findall(text)


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
    for run in _CJK_RUN.findall(text):
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


def fts_or_query(query: str) -> str | None:
    """An FTS5 MATCH expression: the OR of the quoted non-stopword terms, or None if none.

    A peer that ANDed every word found nothing for most natural-language queries; OR lets
    BM25 do the ranking.
    """
    terms = query_terms(query)
    if not terms:
        return None
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
