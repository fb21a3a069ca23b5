"""The review queue and the decay report (issue 6 items 1 and 7).

The queue gathers what needs a person: contradictions, orphaned and drifted anchors,
borderline duplicates, facts decayed into the archive and extracted facts nobody confirmed.
Everything in it is computed from the index on demand; only a person's action writes a fact
file. A dismissal ("these two do not contradict") is remembered in local history, since it is
one person's judgement about the queue, not knowledge about the project.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from kenning.core.errors import KenningError
from kenning.lifecycle import confidence as lifecycle

if TYPE_CHECKING:
    from kenning.core.records import Fact
    from kenning.index.facts import FactView
    from kenning.lifecycle.writes import FactWriter

# Queue order: what is most likely wrong first.
ITEM_ORDER = ("contradiction", "orphaned", "drifted", "duplicate", "archived", "unconfirmed")
ACTIONS: dict[str, tuple[str, ...]] = {
    "contradiction": ("keep", "edit", "reject", "dismiss", "skip"),
    "orphaned": ("accept", "edit", "reject", "skip"),
    "drifted": ("accept", "edit", "reject", "skip"),
    "duplicate": ("merge", "dismiss", "skip"),
    "archived": ("accept", "restore", "archive", "reject", "skip"),
    "unconfirmed": ("accept", "edit", "reject", "skip"),
}
DISMISSALS_FILE = "review-dismissed.json"


@dataclass(frozen=True)
class ReviewItem:
    kind: str  # one of ITEM_ORDER
    ids: tuple[str, ...]  # one fact, or the pair
    texts: tuple[str, ...]
    detail: str  # why it is in the queue
    actions: tuple[str, ...]

    @property
    def key(self) -> str:
        return ":".join((self.kind, *sorted(self.ids)))

    def commands(self) -> list[str]:
        """Ready-to-run CLI commands for each action (what the review skill runs)."""
        first = self.ids[0]
        pair = " ".join(self.ids)
        out = []
        for action in self.actions:
            if action == "skip":
                continue
            if action == "keep":
                out += [f"kenning review keep {self.ids[0]} {self.ids[1]}",
                        f"kenning review keep {self.ids[1]} {self.ids[0]}"]
            elif action in ("merge", "dismiss"):
                out.append(f"kenning review {action} {pair}")
            elif action == "edit":
                out.append(f'kenning review edit {first} --text "..."')
            elif action == "reject" and len(self.ids) > 1:
                out += [f"kenning review reject {fid}" for fid in self.ids]
            else:
                out.append(f"kenning review {action} {first}")
        return out

    def to_json(self) -> dict:
        return {"key": self.key, "kind": self.kind, "ids": list(self.ids),
                "texts": list(self.texts), "detail": self.detail,
                "actions": list(self.actions), "commands": self.commands()}


@dataclass
class DecayReport:
    archived: list[FactView] = field(default_factory=list)  # decayed below 0.30 (stored active)
    next_week: list[FactView] = field(default_factory=list)  # will be within a week
    recorded: int = 0  # facts a person archived in YAML (`status: archived`)


# ---- decay --------------------------------------------------------------------------------
def decay_report(memory: FactWriter, now: datetime | None = None, sync: bool = True
                 ) -> DecayReport:
    """What decay has archived (in the index view) and what it will archive next week.

    Writes no fact file either way; `sync=False` reads the index as it stands.
    """
    now = now or memory.clock()
    report = DecayReport()
    if sync:
        views = memory.fact_index.views()
    else:
        views = [memory.fact_index.view(row, now) for row in memory.index.fact_rows().values()]
    for view in views:
        row = view.row
        if row.status == "archived":
            report.recorded += 1
        if row.status != "active":
            continue
        if view.status == "archived":
            report.archived.append(view)
        elif lifecycle.is_archived(lifecycle.current_confidence(
                row.confidence, row.confirmed, row.last_used, now + lifecycle.WEEK)):
            report.next_week.append(view)
    report.archived.sort(key=lambda v: (v.current, v.row.id))
    report.next_week.sort(key=lambda v: (v.current, v.row.id))
    return report


# ---- the queue ----------------------------------------------------------------------------
def queue(memory: FactWriter, limit: int | None = None,
          kinds: Sequence[str] | None = None) -> list[ReviewItem]:
    """Everything that needs a person, most urgent first (see ITEM_ORDER)."""
    from kenning.lifecycle.consolidate import eligible, plan
    from kenning.lifecycle.contradictions import find_all
    from kenning.lifecycle.stale import DRIFTED, ORPHANED, label, stale_report

    wanted = set(kinds or ITEM_ORDER)
    dismissed = load_dismissed(memory)
    views = memory.fact_index.views()
    by_id = {v.row.id: v for v in views}
    live = [v for v in views if v.status == "active"]
    items: list[ReviewItem] = []
    queued: set[str] = set()

    def add(kind: str, ids: tuple[str, ...], detail: str) -> None:
        item = ReviewItem(kind, ids, tuple(by_id[i].row.text for i in ids), detail,
                          ACTIONS[kind])
        if item.key not in dismissed:
            items.append(item)
            queued.update(ids)

    if "contradiction" in wanted:
        for found in find_all([v.row for v in live]):
            add("contradiction", (found.a, found.b), f"{found.reason}: {found.detail}")
    if wanted & {"orphaned", "drifted"}:
        for report in stale_report(memory.index.conn, [v.row for v in live], memory.project.root):
            if report.state in (ORPHANED, DRIFTED) and report.state in wanted:
                notes = "; ".join(f"{label(c.anchor)} {c.note}"
                                  for c in report.checks if c.state != "fresh")
                add(report.state, (report.fact_id,), notes)
    if "duplicate" in wanted:
        ids, matrix = memory.index.fact_vectors()
        for pair in plan([v for v in eligible(memory) if v.status == "active"], ids,
                         matrix).borderline:
            add("duplicate", (pair.a, pair.b), pair.reason)
    if "archived" in wanted:
        for view in sorted(views, key=lambda v: (v.current, v.row.id)):
            if view.row.status == "active" and view.status == "archived":
                add("archived", (view.row.id,), f"decayed to {view.current / 100:.2f}")
    if "unconfirmed" in wanted:
        for view in sorted(live, key=lambda v: (v.row.created, v.row.id), reverse=True):
            row = view.row
            if row.origin != "user" and row.confidence < lifecycle.PERSON \
                    and row.id not in queued:
                add("unconfirmed", (row.id,), f"{row.origin} fact at {view.current / 100:.2f}")
    items.sort(key=lambda i: ITEM_ORDER.index(i.kind))
    return items[:limit] if limit else items


# ---- actions ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    action: str
    ids: tuple[str, ...]
    message: str


def apply(memory: FactWriter, action: str, ids: Sequence[str], text: str | None = None,
          kind: str | None = None) -> Outcome:
    """Carry out one review action (a person's decision: these do write fact files)."""
    ids = tuple(ids)
    need = {"keep": 2, "merge": 2, "dismiss": 2}.get(action, 1)
    if len(ids) < need or (need == 1 and len(ids) != 1):
        raise KenningError(f"`review {action}` takes {need if need == 1 else 'two or more'} "
                           f"fact id{'s' if need > 1 else ''}")
    first = ids[0]
    # The queue may be stale (an earlier action, another process, a pull): check the facts
    # as their files are now, and refuse what no longer applies.
    if action in ("keep", "merge"):
        _require(memory, action, ids, ("active",))
    elif action in ("accept", "confirm"):
        _require(memory, action, ids, ("active", "archived"))
    if action == "accept" or action == "confirm":
        fact = accept(memory, first)
        return Outcome(action, ids, f"confirmed {fact.id} (confidence 1.00)")
    if action == "restore":
        fact = memory.restore(first)
        return Outcome(action, ids, f"restored {fact.id} (confidence "
                                    f"{fact.confidence / 100:.2f})")
    if action == "edit":
        if not text or not text.strip():
            raise KenningError("`review edit` needs --text with the corrected fact")
        fact = memory.edit(first, text=text, kind=kind)
        return Outcome(action, ids, f"edited {fact.id} (confidence 1.00)")
    if action == "reject":
        memory.forget(first)
        return Outcome(action, ids, f"forgot {first} (`kenning restore {first}` undoes it)")
    if action == "archive":
        memory.store.set_status(first, "archived")
        return Outcome(action, ids, f"recorded {first} as archived")
    if action == "keep":
        keep(memory, first, ids[1:])
        return Outcome(action, ids, f"kept {first}; superseded {', '.join(ids[1:])}")
    if action == "merge":
        from kenning.lifecycle.consolidate import merge_facts

        merge = merge_facts(memory, ids)
        return Outcome(action, ids, f"merged {', '.join(merge.absorbed)} into {merge.survivor}")
    if action == "dismiss":
        dismiss(memory, ids)
        return Outcome(action, ids, f"dismissed {' '.join(ids)}")
    raise KenningError(f"unknown review action {action!r}; use one of: accept, restore, edit, "
                       "reject, archive, keep, merge, dismiss")


def _require(memory: FactWriter, action: str, ids: Sequence[str], statuses: tuple[str, ...]
             ) -> None:
    for fid in ids:
        fact = memory.store.get(fid)
        if fact.status not in statuses:
            by = f" by {fact.superseded_by}" if fact.superseded_by else ""
            raise KenningError(f"`review {action}`: {fid} is {fact.status}{by}, so this no "
                               "longer applies; `kenning review` shows the current queue")


def still_applies(memory: FactWriter, item: ReviewItem) -> bool:
    """Every fact of the item is still active in its file (the queue is computed once; an
    earlier action may have superseded, merged or forgotten one of them)."""
    try:
        return all(memory.store.get(fid).status == "active" for fid in item.ids)
    except KenningError:
        return False


def accept(memory: FactWriter, fact_id: str) -> Fact:
    """A person vouches for the fact: 1.00, anchors moved to where the code is now.

    Anchors whose code is gone are dropped: the person confirmed the text knowing that.
    """
    from kenning.lifecycle.stale import refreshed_anchors

    fact = memory.confirm(fact_id)
    if fact.about:
        about = refreshed_anchors(memory.index.conn, fact.about, drop_orphaned=True,
                                  root=memory.project.root)
        if about != fact.about:
            fact = memory.store.update(fact.id, about=about)
    if fact.status == "archived":
        fact = memory.store.set_status(fact.id, "active")
    return fact


def keep(memory: FactWriter, kept: str, others: Sequence[str]) -> Fact:
    """Resolve a contradiction: `kept` is confirmed, the others are superseded by it."""
    fact = memory.confirm(kept)
    for other in others:
        if other != kept:
            memory.store.set_status(other, "superseded", superseded_by=kept)
    return fact


def _dismissed_path(memory: FactWriter):
    return memory.project.local_dir / DISMISSALS_FILE


def load_dismissed(memory: FactWriter) -> set[str]:
    try:
        data = json.loads(_dismissed_path(memory).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    return {k for k in data if isinstance(k, str)} if isinstance(data, list) else set()


def dismiss(memory: FactWriter, ids: Sequence[str]) -> None:
    """Remember that these facts are neither duplicates nor contradictions."""
    from kenning.core.atomic import write_atomic

    for fid in ids:
        memory.store.get(fid)  # a clear error for a wrong id
    ordered = sorted(dict.fromkeys(ids))
    keys = load_dismissed(memory)
    keys.update(":".join((kind, *ordered)) for kind in ("contradiction", "duplicate"))
    write_atomic(_dismissed_path(memory), json.dumps(sorted(keys), indent=0))
