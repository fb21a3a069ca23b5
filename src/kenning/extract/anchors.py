"""What a fact is about: the project files (and symbols) a sentence names.

Anchors are stored with the fact, so they must be project-relative POSIX paths however the
user wrote them (Windows, `./`, absolute), and a file outside the project is no anchor at
all. When a sentence names no file, the caller may pass the files in play instead (the file
of a rejected edit, or the ones just edited for a correction). Pure, stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath

from kenning.core.records import Anchor
from kenning.extract.vocab import KNOWN_TOOLS, PATH

_BACKTICK = re.compile(r"`([^`]+)`")
_SYMBOL = re.compile(r"^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*(?:\(\))?$")


def _relative(path: str, root: str | None) -> str | None:
    path = path.replace("\\", "/")
    if root is None:
        return path.removeprefix("./")
    root_posix = root.replace("\\", "/").rstrip("/")
    if path.startswith("~"):
        return None
    if path.startswith("/") or re.match(r"^[A-Za-z]:/", path):
        if path == root_posix or not path.startswith(root_posix + "/"):
            return None  # outside the project: not something a project fact is about
        return path[len(root_posix) + 1 :]
    return str(PurePosixPath(path.removeprefix("./")))


def find_anchors(text: str, touched: Sequence[str], root: str | None) -> tuple[Anchor, ...]:
    """Files named in `text` (else `touched`), relative to `root`; with one file, its
    backticked symbols."""
    files: list[str] = []
    for m in PATH.finditer(text):
        if "://" not in text[max(0, m.start() - 8) : m.start()]:
            files.append(m.group(1))
    if not files:
        files = list(touched)
    symbols = [
        b.removesuffix("()")
        for b in _BACKTICK.findall(text)
        if _SYMBOL.match(b) and not PATH.fullmatch(b) and b.lower() not in KNOWN_TOOLS
    ]
    out: dict[tuple[str, str | None], None] = {}
    for f in files:
        rel = _relative(f, root)
        if rel:
            out[(rel, None)] = None
    if len(out) == 1 and symbols:
        ((only, _),) = out
        out = {(only, sym): None for sym in symbols}
    return tuple(Anchor(file=f, symbol=s) for f, s in out)
