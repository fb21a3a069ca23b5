"""Each file kenning writes has exactly one writing module: the one `docs/architecture.md`
names under "## Who writes which file".

The scan is by name: every call of a writing primitive in `src/` (an atomic write, a line
append, `open` for writing, `write_text`, `os.replace`, ...) is matched against the ways the
code spells each file's path (its name, the constant or helper that holds it). A module other
than the file's writer with such a call fails the test; so does a writer without any writing
call, and a table here that differs from the one in the docs.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
DOC = ROOT / "docs" / "architecture.md"
HEADING = "## Who writes which file"

# file (as the docs' table names it) -> (writing module, how the code spells its path)
OWNERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "<id>.yaml (facts)": ("kenning.store.facts", ("render_checked",)),
    "<name>.yaml (saved sessions)": ("kenning.store.sessions", ("sessions_dir", "render(record")),
    "README.md, .gitattributes, .gitignore, config.toml; merge-fact": (
        "kenning.store.projectinit", ("GITATTRIBUTES", "GITIGNORE", "driver_script")),
    "project.json": ("kenning.store.registry", ("project.json",)),
    "events.jsonl": ("kenning.store.eventlog", ("events.jsonl", "events_path")),
    "injections.jsonl": ("kenning.store.injectlog", ("injections.jsonl", "injectlog.FILE_NAME")),
    "reindex-queue.jsonl": ("kenning.store.editqueue", ("reindex-queue.jsonl", "queue_path")),
    "last-session.json": ("kenning.store.sessions", ("last-session.json", "SUMMARY_NAME")),
    "errors.log": ("kenning.core.errorlog", ("errors.log", "errors_path")),
    "sessions/<session>.json (hook state)": ("kenning.hooks.state", ('local("sessions")',)),
    "extract-pending/<session>.json": ("kenning.hooks.marks", ("mark_path", "extract-pending")),
    "asked/<session>": ("kenning.hooks.nudge", ('"asked"', "nudge.DIR_NAME")),
    "uncommitted.json, session-start.json": ("kenning.hooks.session_start",
                                             ("uncommitted.json", "CACHE_NAME")),
    "anchors/NN.json": ("kenning.lifecycle.anchors", ("bucket",)),
    "review-dismissed.json": ("kenning.lifecycle.review",
                              ("review-dismissed.json", "DISMISSALS_FILE", "_dismissed_path")),
    "extract/<session>.json": ("kenning.extract.pipeline", ("state_path",)),
    "llm-usage.json": ("kenning.extract.llm", ("llm-usage.json", "USAGE_FILE", '"tokens"')),
    "chunk-vectors-<generation>.npz": ("kenning.index.vector_cache",
                                       ("chunk-vectors", "_cache_path")),
    "venv/.kenning-stamp": ("kenning.plugin.stamp", ("STAMP_NAME", "stamp_path")),
    "seed/state.json": ("kenning.extract.seed.run", ("state_file(",)),
    "AGENTS.md / CLAUDE.md (the kenning block)": ("kenning.insight.agents_md", ("agents_md",)),
}
# Calls that write a file whatever path they are given.
WRITING_CALLS = {"write_atomic", "atomic_file", "append_line", "append_json", "write_json",
                 "write_text", "write_bytes", "replace", "rename"}
WRITE_MODE = re.compile(r"[wax+]")


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def writing_calls(source: str) -> list[str]:
    """The source text of every call in `source` that writes a file."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and is_write(node):
            found.append(ast.get_source_segment(source, node) or "")
    return found


def is_write(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name in WRITING_CALLS:
        return name not in ("replace", "rename") or _on_os(func)
    if name == "append":  # the event log's raw append, not a list's
        return isinstance(func, ast.Attribute) and getattr(func.value, "id", "") == "eventlog"
    if name in ("open", "fdopen"):
        mode = call.args[1] if len(call.args) > 1 else next(
            (k.value for k in call.keywords if k.arg == "mode"), None)
        return isinstance(mode, ast.Constant) and bool(WRITE_MODE.search(str(mode.value)))
    return False


def _on_os(func: ast.expr) -> bool:
    return isinstance(func, ast.Attribute) and getattr(func.value, "id", "") == "os"


@functools.cache
def scan() -> dict[str, list[str]]:
    """module -> its writing calls' source text (parsed once for all the files' tests)."""
    return {module_name(p): writing_calls(p.read_text(encoding="utf-8"))
            for p in sorted((SRC / "kenning").rglob("*.py"))}


def documented_table() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    assert HEADING in text, f"{DOC.name} has no '{HEADING}' section"
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[2].startswith("`kenning."):
            rows[cells[0].replace("`", "")] = cells[2].strip("`")
    return rows


def test_the_table_here_is_the_one_in_the_architecture_doc() -> None:
    assert documented_table() == {name: owner for name, (owner, _) in OWNERS.items()}


@pytest.mark.parametrize("name", sorted(OWNERS))
def test_each_local_file_has_exactly_one_writing_module(name: str) -> None:
    owner, spellings = OWNERS[name]
    calls = scan()
    assert calls.get(owner), f"{owner} is named as the writer of {name} but writes nothing"
    writers = {module for module, found in calls.items()
               if any(s in call for call in found for s in spellings)} - {owner}
    assert not writers, f"{name} is written by {sorted(writers)}, not only by {owner}"


def test_the_scan_sees_a_second_writer() -> None:
    source = 'def f(ctx):\n    append_line(ctx.events_path, {"type": "read"})\n'
    assert any("events_path" in call for call in writing_calls(source))
    assert not writing_calls("def f(paths, rel):\n    paths.append(rel)\n")
    assert writing_calls('def f(p):\n    open(p, "ab").close()\n')
    assert not writing_calls('def f(p):\n    open(p, "rb").close()\n')
