"""The git merge driver for fact files (`kenning merge-fact %O %A %B`).

Later `confirmed` wins for text and confidence; status precedence forgotten > superseded >
archived > active (a tombstone always survives); `about` and `tags` are unioned. Only a real
text conflict (both sides changed the text differently at the same `confirmed`) is left to
the person, as an ordinary conflict.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from kenning.core.errors import FactFileError, FileProblemError, KenningError
from kenning.core.records import Fact
from kenning.core.safeio import display, read_text
from kenning.store.factfile import MAX_FILE_BYTES, parse_fact
from kenning.store.facts import write_conflict_file, write_fact_file

STATUS_RANK = {"active": 0, "archived": 1, "superseded": 2, "forgotten": 3}


def merge_facts(base: Fact | None, ours: Fact, theirs: Fact) -> Fact | None:
    """The merged fact, or None when the texts genuinely conflict."""
    if ours.confirmed != theirs.confirmed:
        newer, older = (ours, theirs) if ours.confirmed > theirs.confirmed else (theirs, ours)
    else:
        base_text = base.text if base else None
        if ours.text != theirs.text and ours.text != base_text and theirs.text != base_text:
            return None
        newer = theirs if ours.text == base_text and theirs.text != base_text else ours
        older = ours if newer is theirs else theirs
    status_source = max((ours, theirs), key=lambda f: STATUS_RANK.get(f.status, 0))
    anchors = {(a.file, a.symbol): a for a in (*older.about, *newer.about)}
    extra = dict(older.extra)
    extra.update(dict(newer.extra))
    return dataclasses.replace(
        newer,
        confidence=newer.confidence if ours.confirmed != theirs.confirmed
        else max(ours.confidence, theirs.confidence),
        status=status_source.status,
        superseded_by=status_source.superseded_by or newer.superseded_by or older.superseded_by,
        # Sorted unions: merging A into B and B into A must give identical files.
        about=tuple(anchors[key] for key in sorted(anchors, key=lambda k: (k[0], k[1] or ""))),
        tags=tuple(sorted(set(ours.tags) | set(theirs.tags))),
        created=min(ours.created, theirs.created),
        extra=tuple(extra.items()),
    )


def merge_files(base_path: Path, ours_path: Path, theirs_path: Path) -> bool:
    """Write the merge into `ours_path`; False (with conflict markers) when it cannot."""
    ours_raw, theirs_raw = _read(ours_path), _read(theirs_path)
    try:
        ours = parse_fact(ours_raw, str(ours_path))
        theirs = parse_fact(theirs_raw, str(theirs_path))
    except FactFileError:
        write_conflict_file(ours_path, ours_raw, theirs_raw)
        return False
    try:
        base_raw = read_text(base_path, MAX_FILE_BYTES)
        base = parse_fact(base_raw, str(base_path)) if base_raw.strip() else None
    except (FileProblemError, OSError):
        base = None
    merged = merge_facts(base, ours, theirs)
    if merged is None:
        write_conflict_file(ours_path, ours_raw, theirs_raw)
        return False
    write_fact_file(ours_path, merged)  # the fact store writes every fact file
    return True


def _read(path: Path) -> str:
    """One side of the merge through the read path; a missing or unreadable side is an error
    (git then leaves the file conflicted, untouched)."""
    try:
        return read_text(path, MAX_FILE_BYTES)
    except FileNotFoundError as exc:
        raise KenningError(f"merge-fact: {display(path)} does not exist") from exc
    except FileProblemError as exc:
        raise KenningError(f"merge-fact: {exc}") from exc

