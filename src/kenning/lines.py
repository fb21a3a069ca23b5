"""Whole-line appends to a log. Only `os`: the PostToolUse hook writes through this too.

One `os.write` per line on an O_APPEND descriptor, so concurrent writers never interleave
inside a line. A write cut short (a full disk) leaves a fragment without its newline: the next
append starts with a newline, so the fragment stays a line of its own (which readers skip)
and the new record is never glued to it.
"""

import os


def append_line(path: str, data: bytes) -> None:
    """Append `data`, one line ending in a newline, to the log at `path` (made if missing)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)  # read: the last byte
    except FileNotFoundError:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        written = os.write(fd, data)
        if written < len(data):  # a short write: the rest is lost, say so
            raise OSError(28, f"only {written} of {len(data)} bytes written (disk full?)", path)
    finally:
        os.close(fd)
