"""Stale anchors (docs/design.md): is the code a fact is about still the code it describes?

Each `about:` anchor is checked against the code index's `symbols` table:

- **fresh**: the symbol's normalised body hash is unchanged. The hash ignores whitespace and
  comments, so a reformat keeps it; a symbol moved within its file, or to another file
  under the same name, is found by its hash and followed.
- **drifted**: the body changed, or the symbol was renamed (the hash covers the name, so a
  rename always counts as a change: the fact may still use the old name). A rename or move,
  in the file or elsewhere in the repo, is followed by fuzzy matching on identifier parts.
- **orphaned**: nothing matches any more.

Nothing here writes a fact file: the state is derived from the index on demand, so a
teammate's re-index never rewrites anyone's facts. A person's confirmation writes the
followed location and current hash back (`refreshed_anchors`).

The per-fact state is the worst one that still lets the fact be used: orphaned only when every
anchor is orphaned, drifted when any anchor drifted or was lost, else fresh. A fact without
anchors is "unanchored"; anchors that cannot be checked (no code index yet, or a file the
index skips) count as fresh, so a missing index never hides facts.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from kenning.core.records import Anchor
from kenning.core.textutil import split_identifier

FRESH, DRIFTED, ORPHANED, UNANCHORED = "fresh", "drifted", "orphaned", "unanchored"
# Name similarity (rapidfuzz WRatio over split identifiers, 0-100) to follow a rename:
# stricter across files, where many more symbols compete.
RENAME_SAME_FILE = 80.0
RENAME_OTHER_FILE = 88.0
# Identifier parts carried by more symbols than this are useless for narrowing candidates.
MAX_PART_POSTING = 500


@dataclass(frozen=True)
class SymbolRef:
    path: str
    qualname: str
    name: str
    kind: str
    body_hash: str
    start_line: int
    end_line: int


@dataclass(frozen=True)
class AnchorCheck:
    anchor: Anchor  # as recorded in the fact
    state: str  # fresh | drifted | orphaned
    current: Anchor | None  # where the code is now, with its current hash (None if lost)
    note: str  # one line for people: "moved to src/b.py", "body changed", ...
    checked: bool = True  # False when the index could not tell (no code index, skipped file)


@dataclass(frozen=True)
class FactAnchors:
    fact_id: str
    state: str  # fresh | drifted | orphaned | unanchored
    checks: tuple[AnchorCheck, ...]


# The exact lookups SymbolIndex answers (column sets); a preloaded index keeps one map each.
_LOOKUPS: tuple[tuple[str, ...], ...] = (("path", "qualname"), ("path",), ("qualname",),
                                         ("name",))
_LookupKey = tuple[tuple[str, ...], tuple[object, ...]]  # (columns, their values)


class SymbolIndex:
    """Read-only lookups on the index's `symbols` and `files` tables, cached per instance.

    Exact lookups are single indexed queries (cheap enough for a hook); the hash map and the
    fuzzy candidates are built on the first miss.
    """

    def __init__(self, conn: sqlite3.Connection, root: Path | None = None,
                 preload: bool = False):
        self.conn = conn
        self.root = root
        self._paths: set[str] | None = None
        self._by_hash: dict[str, list[SymbolRef]] | None = None
        self._all: list[SymbolRef] | None = None
        self._parts: dict[str, list[int]] | None = None
        self._texts: dict[str, list[str]] = {}
        # Bulk callers (the anchors map checks every anchored fact) read the table once and
        # answer lookups from memory instead of one query per anchor.
        self._memo: dict[_LookupKey, list[SymbolRef]] | None = None
        if preload:
            self._memo = {}
            for ref in self.all():
                for columns in _LOOKUPS:
                    key = (columns, tuple(getattr(ref, c) for c in columns))
                    self._memo.setdefault(key, []).append(ref)

    def _matching(self, **equal: object) -> list[SymbolRef]:
        """Symbols whose columns equal `equal` (one of `_LOOKUPS`), in file and line order."""
        columns = tuple(equal)
        values = tuple(equal.values())
        if self._memo is not None:
            return self._memo.get((columns, values), [])
        return self._rows(" AND ".join(f"{c} = ?" for c in columns), values)

    def _rows(self, where: str, args: Sequence[object]) -> list[SymbolRef]:
        try:
            rows = self.conn.execute(
                "SELECT path, qualname, name, kind, body_hash, start_line, end_line FROM symbols "
                f"WHERE {where} ORDER BY path, start_line", tuple(args)).fetchall()
        except sqlite3.Error:
            return []
        return [SymbolRef(*tuple(r)) for r in rows]

    @property
    def paths(self) -> set[str]:
        if self._paths is None:
            try:
                self._paths = {r[0] for r in self.conn.execute("SELECT path FROM files")}
            except sqlite3.Error:
                self._paths = set()
        return self._paths

    def has_code(self) -> bool:
        return bool(self.paths)

    def unindexed_on_disk(self, path: str) -> bool:
        """A file the index skipped (ignored, too large) but that exists: not checkable."""
        return self.root is not None and (self.root / path).is_file()

    def at(self, path: str, qualname: str) -> list[SymbolRef]:
        return self._matching(path=path, qualname=qualname)

    def in_file(self, path: str) -> list[SymbolRef]:
        return self._matching(path=path)

    def by_qualname(self, qualname: str) -> list[SymbolRef]:
        return self._matching(qualname=qualname)

    def by_name(self, name: str) -> list[SymbolRef]:
        return self._matching(name=name)

    def by_hash(self, digest: str) -> list[SymbolRef]:
        if self._by_hash is None:
            self._by_hash = {}
            for ref in self.all():
                self._by_hash.setdefault(ref.body_hash, []).append(ref)
        return self._by_hash.get(digest, [])

    def all(self) -> list[SymbolRef]:
        if self._all is None:
            self._all = self._rows("1", ())
        return self._all

    def renamed_same_body(self, anchor: Anchor) -> SymbolRef | None:
        """A symbol whose body is the anchor's, but for its new name (needs the files).

        Puts the old name back into each candidate's source span and compares the
        normalised hash: an exact answer for a pure rename, however different the names.
        """
        if self.root is None or not anchor.hash or not anchor.symbol:
            return None
        from kenning.index.chunking.lines import body_hash

        old = anchor.symbol.rpartition(".")[2]
        pool = self.in_file(anchor.file) + self._candidates(anchor.symbol)
        for ref in pool:
            if ref.name == old or not ref.name:
                continue
            lines = self._lines(ref.path)
            span = "\n".join(lines[ref.start_line - 1:ref.end_line])
            restored = re.sub(rf"\b{re.escape(ref.name)}\b", old, span, count=1)
            if body_hash(restored.encode("utf-8")) == anchor.hash:
                return ref
        return None

    def _lines(self, path: str) -> list[str]:
        if path not in self._texts:
            try:
                text = (self.root / path).read_text(encoding="utf-8")  # type: ignore[operator]
            except (OSError, UnicodeDecodeError):
                text = ""
            self._texts[path] = text.splitlines()
        return self._texts[path]

    def similar(self, qualname: str, cutoff: float, exclude_path: str | None = None,
                only_path: str | None = None) -> SymbolRef | None:
        """The symbol whose name reads most like `qualname` (a rename), if close enough."""
        from rapidfuzz import fuzz, process

        if only_path is not None:
            pool = self.in_file(only_path)
        else:
            pool = [s for s in self._candidates(qualname) if s.path != exclude_path]
        if not pool:
            return None
        wanted = _words(qualname)
        choices = {n: _words(s.qualname) for n, s in enumerate(pool)}
        best = process.extractOne(wanted, choices, scorer=fuzz.WRatio, score_cutoff=cutoff)
        return pool[best[2]] if best else None

    def _candidates(self, qualname: str) -> list[SymbolRef]:
        symbols = self.all()
        if self._parts is None:
            self._parts = {}
            for n, ref in enumerate(symbols):
                for part in set(split_identifier(ref.name)):
                    self._parts.setdefault(part, []).append(n)
        found: set[int] = set()
        for part in set(split_identifier(qualname.rpartition(".")[2])):
            posting = self._parts.get(part, ())
            if len(posting) <= MAX_PART_POSTING:
                found.update(posting)
        return [symbols[n] for n in sorted(found)]


def _words(identifier: str) -> str:
    return " ".join(split_identifier(identifier.replace(".", "_"))) or identifier.lower()


def _anchor_of(ref: SymbolRef) -> Anchor:
    return Anchor(ref.path, ref.qualname, ref.body_hash)


def _pick(refs: list[SymbolRef], anchor: Anchor) -> SymbolRef:
    """Among equal matches prefer the anchor's file, then its exact name."""
    return sorted(refs, key=lambda r: (r.path != anchor.file, r.qualname != anchor.symbol,
                                       r.path, r.start_line))[0]


