"""Line bookkeeping shared by the chunkers: 1-based slices, overlapping windows, body hashes."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator

from kenning.core.records import Chunk

MAX_LINES = 60  # a definition longer than this is split (a class by member, else windows)
WINDOW = 50
OVERLAP = 10
FALLBACK_WINDOW = 40
FALLBACK_OVERLAP = 8
# Minified or generated one-line files would otherwise put megabytes into one chunk.
MAX_CHUNK_CHARS = 16_000

_WORD = re.compile(r"\w")
_WHITESPACE = b" \t\n\r\f\v"


class Lines:
    """A text's lines, split on `\\n` only (as tree-sitter counts rows), `\\r` dropped."""

    def __init__(self, text: str) -> None:
        raw = text.split("\n")
        if raw[-1] == "":
            raw.pop()
        self.raw = [line[:-1] if line.endswith("\r") else line for line in raw]

    def __len__(self) -> int:
        return len(self.raw)

    def text(self, start: int, end: int) -> str:
        """Lines `start..end` (1-based, inclusive), capped at MAX_CHUNK_CHARS."""
        return cap("\n".join(self.raw[start - 1 : end]))

    def blank(self, line: int) -> bool:
        return not self.raw[line - 1].strip()

    def has_words(self, start: int, end: int) -> bool:
        return any(_WORD.search(line) for line in self.raw[start - 1 : end])

    def trim(self, start: int, end: int) -> tuple[int, int]:
        """Shrink `start..end` past blank lines at either edge (start > end when all blank)."""
        while start <= end and self.blank(start):
            start += 1
        while end >= start and self.blank(end):
            end -= 1
        return start, end


def cap(text: str) -> str:
    return text if len(text) <= MAX_CHUNK_CHARS else text[:MAX_CHUNK_CHARS]


def spans(start: int, end: int, size: int, overlap: int) -> Iterator[tuple[int, int]]:
    """Windows of `size` lines over `start..end`, each sharing `overlap` lines with the last."""
    step = max(1, size - overlap)
    while True:
        stop = min(start + size - 1, end)
        yield start, stop
        if stop >= end:
            return
        start += step


def windowed(
    path: str,
    lines: Lines,
    lang: str,
    start: int,
    end: int,
    kind: str,
    symbol: str | None,
    *,
    limit: int = MAX_LINES,
    size: int = WINDOW,
    overlap: int = OVERLAP,
) -> list[Chunk]:
    """One chunk for `start..end`, or overlapping windows that all keep `symbol` if long."""
    if end - start + 1 <= limit:
        return [Chunk(path, start, end, kind, lines.text(start, end), lang, symbol)]
    return [
        Chunk(path, a, b, kind, lines.text(a, b), lang, symbol)
        for a, b in spans(start, end, size, overlap)
    ]


def fallback_chunks(path: str, text: str, lang: str) -> tuple[Chunk, ...]:
    """Plain line windows, for languages without a chunker and files that would not parse."""
    lines = Lines(text)
    out: list[Chunk] = []
    for a, b in spans(1, len(lines), FALLBACK_WINDOW, FALLBACK_OVERLAP) if len(lines) else ():
        a, b = lines.trim(a, b)
        if a <= b:
            out.append(Chunk(path, a, b, "window", lines.text(a, b), lang))
    return tuple(out)


def body_hash(body: bytes) -> str:
    """12 hex digits that survive re-indenting, reformatting and moving the body elsewhere."""
    return hashlib.blake2b(body.translate(None, _WHITESPACE), digest_size=6).hexdigest()
