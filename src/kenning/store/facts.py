"""The fact store: the ONLY writer of fact YAML, in the project store or the personal one.

Every write is atomic and every text is redacted first: facts are committed to git.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from kenning.core import clock
from kenning.core.atomic import write_atomic
from kenning.core.errors import FactFileError, KenningError, NotFoundError
from kenning.core.ids import is_ulid, new_ulid
from kenning.core.paths import Project
from kenning.core.private import strip_private
from kenning.core.records import KINDS, ORIGINS, Anchor, Fact, Source
from kenning.core.redact import redact
from kenning.lifecycle import confidence as lifecycle
from kenning.store.factfile import (
    FORMAT,
    normalise_anchor_path,
    read_fact_file,
    render_checked,
)


@dataclass(frozen=True)
class StoredFact:
    """A fact with the file it came from and which store holds it."""

    fact: Fact
    path: Path
    store: str  # project | personal


@dataclass(frozen=True)
class ScanResult:
    facts: list[StoredFact]
    problems: list[FactFileError]


def iter_fact_paths(directory: Path) -> Iterator[Path]:
    try:
        entries = list(os.scandir(directory))
    except FileNotFoundError:
        return
    for entry in sorted(entries, key=lambda e: e.name):
        if entry.name.endswith(".yaml") and not entry.name.startswith("."):
            yield Path(entry.path)


def scan(project: Project) -> ScanResult:
    """Every readable fact of both stores; bad files are reported, never fatal."""
    facts: list[StoredFact] = []
    problems: list[FactFileError] = []
    for store, directory in project.fact_dirs():
        for path in iter_fact_paths(directory):
            try:
                facts.append(StoredFact(read_fact_file(path), path, store))
            except FactFileError as exc:
                problems.append(exc)
    return ScanResult(facts, problems)


def validate_kind(kind: str) -> str:
    if kind not in KINDS:
        raise KenningError(f"unknown kind {kind!r}; use one of: {', '.join(KINDS)}")
    return kind


def clean_text(text: str, what: str = "text") -> str:
    """Redacted, single-spaced, non-empty."""
    cleaned = " ".join(redact(strip_private(utf8(text, what))).split())
    if not cleaned:
        raise KenningError(f"the fact {what} is empty; say what should be remembered")
    return cleaned


def _clean_tags(tags: tuple[str, ...]) -> tuple[str, ...]:
    """Lower-cased, unique, redacted: a tag is written to YAML like the text is."""
    return tuple(dict.fromkeys(redact(strip_private(utf8(t, "tag")).strip().lower()) for t in tags
                               if t.strip()))


def utf8(text: str, what: str) -> str:
    """`text` if it encodes as UTF-8: a byte that is not (from argv, or a lone surrogate in
    JSON) would write a file the reader refuses."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise KenningError(f"the {what} holds bytes that are not UTF-8 text; nothing was "
                           "written") from exc
    return text


def _clean_anchor(anchor: Anchor) -> Anchor:
    if anchor.symbol and redact(anchor.symbol) != anchor.symbol:
        return dataclasses.replace(anchor, symbol=redact(anchor.symbol))
    return anchor


def parse_about(spec: str) -> Anchor:
    """`src/x.py` or `src/x.py:Class.method` (a Windows drive letter is not a symbol)."""
    file, sep, symbol = spec.replace("\\", "/").rpartition(":")
    if not sep or "/" in symbol or not file:
        file, symbol = spec, ""
    try:
        path = normalise_anchor_path(file)
    except FactFileError as exc:
        raise KenningError(f"--about {spec!r}: {exc.problem}") from exc
    return Anchor(file=path, symbol=symbol or None)


def write_fact_file(path: Path, fact: Fact) -> None:
    """Write one fact's YAML at `path`, atomically; refused if the reader would refuse it.
    Every fact file kenning writes goes through here (the store, the git merge driver)."""
    write_atomic(path, render_checked(fact))


def write_conflict_file(path: Path, ours: str, theirs: str) -> None:
    """Leave git's ordinary conflict in a fact file (the merge driver could not merge)."""
    write_atomic(path, f"<<<<<<< ours\n{ours}=======\n{theirs}>>>>>>> theirs\n")