def check_anchor(index: SymbolIndex, anchor: Anchor, follow: bool = True) -> AnchorCheck:
    """The state of one anchor against the current code index."""
    if not index.has_code():
        return AnchorCheck(anchor, FRESH, anchor, "code not indexed", checked=False)
    if not anchor.symbol:
        return _check_file(index, anchor)
    here = index.at(anchor.file, anchor.symbol)
    if here:
        ref = here[0]
        if anchor.hash is None or any(r.body_hash == anchor.hash for r in here):
            note = "unchanged" if anchor.hash else "no hash recorded; confirm to record it"
            return AnchorCheck(anchor, FRESH, _anchor_of(ref), note)
        return AnchorCheck(anchor, DRIFTED, _anchor_of(ref), "body changed since confirmed")
    if anchor.hash:
        same_body = index.by_hash(anchor.hash)
        same_name = [r for r in same_body if r.name == anchor.symbol.rpartition(".")[2]]
        if same_name:
            ref = _pick(same_name, anchor)
            return AnchorCheck(anchor, FRESH, _anchor_of(ref), f"moved to {_where(ref)}")
    moved = index.by_qualname(anchor.symbol)
    if moved:
        ref = _pick(moved, anchor)
        return AnchorCheck(anchor, DRIFTED, _anchor_of(ref),
                           f"moved to {_where(ref)} and changed")
    if anchor.file not in index.paths and index.unindexed_on_disk(anchor.file):
        return AnchorCheck(anchor, FRESH, anchor, "file not indexed", checked=False)
    if follow:
        ref = index.renamed_same_body(anchor)
        if ref is not None:
            return AnchorCheck(anchor, DRIFTED, _anchor_of(ref),
                               f"renamed to {_where(ref)} (body unchanged)")
        if anchor.file in index.paths:
            ref = index.similar(anchor.symbol, RENAME_SAME_FILE, only_path=anchor.file)
        if ref is None:
            ref = index.similar(anchor.symbol, RENAME_OTHER_FILE, exclude_path=None)
        if ref is not None:
            return AnchorCheck(anchor, DRIFTED, _anchor_of(ref), f"renamed to {_where(ref)}")
    elif anchor.file in index.paths or index.by_name(anchor.symbol.rpartition(".")[2]):
        # Without the rename search a vanished symbol may just have been renamed: keep the
        # fact visible (with the caveat) rather than hide it on a guess.
        return AnchorCheck(anchor, DRIFTED, None, "symbol not found (rename search skipped)")
    gone = "file deleted" if anchor.file not in index.paths else "symbol deleted"
    return AnchorCheck(anchor, ORPHANED, None, gone)


