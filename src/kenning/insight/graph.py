"""The knowledge graph (`kenning graph`): edges from `graph_edges.py`, scored and stored.

Communities are Louvain (networkx, fixed seed, so a rebuild gives the same answer) on the
undirected weighted graph; importance is PageRank on the directed one (imports and links
point one way, every other kind both ways). Results are stored in the index, so `neighbors`
and `communities` are cheap; `rebuild` recomputes, and `current_graph` rebuilds when the
facts, the code index, the git head or the event log changed. networkx is imported only here.
"""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kenning.insight.graph_edges import (
    COACCESS_MIN_SESSIONS,
    EDGE_KINDS,
    FILE_MIN_COSINE,
    SEMANTIC_MIN_COSINE,
    Edge,
    anchor_edges,
    coaccess_edges,
    fact_node,
    fact_vectors,
    file_node,
    file_vectors,
    import_edges,
    markdown_link_edges,
    semantic_edges,
    tag_edges,
)

if TYPE_CHECKING:
    from kenning.index.facts import FactIndex, FactView

__all__ = ["Community", "Edge", "Graph", "Node", "fact_node", "file_node"]

DIRECTED = frozenset({"link", "import"})
KIND_WEIGHT = {"link": 1.0, "import": 1.0, "tag": 0.5, "anchor": 1.0, "coaccess": 1.0,
               "semantic": 1.0}
LOUVAIN_SEED = 7


@dataclass(frozen=True)
class Node:
    id: str
    type: str  # file | fact
    label: str
    community: int = -1
    pagerank: float = 0.0


@dataclass
class Graph:
    nodes: dict[str, Node]
    edges: list[Edge]
    counts: dict[str, int] = field(default_factory=dict)  # edges by kind


@dataclass(frozen=True)
class Community:
    index: int
    size: int
    files: int
    facts: int
    members: tuple[Node, ...]  # highest PageRank first
    tags: tuple[str, ...] = ()  # the most common tags among its facts


# ---- building -----------------------------------------------------------------------------
def graph_facts(views: Iterable[FactView]) -> list[FactView]:
    """Facts that belong in the graph: not forgotten or superseded."""
    return [v for v in views if v.row.status == "active"]


def collect(
    conn: sqlite3.Connection,
    root: Path,
    events_path: Path,
    facts: Sequence[FactView],
    files: Sequence[str],
    *,
    semantic: bool = True,
    fact_cosine: float = SEMANTIC_MIN_COSINE,
    file_cosine: float = FILE_MIN_COSINE,
) -> Graph:
    """Gather every edge kind into one graph (no scores yet)."""
    nodes: dict[str, Node] = {file_node(p): Node(file_node(p), "file", p) for p in files}
    for view in facts:
        nodes[fact_node(view.row.id)] = Node(fact_node(view.row.id), "fact",
                                             _short(view.row.text))
    edges = [
        *markdown_link_edges(root, files),
        *import_edges(conn, files),
        *tag_edges(facts),
        *anchor_edges(facts, files),
        *coaccess_edges(events_path, files),
    ]
    if semantic:
        ids, matrix = fact_vectors(conn, [v.row.id for v in facts])
        edges += semantic_edges(ids, matrix, min_cosine=fact_cosine)
        ids, matrix = file_vectors(conn, files)
        edges += semantic_edges(ids, matrix, min_cosine=file_cosine)
    counts = Counter(e.kind for e in edges)
    # Only files that take part in something: a 5,000-file repo is not 5,000 lone nodes.
    linked = {e.src for e in edges} | {e.dst for e in edges}
    kept = {k: v for k, v in nodes.items() if v.type == "fact" or k in linked}
    return Graph(kept, edges, {k: counts.get(k, 0) for k in EDGE_KINDS})


