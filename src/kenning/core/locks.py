"""The one advisory file lock: one index run, one extraction, one install, one session's
hook state at a time. Stdlib only (hooks take it).

POSIX: `flock` on the lock file, released by the kernel when the holder dies. Windows:
`msvcrt.locking` on the file's first byte, also released when the holder's handle closes.
"""

from __future__ import annotations

import os
import time

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt

POLL_S = 0.05  # Windows has no blocking lock that waits forever: poll


class LockBusy(Exception):
    """Another process holds the lock and the caller chose not to wait."""


class FileLock:
    """An exclusive lock on `path` (the file is made if missing), held until `release()`."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = os.fspath(path)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self, wait: bool = True) -> bool:
        """True once held; False when `wait` is off and another process holds it."""
        os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            locked = _lock(fd, wait)
        except BaseException:
            os.close(fd)
            raise
        if not locked:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing releases the lock

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _lock(fd: int, wait: bool) -> bool:
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            return False
        return True
    while True:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            if not wait:
                return False
            time.sleep(POLL_S)


def is_locked(path: str | os.PathLike[str]) -> bool:
    """Whether another process holds the lock now (a file that was never made is free)."""
    if not os.path.exists(path):
        return False
    probe = FileLock(path)
    if not probe.acquire(wait=False):
        return True
    probe.release()
    return False


def exclusive_lock(path: str | os.PathLike[str], wait: bool = True) -> _Exclusive:
    """`with exclusive_lock(path):` held until the block exits, or until the process dies.
    Raises LockBusy when `wait` is off and another process holds it."""
    return _Exclusive(FileLock(path), wait)


class _Exclusive:
    """The context manager behind `exclusive_lock` (a class: `contextlib` costs a hook that
    takes a lock more than the lock)."""

    def __init__(self, lock: FileLock, wait: bool):
        self.lock, self.wait = lock, wait

    def __enter__(self) -> None:
        if not self.lock.acquire(self.wait):
            raise LockBusy(self.lock.path)

    def __exit__(self, *exc: object) -> None:
        self.lock.release()
