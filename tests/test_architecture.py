"""The layers hold: no import cycle in `src/`, and every import follows the arrows table in
docs/architecture.md (the table is the contract; this test reads it, it keeps no copy)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
ARCHITECTURE = REPO / "docs" / "architecture.md"
ROOT = "kenning"


def module_names() -> dict[str, Path]:
    """Every module under src/kenning by dotted name (a package by its own name)."""
    out: dict[str, Path] = {}
    for path in sorted((SRC / ROOT).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = module_names()


def is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _type_checking_only(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _resolve(module: str) -> str | None:
    """The nearest enclosing module of `module` that exists in src (None if not kenning's)."""
    while module:
        if module in MODULES:
            return module
        module = module.rpartition(".")[0]
    return None


def _from_targets(node: ast.ImportFrom, importer: str) -> list[str]:
    base = node.module or ""
    if node.level:
        package = importer if is_package(importer) else importer.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    # `from kenning.x import y` imports the module kenning.x.y when there is one, else kenning.x
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
            for alias in node.names]


def _string_import(node: ast.Call) -> str | None:
    """`importlib.import_module("kenning.x")` with a literal name."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name == "import_module" and node.args and isinstance(node.args[0], ast.Constant):
        value = node.args[0].value
        return value if isinstance(value, str) else None
    return None


def imports_of(name: str, source: str | None = None) -> list[tuple[int, str, str]]:
    """(line, imported kenning module, imported name) for every runtime import in a module:
    module level and inside functions alike; `if TYPE_CHECKING:` blocks are skipped."""
    if source is None:
        source = MODULES[name].read_text(encoding="utf-8")
    tree = ast.parse(source)
    out: list[tuple[int, str, str]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name, "") for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            targets = _from_targets(node, name)
            out.extend((node.lineno, target, alias.name)
                       for target, alias in zip(targets, node.names, strict=True))
        elif isinstance(node, ast.Call) and (target := _string_import(node)):
            out.append((node.lineno, target, ""))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    resolved = []
    for line, target, imported in out:
        module = _resolve(target) if target.split(".")[0] == ROOT else None
        if module is not None:
            resolved.append((line, module, imported))
    return resolved


GRAPH = {name: imports_of(name) for name in MODULES}


# -- the arrows table ---------------------------------------------------------------------


def arrows_table() -> tuple[dict[str, str], dict[str, set[str]]]:
    """(module prefix -> layer, layer -> layers it may import) from docs/architecture.md."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    match = re.search(r"^\| *layer *\| *modules *\| *may import *\|\n\|[-| ]+\|\n((?:\|.*\n)+)",
                      text, re.M)
    assert match, "docs/architecture.md has no `| layer | modules | may import |` table"
    prefixes: dict[str, str] = {}
    allowed: dict[str, set[str]] = {}
    for row in match.group(1).splitlines():
        layer, modules, may = (cell.strip() for cell in row.strip().strip("|").split("|"))
        for prefix in re.findall(r"`([\w.]+)`", modules):
            assert prefix not in prefixes, f"{prefix} is in two rows of the arrows table"
            prefixes[prefix] = layer
        allowed[layer] = {item.strip() for item in may.split(",") if item.strip() not in
                          ("", "—", "-")}
    unknown = {target for targets in allowed.values() for target in targets} - set(allowed)
    assert not unknown, f"the arrows table names layers it does not define: {sorted(unknown)}"
    return prefixes, allowed


PREFIXES, ALLOWED = arrows_table()


def layer_of(module: str) -> str | None:
    """Longest listed prefix; the bare root package matches only itself (it holds only the
    version), so a module missing from the table is reported rather than filed under it."""
    best = None
    for prefix in PREFIXES:
        if module == prefix or (prefix != ROOT and module.startswith(prefix + ".")):
            if best is None or len(prefix) > len(best):
                best = prefix
    return PREFIXES[best] if best else None


def _own_submodule(importer: str, target: str) -> bool:
    return is_package(importer) and target.startswith(importer + ".")


