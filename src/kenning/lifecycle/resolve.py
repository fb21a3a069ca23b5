"""Resolve `--about file:Symbol` against the code index (docs/design.md, "The code index").

A person or an agent names a symbol from memory: the name may be misspelled
(`RetryPolicy.backof`), unqualified (`backoff` for `RetryPolicy.backoff`), or the code may
have moved to another file. Resolution finds the symbol the writer meant and records its
normalised body hash, which is what later tells a fresh anchor from a drifted one. Anything
unresolved is kept exactly as written, with a note saying so: a wrong guess would anchor the
fact to the wrong code, which is worse than no hash.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from kenning.core.records import Anchor
from kenning.lifecycle.stale import SymbolIndex, SymbolRef, label

# rapidfuzz WRatio over split identifiers (0-100): a typo in the named file scores ~90+.
SAME_FILE_CUTOFF = 85.0
OTHER_FILE_CUTOFF = 92.0
PATH_CUTOFF = 90.0


@dataclass(frozen=True)
class Resolution:
    anchor: Anchor  # what to store: corrected file/symbol and the body hash when found
    status: str  # exact | corrected | moved | file | unresolved | unchecked
    note: str | None = None  # one line for the writer when the anchor was changed or not found


def has_symbols(conn: sqlite3.Connection) -> bool:
    try:
        return conn.execute("SELECT 1 FROM symbols LIMIT 1").fetchone() is not None
    except sqlite3.Error:
        return False


def resolve(conn: sqlite3.Connection, anchor: Anchor,
            index: SymbolIndex | None = None) -> Resolution:
    """The anchor the writer meant, with its current body hash; see the module docstring."""
    index = index or SymbolIndex(conn)
    if not index.has_code():
        return Resolution(anchor, "unchecked")
    file = anchor.file
    note_parts: list[str] = []
    if file not in index.paths:
        corrected = _similar_path(index, file)
        if corrected is None:
            if not anchor.symbol:
                return Resolution(anchor, "unresolved", f"{file} is not in the code index")
        else:
            note_parts.append(f"{file} -> {corrected}")
            file = corrected
    if not anchor.symbol:
        status = "corrected" if note_parts else "file"
        return Resolution(Anchor(file), status, _note(note_parts))
    symbol = anchor.symbol
    exact = index.at(file, symbol)
    if exact:
        return _found(exact[0], "corrected" if note_parts else "exact", note_parts)
    short = symbol.rpartition(".")[2]
    by_name = [r for r in index.in_file(file) if r.name == short or r.qualname.endswith(
        "." + symbol)]
    if len(by_name) == 1:
        return _found(by_name[0], "corrected", note_parts + [f"{symbol} -> {by_name[0].qualname}"])
    if file in index.paths:
        ref = index.similar(symbol, SAME_FILE_CUTOFF, only_path=file)
        if ref is not None:
            return _found(ref, "corrected", note_parts + [f"{symbol} -> {ref.qualname}"])
    elsewhere = index.by_qualname(symbol)
    if len(elsewhere) == 1:
        ref = elsewhere[0]
        return _found(ref, "moved", note_parts + [f"{symbol} is in {ref.path}"])
    ref = index.similar(symbol, OTHER_FILE_CUTOFF)
    if ref is not None and ref.path != file:
        return _found(ref, "moved", note_parts + [f"{symbol} -> {ref.path}:{ref.qualname}"])
    return Resolution(Anchor(file, symbol), "unresolved",
                      f"no symbol {symbol} in {file}; anchored as written, without a hash")


def resolve_all(conn: sqlite3.Connection, anchors: tuple[Anchor, ...]
                ) -> tuple[tuple[Anchor, ...], list[str]]:
    """Resolved anchors (duplicates dropped) and the notes for the writer."""
    index = SymbolIndex(conn)
    resolved: list[Anchor] = []
    notes: list[str] = []
    for anchor in anchors:
        if anchor.hash:  # already resolved by whoever wrote it
            resolved.append(anchor)
            continue
        result = resolve(conn, anchor, index)
        resolved.append(result.anchor)
        if result.note:
            notes.append(f"--about {label(anchor)}: {result.note}")
    return tuple(dict.fromkeys(resolved)), notes


def _found(ref: SymbolRef, status: str, notes: list[str]) -> Resolution:
    return Resolution(Anchor(ref.path, ref.qualname, ref.body_hash), status, _note(notes))


def _note(parts: list[str]) -> str | None:
    return "; ".join(parts) if parts else None


def _similar_path(index: SymbolIndex, path: str) -> str | None:
    from rapidfuzz import fuzz, process

    base = path.rpartition("/")[2]
    same_name = [p for p in index.paths if p.rpartition("/")[2] == base]
    if len(same_name) == 1:
        return same_name[0]
    best = process.extractOne(path, sorted(index.paths), scorer=fuzz.ratio,
                              score_cutoff=PATH_CUTOFF)
    return best[0] if best else None