class FactStore:
    """Reads and writes facts for one project; callers pass `now` so tests control time."""

    def __init__(self, project: Project):
        self.project = project

    # ---- reading -------------------------------------------------------------------------
    def locate(self, fact_id: str) -> StoredFact:
        if not is_ulid(fact_id):
            raise NotFoundError(f"{fact_id!r} is not a fact id (26-character ULID)")
        for store, directory in self.project.fact_dirs():
            path = directory / f"{fact_id}.yaml"
            if path.exists():
                return StoredFact(read_fact_file(path), path, store)
        raise NotFoundError(f"no fact {fact_id}; `kenning list` shows the ids")

    def get(self, fact_id: str) -> Fact:
        return self.locate(fact_id).fact

    # ---- writing -------------------------------------------------------------------------
    def write(self, fact: Fact, directory: Path | None = None) -> Path:
        """Write one fact atomically into its store (or `directory`)."""
        target = directory or self.project.facts_dir_for(fact.kind)
        path = target / f"{fact.id}.yaml"
        write_fact_file(path, fact)
        return path

    def create(
        self,
        text: str,
        kind: str,
        *,
        origin: str = "user",
        about: tuple[Anchor, ...] = (),
        tags: tuple[str, ...] = (),
        topic: str | None = None,
        rationale: str | None = None,
        source: Source | None = None,
        now: datetime | None = None,
    ) -> Fact:
        """A brand-new fact file; dedup and supersession are the caller's decision."""
        if origin not in ORIGINS:
            raise KenningError(f"unknown origin {origin!r}; use one of: {', '.join(ORIGINS)}")
        now = now or clock.now()
        fact = Fact(
            format=FORMAT,
            id=new_ulid(int(now.timestamp() * 1000)),
            kind=validate_kind(kind),
            text=clean_text(text),
            rationale=clean_text(rationale, "rationale") if rationale else None,
            about=tuple(_clean_anchor(a) for a in about),
            tags=_clean_tags(tags),
            topic=redact(strip_private(utf8(topic, "topic")).strip().lower())
            if topic and topic.strip() else None,
            source=dataclasses.replace(source or Source(), origin=origin),
            created=now,
            confirmed=now,
            confidence=lifecycle.initial_confidence(origin),
        )
        self.write(fact)
        return fact

    def update(self, fact_id: str, **changes: object) -> Fact:
        """Rewrite a fact with `changes`, in place; newer formats are read-only."""
        stored = self.locate(fact_id)
        if stored.fact.format > FORMAT:
            raise KenningError(
                f"{stored.path} uses format {stored.fact.format}; upgrade kenning to change it"
            )
        updated = dataclasses.replace(stored.fact, **changes)  # type: ignore[arg-type]
        if updated.status in ("active", "archived") and updated.superseded_by:
            # never active and superseded at once: a restored fact drops the old pointer
            updated = dataclasses.replace(updated, superseded_by=None)
        write_fact_file(stored.path, updated)
        return updated

    def edit(
        self,
        fact_id: str,
        *,
        text: str | None = None,
        kind: str | None = None,
        tags: tuple[str, ...] | None = None,
        rationale: str | None = None,
        now: datetime | None = None,
    ) -> Fact:
        """A person's correction: confidence 1.00, confirmed now."""
        now = now or clock.now()
        changes: dict[str, object] = {"confidence": lifecycle.PERSON, "confirmed": now}
        if text is not None:
            changes["text"] = clean_text(text)
        if kind is not None:
            changes["kind"] = validate_kind(kind)
        if tags is not None:
            changes["tags"] = _clean_tags(tags)
        if rationale is not None:
            changes["rationale"] = clean_text(rationale, "rationale")
        return self.update(fact_id, **changes)

    def reconfirm(
        self, fact_id: str, last_used: datetime | None, now: datetime | None = None
    ) -> Fact:
        """New evidence: confidence max(current, 0.90), confirmed now."""
        now = now or clock.now()
        fact = self.get(fact_id)
        value = lifecycle.reconfirmed(fact.confidence, fact.confirmed, last_used, now)
        status = "active" if fact.status == "archived" else fact.status
        return self.update(fact_id, confidence=value, confirmed=now, status=status)

    def set_status(self, fact_id: str, status: str, superseded_by: str | None = None) -> Fact:
        changes: dict[str, object] = {"status": status}
        if superseded_by is not None:
            changes["superseded_by"] = superseded_by
        return self.update(fact_id, **changes)

    def forget(self, fact_id: str) -> Fact:
        """A tombstone, so a merge from another clone cannot bring the fact back."""
        return self.set_status(fact_id, "forgotten")

    def delete_file(self, fact_id: str) -> Path:
        stored = self.locate(fact_id)
        stored.path.unlink()
        return stored.path

    def move(self, fact_id: str, directory: Path) -> Path:
        """Move a fact file to another store (write first, then remove the original)."""
        stored = self.locate(fact_id)
        target = directory / stored.path.name
        write_atomic(target, stored.path.read_bytes())
        stored.path.unlink()
        return target
