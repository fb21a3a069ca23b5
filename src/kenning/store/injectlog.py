"""The local injection log: every block a hook put into a session, for `kenning trace`.

Writers are hooks (stdlib, one O_APPEND line per injection); the reader serves the CLI.
"""

from __future__ import annotations

import os

from kenning.core import fastjson as json
from kenning.core.lines import append_json

FILE_NAME = "injections.jsonl"


def record(local_dir: str, *, session: str | None, event: str, facts: list[str], chars: int,
           detail: str | None = None) -> None:
    entry: dict = {"session": session, "event": event, "facts": facts, "chars": chars}
    if detail:
        entry["detail"] = detail[:300]
    append_json(os.path.join(local_dir, FILE_NAME), entry)


def read(local_dir: str, session: str | None = None, limit: int | None = None) -> list[dict]:
    """Injections oldest first, optionally of one session, the last `limit` of them."""
    out: list[dict] = []
    try:
        with open(os.path.join(local_dir, FILE_NAME), "rb") as handle:
            for raw in handle:
                try:
                    entry = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(entry, dict) and (session is None or entry.get("session") == session):
                    out.append(entry)
    except FileNotFoundError:
        return []
    return out[-limit:] if limit else out
