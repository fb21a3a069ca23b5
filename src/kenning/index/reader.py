"""Read-side queries on the index with plain sqlite3 (no sqlite_utils on the search path).

numpy is imported where vectors are read, not at module level.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, TypeVar

from kenning.core.records import Anchor
from kenning.index.db import match_rows
from kenning.index.fts import FACT_BM25

if TYPE_CHECKING:
    import numpy as np

K = TypeVar("K")


@dataclass(frozen=True)
class FactRow:
    """The index's view of one fact: enough to filter, rank and render a hit."""

    id: str
    kind: str
    text: str
    rationale: str
    tags: tuple[str, ...]
    topic: str | None
    status: str
    origin: str
    confidence: int
    created: datetime
    confirmed: datetime
    store: str
    path: str
    about: tuple[Anchor, ...]
    superseded_by: str | None
    last_used: datetime | None
    uses: int


def _time(value: str | None) -> datetime | None:
    if not value:
        return None
    return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC)


def load_fact_rows(conn: sqlite3.Connection) -> dict[str, FactRow]:
    rows = conn.execute(
        "SELECT f.*, u.last_used AS last_used, u.uses AS uses FROM facts f "
        "LEFT JOIN usage u ON u.fact_id = f.id"
    )
    out: dict[str, FactRow] = {}
    for r in rows:
        out[r["id"]] = FactRow(
            id=r["id"], kind=r["kind"], text=r["text"], rationale=r["rationale"] or "",
            tags=tuple((r["tags"] or "").split()), topic=r["topic"], status=r["status"],
            origin=r["origin"], confidence=r["confidence"], created=_time(r["created"]),
            confirmed=_time(r["confirmed"]), store=r["store"], path=r["path"],
            about=tuple(Anchor(f, s, h) for f, s, h in json.loads(r["about"] or "[]")),
            superseded_by=r["superseded_by"], last_used=_time(r["last_used"]),
            uses=r["uses"] or 0,
        )
    return out


def fts_fact_scores(conn: sqlite3.Connection, match: str, limit: int) -> list[tuple[str, float]]:
    """(fact id, BM25 score, higher is better) for an FTS5 MATCH expression, best first."""
    rows = match_rows(
        conn,
        # Rank inside FTS first, join after: twice as fast as joining every match.
        f"SELECT f.id, -r.s FROM (SELECT rowid, {FACT_BM25} AS s FROM facts_fts "
        f"WHERE facts_fts MATCH ? ORDER BY s LIMIT ?) r JOIN facts f ON f.rowid = r.rowid "
        f"ORDER BY r.s, f.id",
        (match, limit),
    )
    return [(r[0], r[1]) for r in rows]


def stack_vectors(rows: Iterable[tuple[K, bytes]], dtype: type) -> tuple[list[K], np.ndarray]:
    """(key, vector blob) rows as the keys and one matrix (a (0, 0) one when there are none).

    One join and one frombuffer: far faster than a frombuffer per row for 100k rows.
    """
    import numpy as np

    ids: list[K] = []
    blobs: list[bytes] = []
    for key, blob in rows:
        ids.append(key)
        blobs.append(blob)
    if not blobs:
        return ids, np.zeros((0, 0), dtype=dtype)
    return ids, np.frombuffer(b"".join(blobs), dtype=dtype).reshape(len(blobs), -1)


def load_fact_vectors(conn: sqlite3.Connection) -> tuple[list[str], np.ndarray]:
    """Fact ids (sorted) and their float32 vectors."""
    import numpy as np

    return stack_vectors(conn.execute("SELECT id, vec FROM fact_vectors ORDER BY id"),
                         np.float32)


def recent_file_activity(conn: sqlite3.Connection, now: datetime, days: int = 30) -> dict[str, int]:
    """Reads and edits per file over the last `days`, from the folded event log."""
    cutoff = (now - timedelta(days=days)).strftime("%Y-%m-%d")
    try:
        rows = conn.execute(
            "SELECT path, sum(count) FROM file_activity WHERE day >= ? GROUP BY path", (cutoff,)
        )
        return {r[0]: r[1] for r in rows}
    except sqlite3.OperationalError:
        return {}
