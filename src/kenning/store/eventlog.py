"""Append-only JSON-lines logs under the project's local folder. Stdlib only (hooks use it).

Lines are written whole by `lines.append_line` (never interleaved, never glued to a
fragment a full disk left).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kenning.core.errors import FileProblemError
from kenning.core.lines import append_line
from kenning.core.private import scrub
from kenning.core.safeio import open_regular

MAX_LINE_BYTES = 64 * 1024


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def append(path: Path, record: dict[str, Any]) -> None:
    """Append one record; oversized string fields are truncated, never the line split."""
    record = scrub(record)  # type: ignore[assignment]
    record.setdefault("ts", now_iso())
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
    if len(line.encode("utf-8")) > MAX_LINE_BYTES:
        record = {k: (v[:2000] if isinstance(v, str) else v) for k, v in record.items()}
        record["truncated"] = True
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
    append_line(str(path), (line + "\n").encode("utf-8"))


def read_from(path: Path, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
    """Complete records after byte `offset`, and the offset to resume from.

    A trailing line without its newline is still being written: left for the next read.
    """
    try:
        with open_regular(path) as handle:
            handle.seek(offset)
            data = handle.read()
    except (FileNotFoundError, FileProblemError):
        return [], 0
    end = data.rfind(b"\n") + 1
    records = list(_parse_lines(data[:end]))
    return records, offset + end


def iter_records(path: Path) -> Iterator[dict[str, Any]]:
    try:
        handle = open_regular(path)
    except (FileNotFoundError, FileProblemError):
        return
    with handle:
        while raw := handle.readline(MAX_LINE_BYTES + 1):
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                # longer than any line kenning writes: skip the rest of it, a piece at a time
                while (rest := handle.readline(MAX_LINE_BYTES)) and not rest.endswith(b"\n"):
                    pass
                continue
            yield from _parse_lines(raw)


def _parse_lines(data: bytes) -> Iterator[dict[str, Any]]:
    for raw in data.splitlines():
        try:
            record = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(record, dict):
            yield record


def log_error(path: Path, where: str, exc: BaseException) -> None:
    """Record an internal error without ever raising (hooks call this last)."""
    try:
        append(path, {"where": where, "error": f"{type(exc).__name__}: {exc}"})
    except Exception:  # noqa: BLE001 - the error log must never break a session
        pass