def score(graph: Graph) -> Graph:
    """Louvain communities and PageRank, written onto the nodes."""
    import networkx as nx

    if not graph.nodes:
        return graph
    directed: dict[tuple[str, str], float] = defaultdict(float)
    undirected: dict[tuple[str, str], float] = defaultdict(float)
    for edge in graph.edges:
        if edge.src == edge.dst:
            continue
        weight = edge.weight * KIND_WEIGHT.get(edge.kind, 1.0)
        if edge.kind == "coaccess":
            weight = min(edge.weight / COACCESS_MIN_SESSIONS, 3.0)
        directed[(edge.src, edge.dst)] += weight
        if edge.kind not in DIRECTED:
            directed[(edge.dst, edge.src)] += weight
        undirected[(edge.src, edge.dst) if edge.src < edge.dst else (edge.dst, edge.src)] += weight
    order = sorted(graph.nodes)
    ranks = dict(zip(order, pagerank(order, ((a, b, w) for (a, b), w in directed.items())),
                     strict=True))
    g = nx.Graph()
    g.add_nodes_from(order)
    g.add_weighted_edges_from((a, b, w) for (a, b), w in sorted(undirected.items()))
    groups = nx.community.louvain_communities(g, weight="weight", seed=LOUVAIN_SEED)
    ordered = sorted((sorted(g) for g in groups), key=lambda g: (-len(g), g[0]))
    community = {node: n for n, group in enumerate(ordered) for node in group}
    graph.nodes = {
        k: Node(k, v.type, v.label, community.get(k, -1), float(ranks.get(k, 0.0)))
        for k, v in graph.nodes.items()
    }
    return graph


def pagerank(
    nodes: Sequence[str], edges: Iterable[tuple[str, str, float]], damping: float = 0.85,
    tol: float = 1e-10, max_iter: int = 200,
) -> list[float]:
    """Weighted PageRank by power iteration (numpy; networkx's own needs scipy).

    Same definition as networkx: a node's rank flows along its out-edges in proportion to
    their weight; a node with no out-edges (dangling) spreads its rank over every node.
    """
    import numpy as np

    n = len(nodes)
    if n == 0:
        return []
    index = {node: i for i, node in enumerate(nodes)}
    src, dst, w = [], [], []
    for a, b, weight in edges:
        if a in index and b in index and weight > 0:
            src.append(index[a])
            dst.append(index[b])
            w.append(weight)
    s_idx = np.asarray(src, dtype=np.int64)
    d_idx = np.asarray(dst, dtype=np.int64)
    weights = np.asarray(w, dtype=np.float64)
    out = np.zeros(n)
    np.add.at(out, s_idx, weights)
    share = weights / out[s_idx] if len(weights) else weights
    dangling = out == 0
    rank = np.full(n, 1.0 / n)
    for _ in range(max_iter):
        flow = np.zeros(n)
        np.add.at(flow, d_idx, rank[s_idx] * share)
        new = damping * (flow + rank[dangling].sum() / n) + (1 - damping) / n
        if np.abs(new - rank).sum() < n * tol:
            rank = new
            break
        rank = new
    return [float(x) for x in rank / rank.sum()]


def store(conn: sqlite3.Connection, graph: Graph) -> None:
    from kenning.index.db import ensure_writable, set_meta, transaction

    ensure_writable(conn)
    with transaction(conn):
        conn.execute("DELETE FROM graph_nodes")
        conn.execute("DELETE FROM graph_edges")
        conn.executemany(
            "INSERT INTO graph_nodes(id, type, label, community, pagerank) VALUES (?, ?, ?, ?, ?)",
            [(n.id, n.type, n.label, n.community, n.pagerank) for n in graph.nodes.values()],
        )
        conn.executemany(
            "INSERT INTO graph_edges(src, dst, kind, weight) VALUES (?, ?, ?, ?)",
            [(e.src, e.dst, e.kind, e.weight) for e in graph.edges],
        )
        set_meta(conn, "graph_built", "1")


