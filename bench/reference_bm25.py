"""The frozen reference: a plain stdlib FTS5 indexer and BM25 search. Do not tune this file.

FTS5 with the porter tokenizer, 40-line windows (8 lines overlap) with identifiers split into
the indexed text, queried with the OR of the non-stopword terms. Later benchmarks compare
kenning's indexing speed and retrieval quality against it.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from kenning.core.textutil import fts_or_query, identifier_terms  # noqa: E402 (stdlib-only module)

WINDOW, OVERLAP = 40, 8


def create(db_path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS docs USING fts5(key, text, tokenize='porter')")
    return conn


def index_texts(conn: sqlite3.Connection, items: list[tuple[str, str]]) -> None:
    with conn:
        conn.executemany(
            "INSERT INTO docs(key, text) VALUES (?, ?)",
            [(key, f"{text}\n{' '.join(identifier_terms(text))}") for key, text in items],
        )


def index_repo(root: Path, db_path: str) -> None:
    names = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True,
                           text=True, check=True).stdout.split()
    conn = create(db_path)
    items = []
    for name in names:
        lines = (root / name).read_text(encoding="utf-8", errors="replace").splitlines()
        for start in range(0, max(len(lines), 1), WINDOW - OVERLAP):
            items.append((f"{name}:{start + 1}", "\n".join(lines[start:start + WINDOW])))
    index_texts(conn, items)
    conn.close()


def search(conn: sqlite3.Connection, query: str, limit: int = 10) -> list[str]:
    match = fts_or_query(query)
    if not match:
        return []
    rows = conn.execute("SELECT key FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT ?",
                        (match, limit))
    return [r[0] for r in rows]


if __name__ == "__main__":
    if sys.argv[1] == "--search":  # --search DB QUERY: print the top keys, one a line
        print("\n".join(search(sqlite3.connect(sys.argv[2]), " ".join(sys.argv[3:]))))
    else:
        index_repo(Path(sys.argv[1]), sys.argv[2])
