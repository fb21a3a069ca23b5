"""Advisory file locks (fcntl): one index run, one extraction, one install at a time. Stdlib."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path


class LockBusy(Exception):
    """Another process holds the lock and the caller chose not to wait."""


@contextlib.contextmanager
def exclusive_lock(path: Path, wait: bool = True) -> Iterator[None]:
    """Held until the block exits, or until the process dies (the kernel releases it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        flags = fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB)
        try:
            fcntl.flock(fd, flags)
        except BlockingIOError as exc:
            raise LockBusy(str(path)) from exc
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        yield
    finally:
        os.close(fd)
