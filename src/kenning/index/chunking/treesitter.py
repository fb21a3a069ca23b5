"""Symbols and chunks from a tree-sitter parse.

tree_sitter is imported inside functions only: a re-index with nothing changed must not pay
for it. Parsers and compiled queries are cached per language and are not thread-safe.

Line conventions: a symbol spans its decorators/attributes (and `export`, `template <…>`)
to its last line, trailing comments in an indented body left out (so Python symbols match
`ast` with decorators); its chunk also takes the comment block right above it.
"""

from __future__ import annotations

import bisect
import os
import re
from dataclasses import dataclass, field
from typing import Any

from kenning.core.records import Chunk, Symbol
from kenning.index.chunking import imports as import_rules
from kenning.index.chunking.languages import CLASS_KINDS, NO_SYMBOL_KINDS, SPECS, LangSpec
from kenning.index.chunking.lines import (
    MAX_LINES,
    OVERLAP,
    WINDOW,
    Lines,
    body_hash,
    cap,
    fallback_chunks,
    spans,
    windowed,
)
from kenning.index.chunking.names import name_parts, node_kind
from kenning.index.chunktypes import TRAIT_IMPL

Node = Any  # tree_sitter.Node
SIGNATURE_LINES = 3  # at most this many lines of a member's signature stay in a class outline
MINIFIED_LINE_CHARS = 1_000  # mean line length above which a file is treated as generated

_PARSERS: dict[str, Any] = {}
_QUERIES: dict[str, Any] = {}
DROPPED: dict[str, list[str]] = {}  # patterns the installed grammar rejected, for the tests


@dataclass(eq=False)
class _Def:
    node: Node
    parts: list[str]
    kind: str
    qualname: str
    parent: _Def | None
    start: int  # 1-based; decorators, attributes and wrappers included
    end: int
    chunk_end: int  # `end` with a Python body's trailing comments back in
    start_byte: int
    end_byte: int
    sig_start: int  # the definition's own first line and the line holding its name
    sig_end: int
    classlike: bool
    namespace: bool
    children: list[_Def] = field(default_factory=list)


@dataclass(frozen=True)
class Parsed:
    chunks: tuple[Chunk, ...]
    symbols: tuple[Symbol, ...]
    imports: tuple[str, ...]


def parser_for(lang: str) -> Any:
    parser = _PARSERS.get(lang)
    if parser is None:
        from tree_sitter import Parser

        parser = _PARSERS[lang] = Parser(_language(lang))
    return parser


def _language(lang: str) -> Any:
    """The grammar from tree-sitter-language-pack's binding for `lang`, loaded directly: the
    pack's own `__init__` imports three grammar packages and ctypes (about 15 ms of every
    indexing run). Any other layout goes through the pack's `get_language`."""
    from importlib.machinery import ExtensionFileLoader
    from importlib.util import find_spec, module_from_spec, spec_from_loader

    from tree_sitter import Language

    pack = find_spec("tree_sitter_language_pack")
    if pack is not None and pack.submodule_search_locations:
        binding = f"{next(iter(pack.submodule_search_locations))}/bindings/{lang}.abi3.so"
        if os.path.isfile(binding):
            name = f"tree_sitter_language_pack.bindings.{lang}"
            loader = ExtensionFileLoader(name, binding)
            module = module_from_spec(spec_from_loader(name, loader))
            loader.exec_module(module)
            return Language(module.language())
    from tree_sitter_language_pack import get_language

    return get_language(lang)


_ALTERNATION = re.compile(r"\[((?:\s*\(\w+\))+)\s*\]")


def _known_alternatives(pattern: str, language: Any) -> str:
    """Drop the `(type)` alternatives in `[(a) (b)]` that this grammar version lacks."""

    def keep(match: re.Match[str]) -> str:
        types = re.findall(r"\((\w+)\)", match.group(1))
        known = [t for t in types if language.id_for_node_kind(t, True) is not None]
        return "[" + " ".join(f"({t})" for t in known) + "]" if known else match.group(0)

    return _ALTERNATION.sub(keep, pattern)


def _compile(language: Any, patterns: list[str], lang: str) -> Any:
    from tree_sitter import Query, QueryError

    known = [_known_alternatives(pattern, language) for pattern in patterns]
    try:  # one compile when the grammar knows every pattern (the usual case)
        return Query(language, "\n".join(known)) if known else None
    except QueryError:
        pass
    good = []
    for pattern in patterns:
        pattern = _known_alternatives(pattern, language)
        try:
            Query(language, pattern)
        except QueryError:
            DROPPED.setdefault(lang, []).append(pattern)
        else:
            good.append(pattern)
    return Query(language, "\n".join(good)) if good else None


def query_for(lang: str) -> Any:
    """One query per language so a single pass over the tree finds definitions (`@def`),
    comments (`@comment`) and imports (`@path`, `@name`, `@stmt`)."""
    if lang not in _QUERIES:
        spec = SPECS[lang]
        patterns = [f"({t}) @def" for t in spec.defs] + list(spec.patterns)
        patterns += [f"({t}) @comment" for t in spec.comments] + list(spec.imports)
        _QUERIES[lang] = _compile(parser_for(lang).language, patterns, lang)
    return _QUERIES[lang]