def arrow_violations() -> list[str]:
    found = []
    for importer, imports in GRAPH.items():
        source = layer_of(importer)
        for line, target, imported in imports:
            dest = layer_of(target)
            if source == dest or dest in ALLOWED.get(source, ()) or _own_submodule(importer,
                                                                                   target):
                continue
            what = f"{target}.{imported}" if imported and target + "." + imported not in \
                MODULES else target
            found.append(f"{MODULES[importer].relative_to(REPO)}:{line}: {importer} ({source}) "
                         f"imports {what} ({dest}); {source} may import "
                         f"{', '.join(sorted(ALLOWED.get(source, ()))) or 'nothing'}")
    return found


def test_every_module_belongs_to_a_layer_in_the_arrows_table():
    missing = [name for name in MODULES if layer_of(name) is None]
    assert not missing, "modules no row of docs/architecture.md's arrows table covers:\n" + \
        "\n".join(missing)


def test_every_import_follows_the_arrows_in_docs_architecture():
    violations = arrow_violations()
    assert not violations, (f"{len(violations)} import(s) against the arrows table in "
                            "docs/architecture.md:\n" + "\n".join(violations))


def private_imports() -> list[str]:
    """`from kenning.x import _name` where `_name` is not a module: another module's
    private name (a module's own package's private names count too)."""
    found = []
    for importer, imports in GRAPH.items():
        for line, target, imported in imports:
            dunder = imported.startswith("__") and imported.endswith("__")
            if imported.startswith("_") and not dunder and target != importer \
                    and f"{target}.{imported}" not in MODULES:
                found.append(f"{MODULES[importer].relative_to(REPO)}:{line}: {importer} "
                             f"imports {target}.{imported}")
    return found


def test_no_module_imports_another_modules_private_names():
    found = private_imports()
    assert not found, (f"{len(found)} import(s) of private names; make the name public "
                       "or pass it in:\n" + "\n".join(found))


# -- cycles -------------------------------------------------------------------------------


def cycles() -> list[list[str]]:
    """Every strongly connected group of modules that import each other (Tarjan), each as
    one cycle through it; a package importing its own submodules is not an edge here."""
    edges = {name: sorted({target for _, target, _ in imports if target != name
                           and not _own_submodule(name, target)})
             for name, imports in GRAPH.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges[node]:
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for name in sorted(edges):
        if name not in index:
            connect(name)
    return [_one_cycle(group, edges) for group in groups]


def _one_cycle(group: list[str], edges: dict[str, list[str]]) -> list[str]:
    """A shortest path from the group's first module back to itself, for the message."""
    start, members = group[0], set(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in edges[node]:
                if nxt == start:
                    return paths[node] + [start]
                if nxt in members and nxt not in paths:
                    paths[nxt] = paths[node] + [nxt]
                    following.append(nxt)
        frontier = following
    return group


def _where(importer: str, target: str) -> str:
    lines = [str(line) for line, module, _ in GRAPH[importer] if module == target]
    return f"{MODULES[importer].relative_to(REPO)}:{','.join(lines)}"


def test_no_import_cycles_in_src():
    found = cycles()
    report = []
    for cycle in found:
        steps = [f"  {a} -> {b}  ({_where(a, b)})" for a, b in zip(cycle, cycle[1:], strict=False)]
        report.append(" -> ".join(cycle) + "\n" + "\n".join(steps))
    assert not found, f"{len(found)} import cycle(s) in src/:\n" + "\n".join(report)


def test_the_import_walk_sees_function_level_imports_and_skips_type_checking_ones():
    source = (
        "from typing import TYPE_CHECKING\n"
        "import kenning.core.paths\n"
        "if TYPE_CHECKING:\n"
        "    from kenning.memory import Memory\n"
        "def later():\n"
        "    from kenning.store import facts\n"
        "    from kenning.core.errors import KenningError\n"
        "    importlib.import_module('kenning.search.fusion')\n"
    )
    found = {(target, imported) for _, target, imported in imports_of("kenning.hooks.base",
                                                                      source)}
    assert found == {("kenning.core.paths", ""), ("kenning.store.facts", "facts"),
                     ("kenning.core.errors", "KenningError"), ("kenning.search.fusion", "")}
