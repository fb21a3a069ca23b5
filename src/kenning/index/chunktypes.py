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
    parts = split_identifier(word)
    # `from_be_bytes` in a body: "big endian" too
    orders = _byte_order_words(parts, _numeric_words(parts)) \
        if _BYTE_ORDERS.keys() & set(parts) else []
    return " ".join([*parts, *orders]) or word


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


# Numeric types as names spell them (Rust's `u16`, `i64`, `f32`, `usize`; Go's `Uint32`),
# and the byte orders beside them (`get_u16_le`, `to_be_bytes`): what a description says in
# words, "an unsigned 16 bit integer in little-endian byte order".
_NUMBER_TYPES = {"i": "signed", "u": "unsigned", "int": "signed", "uint": "unsigned",
                 "f": "float", "float": "float"}
_BITS = frozenset({"8", "16", "32", "64", "128"})
_SIZE_TYPES = {"usize": "unsigned size integer", "isize": "signed size integer"}
_BYTE_ORDERS = {"le": "little endian", "be": "big endian", "ne": "native endian"}


def _numeric_words(parts: list[str]) -> list[str] | None:
    """The words for a name's numeric types, or None when it names none."""
    words: list[str] = []
    typed = False
    for part, following in zip(parts, [*parts[1:], ""], strict=False):
        if following in _BITS and part in _NUMBER_TYPES:
            kind = _NUMBER_TYPES[part]
            words.append(f"{following} bit float" if kind == "float"
                         else f"{kind} {following} bit integer")
            typed = True
        elif part in _SIZE_TYPES:
            words.append(_SIZE_TYPES[part])
            typed = True
        elif part in ("int", "uint"):  # `get_uint_le`: a width given elsewhere
            words += ["unsigned integer"] if part == "uint" else []
            typed = True
    return words if typed else None


def _byte_order_words(parts: list[str], numeric: list[str] | None) -> list[str]:
    """The byte orders a name spells beside a numeric type (`numeric`, from `_numeric_words`)
    or `bytes`: `to_be_bytes` -> ["big endian"]."""
    if numeric is None and "bytes" not in parts:
        return []
    return [_BYTE_ORDERS[part] for part in parts if part in _BYTE_ORDERS]


def _type_words(parts: list[str]) -> list[str] | None:
    """The words for a name's numeric types and byte orders, or None when it names none."""
    numeric = _numeric_words(parts)
    return [*(numeric or []), *_byte_order_words(parts, numeric)] or None


_WORD = re.compile(r"[A-Za-z]+")


def _expanded(match: re.Match[str]) -> str:
    return ABBREVIATIONS.get(match.group(0).lower(), match.group(0))


@lru_cache(maxsize=65536)
def name_words(symbol: str) -> str:
    """A symbol's parts as words, common abbreviations spelled out: `Bytes.len` -> `bytes
    length`, `rev` -> `reverse`, and its numeric types and byte orders: `get_u16_le` -> `get
    u 16 le little endian unsigned 16 bit integer little endian`."""
    words = _WORD.sub(_expanded, identifier_words(symbol))
    # A byte order one of its identifiers spelled (`identifier_words`) is said again here, on
    # purpose: it then weighs twice in the name's vector, which tells `get_u16_le` from
    # `get_u16` (bytes, development: default MRR@10 0.540 said twice, 0.482 said once).
    return " ".join([words, *(_type_words(split_identifier(symbol)) or [])])


def spelled_out(symbol: str) -> list[str]:
    """The words a symbol's abbreviated parts, numeric types and byte orders stand for (`rev`
    -> ["reverse"], `get_i8` -> ["signed 8 bit integer"])."""
    parts = split_identifier(symbol)
    return [ABBREVIATIONS[part] for part in parts if part in ABBREVIATIONS] + \
        (_type_words(parts) or [])
