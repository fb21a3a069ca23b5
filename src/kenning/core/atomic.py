"""Atomic file writes: a reader sees the old file or the new one, never half of either.

The one atomic writer: every module that replaces a whole file goes through here. Only cheap
stdlib modules (hooks write their state files through it). A temp file in the same folder
is written, flushed and fsynced, then renamed over the target. On Windows a rename fails
while another process has the target open, so the rename is retried for a moment.
"""

from __future__ import annotations

import io
import itertools
import os
import time

_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
_COUNTER = itertools.count()
REPLACE_RETRIES = 20  # Windows only; 20 × 50 ms covers a reader finishing its read


def atomic_file(path: str | os.PathLike[str], *, durable: bool = True) -> _AtomicFile:
    """`with atomic_file(path) as handle:` a binary handle whose contents replace `path`
    when the block exits cleanly.

    `durable=False` skips the fsyncs, for state a crash may lose (a hook's per-session
    counters): the rename stays atomic either way.
    """
    return _AtomicFile(os.fspath(path), durable)


class _AtomicFile:
    """The context manager behind `atomic_file` (a class: `contextlib` costs a hook more than
    its whole write)."""

    def __init__(self, target: str, durable: bool):
        self.target, self.durable = target, durable
        self.folder = os.path.dirname(target) or "."
        self.tmp = ""
        self.handle: io.BufferedWriter | None = None

    def __enter__(self) -> io.BufferedWriter:
        os.makedirs(self.folder, exist_ok=True)
        self.tmp = os.path.join(self.folder, f".{os.path.basename(self.target)}."
                                f"{os.getpid()}.{next(_COUNTER)}.tmp")
        fd = os.open(self.tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY, 0o600)
        self.handle = os.fdopen(fd, "wb")
        return self.handle

    def __exit__(self, exc_type, exc, tb) -> None:
        handle = self.handle
        assert handle is not None
        try:
            try:
                if exc_type is None:
                    handle.flush()
                    if self.durable:
                        os.fsync(handle.fileno())
            finally:
                handle.close()
            if exc_type is None:
                _replace(self.tmp, self.target)
        except BaseException:
            self._discard()
            raise
        if exc_type is not None:
            self._discard()
        elif self.durable:
            _sync_folder(self.folder)

    def _discard(self) -> None:
        try:
            os.unlink(self.tmp)
        except OSError:
            pass


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
