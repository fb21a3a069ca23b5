"""Where the knowledge graph's edges come from (`graph.py` scores and stores them).

Nodes are `file:<path>` (the project's current files) and `fact:<id>` (facts that are not
forgotten or superseded). Edges, by kind:

| kind     | between     | from                                                          |
|----------|-------------|---------------------------------------------------------------|
| link     | file → file | relative markdown links `[text](path)` in .md files           |
| import   | file → file | the code index's imports, resolved to project files           |
| tag      | fact — fact | shared tags (tags on more than 25 facts are too generic)      |
| anchor   | fact — file | the fact's `about:` files                                     |
| coaccess | file — file | read or edited together in >= 3 sessions (`coaccess.py` pairs) |
| semantic | fact — fact | each fact's 3 nearest facts by cosine, if >= 0.62             |
| semantic | file — file | each file's 3 nearest files (centred chunk means), if >= 0.35 |

For facts, 0.62 sits at the 99th percentile of unrelated pairs for the bundled model (median
0.40) and at the median of related pairs (~0.66) in the frozen retrieval set: an edge means
"clearly about the same thing", not "same vocabulary". For files, 0.35 was read off this
repository (centred random pairs: median 0.0, P90 0.23); it links a test to its module and
a doc to the doc next to it. Facts and files are not linked semantically: anchors do that.
"""

from __future__ import annotations

import itertools
import posixpath
import re
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kenning.store.events import iter_events

if TYPE_CHECKING:
    import numpy as np

    from kenning.index.facts import FactView

EDGE_KINDS = ("link", "import", "tag", "anchor", "coaccess", "semantic")
MAX_TAG_GROUP = 25
COACCESS_MIN_SESSIONS = 3
SEMANTIC_K = 3
SEMANTIC_MIN_COSINE = 0.62  # facts (see the module docstring)
FILE_MIN_COSINE = 0.35  # files, after centring (see file_vectors)
MAX_MARKDOWN_BYTES = 512 * 1024

_MD_LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'][^)]*[\"'])?\s*\)")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_CODE_EXTS = (".py", ".pyi", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".go", ".rs",
              ".java", ".kt", ".rb", ".php", ".cs", ".swift", ".c", ".h", ".cc", ".cpp",
              ".hpp", ".scala", ".lua", ".ex", ".exs", ".vue", ".svelte")
_MARKDOWN = (".md", ".markdown", ".mdx")
_INDEX_NAMES = ("__init__", "index", "mod", "main", "lib")

def file_node(path: str) -> str:
    return f"file:{path}"


def fact_node(fact_id: str) -> str:
    return f"fact:{fact_id}"


@dataclass(frozen=True)
class Edge:
    src: str
    dst: str
    kind: str
    weight: float = 1.0


# ---- edge sources -------------------------------------------------------------------------
def markdown_link_edges(root: Path, files: Sequence[str]) -> list[Edge]:
    """Relative links between project files in markdown documents."""
    present = set(files)
    edges: dict[tuple[str, str], Edge] = {}
    for path in files:
        if not path.lower().endswith(_MARKDOWN):
            continue
        try:
            data = (root / path).read_bytes()[:MAX_MARKDOWN_BYTES]
        except OSError:
            continue
        text = data.decode("utf-8", "replace")
        base = posixpath.dirname(path)
        for match in _MD_LINK.finditer(text):
            target = match.group(1).split("#", 1)[0].split("?", 1)[0]
            if not target or _SCHEME.match(target) or target.startswith("//"):
                continue
            joined = target.lstrip("/") if target.startswith("/") else posixpath.join(base, target)
            resolved = posixpath.normpath(joined)
            if resolved not in present:
                readme = posixpath.join(resolved, "README.md")
                if readme not in present:
                    continue
                resolved = readme
            if resolved != path:
                edges[(path, resolved)] = Edge(file_node(path), file_node(resolved), "link")
    return list(edges.values())


