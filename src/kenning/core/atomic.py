"""Atomic file writes: a reader sees the old file or the new one, never half of either.

The one atomic writer: every module that replaces a whole file goes through here. Only cheap
stdlib modules (hooks write their state files through it). A temp file in the same folder
is written, flushed and fsynced, then renamed over the target. On Windows a rename fails
while another process has the target open, so the rename is retried for a moment.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import time
from collections.abc import Iterator

_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
_COUNTER = itertools.count()
REPLACE_RETRIES = 20  # Windows only; 20 × 50 ms covers a reader finishing its read


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike[str], *,
                durable: bool = True) -> Iterator[io.BufferedWriter]:
    """A binary handle whose contents replace `path` when the block exits cleanly.

    `durable=False` skips the fsyncs, for state a crash may lose (a hook's per-session
    counters): the rename stays atomic either way.
    """
    target = os.fspath(path)
    folder = os.path.dirname(target) or "."
    os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, f".{os.path.basename(target)}.{os.getpid()}.{next(_COUNTER)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        _replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:
        _sync_folder(folder)


def write_atomic(path: str | os.PathLike[str], data: str | bytes, *,
                 durable: bool = True) -> None:
    """Replace `path` with `data` (str is written as UTF-8)."""
    with atomic_file(path, durable=durable) as handle:
        handle.write(data.encode("utf-8") if isinstance(data, str) else data)


def _replace(tmp: str, target: str) -> None:
    for attempt in range(REPLACE_RETRIES if os.name == "nt" else 1):
        try:
            os.replace(tmp, target)
            return
        except PermissionError:
            if os.name != "nt" or attempt == REPLACE_RETRIES - 1:
                raise
            time.sleep(0.05)


def _sync_folder(folder: str) -> None:
    """Make the rename itself durable (POSIX; Windows cannot open a folder, and needs not)."""
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