def _captures(query: Any, node: Node) -> dict[str, list[Node]]:
    from tree_sitter import QueryCursor

    return QueryCursor(query).captures(node) if query is not None else {}


def _last_row(node: Node) -> int:
    """0-based row of the node's last character (a node ending in `\\n` ends at column 0)."""
    row, col = node.end_point
    return row - 1 if col == 0 and row > node.start_point[0] else row


def _trimmed_end(node: Node, comment_types: frozenset[str]) -> Node:
    """The last non-comment leaf: trailing comments in a Python block are not its body."""
    while node.child_count:
        kids = node.children
        i = len(kids) - 1
        while i >= 0 and kids[i].type in comment_types:
            i -= 1
        if i < 0:
            break
        node = kids[i]
    return node


def _has_twin(node: Node, parent: Node) -> bool:
    """A wrapper with two of these (`type (A …; B …)`, `const a = …, b = …`) is no one's."""
    return sum(1 for c in parent.named_children if c.type == node.type) > 1


def _definitions(lang: str, spec: LangSpec, nodes: list[Node]) -> list[_Def]:
    nodes = sorted({n.id: n for n in nodes}.values(), key=lambda n: (n.start_byte, -n.end_byte))
    comment_types = frozenset(spec.comments)
    by_id: dict[int, _Def] = {}
    out: list[_Def] = []
    for node in nodes:
        parts = name_parts(lang, node)
        if parts is None:
            continue
        parent = None
        up = node.parent
        while up is not None:
            parent = by_id.get(up.id)
            if parent is not None:
                break
            up = up.parent
        table_kind = spec.defs.get(node.type) or spec.pattern_kinds.get(node.type, "function")
        kind = node_kind(lang, node, table_kind)
        namespace = node.type in spec.namespaces
        if kind == "function" and (len(parts) > 1 or (parent is not None and parent.classlike)):
            kind = "method"
            if parent is not None and parent.node.type == "impl_item" and \
                    parent.node.child_by_field_name("trait") is not None:
                kind = TRAIT_IMPL
        outer = node
        while (up := outer.parent) is not None and up.type in spec.wrappers:
            if _has_twin(outer, up):
                break
            outer = up
        first = outer
        prev = outer.prev_named_sibling
        while prev is not None and prev.type in spec.decorators:
            first, prev = prev, prev.prev_named_sibling
        last = _trimmed_end(outer, comment_types) if spec.trim_trailing_comments else outer
        name = node.child_by_field_name("name")
        sig_start = node.start_point[0] + 1
        qualname = ".".join(parts)
        d = _Def(
            node=node,
            parts=parts,
            kind=kind,
            qualname=f"{parent.qualname}.{qualname}" if parent is not None else qualname,
            parent=parent,
            start=first.start_point[0] + 1,
            end=max(_last_row(last) + 1, first.start_point[0] + 1),
            chunk_end=max(_last_row(outer) + 1, first.start_point[0] + 1),
            start_byte=first.start_byte,
            end_byte=last.end_byte,
            sig_start=sig_start,
            sig_end=max(sig_start, name.start_point[0] + 1 if name is not None else sig_start),
            classlike=kind in CLASS_KINDS and not namespace,
            namespace=namespace,
        )
        by_id[node.id] = d
        out.append(d)
        if parent is not None:
            parent.children.append(d)
    return out


def _symbols(path: str, defs: list[_Def], data: bytes, comment_nodes: list[Node]) -> list[Symbol]:
    comments = sorted((c.start_byte, c.end_byte) for c in comment_nodes)
    starts = [c[0] for c in comments]
    out = []
    for d in defs:
        if d.kind in NO_SYMBOL_KINDS:
            continue
        pieces = []
        pos = d.start_byte
        i = bisect.bisect_left(starts, d.start_byte)
        while i < len(comments) and comments[i][0] < d.end_byte:
            a, b = comments[i]
            pieces.append(data[pos:a])
            pos = max(pos, b)
            i += 1
        pieces.append(data[pos : d.end_byte])
        digest = body_hash(b"".join(pieces))
        out.append(Symbol(d.parts[-1], d.qualname, d.kind, path, d.start, d.end, digest))
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


