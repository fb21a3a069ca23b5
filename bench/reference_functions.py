"""The frozen reference of issue 18's review: a plain BM25 indexer over function chunks.
Do not tune this file.

It differs from `reference_bm25.py` in its chunks only: each function or method that
tree-sitter finds in a Python, JavaScript, TypeScript, Rust or Go file is one document (nested
ones too, as CodeSearchNet takes them); a file with none, and every other file, is cut into the
same 40-line windows. The text indexed is the same (the chunk plus its identifiers split, FTS5
with the porter tokenizer), as is the query. Grammars are loaded from tree-sitter-language-pack's
binding directly, as kenning loads them, so the reference pays no more start-up than kenning's
own parsing does (the pack's `get_parser` would add about 15 ms).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from importlib.machinery import ExtensionFileLoader
from importlib.util import find_spec, module_from_spec, spec_from_loader
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from kenning.core.textutil import identifier_terms  # noqa: E402 (stdlib-only module)

WINDOW, OVERLAP = 40, 8
LANGUAGES = {".py": "python", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript",
             ".jsx": "javascript", ".ts": "typescript", ".tsx": "tsx", ".rs": "rust",
             ".go": "go"}
FUNCTIONS = {
    "python": ("function_definition",),
    "javascript": ("function_declaration", "generator_function_declaration",
                   "method_definition", "arrow_function", "function_expression"),
    "rust": ("function_item",),
    "go": ("function_declaration", "method_declaration"),
}
FUNCTIONS["typescript"] = FUNCTIONS["tsx"] = FUNCTIONS["javascript"]
_QUERIES: dict[str, object] = {}


def _query(lang: str):
    if lang not in _QUERIES:
        from tree_sitter import Language, Parser, Query

        pack = next(iter(find_spec("tree_sitter_language_pack").submodule_search_locations))
        name = f"tree_sitter_language_pack.bindings.{lang}"
        loader = ExtensionFileLoader(name, os.path.join(pack, "bindings", f"{lang}.abi3.so"))
        module = module_from_spec(spec_from_loader(name, loader))
        loader.exec_module(module)
        language = Language(module.language())
        _QUERIES[lang] = (Parser(language), Query(language, "\n".join(
            f"({t}) @f" for t in FUNCTIONS[lang])))
    return _QUERIES[lang]


def functions(text: str, lang: str) -> list[tuple[int, int]]:
    """0-based (first line, last line) of each function in `text`."""
    from tree_sitter import QueryCursor

    parser, query = _query(lang)
    tree = parser.parse(text.encode("utf-8"))
    nodes = QueryCursor(query).captures(tree.root_node).get("f", [])
    return sorted((n.start_point[0], n.end_point[0]) for n in nodes)


def chunks(name: str, text: str) -> list[tuple[str, str]]:
    lines = text.splitlines()
    lang = LANGUAGES.get(os.path.splitext(name)[1])
    spans = functions(text, lang) if lang else []
    if not spans:
        spans = [(start, start + WINDOW - 1)
                 for start in range(0, max(len(lines), 1), WINDOW - OVERLAP)]
    return [(f"{name}:{first + 1}:{last + 1}", "\n".join(lines[first:last + 1]))
            for first, last in spans]


def index_repo(root: Path, db_path: str) -> None:
    names = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True,
                           text=True, check=True).stdout.split()
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS docs USING fts5(key, text, "
                 "tokenize='porter')")
    items = []
    for name in names:
        text = (root / name).read_text(encoding="utf-8", errors="replace")
        items.extend(chunks(name, text))
    with conn:
        conn.executemany("INSERT INTO docs(key, text) VALUES (?, ?)",
                         [(key, f"{text}\n{' '.join(identifier_terms(text))}")
                          for key, text in items])
    conn.close()


if __name__ == "__main__":
    index_repo(Path(sys.argv[1]), sys.argv[2])
