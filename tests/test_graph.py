"""The knowledge graph: each edge source, PageRank, Louvain, and the `graph` commands."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from kenning.core.paths import current_project
from kenning.insight.graph import Graph, Node, pagerank, score
from kenning.insight.graph_edges import (
    Edge,
    ImportResolver,
    coaccess_edges,
    fact_node,
    file_node,
    markdown_link_edges,
    semantic_edges,
)
from kenning.store import eventlog


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_markdown_links_resolve_relative_paths_and_skip_urls(tmp_path: Path):
    files = {
        "docs/guide.md": "See [the app](../src/app.py), [other](other.md#setup), "
                         "[site](https://example.com/x.md), [mail](mailto:a@b.c), "
                         "![img](img/logo.png \"Logo\"), [root](/README.md), [dir](../src), "
                         "[missing](nope.md), [self](#top)",
        "docs/other.md": "back to [guide](./guide.md)",
        "docs/img/logo.png": "png",
        "src/app.py": "",
        "src/README.md": "# src",
        "README.md": "# readme",
    }
    write(tmp_path, files)
    edges = {(e.src, e.dst) for e in markdown_link_edges(tmp_path, sorted(files))}
    assert edges == {
        (file_node("docs/guide.md"), file_node("src/app.py")),
        (file_node("docs/guide.md"), file_node("docs/other.md")),
        (file_node("docs/guide.md"), file_node("docs/img/logo.png")),
        (file_node("docs/guide.md"), file_node("README.md")),
        (file_node("docs/guide.md"), file_node("src/README.md")),
        (file_node("docs/other.md"), file_node("docs/guide.md")),
    }


@pytest.mark.parametrize(("importer", "target", "expected"), [
    ("src/pkg/memory.py", ".facts", ["src/pkg/facts.py"]),
    ("src/pkg/index/sync.py", "..records", ["src/pkg/records.py"]),
    ("src/pkg/index/sync.py", ".", []),
    ("src/pkg/memory.py", "pkg.index.db", ["src/pkg/index/db.py"]),
    ("src/pkg/memory.py", "pkg.index", ["src/pkg/index/__init__.py"]),
    ("src/pkg/memory.py", "pkg.index.db.open_index", ["src/pkg/index/db.py"]),
    ("src/pkg/memory.py", "os", []),
    ("web/app.ts", "./util/helpers", ["web/util/helpers.ts"]),
    ("web/app.ts", "../lib/x.js", ["lib/x.js"]),
    ("web/app.ts", "./components", ["web/components/index.tsx"]),
    ("web/app.ts", "react", []),
    ("cmd/main.go", "example.com/proj/internal/store", ["internal/store/store.go"]),
    ("cmd/main.go", "fmt", []),
    ("src/main.rs", "crate::db::open", ["src/db.rs"]),
])
def test_import_resolver_maps_imports_to_project_files(importer, target, expected):
    resolver = ImportResolver([
        "src/pkg/memory.py", "src/pkg/facts.py", "src/pkg/records.py", "src/pkg/__init__.py",
        "src/pkg/index/__init__.py", "src/pkg/index/db.py", "src/pkg/index/sync.py",
        "web/app.ts", "web/util/helpers.ts", "web/components/index.tsx", "lib/x.js",
        "cmd/main.go", "internal/store/store.go", "internal/store/store_test.go",
        "src/main.rs", "src/db.rs",
    ])
    assert resolver.resolve(importer, target) == expected


def test_coaccess_needs_three_sessions(tmp_path: Path):
    events = tmp_path / "events.jsonl"
    for session in ("s1", "s2", "s3"):
        for path in ("a.py", "b.py"):
            eventlog.append(events, {"type": "read", "paths": [path], "session": session})
    for session in ("s1", "s2"):
        eventlog.append(events, {"type": "edit", "paths": ["c.py"], "session": session})
    eventlog.append(events, {"type": "read", "paths": ["a.py"]})  # no session: ignored
    edges = coaccess_edges(events, ["a.py", "b.py", "c.py"])
    assert edges == [Edge(file_node("a.py"), file_node("b.py"), "coaccess", 3.0)]


def test_semantic_edges_keep_the_nearest_above_the_threshold():
    ids = ["x", "y", "z", "w"]
    matrix = np.array([[1, 0, 0], [0.9, 0.436, 0], [0, 1, 0], [0, 0, 1]], dtype=np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    edges = semantic_edges(ids, matrix, k=1, min_cosine=0.6)
    assert [(e.src, e.dst) for e in edges] == [("x", "y")]
    assert semantic_edges(ids[:1], matrix[:1]) == []


def test_pagerank_matches_the_textbook_definition():
    assert pagerank([], []) == []
    cycle = pagerank(["a", "b", "c"], [("a", "b", 1), ("b", "c", 1), ("c", "a", 1)])
    assert cycle == pytest.approx([1 / 3] * 3)
    star = pagerank(["hub", "x", "y", "z"], [(n, "hub", 1.0) for n in "xyz"])
    assert star[0] > max(star[1:]) and sum(star) == pytest.approx(1)
    import networkx as nx

    g = nx.DiGraph()
    g.add_weighted_edges_from([("a", "b", 2), ("b", "c", 1), ("c", "a", 1), ("a", "c", 1),
                               ("d", "a", 3)])
    from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python

    expected = _pagerank_python(g, weight="weight", tol=1e-12)
    got = pagerank(list("abcd"), [(a, b, d["weight"]) for a, b, d in g.edges(data=True)])
    assert got == pytest.approx([expected[n] for n in "abcd"], abs=1e-8)


def two_cliques() -> Graph:
    left, right = ["a1", "a2", "a3", "a4"], ["b1", "b2", "b3", "b4"]
    edges = [Edge(file_node(x), file_node(y), "import") for group in (left, right)
             for i, x in enumerate(group) for y in group[i + 1:]]
    edges.append(Edge(file_node("a1"), file_node("b1"), "link"))
    nodes = {file_node(n): Node(file_node(n), "file", n) for n in left + right}
    return Graph(nodes, edges)


def test_louvain_finds_the_two_cliques_and_is_deterministic():
    first = score(two_cliques())
    groups: dict[int, set[str]] = {}
    for node in first.nodes.values():
        groups.setdefault(node.community, set()).add(node.label)
    assert sorted(map(sorted, groups.values())) == [["a1", "a2", "a3", "a4"],
                                                     ["b1", "b2", "b3", "b4"]]
    again = score(two_cliques())
    assert {k: v.community for k, v in again.nodes.items()} == \
        {k: v.community for k, v in first.nodes.items()}


# ---- through the CLI ----------------------------------------------------------------------
def seed_project(kenning, root: Path) -> dict[str, str]:
    write(root, {
        "README.md": "# demo\nSee [the guide](docs/guide.md).\n",
        "docs/guide.md": "Start in [the app](../src/app.py).\n",
        "src/app.py": "from .db import connect\n\ndef main():\n    connect()\n",
        "src/db.py": "import sqlite3\n\ndef connect():\n    return sqlite3.connect(':memory:')\n",
        "src/__init__.py": "",
    })
    assert kenning("index").code == 0
    ids = {}
    for key, args in {
        "db": ("-a", "src/db.py", "-t", "storage", "The database is SQLite in memory"),
        "wal": ("-t", "storage", "Connections use WAL journaling"),
        "ui": ("-t", "frontend", "The front end is server-rendered"),
    }.items():
        out = json.loads(kenning("add", "--json", *args).out)
        ids[key] = out["id"]
    events = current_project().events_path
    for session in ("s1", "s2", "s3"):
        for path in ("src/app.py", "docs/guide.md"):
            eventlog.append(events, {"type": "read", "paths": [path], "session": session})
    return ids


def test_graph_rebuild_collects_every_edge_kind(kenning, isolated):
    seed_project(kenning, isolated)
    result = kenning("graph", "rebuild", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    edges = data["edges"]
    assert edges["link"] == 2 and edges["import"] == 1 and edges["tag"] == 1
    assert edges["anchor"] == 1 and edges["coaccess"] == 1
    assert set(edges) == {"link", "import", "tag", "anchor", "coaccess", "semantic"}
    assert data["nodes"] >= 7 and data["communities"] >= 1


def test_graph_neighbors_of_a_file_and_of_a_fact(kenning, isolated):
    ids = seed_project(kenning, isolated)
    out = kenning("graph", "neighbors", "src/db.py", "--json")
    assert out.code == 0, out.err
    found = {(n["kind"], n["direction"], n["node"]) for n in json.loads(out.out)}
    assert ("import", "in", file_node("src/app.py")) in found
    assert ("anchor", "in", fact_node(ids["db"])) in found
    text = kenning("graph", "neighbors", ids["wal"]).out
    assert f"tag       -- {fact_node(ids['db'])}" not in text  # arrows, not dashes
    assert fact_node(ids["db"]) in text and "tag" in text
    missing = kenning("graph", "neighbors", "src/nope.py")
    assert missing.code == 1 and "not in the graph" in missing.err


def test_graph_communities_lists_members_by_pagerank(kenning, isolated):
    ids = seed_project(kenning, isolated)
    data = json.loads(kenning("graph", "communities", "--json").out)
    members = [m["id"] for c in data for m in c["members"]]
    assert file_node("src/db.py") in members and fact_node(ids["ui"]) in members
    for community in data:
        ranks = [m["pagerank"] for m in community["members"]]
        assert ranks == sorted(ranks, reverse=True)
    text = kenning("graph", "communities").out
    assert text.startswith("community 0:")
