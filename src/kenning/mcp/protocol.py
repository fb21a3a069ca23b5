"""MCP over stdio with the stdlib: newline-delimited JSON-RPC, the handshake, argument checks
against a tool's inputSchema, and a tool's reply as the MCP SDK's server rendered it.

The front (`front`) and the server (`server`) both speak through this module; it imports
nothing of kenning's but `mcp.spec`, so the front stays cheap to start.
"""

from __future__ import annotations

import json
import re
from typing import Any

from kenning.mcp.spec import SPEC

# The initialize-handshake revisions spoken (the MCP SDK's mcp_types.version, which
# tests/test_mcp_front.py holds this to).
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
EMPTY_LISTS = {"resources/list": "resources", "resources/templates/list": "resourceTemplates",
               "prompts/list": "prompts"}
PARSE_ERROR = {"code": -32700, "message": "Parse error"}
INVALID_PARAMS = {"code": -32602, "message": "Invalid request parameters", "data": ""}
TOOL_SCHEMAS = {t["name"]: t["inputSchema"] for t in SPEC["tools"]}
# What pydantic read as an int: digits with single underscores between them, after a run of
# leading zeros that may hold any underscores ("0__1_2" is 12, "1__2" is no number).
_INTEGER_TEXT = re.compile(r"[+-]?(?:0[0_]*)?[0-9]+(?:_[0-9]+)*(?:\.0+)?")
# Unicode's White_Space, which pydantic trims (str.strip also trims \x1c-\x1f).
_SPACE = (" \t\n\x0b\x0c\r\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
          "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
_BOOL_WORDS = {"0": False, "off": False, "f": False, "false": False, "n": False, "no": False,
               "1": True, "on": True, "t": True, "true": True, "y": True, "yes": True}


class ArgumentError(ValueError):
    """A tool call's arguments do not fit the tool's inputSchema; the message names the
    field."""


def method_not_found(method: Any) -> dict[str, Any]:
    """The error for a method the server does not have (the SDK's wording, the method as data)."""
    return {"code": -32601, "message": "Method not found", "data": method}


def initialize_result(params: dict[str, Any]) -> dict[str, Any]:
    asked = params.get("protocolVersion")
    version = asked if asked in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1]
    return {"capabilities": SPEC["capabilities"], "instructions": SPEC["instructions"],
            "protocolVersion": version, "serverInfo": SPEC["serverInfo"]}


