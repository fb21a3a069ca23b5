"""Split a source or markdown file into searchable chunks, symbols and imports.

`chunk_file(path, text)` never raises on content: a language without a chunker, or a file
tree-sitter can't parse, falls back to line windows. Importing this package does not import
tree_sitter (a re-index with nothing changed must not load it); the first code file does.

Conventions (see `treesitter.py`): lines are 1-based and inclusive; a symbol's lines include
its decorators/attributes, its chunk also the comment block right above it; qualified names
join enclosing definitions with `.` (`Outer.Inner.method`, `Server.Start` for a Go receiver,
`Foo.bar` for a Rust `impl Foo`, `ns.Widget.size` for C++); C# namespaces, Java packages and
Python modules are not part of them.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from kenning.core.records import Chunk, Symbol
from kenning.index.chunking.languages import EXTENSIONS, FILENAMES, TREE_SITTER_LANGUAGES
from kenning.index.chunking.lines import fallback_chunks

__all__ = ["ChunkResult", "chunk_file", "language_for"]


@dataclass(frozen=True)
class ChunkResult:
    chunks: tuple[Chunk, ...]
    symbols: tuple[Symbol, ...] = ()
    imports: tuple[str, ...] = ()  # imported modules/files as written (`./a`, `os.path`)


def language_for(path: str) -> str | None:
    """`src/app.py` -> 'python'; None for anything without a chunker."""
    name = posixpath.basename(path.replace("\\", "/"))
    if name in FILENAMES:
        return FILENAMES[name]
    _, ext = posixpath.splitext(name)
    return EXTENSIONS.get(ext.lower())


def _fallback_lang(path: str) -> str:
    _, ext = posixpath.splitext(posixpath.basename(path))
    return ext[1:].lower() or "text"


def chunk_file(path: str, text: str) -> ChunkResult:
    """Chunks, symbols and imports of one file; `path` is stored as given."""
    lang = language_for(path)
    try:
        if lang == "markdown":
            from kenning.index.chunking.markdown import chunk_markdown

            md = chunk_markdown(path, text)
            return ChunkResult(md.chunks, md.symbols, md.imports)
        if lang in TREE_SITTER_LANGUAGES:
            from kenning.index.chunking.treesitter import chunk_tree

            parsed = chunk_tree(path, text, lang)
            if parsed is not None:
                return ChunkResult(parsed.chunks, parsed.symbols, parsed.imports)
    except Exception:  # a grammar bug or a pathological file must not stop an index run
        import logging  # only here: its import was a fiftieth of a small project's indexing

        logging.getLogger(__name__).warning("chunking %s failed; using line windows", path,
                                            exc_info=True)
    return ChunkResult(fallback_chunks(path, text, lang or _fallback_lang(path)))
