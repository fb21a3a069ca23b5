"""The project's fact files read without YAML, for a SessionStart that has no index yet.

A teammate's fresh clone has its facts in `.kenning/facts/` but no index: the index is built
by the detached catch-up, after the first context block was sent. So SessionStart reads the
files itself. It understands the layout `kenning.store.factfile` writes (top-level `key: value`,
plain, single- or double-quoted scalars that may wrap, `tags: [a, b]`, `about:` entries with
`file:`); a file it cannot follow is skipped, since the index will have it next session.
Stdlib only.
"""

from __future__ import annotations

import json
import os
from datetime import datetime

from kenning.core.clock import epoch_us
from kenning.hooks.factdb import Candidate

MAX_FILES = 5000
MAX_BYTES = 64 * 1024


def _scalar(raw: str) -> str | None:
    """A plain, 'single' or "double" quoted scalar, its wrapped lines already joined."""
    raw = raw.strip()
    if raw.startswith('"'):
        try:
            value = json.loads(raw)
        except ValueError:
            return None
        return value if isinstance(value, str) else None
    if raw.startswith("'"):
        return raw[1:-1].replace("''", "'") if raw.endswith("'") and len(raw) > 1 else None
    if raw[:1] in ("|", ">", "&", "*", "!", "{", "["):
        return None
    return raw


def _fold(first: str, more: list[str]) -> str:
    """YAML line folding: wrapped lines join with a space, an empty line is a newline."""
    text = first.strip()
    for line in more:
        line = line.strip()
        if not line:
            text += "\n"
        elif text.endswith("\n") or not text:
            text += line
        else:
            text += " " + line
    return text


def parse(text: str) -> dict[str, object] | None:
    fields: dict[str, object] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        key, sep, rest = lines[i].partition(":")
        if not sep or not key or key[0] in " -#":
            i += 1
            continue
        j = i + 1
        while j < len(lines) and (not lines[j] or lines[j][0] in " -"):
            j += 1
        block = lines[i + 1:j]
        if key in ("about",):
            files = []
            for line in block:
                name, colon, value = line.strip().lstrip("- ").partition(":")
                if colon and name == "file" and (path := _scalar(value)):
                    files.append([path])
            fields[key] = files
        elif key == "tags":
            flow = _fold(rest, block)
            if flow.startswith("[") and flow.endswith("]"):
                fields[key] = [t for t in (_scalar(p) for p in flow[1:-1].split(",")) if t]
            else:
                fields[key] = [t for t in (_scalar(line.strip().lstrip("- ")) for line in block)
                               if t]
        else:
            fields[key] = _scalar(_fold(rest, block))
        i = j
    return fields if fields.get("id") and fields.get("text") else None


def active_facts(facts_dir: str, now: datetime) -> list[Candidate]:
    rows: list[Candidate] = []
    try:
        entries = sorted(e.name for e in os.scandir(facts_dir)
                         if e.name.endswith(".yaml") and not e.name.startswith("."))
    except OSError:
        return rows
    now_us = epoch_us(now)
    for name in entries[:MAX_FILES]:
        try:
            with open(os.path.join(facts_dir, name), encoding="utf-8") as handle:
                fields = parse(handle.read(MAX_BYTES))
        except (OSError, UnicodeDecodeError):
            continue
        if not fields or fields.get("status", "active") != "active":
            continue
        try:
            confidence = round(float(str(fields.get("confidence") or 0)) * 100)
        except ValueError:
            continue
        tags = fields.get("tags") or []
        rows.append(Candidate((fields["id"], fields.get("kind") or "codebase", fields["text"],
                             confidence, fields.get("confirmed"), None,
                             json.dumps(fields.get("about") or []),
                             " ".join(tags) if isinstance(tags, list) else ""), now_us))
    return rows
