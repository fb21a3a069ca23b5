"""The one read path for files kenning reads from a repository or a home. Stdlib only.

A repository is someone else's: a committed file may be a symlink (to `/dev/zero`, to a
secret outside the project), a FIFO that blocks forever, or far larger than anything kenning
writes. Every read goes through `read_bytes`: regular files only, opened without following a
final symlink, and the size cap enforced while reading (a file that grows after `stat` is
still cut off). A failure is a `FileProblemError` naming the file, which callers report and
skip. `open_regular` is the same check for files read in pieces (logs, transcripts).
"""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

from kenning.core.errors import FileProblemError

_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(
    os, "O_CLOEXEC", 0)


def display(path: Path | str) -> str:
    """A path as text that always encodes (a non-UTF-8 file name keeps `\\udcXX` escapes)."""
    return str(path).encode("utf-8", "backslashreplace").decode("utf-8")


def open_regular(path: Path | str) -> io.BufferedReader:
    """A regular file opened for binary reading, for files read in pieces (logs, transcripts)
    where a whole-file cap does not fit; the caller bounds what it reads. Raises
    FileNotFoundError when missing, FileProblemError for a symlink, a FIFO, a device."""
    name = display(path)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise FileProblemError(name, "file", f"unreadable ({exc.strerror})") from exc
    if stat.S_ISLNK(mode):
        raise FileProblemError(name, "file", "is a symlink; kenning reads regular files only")
    if not stat.S_ISREG(mode):
        raise FileProblemError(name, "file", "not a regular file")
    try:
        fd = os.open(path, _FLAGS)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise FileProblemError(name, "file", f"unreadable ({exc.strerror})") from exc
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise FileProblemError(name, "file", "not a regular file")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")  # type: ignore[return-value]


def read_bytes(path: Path | str, limit: int) -> bytes:
    """The whole file, if it is a regular file of at most `limit` bytes."""
    with open_regular(path) as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as exc:
            raise FileProblemError(display(path), "file", f"unreadable ({exc.strerror})") from exc
    if len(data) > limit:
        raise FileProblemError(display(path), "file", f"larger than {limit} bytes")
    return data


def read_text(path: Path | str, limit: int) -> str:
    """`read_bytes`, decoded as strict UTF-8."""
    raw = read_bytes(path, limit)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileProblemError(display(path), "file", "not UTF-8") from exc
