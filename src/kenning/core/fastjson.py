"""JSON for the hooks, on the C accelerator the `json` package itself uses, without importing
that package: its decoder and encoder import `re`, and `re` imports `enum`, which together cost
a fresh hook process about as much as starting the interpreter (bench/hooks_bench.py).

Same results as `json.loads` / `json.load` / `json.dumps` for what kenning reads and writes
(tests/test_fastjson.py checks them against `json`). A malformed document raises
`json.JSONDecodeError` (the accelerator imports `json.decoder` itself to raise it). A Python
without the accelerator falls back to the `json` package.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` itself imports re
if TYPE_CHECKING:
    from typing import IO, Any

try:
    from _json import encode_basestring, encode_basestring_ascii
    from _json import make_encoder as _make_encoder
    from _json import make_scanner as _make_scanner
except ImportError:  # pragma: no cover - CPython always has it
    _make_scanner = None

_WHITESPACE = " \t\n\r"
_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}


class _Context:
    """The attributes the C scanner reads from a `json.JSONDecoder`, with its defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = _CONSTANTS.__getitem__


_scan = _make_scanner(_Context()) if _make_scanner else None


def _detect_encoding(data: bytes) -> str:
    """The encoding `json.loads` assumes for bytes (RFC 8259: UTF-8, -16 or -32, BOM or not)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "utf-32"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    if len(data) >= 4:
        if not data[0]:
            return "utf-16-be" if data[1] else "utf-32-be"
        if not data[1]:
            return "utf-16-le" if data[2] or data[3] else "utf-32-le"
    elif len(data) == 2:
        if not data[0]:
            return "utf-16-be"
        if not data[1]:
            return "utf-16-le"
    return "utf-8"


def loads(text: str | bytes | bytearray) -> Any:
    if _scan is None:  # pragma: no cover
        import json

        return json.loads(text)
    if isinstance(text, bytes | bytearray):
        text = bytes(text).decode(_detect_encoding(bytes(text)), "surrogatepass")
    if not isinstance(text, str):
        raise TypeError(f"the JSON object must be str, bytes or bytearray, not "
                        f"{text.__class__.__name__}")
    if text.startswith("\ufeff"):
        from json import JSONDecodeError

        raise JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    start = _skip(text, 0)
    try:
        value, end = _scan(text, start)
    except StopIteration as err:
        from json import JSONDecodeError

        raise JSONDecodeError("Expecting value", text, err.value) from None
    end = _skip(text, end)
    if end != len(text):
        from json import JSONDecodeError

        raise JSONDecodeError("Extra data", text, end)
    return value


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _WHITESPACE:
        at += 1
    return at


def raw_decode(text: str, start: int = 0) -> tuple[Any, int]:
    """One value starting at `start` (no whitespace skipped), and where it ends: what
    `json.JSONDecoder().raw_decode` returns."""
    if _scan is None:  # pragma: no cover
        import json

        return json.JSONDecoder().raw_decode(text, start)
    try:
        return _scan(text, start)
    except StopIteration as err:
        from json import JSONDecodeError

        raise JSONDecodeError("Expecting value", text, err.value) from None


def load(handle: IO) -> Any:
    return loads(handle.read())


def _no_default(value: object) -> Any:
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def dumps(value: Any, *, ensure_ascii: bool = True,
          separators: tuple[str, str] | None = None, default: Any = None,
          sort_keys: bool = False) -> str:
    if _scan is None:  # pragma: no cover
        import json

        return json.dumps(value, ensure_ascii=ensure_ascii, separators=separators,
                          default=default, sort_keys=sort_keys)
    item, key = separators or (", ", ": ")
    encode = _make_encoder({}, default or _no_default,
                           encode_basestring_ascii if ensure_ascii else encode_basestring,
                           None, key, item, sort_keys, False, True)
    return "".join(encode(value, 0))
