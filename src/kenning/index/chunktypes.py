"""What a chunk is: code, prose (doc) or data and configuration (config). Stdlib only.

Decided when a file is indexed and read back by search's filters and ranking.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kenning.core.textutil import split_identifier

# Data and configuration files: neither the code nor the prose about it.
CONFIG_LANGS = frozenset(
    {"yaml", "yml", "toml", "json", "jsonc", "json5", "ini", "cfg", "conf", "csv", "tsv", "xml",
     "lock", "properties", "plist", "env", "editorconfig", "gitignore", "gitattributes",
     "svg", "sum", "mod", "in"}
)  # fmt: skip
CHUNK_TYPES = ("code", "doc", "config")

# Identifiers with something to split (an underscore, a digit or a capital after the first
# letter): a plain lower-case word is its own split, and the tokenizer is uncased.
# Tried from a word's first character only, so a long plain word costs one linear scan.
_IDENTIFIER = re.compile(
    r"(?<![A-Za-z0-9_])(?:_[A-Za-z0-9_]*|[A-Za-z][A-Za-z0-9_]*?[A-Z0-9_][A-Za-z0-9_]*)")


def chunk_type(lang: str, doc: bool) -> str:
    """`config` for data and configuration files, `doc` for prose, else `code`."""
    if lang in CONFIG_LANGS:
        return "config"
    return "doc" if doc else "code"


def identifier_words(text: str) -> str:
    """Identifiers spelled out as words for the embedder: `sortedLastIndex` -> `sorted last
    index`. Its word-piece vocabulary would cut the joined name into meaningless pieces
    (`sorted ##las ##tin ##de ##x`). Chunks (index/code.py) and queries both pass through it.
    """
    return _IDENTIFIER.sub(_spelled, text)


def _spelled(match: re.Match[str]) -> str:
    return _spelled_word(match.group(0))


@lru_cache(maxsize=65536)
def _spelled_word(word: str) -> str:
    return " ".join(split_identifier(word)) or word
