"""Imported module and file names, as written, from the captures of a language's import query.

`@path` captures are string literals (quotes dropped), `@name` captures are taken as written,
`@stmt` captures are whole statements that lose their keywords and aliases here.
"""

from __future__ import annotations

import re
from typing import Any

Node = Any  # tree_sitter.Node

_WS = re.compile(r"\s+")
_QUOTES = "\"'`<>"
_ALIAS = re.compile(r"\s+as\s+\w+\s*$")
_CSHARP_ALIAS = re.compile(r"^\w+\s*=\s*")
_SWIFT_KINDS = {"typealias", "struct", "class", "enum", "protocol", "let", "var", "func"}


def _text(node: Node) -> str:
    return node.text.decode("utf-8", "replace")


def _without_comments(node: Node) -> str:
    """A statement's text minus comments the grammar tucked inside it."""
    data, base = node.text, node.start_byte
    for child in reversed(node.named_children):
        if "comment" in child.type:
            data = data[: child.start_byte - base] + data[child.end_byte - base :]
    return data.decode("utf-8", "replace")


def _strip_statement(text: str, keywords: tuple[str, ...]) -> str:
    text = _WS.sub(" ", text).strip().rstrip(";").strip()
    words = text.split(" ")
    while words and (words[0] in keywords or words[0].startswith("@")):
        words.pop(0)
    return _ALIAS.sub("", " ".join(words)).strip()


def _rust_use(node: Node) -> str | None:
    if node.type in ("scoped_use_list", "use_as_clause"):
        path = node.child_by_field_name("path")
        return _text(path) if path is not None else None
    if node.type == "use_wildcard":
        return _text(node).removesuffix("*").removesuffix("::") or None
    if node.type == "use_list":
        return None
    return _text(node)


def _php_statement(node: Node) -> str | None:
    if node.type == "namespace_use_clause":
        name = _ALIAS.sub("", _WS.sub(" ", _text(node)).strip())
        group = node.parent
        if group is not None and group.type == "namespace_use_group":
            prefix = next(
                (c for c in group.parent.named_children if c.type == "namespace_name"), None
            ) if group.parent is not None else None  # fmt: skip
            if prefix is not None:
                return _text(prefix) + "\\" + name
        return name
    # require/include: the first string literal in the argument
    stack = list(node.named_children)
    while stack:
        child = stack.pop(0)
        if child.type in ("string", "encapsed_string"):
            return _text(child).strip(_QUOTES) or None
        stack = list(child.named_children) + stack
    return None


def _statement(lang: str, node: Node) -> str | None:
    text = _without_comments(node)
    if lang == "java":
        return _strip_statement(text, ("import", "static"))
    if lang == "csharp":
        text = _strip_statement(text, ("global", "using", "static", "unsafe"))
        return _CSHARP_ALIAS.sub("", text)
    if lang == "kotlin":
        return _strip_statement(text, ("import",))
    if lang == "swift":
        words = _strip_statement(text, ("import",)).split(" ")
        return words[-1] if words and words[0] in _SWIFT_KINDS else " ".join(words)
    if lang == "php":
        return _php_statement(node)
    return _WS.sub(" ", text).strip()


def extract(lang: str, captures: dict[str, list[Node]]) -> tuple[str, ...]:
    found: list[tuple[int, str | None]] = []
    for node in captures.get("path", []):
        found.append((node.start_byte, _text(node).strip().strip(_QUOTES)))
    for node in captures.get("name", []):
        name = _rust_use(node) if lang == "rust" else _WS.sub("", _text(node))
        found.append((node.start_byte, name))
    for node in captures.get("stmt", []):
        found.append((node.start_byte, _statement(lang, node)))
    seen: dict[str, None] = {}
    for _, name in sorted(found, key=lambda f: f[0]):
        if name:
            seen.setdefault(name, None)
    return tuple(seen)
