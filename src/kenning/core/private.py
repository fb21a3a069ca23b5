"""`<private>…</private>`: text a user wraps so that kenning never keeps it.

Applied wherever text from a prompt or a transcript enters a file kenning writes: the hook
logs (`hooks.base`), the event log (`store.eventlog`), fact text (`store.facts`), saved
sessions (`store.sessions`), transcript cleaning before extraction (`extract.cleaning`) and
seeding. An unclosed `<private>` hides everything after it: a missing end tag must not
publish the secret. Stdlib only (hooks import it).
"""

from __future__ import annotations

_PRIVATE = None  # compiled on first use: `re` costs a hook a third of Python's start


def strip_private(text: str) -> str:
    """`text` without its private spans (a cheap no-op when it has none)."""
    if "<" not in text or "private" not in text.lower():
        return text
    global _PRIVATE
    if _PRIVATE is None:
        import re

        _PRIVATE = re.compile(r"<private>.*?(?:</private>|\Z)", re.S | re.I)
    return _PRIVATE.sub("", text)


def scrub(value: object, depth: int = 0) -> object:
    """`value` (a record: dicts, lists, strings) with every string's private spans gone."""
    if isinstance(value, str):
        return strip_private(value)
    if depth < 8 and isinstance(value, dict):
        return {k: scrub(v, depth + 1) for k, v in value.items()}
    if depth < 8 and isinstance(value, list | tuple):
        return [scrub(v, depth + 1) for v in value]
    return value
