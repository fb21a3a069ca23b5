"""Append-only JSON-lines logs under the project's local folder. Stdlib only (hooks use it).

One `os.write` per line on an O_APPEND descriptor, so concurrent writers never interleave
inside a line. A write cut short (a full disk) leaves a fragment without its newline: the next
append starts with a newline, so the fragment stays a line of its own (which readers skip)
and the new record is never glued to it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

MAX_LINE_BYTES = 64 * 1024


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def append(path: Path, record: dict[str, Any]) -> None:
    """Append one record; oversized string fields are truncated, never the line split."""
    record.setdefault("ts", now_iso())
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
    if len(line.encode("utf-8")) > MAX_LINE_BYTES:
        record = {k: (v[:2000] if isinstance(v, str) else v) for k, v in record.items()}
        record["truncated"] = True
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
    data = (line + "\n").encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except FileNotFoundError:
        os.makedirs(path.parent, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        write_line(fd, data)
    finally:
        os.close(fd)


def write_line(fd: int, data: bytes) -> None:
    """Append `data` (one line) whole, after a newline if the file ends in a fragment."""
    size = os.fstat(fd).st_size
    if size and os.pread(fd, 1, size - 1) != b"\n":
        data = b"\n" + data
    written = os.write(fd, data)
    if written < len(data):  # a short write (full disk): end the fragment, report the loss
        raise OSError(28, f"only {written} of {len(data)} bytes written (disk full?)")


def read_from(path: Path, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
    """Complete records after byte `offset`, and the offset to resume from.

    A trailing line without its newline is still being written: left for the next read.
    """
    try:
        with path.open("rb") as handle:
            handle.seek(offset)
            data = handle.read()
    except FileNotFoundError:
        return [], 0
    end = data.rfind(b"\n") + 1
    records = list(_parse_lines(data[:end]))
    return records, offset + end


def iter_records(path: Path) -> Iterator[dict[str, Any]]:
    try:
        with path.open("rb") as handle:
            for raw in handle:
                yield from _parse_lines(raw)
    except FileNotFoundError:
        return


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
