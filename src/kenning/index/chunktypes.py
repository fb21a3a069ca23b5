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
# The chunk kind of a method in Rust's `impl Trait for Type`: it implements a contract the
# trait documents (`next`, `fmt`, `from`), and search ranks it below the named code.
TRAIT_IMPL = "trait impl"

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


# Abbreviations common in identifiers across languages, spelled out in a chunk's name before
# it is embedded: the model was trained on prose, where "length" and "reverse" stand for what
# `len` and `rev` name. A general list, not one read off any corpus's misses.
ABBREVIATIONS = {
    "addr": "address", "alloc": "allocate", "arg": "argument", "args": "arguments",
    "attr": "attribute", "attrs": "attributes", "auth": "authentication", "buf": "buffer",
    "calc": "calculate", "cb": "callback", "cfg": "config", "char": "character",
    "chr": "character", "cmd": "command", "cnt": "count", "col": "column", "cols": "columns",
    "conf": "config", "conn": "connection", "ctx": "context", "cur": "current",
    "curr": "current", "db": "database", "dealloc": "deallocate", "del": "delete",
    "desc": "description", "dest": "destination", "dict": "dictionary", "dir": "directory",
    "dst": "destination", "dup": "duplicate", "elem": "element", "env": "environment",
    "eq": "equal", "err": "error", "expr": "expression", "ext": "extension", "fmt": "format",
    "fn": "function", "func": "function", "gen": "generate", "hdr": "header", "idx": "index",
    "img": "image", "impl": "implementation", "info": "information", "init": "initialize",
    "int": "integer", "iter": "iterator", "lang": "language", "len": "length",
    "lib": "library", "max": "maximum", "mgr": "manager", "min": "minimum", "msg": "message",
    "mut": "mutable", "neg": "negative", "num": "number", "obj": "object", "opt": "option",
    "opts": "options", "param": "parameter", "params": "parameters", "pos": "position",
    "prev": "previous", "proc": "process", "prop": "property", "props": "properties",
    "ptr": "pointer", "pwd": "password", "rand": "random", "recv": "receive",
    "ref": "reference", "repr": "representation", "req": "request", "resp": "response",
    "ret": "return", "rev": "reverse", "sep": "separator", "seq": "sequence",
    "sig": "signature", "spec": "specification", "src": "source", "str": "string",
    "sz": "size", "tmp": "temporary", "txt": "text", "util": "utility",
    "utils": "utilities", "val": "value", "var": "variable", "vec": "vector",
}


_WORD = re.compile(r"[A-Za-z]+")


def _expanded(match: re.Match[str]) -> str:
    return ABBREVIATIONS.get(match.group(0).lower(), match.group(0))


@lru_cache(maxsize=65536)
def name_words(symbol: str) -> str:
    """A symbol's parts as words, common abbreviations spelled out: `Bytes.len` -> `bytes
    length`, `rev` -> `reverse`."""
    return _WORD.sub(_expanded, identifier_words(symbol))


def spelled_out(symbol: str) -> list[str]:
    """The words a symbol's abbreviated parts stand for (`rev` -> ["reverse"])."""
    return [ABBREVIATIONS[part] for part in split_identifier(symbol) if part in ABBREVIATIONS]
