"""ULIDs: time-ordered ids unique across clones, so two teammates never pick the same file name.

Twenty lines of stdlib rather than a dependency: the spec is tiny and stable.
"""

from __future__ import annotations

import os
import re
import threading
import time

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
ULID_RE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")
_lock = threading.Lock()
_last: tuple[int, int] = (0, 0)


def _encode(value: int, length: int) -> str:
    chars = []
    for _ in range(length):
        value, rem = divmod(value, 32)
        chars.append(_ALPHABET[rem])
    return "".join(reversed(chars))


def new_ulid(now_ms: int | None = None) -> str:
    """A new ULID; monotonic within a process even when called twice in one millisecond."""
    global _last
    ms = int(time.time() * 1000) if now_ms is None else now_ms
    with _lock:
        last_ms, last_rand = _last
        if ms <= last_ms:
            ms, rand = last_ms, last_rand + 1
        else:
            rand = int.from_bytes(os.urandom(10), "big")
        _last = (ms, rand)
    return _encode(ms, 10) + _encode(rand & ((1 << 80) - 1), 16)


def is_ulid(value: object) -> bool:
    return isinstance(value, str) and bool(ULID_RE.match(value))


def canonical(value: object) -> object:
    """A typed id as stored: ULIDs are written in upper case, and `01arz…` names the same
    fact. Anything that is not a ULID either way is returned unchanged (and refused later)."""
    if isinstance(value, str) and is_ulid(value.upper()):
        return value.upper()
    return value