def label(anchor: Anchor) -> str:
    """`file:symbol`, or just the file."""
    return f"{anchor.file}:{anchor.symbol}" if anchor.symbol else anchor.file


def _where(ref: SymbolRef) -> str:
    return f"{ref.path}:{ref.qualname}"


def _check_file(index: SymbolIndex, anchor: Anchor) -> AnchorCheck:
    if anchor.file in index.paths:
        return AnchorCheck(anchor, FRESH, anchor, "file present")
    if index.unindexed_on_disk(anchor.file):
        return AnchorCheck(anchor, FRESH, anchor, "file not indexed", checked=False)
    base = anchor.file.rpartition("/")[2]
    same = [p for p in index.paths if p.rpartition("/")[2] == base]
    if len(same) == 1:
        return AnchorCheck(anchor, FRESH, Anchor(same[0]), f"moved to {same[0]}")
    return AnchorCheck(anchor, ORPHANED, None, "file deleted")


def combine(checks: Sequence[AnchorCheck]) -> str:
    """One state for a fact from its anchors' states (see the module docstring)."""
    if not checks:
        return UNANCHORED
    states = {c.state for c in checks}
    if states == {ORPHANED}:
        return ORPHANED
    if states & {DRIFTED, ORPHANED}:
        return DRIFTED
    return FRESH


