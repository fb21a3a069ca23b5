"""The anchors map PreToolUse reads: for each anchored file, the active facts about it.

Written at sync time from the index into `<local>/anchors/NN.json`, 64 small buckets keyed by
a CRC of the file path, so a hook on a 10,000-fact project parses one small file instead of
the index. Stdlib only (the reader runs on every Read/Edit/Write).
"""

from __future__ import annotations

import os
import zlib

from kenning.core import fastjson as json
from kenning.core.atomic import write_atomic

BUCKETS = 64
DIR_NAME = "anchors"


def bucket_of(path: str) -> str:
    return f"{zlib.crc32(path.encode('utf-8')) % BUCKETS:02d}"


def lookup(local_dir: str, path: str) -> list[dict]:
    """Entries anchored to `path` (POSIX, relative to the root); [] when none or no map."""
    try:
        with open(os.path.join(local_dir, DIR_NAME, bucket_of(path) + ".json"),
                  encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, ValueError):
        return []
    # A bucket of a 10,000-fact project is ~50 KB: decode only this path's entries. A quote
    # inside a JSON string is escaped, so `"path":` in the text is a key; the whole bucket is
    # decoded only when the key found is not the top-level one.
    key = json.dumps(path, ensure_ascii=False) + ":"
    at = text.find(key)
    if at < 0:
        return []
    start = at + len(key)
    while text[start:start + 1].isspace():
        start += 1
    try:
        entries, _ = json.raw_decode(text, start)
        if not (isinstance(entries, list) and all(isinstance(e, dict) for e in entries)):
            data = json.loads(text)
            entries = data.get(path) if isinstance(data, dict) else None
    except ValueError:
        return []
    return entries if isinstance(entries, list) else []


def build(conn, root: str | None = None) -> dict[str, list[dict]]:
    """file -> entries, from the active facts that have an `about`.

    Each entry carries its anchor state, checked by `kenning stale`'s own rules without the
    rename search (anchors_stale.check_anchor, follow=False) against one bulk read of the
    symbols: PreToolUse leaves orphaned facts out and adds a caveat to drifted ones.
    """
    out: dict[str, list[dict]] = {}
    rows = conn.execute(
        "SELECT f.id, f.kind, f.text, f.confidence, f.confirmed, f.about, u.last_used "
        "FROM facts f LEFT JOIN usage u ON u.fact_id = f.id "
        "WHERE f.status = 'active' AND f.about IS NOT NULL AND f.about != '[]'"
    ).fetchall()
    if not rows:  # nothing anchored: no need to read every symbol, nor to import the rules
        return out
    from dataclasses import replace
    from pathlib import Path

    from kenning.lifecycle.stale import SymbolIndex, anchors_of, check_anchor

    index = SymbolIndex(conn, Path(root) if root else None, preload=True)
    for fact_id, kind, text, confidence, confirmed, about, last_used in rows:
        seen: set[str] = set()
        for anchor in anchors_of({"about": about}):
            file = anchor.file.replace("\\", "/")
            if file in seen:  # one entry per fact and file, even with several symbols
                continue
            seen.add(file)
            state = check_anchor(index, replace(anchor, file=file), follow=False).state
            out.setdefault(file, []).append({
                "id": fact_id, "kind": kind, "text": text, "confidence": confidence,
                "confirmed": confirmed, "last_used": last_used, "symbol": anchor.symbol,
                "state": state,
            })
    return out


def write(local_dir: str, mapping: dict[str, list[dict]]) -> int:
    """Replace the map's buckets atomically one by one; returns the files mapped."""
    folder = os.path.join(local_dir, DIR_NAME)
    os.makedirs(folder, exist_ok=True)
    buckets: dict[str, dict[str, list[dict]]] = {}
    for file, entries in mapping.items():
        buckets.setdefault(bucket_of(file), {})[file] = entries
    for number in range(BUCKETS):
        name = f"{number:02d}"
        target = os.path.join(folder, name + ".json")
        if name not in buckets:
            try:
                os.unlink(target)
            except FileNotFoundError:
                pass
            continue
        text = json.dumps(buckets[name], ensure_ascii=False, separators=(",", ":"))
        if _unchanged(target, text):  # an add without anchors changes no bucket
            continue
        # derived from the index and rebuilt on the next sync: no fsync for 64 files
        write_atomic(target, text, durable=False)
    return len(mapping)


def _unchanged(target: str, text: str) -> bool:
    try:
        with open(target, encoding="utf-8") as handle:
            return handle.read() == text
    except (OSError, ValueError):
        return False


def refresh(conn, local_dir: str, root: str | None = None) -> int:
    """Rebuild the map from the index (called after every sync that changed something)."""
    return write(local_dir, build(conn, root))
