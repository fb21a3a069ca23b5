"""Whole-line appends to a log. Only `os`, `stat`, `json` and `core.private` (`re`): the
PostToolUse hook writes through this; `append_json` is the one JSON-lines writer every log
uses, and drops `<private>` spans from every record.

One `os.write` per line on an O_APPEND descriptor, so concurrent writers never interleave
inside a line. A write cut short (a full disk) leaves a fragment without its newline: the next
append starts with a newline, so the fragment stays a line of its own (which readers skip)
and the new record is never glued to it. A log that is a symlink, a FIFO or a device is never
written through.
"""

import os
import stat

from kenning.core import fastjson as json
from kenning.core.clock import now_iso
from kenning.core.private import scrub

MAX_LINE_BYTES = 64 * 1024

# Read and write: the last byte is read to see whether a fragment was left.
_FLAGS = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)


def append_line(path: str, data: bytes) -> None:
    """Append `data`, one line ending in a newline, to the log at `path` (made if missing)."""
    if os.path.islink(path):
        raise OSError(40, "a log file is a symlink; kenning writes regular files only", path)
    try:
        fd = os.open(path, _FLAGS, 0o600)
    except FileNotFoundError:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, _FLAGS, 0o600)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(22, "a log file is not a regular file", path)
        if info.st_size and os.pread(fd, 1, info.st_size - 1) != b"\n":
            data = b"\n" + data
        written = os.write(fd, data)
        if written < len(data):  # a short write: the rest is lost, say so
            raise OSError(28, f"only {written} of {len(data)} bytes written (disk full?)", path)
    finally:
        os.close(fd)


def append_json(path: str | os.PathLike[str], record: dict) -> None:
    """Append `record` as one JSON line, stamped `ts` unless it has one; oversized string
    fields are truncated (and the record marked), never the line split."""
    record = scrub(record)  # type: ignore[assignment]  # <private> spans are never logged
    record.setdefault("ts", now_iso())
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
    if len(line.encode("utf-8")) > MAX_LINE_BYTES:
        record = {k: (v[:2000] if isinstance(v, str) else v) for k, v in record.items()}
        record["truncated"] = True
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
    append_line(os.fspath(path), (line + "\n").encode("utf-8"))