def anchors_of(fact: object) -> tuple[Anchor, ...]:
    """Anchors of a Fact, an index FactRow, or a hook row (`about` as the index's JSON)."""
    about = getattr(fact, "about", None)
    if about is None and isinstance(fact, dict):
        about = fact.get("about")
    if isinstance(about, str):
        try:
            about = json.loads(about or "[]")
        except ValueError:
            return ()
    out = []
    for item in about or ():
        if isinstance(item, Anchor):
            out.append(item)
        elif isinstance(item, list | tuple) and item and isinstance(item[0], str):
            symbol = item[1] if len(item) > 1 else None
            digest = item[2] if len(item) > 2 else None
            out.append(Anchor(item[0], symbol or None, digest or None))
        elif isinstance(item, dict) and isinstance(item.get("file"), str):
            out.append(Anchor(item["file"], item.get("symbol"), item.get("hash")))
    return tuple(out)


def check_fact(index: SymbolIndex, fact: object, follow: bool = True) -> FactAnchors:
    checks = tuple(check_anchor(index, a, follow) for a in anchors_of(fact))
    fact_id = getattr(fact, "id", None) or (fact.get("id") if isinstance(fact, dict) else "")
    return FactAnchors(str(fact_id), combine(checks), checks)


def anchor_state(
    fact_row: object, conn: sqlite3.Connection, *, follow: bool = True, root: Path | None = None
) -> str:
    """"fresh" | "drifted" | "orphaned" | "unanchored" for one fact (for injection).

    `fact_row` may be a `Fact`, an index `FactRow`, a hook row whose `about` is the index's
    JSON, or a dict with `about`. Plain sqlite3; rapidfuzz is imported only when an anchor's
    symbol has vanished and `follow` is on (a rename search); hooks with a stdlib-only
    import budget pass `follow=False`, which reports such an anchor as drifted (shown with
    the caveat) instead of searching, unless its whole file is gone. Injection: fresh and
    unanchored as is, drifted with a short caveat (`DRIFT_CAVEAT`), orphaned not at all.
    With `root`, a file the code index skipped but that exists counts as fresh.
    """
    return check_fact(SymbolIndex(conn, root), fact_row, follow).state


DRIFT_CAVEAT = "(the code this is about changed since it was confirmed; verify)"


def stale_report(
    conn: sqlite3.Connection, facts: Iterable[object], root: Path | None = None
) -> list[FactAnchors]:
    """Every anchored fact's state, one symbol index shared by all (for `kenning stale`)."""
    index = SymbolIndex(conn, root)
    return [check_fact(index, fact) for fact in facts if anchors_of(fact)]


def refreshed_anchors(
    conn: sqlite3.Connection, about: Sequence[Anchor], drop_orphaned: bool = False,
    root: Path | None = None,
) -> tuple[Anchor, ...]:
    """Anchors moved to where their code is now, with its current hash (for a confirmation).

    Anchors the index cannot check are kept as they are; orphaned ones are kept unless
    `drop_orphaned` (a person confirmed the fact knowing its code is gone).
    """
    index = SymbolIndex(conn, root)
    out: list[Anchor] = []
    for anchor in about:
        check = check_anchor(index, anchor)
        if not check.checked:
            out.append(anchor)
        elif check.current is not None:
            out.append(check.current)
        elif not drop_orphaned:
            out.append(anchor)
    return tuple(dict.fromkeys(out))