def load(conn: sqlite3.Connection) -> Graph | None:
    """The stored graph, or None if `graph rebuild` never ran on this index."""
    from kenning.index.db import get_meta

    if get_meta(conn, "graph_built") is None:
        return None
    nodes = {r[0]: Node(r[0], r[1], r[2], r[3], r[4]) for r in conn.execute(
        "SELECT id, type, label, community, pagerank FROM graph_nodes")}
    edges = [Edge(r[0], r[1], r[2], r[3]) for r in conn.execute(
        "SELECT src, dst, kind, weight FROM graph_edges ORDER BY rowid")]
    counts = Counter(e.kind for e in edges)
    return Graph(nodes, edges, {k: counts.get(k, 0) for k in EDGE_KINDS})


# ---- reading ------------------------------------------------------------------------------
def communities(graph: Graph, facts: Sequence[FactView] = (), top: int = 8) -> list[Community]:
    tags_of = {fact_node(v.row.id): v.row.tags for v in facts}
    groups: dict[int, list[Node]] = defaultdict(list)
    for node in graph.nodes.values():
        groups[node.community].append(node)
    out = []
    for index in sorted(groups):
        members = sorted(groups[index], key=lambda n: (-n.pagerank, n.id))
        tags = Counter(t for m in members for t in tags_of.get(m.id, ()))
        out.append(Community(
            index, len(members), sum(m.type == "file" for m in members),
            sum(m.type == "fact" for m in members), tuple(members[:top]),
            tuple(t for t, _ in tags.most_common(3)),
        ))
    out.sort(key=lambda c: (-c.size, c.index))
    return out


def neighbors(graph: Graph, node_id: str) -> list[tuple[Edge, Node]]:
    """Edges touching `node_id`, strongest first, with the node at the other end."""
    out = []
    for edge in graph.edges:
        if node_id not in (edge.src, edge.dst):
            continue
        other = edge.dst if edge.src == node_id else edge.src
        node = graph.nodes.get(other)
        if node is not None:
            out.append((edge, node))
    out.sort(key=lambda pair: (-pair[0].weight * KIND_WEIGHT.get(pair[0].kind, 1.0),
                               -pair[1].pagerank, pair[1].id))
    return out


def _short(text: str, width: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


# ---- one call for entry points ------------------------------------------------------------
def _signature(facts: FactIndex) -> str:
    events = facts.project.events_path
    size = events.stat().st_size if events.exists() else 0
    parts = [facts.index.meta(k) or "" for k in ("generation", "code_generation", "git_head")]
    return "|".join([*parts, str(size)])


def build_graph(facts: FactIndex, *, ignore: Iterable[str] = (), semantic: bool = True
                ) -> Graph:
    """Collect every edge for the facts' project and score it (reads only)."""
    from kenning.insight.analytics import project_files

    root = facts.project.root
    nodes = graph_facts(facts.views())
    files = project_files(root, ignore)
    return score(collect(facts.index.conn, root, facts.project.events_path, nodes, files,
                         semantic=semantic))


def rebuild_graph(facts: FactIndex, *, ignore: Iterable[str] = (), semantic: bool = True
                  ) -> Graph:
    """Collect every edge for the facts' project, score it and store it in the index."""
    facts.index.ensure_writable()  # before minutes of work, not after
    graph = build_graph(facts, ignore=ignore, semantic=semantic)
    store(facts.index.conn, graph)
    facts.index.set_meta("graph_signature", _signature(facts))
    return graph


def fresh_graph(facts: FactIndex, *, ignore: Iterable[str] = ()) -> Graph:
    """A graph built now: stored, unless a newer kenning's index makes it read-only."""
    if facts.index.is_writable():
        return rebuild_graph(facts, ignore=ignore)
    return build_graph(facts, ignore=ignore)


def current_graph(facts: FactIndex, *, ignore: Iterable[str] = ()) -> Graph:
    """The stored graph if nothing it was built from has changed, else a fresh one."""
    facts.views()  # sync first, so the signature sees new facts
    graph = load(facts.index.conn)
    if graph is not None and facts.index.meta("graph_signature") == _signature(facts):
        return graph
    return fresh_graph(facts, ignore=ignore)
