"""Everything the report shows, gathered from one project's memory into plain records."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from kenning.core.records import KINDS
from kenning.insight.analytics import (
    CrossoverRow,
    Hotspot,
    Thresholds,
    analyze,
    class_counts,
    crossover,
    hotspots,
)
from kenning.lifecycle import confidence as lifecycle
from kenning.lifecycle.contradictions import find_all
from kenning.lifecycle.stale import stale_report
from kenning.store.events import iter_events

if TYPE_CHECKING:
    from kenning.index.facts import FactIndex, FactView
    from kenning.insight.graph import Community, Graph

BUCKETS = ("< 0.30 archived", "0.30–0.49", "0.50–0.69", "0.70–0.89", "≥ 0.90")
DECAY_ROWS = 15
DECAY_WEEKS = 12
GAP_ROWS = 30
MAP_NODES = 80


@dataclass(frozen=True)
class Decay:
    id: str
    kind: str
    text: str
    current: int  # hundredths
    archived_at: datetime


@dataclass(frozen=True)
class Gap:
    query: str
    count: int
    last: str


@dataclass(frozen=True)
class Finding:
    """One line of an optional section (a contradiction, a stale fact)."""

    title: str
    detail: str = ""
    ids: tuple[str, ...] = ()


@dataclass
class Section:
    available: bool
    items: list[Finding] = field(default_factory=list)
    note: str = ""


@dataclass
class ReportData:
    project: str
    root: str
    generated: datetime
    window: str
    facts_total: int = 0
    by_kind: dict[str, list[int]] = field(default_factory=dict)  # kind -> count per bucket
    statuses: dict[str, int] = field(default_factory=dict)
    decaying: list[Decay] = field(default_factory=list)
    decay_weeks: list[tuple[str, int]] = field(default_factory=list)
    contradictions: Section = field(default_factory=lambda: Section(False))
    stale: Section = field(default_factory=lambda: Section(False))
    hot: list[Hotspot] = field(default_factory=list)
    thresholds: Thresholds | None = None
    crossover: list[CrossoverRow] = field(default_factory=list)
    class_counts: dict[str, int] = field(default_factory=dict)
    gaps: list[Gap] = field(default_factory=list)
    communities: list[Community] = field(default_factory=list)
    edge_counts: dict[str, int] = field(default_factory=dict)
    map_nodes: list[tuple[str, float, float, int, float, str]] = field(default_factory=list)
    map_edges: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def bucket(current: int) -> int:
    if current < lifecycle.ARCHIVE_BELOW:
        return 0
    if current < 50:
        return 1
    if current < 70:
        return 2
    return 3 if current < 90 else 4


def fact_summary(views: Iterable[FactView]) -> tuple[dict[str, list[int]], dict[str, int]]:
    by_kind = {kind: [0] * len(BUCKETS) for kind in KINDS}
    statuses: Counter[str] = Counter()
    for view in views:
        statuses[view.status] += 1
        if view.status in ("active", "archived"):
            by_kind.setdefault(view.row.kind, [0] * len(BUCKETS))[bucket(view.current)] += 1
    return by_kind, dict(statuses)


def archived_at(view: FactView) -> datetime:
    """When the fact first counts as archived if nobody uses or confirms it (docs/design.md)."""
    row = view.row
    anchor = row.confirmed if row.last_used is None or row.last_used < row.confirmed \
        else row.last_used
    weeks = max(0, (row.confidence - lifecycle.ARCHIVE_BELOW) // lifecycle.WEEKLY_DECAY + 1)
    return anchor + weeks * lifecycle.WEEK


def decaying(views: Iterable[FactView], now: datetime) -> tuple[list[Decay], list[tuple]]:
    """The active facts that archive soonest, and how many archive in each coming week."""
    upcoming = sorted(
        (Decay(v.row.id, v.row.kind, v.row.text, v.current, archived_at(v))
         for v in views if v.status == "active"),
        key=lambda d: (d.archived_at, d.id),
    )
    weeks = [0] * DECAY_WEEKS
    for item in upcoming:
        n = (item.archived_at - now) // timedelta(weeks=1)
        if 0 <= n < DECAY_WEEKS:
            weeks[n] += 1
    labels = [("+" + str(n + 1) + "w", count) for n, count in enumerate(weeks)]
    return upcoming[:DECAY_ROWS], labels


def knowledge_gaps(events_path, limit: int = GAP_ROWS) -> list[Gap]:
    """Searches that found nothing, most repeated first."""
    counts: Counter[str] = Counter()
    shown: dict[str, str] = {}
    last: dict[str, str] = {}
    for event in iter_events(events_path):
        if event.type != "gap" or not isinstance(event.data.get("query"), str):
            continue
        query = " ".join(event.data["query"].split())
        if not query:
            continue
        key = query.lower()
        counts[key] += 1
        shown.setdefault(key, query)
        last[key] = max(last.get(key, ""), event.ts)
    ranked = sorted(counts, key=lambda k: (last[k], k), reverse=True)  # newest first...
    ranked.sort(key=lambda k: -counts[k])  # ...within the same count (a stable sort)
    return [Gap(shown[k], counts[k], last[k][:16].replace("T", " ")) for k in ranked[:limit]]


def contradiction_section(views: list[FactView]) -> Section:
    rows = {v.row.id: v.row for v in views if v.status == "active"}
    try:
        found = find_all(list(rows.values()))
    except Exception as exc:  # noqa: BLE001 - an optional section must not sink the report
        return Section(False, note=f"Contradiction check failed: {exc}")
    items = []
    for c in found:
        a, b = rows.get(c.a), rows.get(c.b)
        if a is None or b is None:
            continue
        items.append(Finding(f"{a.text}  ⟷  {b.text}", f"{c.reason}: {c.detail}", (c.a, c.b)))
    return Section(True, items, "No two active facts contradict each other." if not items
                   else "")


def stale_section(memory: FactIndex, views: list[FactView]) -> Section:
    """Active facts whose anchors drifted or vanished."""
    rows = {v.row.id: v.row for v in views if v.status == "active"}
    try:
        checked = stale_report(memory.index.conn, list(rows.values()), memory.project.root)
    except Exception as exc:  # noqa: BLE001 - an optional section must not sink the report
        return Section(False, note=f"Stale-anchor check failed: {exc}")
    items = []
    for fact in checked:
        if fact.state not in ("drifted", "orphaned") or fact.fact_id not in rows:
            continue
        notes = "; ".join(f"{c.anchor.file}{':' + c.anchor.symbol if c.anchor.symbol else ''} "
                          f"{c.note}".strip() for c in fact.checks if c.state != "fresh")
        items.append(Finding(rows[fact.fact_id].text, f"{fact.state}: {notes}",
                             (fact.fact_id,)))
    return Section(True, items, "Every anchored fact still matches its code." if not items
                   else "")


def community_map(graph: Graph) -> tuple[list[tuple], list[tuple[str, str]]]:
    """Positions for the most important nodes: each community laid out on its own (spring
    layout, fixed seed) and the communities set around a circle, biggest first, so one
    large component cannot squeeze the others into a dot."""
    import math

    import networkx as nx

    chosen = sorted(graph.nodes.values(), key=lambda n: (-n.pagerank, n.id))[:MAP_NODES]
    if not chosen:
        return [], []
    keep = {n.id for n in chosen}
    edges = sorted({tuple(sorted((e.src, e.dst))) for e in graph.edges
                    if e.src in keep and e.dst in keep and e.src != e.dst})
    groups: dict[int, list[str]] = {}
    for node in chosen:
        groups.setdefault(node.community, []).append(node.id)
    ordered = sorted(groups.values(), key=lambda g: (-len(g), g[0]))
    total = len(chosen)
    pos: dict[str, tuple[float, float]] = {}
    for n, members in enumerate(ordered):
        if len(ordered) == 1:
            cx = cy = 0.0
        else:
            angle = 2 * math.pi * n / len(ordered)
            ring = 0.0 if n == 0 and len(members) > total / 3 else 0.62
            cx, cy = ring * math.cos(angle), ring * math.sin(angle)
        radius = 0.38 * math.sqrt(len(members) / total) + 0.04
        sub = nx.Graph()
        sub.add_nodes_from(members)
        sub.add_edges_from(e for e in edges if e[0] in sub and e[1] in sub)
        inner = nx.spring_layout(sub, seed=7) if len(members) > 1 else {members[0]: (0, 0)}
        for node_id, (x, y) in inner.items():
            pos[node_id] = (cx + radius * float(x), cy + radius * float(y))
    span = max((max(abs(x), abs(y)) for x, y in pos.values()), default=1.0) or 1.0
    nodes = [(n.id, pos[n.id][0] / span, pos[n.id][1] / span, n.community, n.pagerank,
              n.label) for n in chosen]
    return nodes, list(edges)


def gather(memory: FactIndex, *, days: int | None = 90, ignore: Iterable[str] = ()) -> ReportData:
    """Collect every section's data (syncs git history and rebuilds the graph, unless a newer
    kenning's index makes them read-only)."""
    from kenning.insight.graph import communities, fresh_graph

    now = memory.clock()
    views = memory.views()
    root = memory.project.root
    data = ReportData(project=root.name, root=str(root), generated=now, window="")
    data.facts_total = len(views)
    data.by_kind, data.statuses = fact_summary(views)
    data.decaying, data.decay_weeks = decaying(views, now)
    data.contradictions = contradiction_section(views)
    data.stale = stale_section(memory, views)
    signals = analyze(memory, days=days, ignore=ignore)
    data.window = signals.window.describe()
    data.notes += signals.notes
    data.thresholds, data.crossover = crossover(signals)
    data.class_counts = class_counts(data.crossover)
    data.hot = hotspots(signals, limit=15)
    data.gaps = knowledge_gaps(memory.project.events_path)
    graph = fresh_graph(memory, ignore=ignore)
    data.communities = communities(graph, [v for v in views if v.row.status == "active"])
    data.edge_counts = graph.counts
    data.map_nodes, data.map_edges = community_map(graph)
    return data
