"""Chunking: tree-sitter symbols checked against `ast`, golden fixtures, markdown, fallbacks."""

from __future__ import annotations

import ast
import collections
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kenning.index.chunking import ChunkResult, chunk_file, language_for
from kenning.index.chunking.languages import SPECS

FIXTURES = Path(__file__).parent / "fixtures" / "code"


def rows(result: ChunkResult) -> list[tuple]:
    return [(c.symbol, c.kind, c.start_line, c.end_line) for c in result.chunks]


def symbol_rows(result: ChunkResult) -> list[tuple]:
    return [(s.qualname, s.kind, s.start_line, s.end_line) for s in result.symbols]


def chunk_fixture(name: str) -> ChunkResult:
    return chunk_file(name, (FIXTURES / name).read_text(encoding="utf-8"))


# --- language detection and imports ----------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("src/app.py", "python"), ("web/x.mjs", "javascript"), ("a/b.ts", "typescript"),
        ("ui/Card.tsx", "tsx"), ("main.go", "go"), ("lib.rs", "rust"), ("A.java", "java"),
        ("list.c", "c"), ("list.h", "c"), ("w.cpp", "cpp"), ("w.HPP", "cpp"), ("S.cs", "csharp"),
        ("a.rb", "ruby"), ("Rakefile", "ruby"), ("u.php", "php"), ("run.sh", "bash"),
        ("R.kt", "kotlin"), ("S.swift", "swift"), ("README.md", "markdown"),
        ("notes.txt", None), ("config.yaml", None), ("Makefile", None),
    ],
)  # fmt: skip
def test_language_for_maps_extensions_and_known_file_names(path, lang):
    assert language_for(path) == lang


