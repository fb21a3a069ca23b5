"""Markdown chunks by heading, with the heading path (`Install > From source`) as symbol.

Line-based on purpose (no tree-sitter): ATX and setext headings, fenced code blocks skipped,
YAML (`---`) or TOML (`+++`) frontmatter as its own chunk. Each heading is also a symbol
spanning its whole section (subsections included) so `about:` anchors can name it. Local
link targets (not URLs or `#anchors`) are the file's imports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kenning.core.records import Chunk, Symbol
from kenning.index.chunking.lines import Lines, body_hash, windowed

LANG = "markdown"
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_NOT_PARAGRAPH = re.compile(r"^\s*(?:[-*+>|]|\d+[.)]\s|<|```|~~~)")
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'(][^)]*)?\)")
_REF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_TRAILING_ATTRS = re.compile(r"\s*\{#[^}]*\}\s*$")


@dataclass(frozen=True)
class Markdown:
    chunks: tuple[Chunk, ...]
    symbols: tuple[Symbol, ...]
    imports: tuple[str, ...]


def _frontmatter_end(lines: Lines) -> int:
    """Last line of a leading `---`/`+++` block, or 0 when there is none."""
    if not len(lines) or lines.raw[0].rstrip() not in ("---", "+++"):
        return 0
    closers = ("---", "...") if lines.raw[0].rstrip() == "---" else ("+++",)
    for n in range(2, min(len(lines), 2000) + 1):
        if lines.raw[n - 1].rstrip() in closers:
            return n
    return 0


def _headings(lines: Lines, first: int) -> tuple[list[tuple[int, int, str]], list[int]]:
    """(start line, level, title) for each heading, and the lines outside code fences."""
    found: list[tuple[int, int, str]] = []
    prose: list[int] = []
    fence: str | None = None
    para_start: int | None = None
    for n in range(first, len(lines) + 1):
        line = lines.raw[n - 1]
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and not stripped.strip(fence[0]):
                fence = None
            continue
        opened = _FENCE.match(line)
        if opened:
            fence, para_start = opened.group(1), None
            continue
        prose.append(n)
        atx = _ATX.match(line)
        if atx:
            title = _TRAILING_ATTRS.sub("", atx.group(2) or "").strip()
            found.append((n, len(atx.group(1)), title))
            para_start = None
        elif para_start is not None and _SETEXT.match(line):
            title = " ".join(s.strip() for s in lines.raw[para_start - 1 : n - 1])
            found.append((para_start, 1 if line.strip()[0] == "=" else 2, title))
            para_start = None
        elif not line.strip():
            para_start = None
        elif para_start is None and not _NOT_PARAGRAPH.match(line):
            para_start = n
    return found, prose


def _links(lines: Lines, prose: list[int]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for n in prose:
        line = lines.raw[n - 1]
        targets = [m.group(1) for m in _LINK.finditer(line)]
        ref = _REF.match(line)
        if ref:
            targets.append(ref.group(1))
        for target in targets:
            if _SCHEME.match(target) or target.startswith("#"):
                continue
            target = target.split("#", 1)[0].split("?", 1)[0]
            if target:
                seen.setdefault(target, None)
    return tuple(seen)


def chunk_markdown(path: str, text: str) -> Markdown:
    lines = Lines(text)
    chunks: list[Chunk] = []
    symbols: list[Symbol] = []
    front = _frontmatter_end(lines)
    if front:
        chunks.append(Chunk(path, 1, front, "frontmatter", lines.text(1, front), LANG))
    headings, prose = _headings(lines, front + 1)
    starts = [h[0] for h in headings] + [len(lines) + 1]
    first_heading = starts[0]
    start, end = lines.trim(front + 1, first_heading - 1)
    if start <= end:
        chunks += windowed(path, lines, LANG, start, end, "preamble", None)
    stack: list[tuple[int, str]] = []
    for i, (line, level, title) in enumerate(headings):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title or "(untitled)"))
        heading_path = " > ".join(t for _, t in stack)
        _, end = lines.trim(line, starts[i + 1] - 1)
        chunks += windowed(path, lines, LANG, line, end, "heading", heading_path)
        # the symbol covers the subsections too: up to the next heading at this level or above
        nxt = next((h[0] for h in headings[i + 1 :] if h[1] <= level), len(lines) + 1)
        _, section_end = lines.trim(line, nxt - 1)
        body = "\n".join(lines.raw[line - 1 : section_end]).encode("utf-8", "replace")
        name, digest = title or "(untitled)", body_hash(body)
        symbols.append(Symbol(name, heading_path, "heading", path, line, section_end, digest))
    return Markdown(tuple(chunks), tuple(symbols), _links(lines, prose))
