"""Named sqlite-utils migrations; the index is derived, so a migration may drop and refill."""

from __future__ import annotations

from sqlite_utils import Database, Migrations

migrations = Migrations("kenning")


@migrations()
def m001_facts(db: Database) -> None:
    db["meta"].create({"key": str, "value": str}, pk="key")
    db["facts"].create(
        {
            "id": str, "kind": str, "text": str, "rationale": str, "tags": str, "topic": str,
            "status": str, "origin": str, "confidence": int, "created": str, "confirmed": str,
            "store": str, "path": str, "about": str, "terms": str, "superseded_by": str,
            "format": int,
        },
        pk="id",
    )
    db["facts"].create_index(["topic"])
    db["facts"].enable_fts(
        ["text", "rationale", "tags", "terms"], tokenize="porter", create_triggers=True
    )
    db["fact_files"].create(
        {"path": str, "fact_id": str, "mtime_ns": int, "size": int, "hash": str}, pk="path"
    )
    db["fact_vectors"].create({"id": str, "vec": bytes}, pk="id")
    db["usage"].create({"fact_id": str, "last_used": str, "uses": int}, pk="fact_id")
    db["problems"].create({"path": str, "message": str}, pk="path")


@migrations()
def m002_code(db: Database) -> None:
    db["files"].create(
        {"path": str, "lang": str, "kind": str, "size": int, "mtime_ns": int, "hash": str,
         "indexed_at": str},
        pk="path",
    )
    db["chunks"].create(
        {"id": int, "path": str, "start_line": int, "end_line": int, "kind": str,
         "symbol": str, "lang": str, "doc": int, "text": str, "terms": str},
        pk="id",
    )
    db["chunks"].create_index(["path"])
    db["chunks"].enable_fts(
        ["symbol", "path", "text", "terms"], tokenize="porter", create_triggers=True
    )
    db["chunk_vectors"].create({"chunk_id": int, "vec": bytes}, pk="chunk_id")
    db["symbols"].create(
        {"id": int, "name": str, "qualname": str, "kind": str, "path": str,
         "start_line": int, "end_line": int, "body_hash": str},
        pk="id",
    )
    db["symbols"].create_index(["path"])
    db["symbols"].create_index(["qualname"])
    db["symbols"].create_index(["name"])
    db["imports"].create({"path": str, "target": str})
    db["imports"].create_index(["path"])


@migrations()
def m003_git_and_graph(db: Database) -> None:
    # git history (kenning git-sync) and the knowledge graph (kenning graph rebuild)
    db["commits"].create({"sha": str, "ts": int, "author": str, "subject": str}, pk="sha")
    db["commit_files"].create(
        {"sha": str, "path": str, "old_path": str, "added": int, "deleted": int}
    )
    db["commit_files"].create_index(["path"])
    db["commit_files"].create_index(["sha"])
    db["graph_nodes"].create(
        {"id": str, "type": str, "label": str, "community": int, "pagerank": float}, pk="id"
    )
    db["graph_edges"].create({"src": str, "dst": str, "kind": str, "weight": float})
    db["graph_edges"].create_index(["src"])
    db["graph_edges"].create_index(["dst"])


@migrations()
def m004_file_activity(db: Database) -> None:
    """Reads and edits per file per day, folded from the event log (for the recency boost)."""
    db["file_activity"].create({"path": str, "day": str, "count": int}, pk=("path", "day"))
    db.execute("DELETE FROM meta WHERE key = 'events_offset'")  # replay the log into it
    db.execute("DELETE FROM usage")