class ImportResolver:
    """Turns an import as written (`.facts`, `kenning.core.paths`, `./util`, `crate::db`) into
    a project file, or None for the standard library and third-party packages."""

    def __init__(self, files: Iterable[str]):
        self.files = set(files)
        self.by_key: dict[str, list[str]] = defaultdict(list)
        self.by_dir: dict[str, list[str]] = defaultdict(list)  # Go imports name packages
        for path in sorted(self.files):
            if not path.endswith(_CODE_EXTS):
                continue
            stem = path.rsplit(".", 1)[0]
            parts = stem.split("/")
            if parts[-1] in _INDEX_NAMES and len(parts) > 1:
                self._add(self.by_key, parts[:-1], path)
            self._add(self.by_key, parts, path)
            if path.endswith(".go") and not path.endswith("_test.go"):
                self._add(self.by_dir, parts[:-1], path)

    @staticmethod
    def _add(table: dict[str, list[str]], parts: list[str], path: str) -> None:
        for start in range(len(parts)):
            table["/".join(parts[start:])].append(path)

    def resolve(self, importer: str, target: str) -> list[str]:
        """The project files an import names (several for a Go package), else []."""
        target = target.strip().strip("\"'`<>")
        if not target:
            return []
        if importer.endswith(".go"):
            parts = target.split("/")
            for start in range(len(parts) - 1 if len(parts) > 1 else 1):
                found = self.by_dir.get("/".join(parts[start:]))
                if found:
                    return found[:10]
            return []
        single = self._resolve_one(importer, target)
        return [single] if single else []

    def _resolve_one(self, importer: str, target: str) -> str | None:
        base = posixpath.dirname(importer)
        if target.startswith(("./", "../")):
            return self._relative_path(posixpath.normpath(posixpath.join(base, target)))
        if target.startswith(".") and importer.endswith((".py", ".pyi")):
            dots = len(target) - len(target.lstrip("."))
            rest = target[dots:].replace(".", "/")
            if not rest:
                return None  # `from . import x`: the names were not kept, only the package
            for _ in range(dots - 1):
                base = posixpath.dirname(base)
            joined = posixpath.join(base, rest) if rest else base
            return self._relative_path(posixpath.normpath(joined))
        key = re.sub(r"::|\\|\.", "/", target)
        crate = re.match(r"^(crate|self|super)/", key)  # Rust: a path inside this crate
        key = key[crate.end():] if crate else key
        parts = [p for p in key.split("/") if p and p not in ("*", "{")]
        # `a.b.c` may name a symbol inside module a/b: try shorter keys, but keep two parts
        # (one part alone, like `os` or `utils`, matches too much) unless it is crate-local
        for end in range(len(parts), max(len(parts) - 2, 0), -1):
            candidates = self.by_key.get("/".join(parts[:end]))
            if candidates and (end > 1 or len(parts) == 1 or crate):
                return _closest(importer, candidates)
        return None

    def _relative_path(self, stem: str) -> str | None:
        if stem in self.files and stem.endswith(_CODE_EXTS):
            return stem
        candidates = self.by_key.get(stem)
        if candidates:
            exact = [c for c in candidates if c.rsplit(".", 1)[0] in (stem, stem + "/__init__",
                                                                       stem + "/index")]
            return exact[0] if exact else None
        return None


def _closest(importer: str, candidates: list[str]) -> str | None:
    """The candidate sharing the longest directory prefix with the importer."""
    if len(candidates) == 1:
        return candidates[0]

    def shared(path: str) -> int:
        pairs = zip(importer.split("/"), path.split("/"), strict=False)
        return sum(1 for _ in itertools.takewhile(lambda pair: pair[0] == pair[1], pairs))

    ranked = sorted(candidates, key=lambda p: (-shared(p), len(p), p))
    return ranked[0] if len(candidates) <= 8 else None


def import_edges(conn: sqlite3.Connection, files: Sequence[str]) -> list[Edge]:
    resolver = ImportResolver(files)
    present = set(files)
    edges: dict[tuple[str, str], Edge] = {}
    for path, target in conn.execute("SELECT path, target FROM imports ORDER BY path"):
        if path not in present or not target or path.lower().endswith(_MARKDOWN):
            continue  # the indexer keeps markdown links as imports; `link` edges cover them
        for found in resolver.resolve(path, target):
            if found != path:
                edges[(path, found)] = Edge(file_node(path), file_node(found), "import")
    return list(edges.values())


def tag_edges(facts: Sequence[FactView]) -> list[Edge]:
    by_tag: dict[str, list[str]] = defaultdict(list)
    for view in facts:
        for tag in view.row.tags:
            by_tag[tag].append(view.row.id)
    shared: Counter[tuple[str, str]] = Counter()
    for ids in by_tag.values():
        if len(ids) > MAX_TAG_GROUP:
            continue
        for a, b in itertools.combinations(sorted(set(ids)), 2):
            shared[(a, b)] += 1
    return [Edge(fact_node(a), fact_node(b), "tag", float(n))
            for (a, b), n in sorted(shared.items())]


