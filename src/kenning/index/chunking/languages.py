"""Which language a path is, and the tree-sitter node types that matter in each. Pure tables.

Query patterns are compiled one by one and a pattern the installed grammar rejects is dropped
(grammar versions drift); `tests/test_chunking.py` checks that none is dropped today.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

EXTENSIONS = {
    ".py": "python", ".pyi": "python", ".pyw": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".c": "c", ".h": "c",
    ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".hh": "cpp", ".hpp": "cpp",
    ".hxx": "cpp", ".h++": "cpp", ".ipp": "cpp", ".inl": "cpp", ".tpp": "cpp",
    ".cs": "csharp",
    ".rb": "ruby", ".rake": "ruby", ".gemspec": "ruby",
    ".php": "php",
    ".sh": "bash", ".bash": "bash", ".zsh": "bash",
    ".kt": "kotlin", ".kts": "kotlin",
    ".swift": "swift",
    ".md": "markdown", ".markdown": "markdown", ".mdx": "markdown", ".mdown": "markdown",
}  # fmt: skip

FILENAMES = {
    "Rakefile": "ruby", "Gemfile": "ruby", "Guardfile": "ruby", "Vagrantfile": "ruby",
    ".bashrc": "bash", ".bash_profile": "bash", ".zshrc": "bash", ".profile": "bash",
    "PKGBUILD": "bash",
}  # fmt: skip

# Kinds whose direct function children are methods and whose large bodies are cut into a
# header/fields outline plus one chunk per member.
CLASS_KINDS = frozenset(
    {"class", "struct", "union", "interface", "trait", "impl", "enum", "object", "record",
     "module", "protocol", "extension"}
)  # fmt: skip
# A type can have many impl/extension blocks; the type's own definition is the symbol.
NO_SYMBOL_KINDS = frozenset({"impl", "extension"})

_C_COMMENT_PREFIXES = ("//",)
_HASH_COMMENT_PREFIXES = ("#",)


@dataclass(frozen=True)
class LangSpec:
    """What the tree-sitter chunker needs to know about one grammar.

    `defs` maps a node type to its symbol kind (`function` becomes `method` inside a class
    kind; `?` means `names.py` decides from the node). `patterns` are extra `@def` query
    patterns for definitions that only some shapes of a node are (`const foo = () => …`),
    with their kinds in `pattern_kinds`. `namespaces` are definitions laid out like a file
    (members plus module chunks) rather than like a class.
    `wrappers` are parents whose lines belong to the definition (decorators, `export`,
    `template <…>`); `decorators` are preceding siblings that do (Rust `#[…]`, TS `@dec` in a
    class body). `imports` patterns capture `@path` (a quoted string), `@name` (text as
    written) or `@stmt` (a whole statement, cleaned by `imports.py`).
    """

    name: str
    defs: dict[str, str]
    patterns: tuple[str, ...] = ()
    namespaces: frozenset[str] = frozenset()
    wrappers: frozenset[str] = frozenset()
    decorators: frozenset[str] = frozenset()
    comments: tuple[str, ...] = ("comment",)
    comment_prefixes: tuple[str, ...] = _C_COMMENT_PREFIXES
    block_comments: bool = True
    imports: tuple[str, ...] = ()
    trim_trailing_comments: bool = False
    pattern_kinds: dict[str, str] = field(default_factory=dict)


_JS_FUNCTION_VALUES = "[(arrow_function) (function_expression) (function) (generator_function)]"
_JS_DEFS = {
    "function_declaration": "function",
    "generator_function_declaration": "function",
    "class_declaration": "class",
    "method_definition": "function",
}
_JS_PATTERNS = (
    f"(variable_declarator name: (identifier) value: {_JS_FUNCTION_VALUES}) @def",
    # a function handed to a wrapper: `var add = _curry2(function add(a, b) {…})`, memoize,
    # debounce, `React.forwardRef((props, ref) => …)`
    f"(variable_declarator name: (identifier) value: (call_expression arguments: (arguments"
    f" {_JS_FUNCTION_VALUES}))) @def",
    "(variable_declarator name: (identifier) value: (class)) @def",
    f"(assignment_expression left: (member_expression) right: {_JS_FUNCTION_VALUES}) @def",
)
_JS_PATTERN_KINDS = {
    "variable_declarator": "?",
    "field_definition": "function",
    "public_field_definition": "function",
    "assignment_expression": "function",
}
_JS_WRAPPERS = frozenset(
    {"export_statement", "lexical_declaration", "variable_declaration", "expression_statement",
     "ambient_declaration"}
)  # fmt: skip
_JS_IMPORTS = (
    "(import_statement source: (string) @path)",
    "(export_statement source: (string) @path)",
    "((call_expression function: (identifier) @_f arguments: (arguments . (string) @path))"
    ' (#eq? @_f "require"))',
    "(call_expression function: (import) arguments: (arguments . (string) @path))",
)
_TS_DEFS = _JS_DEFS | {
    "abstract_class_declaration": "class",
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "type_alias_declaration": "type",
    "internal_module": "namespace",
    "module": "namespace",
}
_TS_PATTERNS = _JS_PATTERNS + (
    f"(public_field_definition name: (_) value: {_JS_FUNCTION_VALUES}) @def",
)
_TS_IMPORTS = _JS_IMPORTS + ("(import_require_clause source: (string) @path)",)

_C_DEFS = {"function_definition": "function"}
_C_PATTERNS = (
    "(struct_specifier body: (_)) @def",
    "(union_specifier body: (_)) @def",
    "(enum_specifier body: (_)) @def",
)
_C_PATTERN_KINDS = {
    "struct_specifier": "struct",
    "union_specifier": "union",
    "enum_specifier": "enum",
    "class_specifier": "class",
}
_C_IMPORTS = ("(preproc_include path: (_) @path)",)

SPECS: dict[str, LangSpec] = {
    "python": LangSpec(
        "python",
        defs={"function_definition": "function", "class_definition": "class"},
        wrappers=frozenset({"decorated_definition"}),
        comment_prefixes=_HASH_COMMENT_PREFIXES,
        block_comments=False,
        imports=(
            "(import_statement name: (dotted_name) @name)",
            "(import_statement name: (aliased_import name: (dotted_name) @name))",
            "(import_from_statement module_name: (_) @name)",
        ),
        trim_trailing_comments=True,
    ),
    "javascript": LangSpec(
        "javascript",
        defs=_JS_DEFS | {"class": "class"},
        patterns=_JS_PATTERNS
        + (f"(field_definition property: (_) value: {_JS_FUNCTION_VALUES}) @def",),
        wrappers=_JS_WRAPPERS,
        decorators=frozenset({"decorator"}),
        imports=_JS_IMPORTS,
        pattern_kinds=_JS_PATTERN_KINDS,
    ),
    "typescript": LangSpec(
        "typescript",
        defs=_TS_DEFS,
        patterns=_TS_PATTERNS,
        namespaces=frozenset({"internal_module", "module"}),
        wrappers=_JS_WRAPPERS,
        decorators=frozenset({"decorator"}),
        imports=_TS_IMPORTS,
        pattern_kinds=_JS_PATTERN_KINDS,
    ),
    "go": LangSpec(
        "go",
        defs={"function_declaration": "function", "method_declaration": "method", "type_spec": "?"},
        wrappers=frozenset({"type_declaration"}),
        imports=("(import_spec path: (_) @path)",),
    ),
    "rust": LangSpec(
        "rust",
        defs={
            "function_item": "function",
            "struct_item": "struct",
            "enum_item": "enum",
            "union_item": "union",
            "trait_item": "trait",
            "impl_item": "impl",
            "macro_definition": "macro",
            "type_item": "type",
        },
        patterns=("(mod_item body: (_)) @def",),
        namespaces=frozenset({"mod_item"}),
        decorators=frozenset({"attribute_item"}),
        comments=("line_comment", "block_comment"),
        imports=(
            "(use_declaration argument: (_) @name)",
            "(mod_item name: (identifier) @name !body)",
            "(extern_crate_declaration name: (identifier) @name)",
        ),
        pattern_kinds={"mod_item": "module"},
    ),
    "java": LangSpec(
        "java",
        defs={
            "class_declaration": "class",
            "interface_declaration": "interface",
            "enum_declaration": "enum",
            "record_declaration": "record",
            "annotation_type_declaration": "interface",
            "method_declaration": "function",
            "constructor_declaration": "function",
            "compact_constructor_declaration": "function",
        },
        comments=("line_comment", "block_comment"),
        imports=("(import_declaration) @stmt",),
    ),
    "c": LangSpec(
        "c",
        defs=_C_DEFS,
        patterns=_C_PATTERNS,
        wrappers=frozenset({"type_definition", "declaration"}),
        imports=_C_IMPORTS,
        pattern_kinds=_C_PATTERN_KINDS,
    ),
    "cpp": LangSpec(
        "cpp",
        defs=_C_DEFS | {"namespace_definition": "namespace"},
        patterns=_C_PATTERNS + ("(class_specifier body: (_)) @def",),
        namespaces=frozenset({"namespace_definition"}),
        wrappers=frozenset({"type_definition", "declaration", "template_declaration"}),
        imports=_C_IMPORTS,
        pattern_kinds=_C_PATTERN_KINDS,
    ),
    "csharp": LangSpec(
        "csharp",
        defs={
            "class_declaration": "class",
            "struct_declaration": "struct",
            "interface_declaration": "interface",
            "enum_declaration": "enum",
            "record_declaration": "record",
            "method_declaration": "function",
            "constructor_declaration": "function",
            "destructor_declaration": "function",
            "local_function_statement": "function",
            "property_declaration": "property",
        },
        imports=("(using_directive) @stmt",),
    ),
    "ruby": LangSpec(
        "ruby",
        defs={
            "class": "class",
            "module": "module",
            "method": "function",
            "singleton_method": "function",
        },
        comment_prefixes=_HASH_COMMENT_PREFIXES,
        block_comments=False,
        imports=(
            "((call method: (identifier) @_m arguments: (argument_list . (string) @path))"
            ' (#any-of? @_m "require" "require_relative" "load" "autoload"))',
        ),
    ),
    "php": LangSpec(
        "php",
        defs={
            "class_declaration": "class",
            "interface_declaration": "interface",
            "trait_declaration": "trait",
            "enum_declaration": "enum",
            "function_definition": "function",
            "method_declaration": "function",
        },
        comment_prefixes=("//", "#"),
        imports=(
            "(namespace_use_clause) @stmt",
            "(require_expression) @stmt",
            "(require_once_expression) @stmt",
            "(include_expression) @stmt",
            "(include_once_expression) @stmt",
        ),
    ),
    "bash": LangSpec(
        "bash",
        defs={"function_definition": "function"},
        comment_prefixes=_HASH_COMMENT_PREFIXES,
        block_comments=False,
        imports=(
            '((command name: (command_name) @_n argument: (_) @path) (#any-of? @_n "source" "."))',
        ),
    ),
    "kotlin": LangSpec(
        "kotlin",
        defs={
            "class_declaration": "?",
            "object_declaration": "object",
            "companion_object": "object",
            "function_declaration": "function",
        },
        comments=("line_comment", "multiline_comment"),
        imports=("(import_header) @stmt",),
    ),
    "swift": LangSpec(
        "swift",
        defs={
            "class_declaration": "?",
            "protocol_declaration": "protocol",
            "function_declaration": "function",
            "init_declaration": "function",
            "deinit_declaration": "function",
            "subscript_declaration": "function",
        },
        comments=("comment", "multiline_comment"),
        imports=("(import_declaration) @stmt",),
    ),
}
SPECS["tsx"] = replace(SPECS["typescript"], name="tsx")

TREE_SITTER_LANGUAGES = frozenset(SPECS)
