"""Fact writes with the lifecycle rules applied: dedup, supersession, contradictions, anchors.

`FactWriter` is the one way entry points, extraction, imports and lifecycle jobs change
facts: the files through the fact store, then the index through the facts service.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kenning.core.records import Anchor, Fact, Source

if TYPE_CHECKING:
    from kenning.index.facts import FactIndex
    from kenning.store.facts import FactStore


@dataclass
class AddResult:
    fact: Fact
    created: bool  # False when an existing fact was re-confirmed instead
    superseded: list[str] = field(default_factory=list)
    contradictions: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # e.g. how an --about anchor was resolved


class FactWriter:
    """Creates, supersedes, confirms, restores, edits, forgets and purges facts."""

    def __init__(self, facts: FactIndex, close: Callable[[], None] = lambda: None):
        """`close` releases every open handle on the index (purge rewrites local copies)."""
        self.fact_index = facts
        self.index = facts.index
        self.project = facts.project
        self.clock = facts.clock
        self._close = close

    @property
    def store(self) -> FactStore:
        return self.fact_index.store  # opened on first need (index.facts.FactIndex.store)

    def add(
        self,
        text: str,
        kind: str,
        *,
        origin: str = "user",
        about: Iterable[Anchor] = (),
        tags: Iterable[str] = (),
        topic: str | None = None,
        rationale: str | None = None,
        source: Source | None = None,
        supersedes: str | None = None,
    ) -> AddResult:
        """Create a fact, or re-confirm the near-duplicate that already says it."""
        from kenning.lifecycle.dedup import find_duplicate
        from kenning.store.facts import clean_text, validate_kind

        validate_kind(kind)
        cleaned = clean_text(text)
        live = [v.row for v in self.fact_index.views() if v.status == "active"]
        active = [r for r in live if r.kind == kind]
        if supersedes:
            self.store.get(supersedes)
        duplicate = None if supersedes else find_duplicate(cleaned, active)
        if duplicate is not None:
            return self._reconfirm(duplicate, origin, source)
        anchors, notes = self._resolve_anchors(tuple(about))
        fact = self.store.create(
            cleaned, kind, origin=origin, about=anchors, tags=tuple(tags), topic=topic,
            rationale=rationale, source=source, now=self.clock(),
        )
        result = AddResult(fact, created=True, notes=notes)
        old_ids = [supersedes] if supersedes else []
        if fact.topic:
            old_ids += [r.id for r in active if r.topic == fact.topic and r.id != fact.id]
        for old in dict.fromkeys(old_ids):
            self.store.set_status(old, "superseded", superseded_by=fact.id)
            result.superseded.append(old)
        from kenning.lifecycle.contradictions import (
            contradicting,  # reported, never resolved automatically
        )

        others = [r for r in live if r.id not in result.superseded]
        result.contradictions = [c.b for c in contradicting(fact.text, others, fact.about)]
        return result

    def _reconfirm(self, duplicate: str, origin: str, source: Source | None) -> AddResult:
        existing = self.store.get(duplicate)
        if source is not None and source.evidence and \
                (existing.source.session, existing.source.evidence) == \
                (source.session, source.evidence):
            # The same transcript line read again (a rerun after a crash): not new evidence.
            return AddResult(existing, created=False)
        now = self.clock()
        fact = self.store.reconfirm(duplicate, self.fact_index.last_used(duplicate), now)
        if origin == "user":
            fact = self.store.edit(duplicate, now=now)
        return AddResult(fact, created=False, notes=self.refresh_anchors(fact)[1])

    def supersede(self, old_id: str, text: str, *, origin: str = "user",
                  about: Iterable[Anchor] | None = None, rationale: str | None = None
                  ) -> AddResult:
        """A new fact replacing `old_id`: same kind, tags and topic; its anchors unless given."""
        old = self.store.get(old_id)
        return self.add(text, old.kind, origin=origin,
                        about=old.about if about is None else about, tags=old.tags,
                        topic=old.topic, rationale=rationale or old.rationale,
                        supersedes=old_id)

    def _resolve_anchors(self, about: tuple[Anchor, ...]) -> tuple[tuple[Anchor, ...], list[str]]:
        """`--about` anchors resolved against the code index's symbols (when indexed)."""
        if not about:
            return about, []
        from kenning.lifecycle.resolve import has_symbols, resolve_all

        if not has_symbols(self.index.conn):
            return about, []
        return resolve_all(self.index.conn, about)

    def refresh_anchors(self, fact: Fact, drop_orphaned: bool = False) -> tuple[Fact, list[str]]:
        """On re-confirmation: anchors follow their code and record its current hash."""
        if not fact.about:
            return fact, []
        from kenning.lifecycle.stale import label, refreshed_anchors

        about = refreshed_anchors(self.index.conn, fact.about, drop_orphaned, self.project.root)
        if about == fact.about:
            return fact, []
        moved = [f"anchor {label(a)} refreshed" for a in about if a not in fact.about]
        return self.store.update(fact.id, about=about), moved

    def forget(self, fact_id: str) -> Fact:
        return self.store.forget(fact_id)

    def restore(self, fact_id: str) -> Fact:
        """Undo a forget or an archival: active again, re-confirmed."""
        fact = self.store.reconfirm(fact_id, self.fact_index.last_used(fact_id), self.clock())
        fact = self.refresh_anchors(fact)[0]
        return self.store.set_status(fact.id, "active")

    def confirm(self, fact_id: str) -> Fact:
        """A person vouches for the fact: confidence 1.00, anchors refreshed."""
        return self.refresh_anchors(self.store.edit(fact_id, now=self.clock()))[0]

    def edit(self, fact_id: str, **changes: object) -> Fact:
        return self.store.edit(fact_id, now=self.clock(), **changes)  # type: ignore[arg-type]

    def set_status(self, fact_id: str, status: str, superseded_by: str | None = None) -> Fact:
        return self.store.set_status(fact_id, status, superseded_by=superseded_by)

    def purge(self, fact_id: str) -> list[str]:
        """Delete the fact file and scrub every local copy; returns what was cleaned."""
        from kenning.store.purge import purge_fact

        text = self.store.locate(fact_id).fact.text
        self.index.ensure_writable()  # refused before any copy is touched, not half-way
        self._close()
        cleaned = purge_fact(self.project, fact_id, text)
        self.fact_index.forget_caches()
        self.fact_index.sync(force=True)  # the anchors map again, for facts whose entries quoted it
        return cleaned