def test_importing_chunking_and_chunking_docs_does_not_load_tree_sitter():
    code = (
        "import sys\n"
        "from kenning.index.chunking import chunk_file\n"
        "chunk_file('README.md', '# Title\\n\\ntext\\n')\n"
        "chunk_file('notes.txt', 'plain\\n')\n"
        "assert not [m for m in sys.modules if m.startswith('tree_sitter')], sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_query_pattern_compiles_against_the_installed_grammars():
    from kenning.index.chunking.treesitter import DROPPED, query_for

    for lang in SPECS:
        query_for(lang)
    assert DROPPED == {}


# --- the ast oracle --------------------------------------------------------------------------


def ast_definitions(source: str) -> list[tuple[str, int, int]]:
    """(qualname, first line, last line) of every def/class; decorators count as lines.

    Nested definitions are qualified through functions too (`outer.inner`), as the chunker
    does, without Python's `<locals>`.
    """
    found = []

    def visit(node: ast.AST, scope: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                qual = [*scope, child.name]
                start = min([d.lineno for d in child.decorator_list] + [child.lineno])
                found.append((".".join(qual), start, child.end_lineno))
                visit(child, qual)
            else:
                visit(child, scope)

    visit(ast.parse(source), [])
    return found


@pytest.mark.parametrize("package", ["click", "yaml"])
def test_python_symbols_match_ast_for_an_installed_package(package):
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        pytest.skip(f"{package} is not installed")
    root = Path(next(iter(spec.submodule_search_locations)))
    total = matched = 0
    missed = []
    for file in sorted(root.rglob("*.py")):
        source = file.read_text(encoding="utf-8")
        result = chunk_file(file.relative_to(root).as_posix(), source)
        got = collections.Counter((s.qualname, s.start_line, s.end_line) for s in result.symbols)
        for definition in ast_definitions(source):
            total += 1
            if got[definition]:
                got[definition] -= 1
                matched += 1
            else:
                missed.append((file.name, definition))
    ratio = matched / total
    print(f"{package}: {matched}/{total} definitions match ast ({ratio:.2%})")
    assert total > 100
    assert ratio >= 0.99, missed[:20]


# --- golden fixtures -------------------------------------------------------------------------

GOLDEN_CHUNKS = {
    "pipeline.py": [
        (None, "module", 1, 8),
        ("run", "function", 11, 17),  # leading comment, decorators, trailing comment
        ("Outer", "class", 20, 30),
        ("Outer.Inner", "class", 23, 26),
        ("Outer.Inner.apply", "method", 24, 26),
        ("Outer.name", "method", 28, 30),
        ("helper", "function", 33, 37),
        (None, "module", 40, 41),
    ],
    "server.go": [
        (None, "module", 1, 7),
        ("Server", "struct", 9, 13),
        (None, "module", 15, 15),
        ("Handler", "type", 16, 16),
        ("Store", "interface", 17, 17),
        ("Server.Start", "method", 20, 24),
        ("Server.Addr", "method", 26, 26),
        ("Cache.Put", "method", 28, 28),
        (None, "module", 30, 30),
        ("New", "function", 32, 36),
    ],
    "shapes.rs": [
        (None, "module", 1, 4),
        ("Shape", "struct", 6, 10),
        ("Shape", "impl", 12, 21),
        ("Shape.new", "method", 13, 16),
        ("Shape.area", "method", 18, 20),
        ("Shape", "impl", 23, 27),
        ("Shape.fmt", "trait impl", 24, 26),
        ("Draw", "trait", 29, 34),
        ("Draw.redraw", "method", 31, 33),
        (None, "module", 36, 37),
        ("tests.draws", "function", 38, 39),
    ],
    "list.c": [
        (None, "module", 1, 2),
        ("node", "struct", 4, 10),
        ("list_t", "struct", 12, 14),
        (None, "module", 16, 16),
        ("node_new", "function", 18, 24),
        ("split_words", "function", 26, 26),
        ("pick_compare", "function", 28, 31),
        ("list_free", "function", 33, 36),
    ],
    "widget.cpp": [
        (None, "module", 1, 2),
        (None, "module", 4, 4),
        ("ui.Widget", "class", 6, 15),
        ("ui.Widget.width", "method", 10, 10),
        ("ui.clamp", "function", 17, 20),
        (None, "module", 22, 22),
        ("ui.Widget.Widget", "method", 24, 24),
        ("ui.Widget.draw", "method", 26, 29),
        ("ui.Widget.name", "method", 31, 31),
        ("operator==", "function", 33, 33),
    ],
    "api.ts": [
        (None, "module", 1, 2),
        ("fetchUser", "function", 4, 7),
        ("double", "function", 9, 9),
        ("handler", "function", 11, 13),
        ("UserService", "class", 15, 28),
        ("UserService.load", "method", 19, 23),
        ("UserService.reset", "method", 25, 27),
        ("Page", "interface", 30, 32),
        ("Id", "type", 34, 34),
        ("Role", "enum", 36, 36),
        ("isAdmin", "function", 38, 40),
    ],
    "Card.tsx": [
        (None, "module", 1, 1),
        ("Props", "type", 3, 3),
        ("Card", "function", 5, 8),
        ("CardList", "function", 10, 18),
    ],
    "util.js": [
        (None, "module", 1, 2),
        ("join", "function", 4, 9),
        ("Queue", "function", 11, 13),
        ("Queue.push", "method", 15, 17),
        ("makeQueue", "function", 19, 21),
        ("Stack", "class", 23, 31),
        ("Stack.constructor", "method", 24, 26),
        ("Stack.pop", "method", 28, 30),
        ("lazy", "function", 33, 33),
    ],
    "Repository.java": [
        (None, "module", 1, 4),
        ("Repository", "class", 6, 28),
        ("Repository.Repository", "method", 13, 16),
        ("Repository.find", "method", 18, 21),
        ("Repository.Cursor", "class", 23, 25),
        ("Repository.Cursor.next", "method", 24, 24),
        ("Repository.Mode", "enum", 27, 27),
        ("Store", "interface", 30, 32),
        ("Store.find", "method", 31, 31),
    ],
    "Service.cs": [
        (None, "module", 1, 6),
        ("OrderService", "class", 7, 23),
        ("OrderService.OrderService", "method", 13, 13),
        ("OrderService.Place", "method", 15, 20),
        ("OrderService.~OrderService", "method", 22, 22),
        ("IService", "interface", 25, 28),
        ("IService.Place", "method", 27, 27),
        ("Order", "record", 30, 30),
    ],
    "account.rb": [
        (None, "module", 1, 2),
        ("Bank", "module", 4, 31),
        ("Bank.Account", "class", 6, 24),
        ("Bank.Account.deposit", "method", 10, 13),
        ("Bank.Account.open", "method", 15, 17),
        ("Bank.Account.registry", "method", 20, 22),
        ("Bank.Ledger.Entry", "class", 26, 30),
        ("Bank.Ledger.Entry.to_s", "method", 27, 29),
        ("main", "function", 33, 35),
    ],
    "User.php": [
        (None, "module", 1, 7),
        ("User", "class", 9, 27),
        ("User.name", "method", 17, 21),
        ("User.find", "method", 23, 26),
        ("Auditable", "trait", 29, 32),
        ("Auditable.audit", "method", 31, 31),
        ("helper", "function", 34, 37),
    ],
    "deploy.sh": [
        (None, "module", 1, 3),
        ("build", "function", 5, 8),
        ("upload", "function", 10, 12),
        (None, "module", 14, 15),
    ],
    "Repository.kt": [
        (None, "module", 1, 4),
        ("Repository", "class", 6, 22),
        ("Repository.add", "method", 11, 13),
        ("Repository.empty", "method", 16, 16),
        ("Repository.Cursor", "class", 19, 21),
        ("Repository.Cursor.next", "method", 20, 20),
        ("Registry", "object", 24, 26),
        ("Registry.lookup", "method", 25, 25),
        ("String.shout", "method", 28, 29),
        ("main", "function", 31, 33),
    ],
    "Shapes.swift": [
        (None, "module", 1, 2),
        ("Drawable", "protocol", 4, 7),
        ("Circle", "struct", 9, 21),
        ("Circle.init", "method", 14, 16),
        ("Circle.draw", "method", 18, 20),
        ("Canvas", "class", 23, 29),
        ("Canvas.render", "method", 26, 26),
        ("Canvas.deinit", "method", 28, 28),
        ("Circle", "extension", 31, 35),
        ("Circle.area", "method", 32, 34),
        ("makeCanvas", "function", 37, 37),
    ],
}

GOLDEN_SYMBOLS = {
    "pipeline.py": [
        ("run", "function", 12, 16),
        ("Outer", "class", 20, 30),
        ("Outer.Inner", "class", 23, 26),
        ("Outer.Inner.apply", "method", 25, 26),
        ("Outer.name", "method", 28, 30),
        ("helper", "function", 33, 37),
        ("helper.nested", "function", 34, 35),
    ],
    "server.go": [
        ("Server", "struct", 11, 13),
        ("Handler", "type", 16, 16),
        ("Store", "interface", 17, 17),
        ("Server.Start", "method", 21, 24),
        ("Server.Addr", "method", 26, 26),
        ("Cache.Put", "method", 28, 28),
        ("New", "function", 33, 36),
    ],
    "shapes.rs": [
        ("Shape", "struct", 7, 10),
        ("Shape.new", "method", 14, 16),
        ("Shape.area", "method", 18, 20),
        ("Shape.fmt", "trait impl", 24, 26),
        ("Draw", "trait", 29, 34),
        ("Draw.redraw", "method", 31, 33),
        ("tests", "module", 36, 40),
        ("tests.draws", "function", 38, 39),
    ],
    "list.c": [
        ("node", "struct", 7, 10),
        ("list_t", "struct", 12, 14),
        ("node_new", "function", 19, 24),
        ("split_words", "function", 26, 26),
        ("pick_compare", "function", 28, 31),
        ("list_free", "function", 34, 36),
    ],
    "widget.cpp": [
        ("ui", "namespace", 4, 22),
        ("ui.Widget", "class", 7, 15),
        ("ui.Widget.width", "method", 10, 10),
        ("ui.clamp", "function", 17, 20),
        ("ui.Widget.Widget", "method", 24, 24),
        ("ui.Widget.draw", "method", 27, 29),
        ("ui.Widget.name", "method", 31, 31),
        ("operator==", "function", 33, 33),
    ],
    "api.ts": [
        ("fetchUser", "function", 5, 7),
        ("double", "function", 9, 9),
        ("handler", "function", 11, 13),
        ("UserService", "class", 15, 28),
        ("UserService.load", "method", 20, 23),
        ("UserService.reset", "method", 25, 27),
        ("Page", "interface", 30, 32),
        ("Id", "type", 34, 34),
        ("Role", "enum", 36, 36),
        ("isAdmin", "function", 38, 40),
    ],
    "Card.tsx": [
        ("Props", "type", 3, 3),
        ("Card", "function", 6, 8),
        ("CardList", "function", 10, 18),
    ],
    "util.js": [
        ("join", "function", 7, 9),
        ("Queue", "function", 11, 13),
        ("Queue.push", "method", 15, 17),
        ("makeQueue", "function", 19, 21),
        ("Stack", "class", 23, 31),
        ("Stack.constructor", "method", 24, 26),
        ("Stack.pop", "method", 28, 30),
        ("lazy", "function", 33, 33),
    ],
    "Repository.java": [
        ("Repository", "class", 9, 28),
        ("Repository.Repository", "method", 14, 16),
        ("Repository.find", "method", 18, 21),
        ("Repository.Cursor", "class", 23, 25),
        ("Repository.Cursor.next", "method", 24, 24),
        ("Repository.Mode", "enum", 27, 27),
        ("Store", "interface", 30, 32),
        ("Store.find", "method", 31, 31),
    ],
    "Service.cs": [
        ("OrderService", "class", 8, 23),
        ("OrderService.Count", "property", 11, 11),
        ("OrderService.OrderService", "method", 13, 13),
        ("OrderService.Place", "method", 16, 20),
        ("OrderService.Place.Total", "function", 18, 18),
        ("OrderService.~OrderService", "method", 22, 22),
        ("IService", "interface", 25, 28),
        ("IService.Place", "method", 27, 27),
        ("Order", "record", 30, 30),
    ],
    "account.rb": [
        ("Bank", "module", 5, 31),
        ("Bank.Account", "class", 7, 24),
        ("Bank.Account.deposit", "method", 11, 13),
        ("Bank.Account.open", "method", 15, 17),
        ("Bank.Account.registry", "method", 20, 22),
        ("Bank.Ledger.Entry", "class", 26, 30),
        ("Bank.Ledger.Entry.to_s", "method", 27, 29),
        ("main", "function", 33, 35),
    ],
    "User.php": [
        ("User", "class", 12, 27),
        ("User.name", "method", 18, 21),
        ("User.find", "method", 23, 26),
        ("Auditable", "trait", 29, 32),
        ("Auditable.audit", "method", 31, 31),
        ("helper", "function", 34, 37),
    ],
    "deploy.sh": [
        ("build", "function", 6, 8),
        ("upload", "function", 10, 12),
    ],
    "Repository.kt": [
        ("Repository", "class", 9, 22),
        ("Repository.add", "method", 11, 13),
        ("Repository.empty", "method", 16, 16),
        ("Repository.Cursor", "class", 19, 21),
        ("Repository.Cursor.next", "method", 20, 20),
        ("Registry", "object", 24, 26),
        ("Registry.lookup", "method", 25, 25),
        ("String.shout", "method", 29, 29),
        ("main", "function", 31, 33),
    ],
    "Shapes.swift": [
        ("Drawable", "protocol", 5, 7),
        ("Circle", "struct", 10, 21),
        ("Circle.init", "method", 14, 16),
        ("Circle.draw", "method", 18, 20),
        ("Canvas", "class", 23, 29),
        ("Canvas.render", "method", 26, 26),
        ("Canvas.deinit", "method", 28, 28),
        ("Circle.area", "method", 32, 34),
        ("makeCanvas", "function", 37, 37),
    ],
}

GOLDEN_IMPORTS = {
    "pipeline.py": ("os", "."),
    "server.go": ("fmt", "net/http"),
    "shapes.rs": ("std::fmt", "crate::geometry", "util"),
    "list.c": ("stdlib.h", "list.h"),
    "widget.cpp": ("string", "widget.h"),
    "api.ts": ("@angular/core", "./models"),
    "Card.tsx": ("react",),
    "util.js": ("path", "./helper.js", "./lazy.js"),
    "Repository.java": ("java.util.List", "java.util.Objects.requireNonNull"),
    "Service.cs": ("System", "System.Collections.Generic", "Company.Util.Helpers"),
    "account.rb": ("json", "ledger/entry"),
    "User.php": (
        "Illuminate\\Database\\Eloquent\\Model",
        "App\\Traits\\HasRoles",
        "App\\Traits\\Notifiable",
        "/helpers.php",
    ),
    "deploy.sh": ("./lib/common.sh",),
    "Repository.kt": ("kotlinx.coroutines.launch", "com.example.util.*"),
    "Shapes.swift": ("Foundation", "UIKit"),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_CHUNKS))
def test_fixture_chunks_match_golden(name):
    assert rows(chunk_fixture(name)) == GOLDEN_CHUNKS[name]


@pytest.mark.parametrize("name", sorted(GOLDEN_SYMBOLS))
def test_fixture_symbols_match_golden(name):
    assert symbol_rows(chunk_fixture(name)) == GOLDEN_SYMBOLS[name]


@pytest.mark.parametrize("name", sorted(GOLDEN_IMPORTS))
def test_fixture_imports_are_the_names_as_written(name):
    assert chunk_fixture(name).imports == GOLDEN_IMPORTS[name]


def test_every_fixture_is_covered_by_a_golden_table():
    names = {p.name for p in FIXTURES.iterdir()} - {"guide.md"}
    assert names == set(GOLDEN_CHUNKS) == set(GOLDEN_SYMBOLS) == set(GOLDEN_IMPORTS)


def test_chunk_text_is_exactly_its_lines_and_carries_path_and_lang():
    source = (FIXTURES / "server.go").read_text(encoding="utf-8").split("\n")
    for chunk in chunk_fixture("server.go").chunks:
        assert chunk.path == "server.go" and chunk.lang == "go"
        assert chunk.text == "\n".join(source[chunk.start_line - 1 : chunk.end_line])


def test_doc_comments_and_decorators_stay_in_their_functions_chunk():
    by_symbol = {c.symbol: c for c in chunk_fixture("pipeline.py").chunks}
    run = by_symbol["run"].text
    assert run.startswith("# Retries a flaky stage.\n@retry(times=3)\n@traced\nasync def run")
    go = {c.symbol: c for c in chunk_fixture("server.go").chunks}
    assert go["Server.Start"].text.startswith("// Start opens the listener.\nfunc (s *Server)")


# --- large definitions -----------------------------------------------------------------------


def big_python_class(methods: int, body_lines: int) -> str:
    parts = ['import os\n\n\nclass Big:\n    """A big class."""\n\n    limit = 10\n\n']
    for i in range(methods):
        body = "".join(f"        total += {j} * x\n" for j in range(body_lines))
        parts.append(
            f"    # Computes step {i}.\n    def method_{i}(self, x):\n"
            f"        total = 0\n{body}        return total\n\n"
        )
    return "".join(parts)


def test_a_3000_line_python_class_yields_a_chunk_per_method():
    source = big_python_class(methods=250, body_lines=8)
    assert source.count("\n") >= 3000
    result = chunk_file("big.py", source)
    method_chunks = {c.symbol: c for c in result.chunks if c.kind == "method"}
    assert set(method_chunks) == {f"Big.method_{i}" for i in range(250)}
    first = method_chunks["Big.method_0"]
    assert first.text.startswith("    # Computes step 0.\n    def method_0(self, x):")
    outline = [c for c in result.chunks if c.symbol == "Big" and c.kind == "class"]
    assert outline, "the class keeps a header/outline chunk"
    assert '"""A big class."""' in outline[0].text and "limit = 10" in outline[0].text
    assert all("total +=" not in c.text for c in outline)  # no method bodies in the outline
    assert all(c.end_line - c.start_line < 60 for c in result.chunks if c.kind == "method")


def test_a_large_java_class_keeps_each_methods_javadoc_with_it():
    methods = "".join(
        f"    /**\n     * Step {i}.\n     */\n    @Override\n    public int step{i}() {{\n"
        f"        return {i};\n    }}\n\n"
        for i in range(20)
    )
    source = f"package x;\n\npublic class Steps {{\n    private int n;\n\n{methods}}}\n"
    result = chunk_file("Steps.java", source)
    chunks = {c.symbol: c for c in result.chunks if c.kind == "method"}
    assert len(chunks) == 20
    assert chunks["Steps.step3"].text.startswith("    /**\n     * Step 3.")
    symbols = {s.qualname: s for s in result.symbols}
    assert source.split("\n")[symbols["Steps.step3"].start_line - 1].strip() == "@Override"


def test_a_long_function_is_split_into_overlapping_windows_that_keep_its_name():
    body = "".join(f"    x{i} = {i}\n" for i in range(150))
    source = f"def long_one():\n{body}    return x0\n"
    windows = [c for c in chunk_file("long.py", source).chunks if c.symbol == "long_one"]
    assert len(windows) >= 3
    assert windows[0].start_line == 1 and windows[-1].end_line == 152
    for a, b in zip(windows, windows[1:], strict=False):
        assert b.start_line <= a.end_line  # overlap
    assert {c.kind for c in windows} == {"function"}


# --- markdown and fallbacks ------------------------------------------------------------------


def test_markdown_chunks_by_heading_path_with_frontmatter_apart():
    result = chunk_fixture("guide.md")
    assert rows(result) == [
        (None, "frontmatter", 1, 4),
        (None, "preamble", 6, 6),
        ("Install", "heading", 8, 10),
        ("Install > From source", "heading", 12, 19),
        ("Install > With pip", "heading", 21, 23),
        ("Usage", "heading", 25, 30),
    ]
    assert "# not a heading" in result.chunks[3].text
    assert symbol_rows(result)[0] == ("Install", "heading", 8, 23)  # subsections included
    assert result.imports == ("api.md", "img/flow.png", "../docs/ref.md")


def test_unknown_languages_fall_back_to_overlapping_line_windows():
    text = "".join(f"line {i}\n" for i in range(1, 101))
    result = chunk_file("notes.txt", text)
    assert rows(result) == [(None, "window", 1, 40), (None, "window", 33, 72),
                            (None, "window", 65, 100)]  # fmt: skip
    assert {c.lang for c in result.chunks} == {"txt"}
    assert result.symbols == () and result.imports == ()


def test_a_file_tree_sitter_cannot_parse_falls_back_to_windows_but_keeps_imports():
    text = "import os\n" + "".join(f"}}}} ))) ((( @@@ {i} ]]]\n" for i in range(30))
    result = chunk_file("broken.py", text)
    assert [c.kind for c in result.chunks] == ["window"]
    assert result.symbols == ()
    assert result.imports == ("os",)


def test_a_c_header_with_cpp_content_is_parsed_as_cpp():
    text = "namespace ui {\nclass Box {\n public:\n  int size() const { return 1; }\n};\n}\n"
    result = chunk_file("box.h", text)
    assert ("ui.Box.size", "method", 4, 4) in symbol_rows(result)
    assert {c.lang for c in result.chunks} == {"cpp"}


def test_crlf_line_endings_give_the_same_lines_and_hashes():
    text = (FIXTURES / "server.go").read_text(encoding="utf-8")
    lf, crlf = chunk_file("s.go", text), chunk_file("s.go", text.replace("\n", "\r\n"))
    assert rows(lf) == rows(crlf)
    assert [s.body_hash for s in lf.symbols] == [s.body_hash for s in crlf.symbols]
    assert "\r" not in "".join(c.text for c in crlf.chunks)


def test_a_minified_one_line_file_gives_a_bounded_chunk():
    text = "function a(){return 1};" * 20_000
    result = chunk_file("app.min.js", text)
    assert result.chunks and all(len(c.text) <= 16_000 for c in result.chunks)


def test_a_function_handed_to_a_wrapper_is_its_own_chunk_named_by_its_variable():
    """ramda's `var add = _curry2(function add(a, b) {…})`, memoize, forwardRef: one file
    held one module chunk, so a query for the function found a chunk several times its size."""
    text = ("import _curry2 from './internal/_curry2.js';\n\n"
            "/** Adds two values. */\n"
            "var add = _curry2(function add(a, b) {\n  return Number(a) + Number(b);\n});\n\n"
            "const Button = React.forwardRef((props, ref) => {\n  return null;\n});\n\n"
            "var config = loadConfig('app.json');\n"
            "export default add;\n")
    found = rows(chunk_file("add.js", text))
    assert ("add", "function", 3, 6) in found and ("Button", "function", 8, 10) in found
    assert not any(name == "config" for name, *_ in found)  # a call with no function in it


def test_empty_and_blank_files_have_no_chunks():
    for name in ("a.py", "a.md", "a.txt", "a.go"):
        assert chunk_file(name, "").chunks == ()
        assert chunk_file(name, "\n\n   \n").chunks == ()


# --- body hashes -----------------------------------------------------------------------------

ORIGINAL = 'def f(a, b):\n    """Add."""\n    return a + b\n'


def hash_of(source: str, qualname: str = "f") -> str:
    return next(s.body_hash for s in chunk_file("m.py", source).symbols if s.qualname == qualname)


def test_body_hash_survives_whitespace_edits_moves_and_comment_edits():
    base = hash_of(ORIGINAL)
    assert len(base) == 12 and int(base, 16) >= 0
    assert hash_of('def f( a, b ):\n    """Add."""\n\n    return  a + b\n') == base
    assert hash_of("x = 1\n\n\n" + ORIGINAL.replace("return", "# why\n    return")) == base
    moved = "class C:\n" + "".join("    " + line + "\n" for line in ORIGINAL.splitlines())
    assert hash_of(moved, "C.f") == base


def test_body_hash_changes_when_the_body_changes():
    assert hash_of(ORIGINAL) != hash_of(ORIGINAL.replace("a + b", "a - b"))


# --- robustness ------------------------------------------------------------------------------

SNIPPETS = [
    "def f(x):\n", "class A:\n", "    return 1\n", "func (s *S) M() {\n", "}\n", "{\n",
    "fn main() {\n", "impl Foo {\n", "/* open comment\n", "*/\n", "// c\n", "# c\n",
    "#include <x.h>\n", "int *f(void) {\n", "const f = () => {\n", "@dec\n", '"""\n',
    "```\n", "# Title\n", "---\n", "end\n", "\t\n", "\n", "namespace n {\n", "\x00", "\udcff",
    "é中\n", "\r\n", "<?php\n", "module M\n", "fun f() {\n", "func g() {}\n",
]  # fmt: skip
EXTENSIONS = [".py", ".js", ".ts", ".tsx", ".go", ".rs", ".java", ".c", ".h", ".cpp", ".cs",
              ".rb", ".php", ".sh", ".kt", ".swift", ".md", ".txt"]  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ext=st.sampled_from(EXTENSIONS),
    pieces=st.lists(st.sampled_from(SNIPPETS) | st.text(max_size=20), max_size=60),
)
def test_chunk_file_never_raises_and_keeps_ranges_inside_the_file(ext, pieces):
    text = "".join(pieces)
    result = chunk_file("f" + ext, text)
    n = len(text.split("\n")) - (1 if text.endswith("\n") else 0)
    for c in result.chunks:
        assert 1 <= c.start_line <= c.end_line <= n
    for s in result.symbols:
        assert 1 <= s.start_line <= s.end_line <= n and len(s.body_hash) == 12


def test_a_large_file_chunks_every_symbol():
    """Correctness at size; its speed is measured in bench/index_bench.py, not here."""
    source = big_python_class(methods=2000, body_lines=20) + "".join(
        f"\ndef helper_{i}(a, b):\n    return a * {i} + b\n" for i in range(2000)
    )
    lines = source.count("\n")
    result = chunk_file("large.py", source)
    assert len(result.symbols) == 4001
    assert max(c.end_line for c in result.chunks) <= lines + 1