def readable(message: Any, raw: bytes) -> tuple[Any, bytes]:
    """The message, and its line, as valid Unicode.

    JSON may escape a lone surrogate (`"\\ud800"`): valid JSON, not valid Unicode, which no
    file or pipe can carry. Such a message is read with U+FFFD in the surrogate's place.
    """
    text = json.dumps(message, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        fixed = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
        return json.loads(fixed), fixed.encode("utf-8")
    return message, raw


def line(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n"


# ---- arguments ----------------------------------------------------------------------------
def check_arguments(schema: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments a tool function takes: each property of `schema` present in
    `arguments` (after the same lenient reading the MCP SDK gave: "5" and 5.0 for 5, "yes"
    for true, a list sent as a JSON string), else its default. Unknown keys are ignored, as
    the SDK did. Raises ArgumentError naming every field that does not fit."""
    properties = schema.get("properties", {})
    missing = [name for name in schema.get("required", []) if name not in arguments]
    problems = [f"{name} is required ({_type_words(properties[name])})" for name in missing]
    values: dict[str, Any] = {}
    for name, prop in properties.items():
        if name in missing:
            continue
        if name not in arguments:
            values[name] = prop.get("default")
            continue
        value = arguments[name]
        if isinstance(value, str) and prop.get("type") != "string":
            value = _json_in_a_string(value)
        try:
            values[name] = _read(prop, value)
        except ArgumentError as exc:
            problems.append(f"{name}{exc}")
    if problems:
        raise ArgumentError("; ".join(problems))
    return values


def _json_in_a_string(value: str) -> Any:
    # Some clients send a list or an object as JSON inside a string; the SDK read it so.
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError):
        return value
    return value if isinstance(parsed, str | int | float) else parsed


def _read(prop: dict[str, Any], value: Any) -> Any:
    choices = prop.get("anyOf")
    if choices is not None:
        if value is None and {"type": "null"} in choices:
            return None
        (prop,) = [c for c in choices if c != {"type": "null"}]
    kind = prop.get("type")
    if kind == "string" and isinstance(value, str):
        return value
    if kind == "integer":
        number = _integer(value)
        if number is not None:
            return number
    if kind == "boolean":
        flag = _boolean(value)
        if flag is not None:
            return flag
    if kind == "array" and isinstance(value, list):
        items = prop.get("items", {})
        for index, item in enumerate(value):
            try:
                _read(items, item)
            except ArgumentError as exc:
                raise ArgumentError(f"[{index}]{exc}") from None
        return list(value)
    raise ArgumentError(f" must be {_type_words(prop if choices is None else {'anyOf': choices})}"
                        f" (got {_json_type(value)})")


def _integer(value: Any) -> int | None:
    if isinstance(value, bool | int):
        number = int(value)
    elif isinstance(value, float) and value.is_integer() and -2**63 <= value < 2**63:
        number = int(value)
    elif isinstance(value, str) and _INTEGER_TEXT.fullmatch(value.strip(_SPACE)):
        number = int(value.strip(_SPACE).partition(".")[0].replace("_", ""))
    else:
        return None
    return number


def _boolean(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        return _BOOL_WORDS.get(value.lower())
    return None


def _type_words(prop: dict[str, Any]) -> str:
    choices = prop.get("anyOf")
    if choices is not None:
        words = [_type_words(c) for c in choices if c != {"type": "null"}]
        return " or ".join(words) + " or null"
    kind = prop.get("type")
    if kind == "array":
        return f"a list of {_type_words(prop.get('items', {})).removeprefix('a ')}s"
    return {"string": "a string", "integer": "an integer", "boolean": "true or false",
            "null": "null"}.get(kind, f"a {kind}")


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


# ---- replies ------------------------------------------------------------------------------
def tool_result(value: dict[str, Any]) -> dict[str, Any]:
    """A tool's return value as a CallToolResult: the value as indented JSON text, and as
    structured content (the SDK's rendering, so clients see the same bytes as before)."""
    data = plain(value)
    return {"content": [{"text": pretty(data), "type": "text"}], "isError": False,
            "structuredContent": data}


def tool_error(text: str) -> dict[str, Any]:
    return {"content": [{"text": text, "type": "text"}], "isError": True}


def plain(value: Any) -> Any:
    """`value` as JSON data: tuples become lists; anything JSON has no type for, its str."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if value is None or isinstance(value, str | int | float):
        return value
    return str(value)


def pretty(value: Any, depth: int = 0) -> str:
    """JSON with a 2-space indent, as pydantic_core.to_json(indent=2) writes it (the SDK's
    text content): json.dumps(indent=2) but for floats, written as serde_json writes them."""
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {pretty(v, depth + 1)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[\n" + ",\n".join(inner + pretty(v, depth + 1) for v in value) + "\n" + pad + "]"
    if isinstance(value, float) and not isinstance(value, bool):
        return float_text(value)
    return json.dumps(value, ensure_ascii=False)


def float_text(value: float) -> str:
    """A float as serde_json (ryu) writes it: Python's repr, except that 1e-5 <= |x| < 1e-4
    is written out in full (0.000032) and a negative exponent has no leading zero (1e-7)."""
    text = json.dumps(value)
    mantissa, e, exponent = text.partition("e-")
    if not e:
        return text
    if int(exponent) == 5:
        sign = "-" if mantissa.startswith("-") else ""
        digits = mantissa.lstrip("-").replace(".", "")
        return f"{sign}0.0000{digits.rstrip('0') or '0'}"
    return f"{mantissa}e-{int(exponent)}"