def anchor_edges(facts: Sequence[FactView], files: Sequence[str]) -> list[Edge]:
    present = set(files)
    edges: dict[tuple[str, str], Edge] = {}
    for view in facts:
        for anchor in view.row.about:
            if anchor.file in present:
                key = (view.row.id, anchor.file)
                edges[key] = Edge(fact_node(view.row.id), file_node(anchor.file), "anchor")
    return list(edges.values())


def coaccess_edges(
    events_path: Path, files: Sequence[str], min_sessions: int = COACCESS_MIN_SESSIONS
) -> list[Edge]:
    """Files read or edited in the same sessions, at least `min_sessions` times.

    The pairs are search's co-access pairs (`coaccess.py`: hub files and bulk sessions left
    out), so the graph and the cluster boost agree on what "used together" means.
    """
    from kenning.lifecycle.coaccess import pair_counts, session_files

    present = set(files)
    together = pair_counts(session_files(iter_events(events_path)))
    return [Edge(file_node(a), file_node(b), "coaccess", float(n))
            for (a, b), n in sorted(together.items())
            if n >= min_sessions and a in present and b in present]


def semantic_edges(
    ids: Sequence[str], matrix: np.ndarray, k: int = SEMANTIC_K,
    min_cosine: float = SEMANTIC_MIN_COSINE,
) -> list[Edge]:
    """Each node's k nearest neighbours by cosine (rows of `matrix` are unit vectors)."""
    from kenning.search.topk import top_k

    n = len(ids)
    if n < 2 or matrix.size == 0:
        return []
    edges: dict[tuple[str, str], Edge] = {}
    block = 1024
    for start in range(0, n, block):
        scores = matrix[start:start + block] @ matrix.T
        for row in range(scores.shape[0]):
            scores[row, start + row] = -1.0
        depth = min(k, n - 1)
        top = top_k(scores, depth)
        for row, columns in enumerate(top):
            i = start + row
            for j in columns:
                cos = float(scores[row, j])
                if cos < min_cosine:
                    continue
                a, b = sorted((ids[i], ids[int(j)]))
                edges[(a, b)] = Edge(a, b, "semantic", round(cos, 4))
    return [edges[key] for key in sorted(edges)]


def fact_vectors(conn: sqlite3.Connection, fact_ids: Iterable[str]) -> tuple[list[str], np.ndarray]:
    """Unit vectors of the given facts, as the index stores them."""
    from kenning.index.reader import load_fact_vectors

    wanted = set(fact_ids)
    ids, matrix = load_fact_vectors(conn)
    keep = [n for n, i in enumerate(ids) if i in wanted]
    return [fact_node(ids[n]) for n in keep], _unit(matrix[keep] if keep else matrix[:0])


def file_vectors(conn: sqlite3.Connection, files: Iterable[str]) -> tuple[list[str], np.ndarray]:
    """One unit vector per indexed file: the mean of its chunks, centred on the project.

    Means of many chunks share a large common component (uncentred, a random pair of this
    repository's files sits at 0.67 cosine); subtracting the project's mean vector leaves
    what sets a file apart (random pairs then centre on 0.0, P90 0.23).
    """
    import numpy as np

    present = set(files)
    sums: dict[str, np.ndarray] = {}
    counts: Counter[str] = Counter()
    dim = None
    for path, blob in conn.execute(
        "SELECT c.path, v.vec FROM chunks c JOIN chunk_vectors v ON v.chunk_id = c.id"
    ):
        if path not in present:
            continue
        vec = np.frombuffer(blob, dtype=np.float16).astype(np.float32)
        dim = dim or vec.shape[0]
        if vec.shape[0] != dim:
            continue
        sums[path] = sums[path] + vec if path in sums else vec.copy()
        counts[path] += 1
    paths = sorted(sums)
    if len(paths) < 2:
        return [], np.zeros((0, 0), dtype=np.float32)
    matrix = _unit(np.vstack([sums[p] / counts[p] for p in paths]))
    return [file_node(p) for p in paths], _unit(matrix - matrix.mean(axis=0))


def _unit(matrix: np.ndarray) -> np.ndarray:
    import numpy as np

    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.size == 0:
        return matrix
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms
