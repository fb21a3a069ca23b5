"""`<private>…</private>`: text a user wraps so that kenning never keeps it.

Applied wherever text from a prompt or a transcript enters a file kenning writes: the hook
logs (`hooks.base`), the event log (`store.eventlog`), fact text (`store.facts`), saved
sessions (`store.sessions`), transcript cleaning before extraction (`extract.cleaning`) and
seeding. An unclosed `<private>` hides everything after it: a missing end tag must not
publish the secret. Stdlib only (hooks import it).
"""

from __future__ import annotations


def strip_private(text: str) -> str:
    """`text` without its private spans (a cheap no-op when it has none)."""
    if "<" not in text or "private" not in text.lower():
        return text
    # Imported here: most texts have no private span, and `re` costs a hook process about as
    # much as starting the interpreter (hooks import this module on every call).
    import re

    return re.sub(r"<private>.*?(?:</private>|\Z)", "", text, flags=re.S | re.I)


def scrub(value: object, depth: int = 0) -> object:
    """`value` (a record: dicts, lists, strings) with every string's private spans gone."""
    if isinstance(value, str):
        return strip_private(value)
    if depth < 8 and isinstance(value, dict):
        return {k: scrub(v, depth + 1) for k, v in value.items()}
    if depth < 8 and isinstance(value, list | tuple):
        return [scrub(v, depth + 1) for v in value]
    return value
