"""A definition node's name parts and kind: `(s *Server) Start` -> (['Server', 'Start'], 'method').

Each function takes a tree-sitter node and returns the parts of its name as written at the
definition (more than one for `ns::Class::method`, Go receivers, Rust impls, Ruby
`class A::B`) or None when the definition has no usable name (anonymous namespaces,
`class << self`, destructuring patterns); unnamed definitions are left out of the symbol
table and of qualified names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Node = Any  # tree_sitter.Node; not imported so that importing kenning.index.chunking stays light

_IDENT_TYPES = frozenset(
    {"identifier", "field_identifier", "type_identifier", "property_identifier",
     "private_property_identifier", "simple_identifier", "constant", "name", "word",
     "namespace_identifier", "destructor_name", "operator_name", "qualified_identifier",
     "template_function", "operator_cast"}
)  # fmt: skip
_DECLARATOR_WRAPPERS = frozenset(
    {"pointer_declarator", "reference_declarator", "parenthesized_declarator",
     "attributed_declarator", "function_declarator"}
)  # fmt: skip
_WS = re.compile(r"\s+")


def text(node: Node | None) -> str:
    if node is None:
        return ""
    return node.text.decode("utf-8", "replace")


def _strip_templates(name: str) -> str:
    """`Foo<std::pair<int, int>>::bar` -> `Foo::bar` (template arguments may hold `::`)."""
    if "<" not in name or name.startswith("operator"):
        return name
    out: list[str] = []
    depth = 0
    for ch in name:
        if ch == "<":
            depth += 1
        elif ch == ">" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out)


def _split(name: str, sep: str) -> list[str] | None:
    name = _WS.sub("", _strip_templates(name))
    if "::operator" in name or name.startswith("operator"):
        head, _, op = name.partition("operator")
        parts = [p for p in head.split(sep) if p] + ["operator" + op]
    else:
        parts = [p for p in name.split(sep) if p]
    return parts or None


def field_name(node: Node) -> list[str] | None:
    name = node.child_by_field_name("name")
    return [text(name)] if name is not None and text(name) else None


def _first_child(node: Node, types: tuple[str, ...]) -> Node | None:
    for child in node.named_children:
        if child.type in types:
            return child
    return None


def _type_name(node: Node | None) -> str | None:
    """The bare type in `&'a mut Foo<T>`, `*Server`, `crate::x::Baz`, `Server[T]`."""
    for _ in range(16):
        if node is None:
            return None
        if node.type in ("type_identifier", "identifier", "primitive_type"):
            return text(node)
        nxt = node.child_by_field_name("type") or node.child_by_field_name("name")
        if nxt is None:
            nxt = _first_child(node, ("type_identifier", "identifier", "generic_type",
                                      "scoped_type_identifier", "pointer_type", "reference_type",
                                      "qualified_type", "user_type"))  # fmt: skip
        node = nxt
    return None


# --- C / C++ -------------------------------------------------------------------------------


def c_function(node: Node) -> list[str] | None:
    """The name inside a C/C++ declarator: `char **ns::W::f(int)`, `int (*fp(void))(int)`."""
    decl = node.child_by_field_name("declarator")
    for _ in range(32):
        if decl is None:
            return None
        if decl.type == "function_declarator":
            inner = decl.child_by_field_name("declarator")
            if inner is not None and inner.type in _IDENT_TYPES:
                return _split(text(inner), "::")
            decl = inner
        elif decl.type in _DECLARATOR_WRAPPERS:
            decl = decl.child_by_field_name("declarator") or (
                decl.named_children[-1] if decl.named_child_count else None
            )
        elif decl.type in _IDENT_TYPES:  # K&R or macro-mangled definitions
            return _split(text(decl), "::")
        else:
            return None
    return None


def c_tagged(node: Node) -> list[str] | None:
    """`struct S {…}`, or the typedef name of `typedef struct {…} T;`."""
    name = node.child_by_field_name("name")
    if name is not None:
        return _split(text(name), "::")
    parent = node.parent
    if parent is not None and parent.type == "type_definition":
        decl = parent.child_by_field_name("declarator")
        if decl is not None and decl.type in ("type_identifier", "identifier"):
            return [text(decl)]
    return None


def cpp_namespace(node: Node) -> list[str] | None:
    name = node.child_by_field_name("name")
    return _split(text(name), "::") if name is not None else None


# --- Go, Rust ------------------------------------------------------------------------------


def go_method(node: Node) -> list[str] | None:
    name = field_name(node)
    if name is None:
        return None
    receiver = node.child_by_field_name("receiver")
    param = _first_child(receiver, ("parameter_declaration",)) if receiver is not None else None
    recv = _type_name(param.child_by_field_name("type")) if param is not None else None
    return [recv, *name] if recv else name


def go_type_kind(node: Node) -> str:
    kind = node.child_by_field_name("type")
    if kind is not None and kind.type == "struct_type":
        return "struct"
    if kind is not None and kind.type == "interface_type":
        return "interface"
    return "type"


def rust_impl(node: Node) -> list[str] | None:
    name = _type_name(node.child_by_field_name("type"))
    return [name] if name else None


# --- JavaScript / TypeScript ---------------------------------------------------------------


def js_variable(node: Node) -> list[str] | None:
    name = node.child_by_field_name("name")
    return [text(name)] if name is not None and name.type == "identifier" else None


def js_variable_kind(node: Node) -> str:
    value = node.child_by_field_name("value")
    return "class" if value is not None and value.type == "class" else "function"


def js_field(node: Node) -> list[str] | None:
    name = node.child_by_field_name("property") or node.child_by_field_name("name")
    return [text(name)] if name is not None else None


def js_assignment(node: Node) -> list[str] | None:
    """`Foo.prototype.bar = function` -> Foo.bar; `module.exports.q = …` -> q."""
    left = node.child_by_field_name("left")
    parts: list[str] = []
    for _ in range(16):
        if left is None:
            return None
        if left.type == "member_expression":
            parts.append(text(left.child_by_field_name("property")))
            left = left.child_by_field_name("object")
        elif left.type == "identifier":
            parts.append(text(left))
            break
        else:  # this.x, calls, subscripts: keep the property name only
            break
    parts.reverse()
    parts = [p for p in parts if p and p != "prototype"]
    while parts and parts[0] in ("module", "exports"):
        parts.pop(0)
    return parts or None


def ts_module(node: Node) -> list[str] | None:
    name = node.child_by_field_name("name")
    return _split(text(name).strip("'\""), ".") if name is not None else None


# --- others --------------------------------------------------------------------------------


def ruby_scoped(node: Node) -> list[str] | None:
    name = node.child_by_field_name("name")
    return _split(text(name), "::") if name is not None else None


def csharp_member(node: Node) -> list[str] | None:
    name = field_name(node)
    if name and node.type == "destructor_declaration":
        return ["~" + name[0]]
    return name


def kotlin_class(node: Node) -> list[str] | None:
    name = _first_child(node, ("type_identifier", "simple_identifier"))
    return [text(name)] if name is not None else None


def kotlin_class_kind(node: Node) -> str:
    for child in node.children:
        if child.type == "interface":
            return "interface"
        if child.type == "modifiers" and b"enum" in child.text:
            return "enum"
    return "class"


def kotlin_function(node: Node) -> list[str] | None:
    name = _first_child(node, ("simple_identifier",))
    if name is None:
        return None
    receiver = node.child_by_field_name("receiver") or _first_child(node, ("receiver_type",))
    recv = _type_name(receiver) if receiver is not None else None
    return [recv, text(name)] if recv else [text(name)]


def swift_class(node: Node) -> list[str] | None:
    name = node.child_by_field_name("name")
    return _split(text(name), ".") if name is not None else None


_SWIFT_KEYWORDS = {"class", "struct", "enum", "extension", "actor", "protocol"}


def swift_class_kind(node: Node) -> str:
    for child in node.children:
        if not child.is_named and child.type in _SWIFT_KEYWORDS:
            return "class" if child.type == "actor" else child.type
    return "class"


def swift_special(node: Node) -> list[str] | None:
    return [node.type.removesuffix("_declaration")]


NameFn = Callable[[Node], "list[str] | None"]
KindFn = Callable[[Node], str]

# (language, node type) -> name function; everything else uses the `name` field.
NAMES: dict[tuple[str, str], NameFn] = {
    ("go", "method_declaration"): go_method,
    ("rust", "impl_item"): rust_impl,
    ("ruby", "class"): ruby_scoped,
    ("ruby", "module"): ruby_scoped,
    ("kotlin", "class_declaration"): kotlin_class,
    ("kotlin", "object_declaration"): kotlin_class,
    ("kotlin", "companion_object"): kotlin_class,
    ("kotlin", "function_declaration"): kotlin_function,
    ("swift", "class_declaration"): swift_class,
    ("swift", "init_declaration"): swift_special,
    ("swift", "deinit_declaration"): swift_special,
    ("swift", "subscript_declaration"): swift_special,
    ("csharp", "destructor_declaration"): csharp_member,
}
for _lang in ("c", "cpp"):
    NAMES[(_lang, "function_definition")] = c_function
    for _tag in ("struct_specifier", "union_specifier", "enum_specifier", "class_specifier"):
        NAMES[(_lang, _tag)] = c_tagged
NAMES[("cpp", "namespace_definition")] = cpp_namespace
for _lang in ("javascript", "typescript", "tsx"):
    NAMES[(_lang, "variable_declarator")] = js_variable
    NAMES[(_lang, "field_definition")] = js_field
    NAMES[(_lang, "public_field_definition")] = js_field
    NAMES[(_lang, "assignment_expression")] = js_assignment
for _lang in ("typescript", "tsx"):
    NAMES[(_lang, "internal_module")] = ts_module
    NAMES[(_lang, "module")] = ts_module

# Kinds that depend on the node ('?' in the language table).
KINDS: dict[tuple[str, str], KindFn] = {
    ("go", "type_spec"): go_type_kind,
    ("kotlin", "class_declaration"): kotlin_class_kind,
    ("swift", "class_declaration"): swift_class_kind,
}
for _lang in ("javascript", "typescript", "tsx"):
    KINDS[(_lang, "variable_declarator")] = js_variable_kind


def name_parts(lang: str, node: Node) -> list[str] | None:
    fn = NAMES.get((lang, node.type), field_name)
    parts = fn(node)
    if not parts:
        return None
    return [p for p in parts if p] or None


def node_kind(lang: str, node: Node, table_kind: str) -> str:
    if table_kind != "?":
        return table_kind
    fn = KINDS.get((lang, node.type))
    return fn(node) if fn is not None else "function"
