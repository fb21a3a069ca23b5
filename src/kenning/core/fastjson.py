"""JSON for the hook path, without importing the `json` package. Stdlib only.

`import json` pulls in `re`, `enum`, `functools` and `collections`: on a 2-core machine that
costs a hook about one and a half times a bare interpreter's start, more than any hook's own
work. The package's speed-ups live in the C module `_json` (its scanner and encoder, what
`json.loads` and `json.dumps` call), which imports nothing: this module calls them directly,
with the same defaults as `json`. Where `_json` is missing or differs, it is `json` itself.
Errors are `ValueError`s, as `json.JSONDecodeError` is.
"""

from __future__ import annotations

_WHITESPACE = " \t\n\r"


class _Options:
    """What the C scanner reads from a decoder (json.JSONDecoder's defaults)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int

    @staticmethod
    def parse_constant(name: str) -> float:
        return {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}[name]


def _no_default(value: object) -> object:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


try:
    import _json

    _scan = _json.make_scanner(_Options)
    _ascii = _json.encode_basestring_ascii
    _unicode = _json.encode_basestring
    _make_encoder = _json.make_encoder
    _make_encoder({}, _no_default, _ascii, None, ": ", ", ", False, False, True)({}, 0)
except Exception:  # noqa: BLE001 - any other build: the real package
    _scan = None


def loads(text: str | bytes | bytearray) -> object:
    """`json.loads` for UTF-8 text (what Claude Code and kenning write)."""
    if _scan is None:
        import json

        return json.loads(text)
    if not isinstance(text, str):
        text = bytes(text).decode("utf-8")
    size = len(text)
    start = size - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration:
        raise ValueError(f"Expecting value: char {start}") from None
    if end != size and text[end:].strip(_WHITESPACE):
        raise ValueError(f"Extra data: char {end}")
    return value


def raw_decode(text: str, start: int = 0) -> tuple[object, int]:
    """One value starting at `start` (no whitespace skipped) and where it ends."""
    if _scan is None:
        import json

        return json.JSONDecoder().raw_decode(text, start)
    try:
        return _scan(text, start)
    except StopIteration:
        raise ValueError(f"Expecting value: char {start}") from None


def load(handle) -> object:
    return loads(handle.read())


def dumps(value: object, *, ensure_ascii: bool = True,
          separators: tuple[str, str] | None = None, default=None,
          sort_keys: bool = False) -> str:
    """`json.dumps` with the options kenning uses (no indent)."""
    if _scan is None:
        import json

        return json.dumps(value, ensure_ascii=ensure_ascii, separators=separators,
                          default=default, sort_keys=sort_keys)
    item, key = separators or (", ", ": ")
    encode = _make_encoder({}, default or _no_default, _ascii if ensure_ascii else _unicode,
                           None, key, item, sort_keys, False, True)
    return "".join(encode(value, 0))