class _Layout:
    """Turns the definition tree into chunks that cover every line holding a word.

    Top-level definitions are one chunk each; a class (impl, trait, ...) with members becomes
    an outline (header, fields, one signature line per member) plus one chunk per member; a
    namespace with definitions is laid out like a file; anything else long is cut into
    overlapping windows keeping its name. Lines between definitions become `module` chunks.
    """

    def __init__(self, path: str, lines: Lines, lang: str, spec: LangSpec) -> None:
        self.path, self.lines, self.lang, self.spec = path, lines, lang, spec
        self.chunks: list[Chunk] = []

    def comment_start(self, start: int, floor: int) -> int:
        """Move `start` up over the comment block directly above it (never to `floor`).

        Only comments indented like the definition count: a deeper one ends the body above.
        """
        raw, best, line = self.lines.raw, start, start - 1
        indent, prefixes = _indent(raw[start - 1]), self.spec.comment_prefixes
        while line > floor:
            stripped = raw[line - 1].strip()
            if self.spec.block_comments and stripped.endswith("*/"):
                top = line
                while top > floor and "/*" not in raw[top - 1]:
                    top -= 1
                opener = raw[top - 1] if top > floor else ""
                if not opener.strip().startswith("/*") or _indent(opener) != indent:
                    break
                best = line = top
            elif stripped.startswith(prefixes) and _indent(raw[line - 1]) == indent:
                best = line
            else:
                break
            line -= 1
        return best

    def members(self, defs: list[_Def], floor: int) -> list[tuple[_Def, int, int]]:
        placed = []
        for d in defs:
            start = max(self.comment_start(d.start, floor), floor + 1)
            if d.chunk_end < start:  # shares its lines with the previous definition
                continue
            placed.append((d, start, d.chunk_end))
            floor = d.chunk_end
        return placed

    def file(self, defs: list[_Def], lo: int, hi: int, floor: int) -> None:
        covered_to = lo - 1
        for d, start, end in self.members(defs, floor):
            self.gap(covered_to + 1, start - 1)
            self.unit(d, start, end)
            covered_to = end
        self.gap(covered_to + 1, hi)

    def gap(self, start: int, end: int) -> None:
        start, end = self.lines.trim(start, end)
        if start <= end and self.lines.has_words(start, end):
            self.chunks += windowed(self.path, self.lines, self.lang, start, end, "module", None)

    def unit(self, d: _Def, start: int, end: int) -> None:
        # Every member is its own chunk, however short its class: a method inside a whole
        # class chunk has no name or vector of its own, and a hit on the class is no answer.
        if d.children and d.namespace:
            self.file(d.children, start, end, d.sig_end)
        elif d.children and d.classlike:
            self.outline(d, start, end)
        else:
            self.chunks += windowed(
                self.path, self.lines, self.lang, start, end, d.kind, d.qualname
            )

    def outline(self, d: _Def, start: int, end: int) -> None:
        raw = self.lines.raw
        entries: list[tuple[int, str]] = []
        line = start
        for m, m_start, m_end in self.members(d.children, d.sig_end):
            entries += [(n, raw[n - 1]) for n in range(line, m_start)]
            if m.kind in ("function", "method", TRAIT_IMPL) or m.classlike or m.namespace \
                    or m_end - m_start + 1 > SIGNATURE_LINES:
                sig_end = min(m.sig_end, m.sig_start + SIGNATURE_LINES - 1)
                entries += [(n, raw[n - 1]) for n in range(m.sig_start, sig_end + 1)]
                self.unit(m, m_start, m_end)
            else:  # a short associated type or property stays in the class's header chunk
                entries += [(n, raw[n - 1]) for n in range(m_start, m_end + 1)]
            line = m_end + 1
        entries += [(n, raw[n - 1]) for n in range(line, end + 1)]
        entries = [e for e in entries if e[1].strip()]
        if len(entries) <= MAX_LINES:
            self.outline_chunk(d, start, end, entries)
            return
        for a, b in spans(0, len(entries) - 1, WINDOW, OVERLAP):
            part = entries[a : b + 1]
            self.outline_chunk(d, part[0][0], part[-1][0], part)

    def outline_chunk(self, d: _Def, first: int, last: int, entries: list[tuple[int, str]]) -> None:
        text = cap("\n".join(t for _, t in entries))
        self.chunks.append(Chunk(self.path, first, last, d.kind, text, self.lang, d.qualname))


def chunk_tree(path: str, text: str, lang: str) -> Parsed | None:
    """Parse `text` as `lang`; None for minified/generated files (one huge line)."""
    lines = Lines(text)
    if len(text) > 100_000 and len(text) > MINIFIED_LINE_CHARS * max(1, len(lines)):
        return None
    data = text.encode("utf-8", "replace")
    tree = parser_for(lang).parse(data)
    if lang == "c" and tree.root_node.has_error and path.endswith(".h"):
        cpp_tree = parser_for("cpp").parse(data)
        if not cpp_tree.root_node.has_error:
            lang, tree = "cpp", cpp_tree
    spec = SPECS[lang]
    root = tree.root_node
    captures = _captures(query_for(lang), root)
    defs = _definitions(lang, spec, captures.get("def", []))
    found = import_rules.extract(lang, captures)
    if root.has_error and not defs:  # nothing trustworthy to cut along: plain windows
        return Parsed(fallback_chunks(path, text, lang), (), found)
    layout = _Layout(path, lines, lang, spec)
    layout.file([d for d in defs if d.parent is None], 1, len(lines), 0)
    chunks = sorted(layout.chunks, key=lambda c: (c.start_line, -c.end_line))
    symbols = _symbols(path, defs, data, captures.get("comment", []))
    return Parsed(tuple(chunks), tuple(symbols), found)
