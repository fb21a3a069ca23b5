"""Each hook keeps to its import list (docs/design.md, "The hook contract"), checked with
`python -X importtime`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kenning.core.paths import current_project
from kenning.core.records import Anchor
from kenning.memory import Memory

SRC = Path(__file__).resolve().parents[1] / "src"
FIXTURES = Path(__file__).parent / "fixtures" / "hooks"
NEVER = {
    "numpy",
    "yaml",
    "sqlite_utils",
    "model2vec",
    "tree_sitter",
    "tree_sitter_language_pack",
    "mcp",
    "click",
    "rapidfuzz",
    "tokenizers",
    "pydantic",
    "safetensors",
}

CORE = {"kenning", "kenning.hooks.runner", "kenning.hooks", "kenning.hooks.base",
        "kenning.core", "kenning.core.lines", "kenning.core.clock", "kenning.core.private",
        "kenning.core.localdir", "kenning.core.errorlog", "kenning.core.fastjson"}
INJECTING = CORE | {
    "kenning.hooks.state",
    "kenning.core.locks",
    "kenning.core.atomic",
    "kenning.hooks.inject",
    "kenning.hooks.context",
    "kenning.core.mcpnames",
    "kenning.store",
    "kenning.store.injectlog",
    "kenning.store.eventlog",
    "kenning.lifecycle",
    "kenning.lifecycle.decay",
}
ALLOWED = {
    "post-tool-use": CORE | {"kenning.hooks.post_tool", "kenning.store",
                             "kenning.store.eventlog", "kenning.store.editqueue"},
    "stop": CORE | {"kenning.hooks.stop", "kenning.hooks.marks", "kenning.hooks.nudge",
                    "kenning.core.atomic", "kenning.store", "kenning.store.editqueue",
                    "kenning.store.eventlog"},
    "session-end": CORE | {"kenning.hooks.extraction", "kenning.hooks.marks",
                           "kenning.core.atomic", "kenning.core.spawn"},
    "file-changed": CORE | {"kenning.hooks.file_changed", "kenning.store",
                            "kenning.store.eventlog", "kenning.store.editqueue"},
    "pre-compact": CORE | {"kenning.hooks.extraction", "kenning.hooks.marks",
                           "kenning.core.atomic", "kenning.core.spawn"},
    "pre-tool-use": INJECTING
    | {"kenning.hooks.pre_tool", "kenning.lifecycle.anchors", "kenning.hooks.factdb",
       "kenning.core.textutil", "kenning.index", "kenning.index.fts"},
    "user-prompt-submit": INJECTING
    | {"kenning.hooks.user_prompt", "kenning.hooks.semantic", "kenning.hooks.factdb",
       "kenning.hooks.promptvec", "kenning.index.bertwords",
       "kenning.core.textutil", "kenning.core.settings", "kenning.core.errors",
       "kenning.core.safeio", "kenning.index", "kenning.index.fts"},
    "session-start": INJECTING
    | {
        "kenning.hooks.session_start",
        "kenning.hooks.factdb",
        "kenning.lifecycle.confidence",
        "kenning.core.textutil",
        "kenning.index",
        "kenning.index.fts",
        "kenning.plugin",
        "kenning.plugin.runtime",
        "kenning.plugin.layout",
        "kenning.plugin.stamp",
        "kenning.core.spawn",
        "kenning.store.events",
    },
}
PAYLOADS = {
    "post-tool-use": "post_tool_use_read",
    "stop": "stop",
    "session-end": "session_end",
    "pre-compact": "pre_compact",
    "pre-tool-use": "pre_tool_use_read",
    "user-prompt-submit": "user_prompt_submit",
    "session-start": "session_start",
    "file-changed": "file_changed",
}


def imported_modules(event: str, data: str) -> list[str]:
    """Modules a fresh interpreter imports to run the hook, as the launcher runs it."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "from kenning.hooks.runner import main; main(sys.argv[2:])"
    )
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-I", "-S", "-c", code, str(SRC), event],
        input=data, env={**os.environ, "KENNING_DISABLE_BACKGROUND": "1"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    names = []
    for line in result.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name not in ("package", "imported package"):
                names.append(name)
    return names


@pytest.fixture
def indexed(repo: Path) -> Path:
    memory = Memory(current_project(repo), embedder_name="fake")
    memory.add(
        "Retries live in src/http/retry.py with one exponential backoff policy.",
        "codebase",
        about=[Anchor("src/http/retry.py")],
    )
    memory.sync()
    memory.close()
    return repo


@pytest.mark.parametrize("event", sorted(ALLOWED))
def test_hook_imports_only_what_its_list_allows(indexed: Path, event: str) -> None:
    raw = (FIXTURES / f"{PAYLOADS[event]}.json").read_text(encoding="utf-8")
    data = raw.replace("{cwd}", str(indexed)).replace("{home}", str(indexed.parent / "home"))
    names = imported_modules(event, data)
    assert "kenning.hooks.runner" in names  # the measurement saw the hook run
    outside = sorted(
        name
        for name in names
        if not (name.split(".")[0] in sys.stdlib_module_names or name in ALLOWED[event])
    )
    assert outside == [], f"{event} imported {outside}"
    assert not {name.split(".")[0] for name in names} & NEVER
    json.loads(data)  # the payload was a real one


def test_post_tool_use_avoids_the_costly_stdlib_modules(indexed: Path) -> None:
    raw = (FIXTURES / "post_tool_use_read.json").read_text(encoding="utf-8")
    names = set(imported_modules("post-tool-use", raw.replace("{cwd}", str(indexed))))
    # each costs more than the whole PostToolUse budget leaves (docs/design.md)
    assert not names & {"pathlib", "dataclasses", "subprocess", "sqlite3", "hashlib", "typing"}


@pytest.mark.parametrize("event, payload", [("user-prompt-submit", "user_prompt_submit"),
                                            ("post-tool-use", "post_tool_use_read"),
                                            ("pre-tool-use", "pre_tool_use_read")])
def test_prompt_and_tool_hooks_import_neither_re_nor_json(indexed: Path, event: str,
                                                          payload: str) -> None:
    """`re` (with `enum`) and the `json` package cost a fresh hook about as much as starting
    the interpreter (bench/hooks_bench.py): these hooks read and write JSON through
    core.fastjson and tokenise through core.textutil without them."""
    raw = (FIXTURES / f"{payload}.json").read_text(encoding="utf-8")
    names = set(imported_modules(event, raw.replace("{cwd}", str(indexed))))
    assert "kenning.hooks.runner" in names
    assert not names & {"re", "json", "enum", "typing"}


@pytest.mark.parametrize("event, payload", [("user-prompt-submit", "user_prompt_submit"),
                                            ("pre-tool-use", "pre_tool_use_read")])
def test_injecting_hooks_import_neither_the_sqlite3_package_nor_datetime(
        indexed: Path, event: str, payload: str) -> None:
    """The `sqlite3` package (over its C module `_sqlite3`, which factdb uses) brings
    `datetime` and `collections.abc`, and `datetime` is a tenth of the prompt hook's start-up
    (bench/hooks_bench.py): these hooks read the index through `_sqlite3` and decay
    confidence on epoch microseconds (lifecycle.decay)."""
    raw = (FIXTURES / f"{payload}.json").read_text(encoding="utf-8")
    data = raw.replace("{cwd}", str(indexed)).replace("{home}", str(indexed.parent / "home"))
    names = set(imported_modules(event, data))
    assert "_sqlite3" in names  # it read the index
    if event == "pre-tool-use":
        assert "kenning.hooks.inject" in names  # and the injection path is held too
    assert not names & {"sqlite3", "sqlite3.dbapi2", "datetime", "collections.abc",
                        "kenning.lifecycle.confidence"}, sorted(names)


# `json` alone costs a hook about one and a half bare interpreter starts on a 2-core machine,
# through `re`, `enum`, `functools` and `collections` (core.fastjson calls its C part).
COSTLY = {"json", "re", "enum", "functools", "collections", "contextlib", "typing",
          "subprocess", "sqlite3"}


@pytest.mark.parametrize("event", ["post-tool-use", "stop", "session-end", "session-start",
                                   "file-changed"])
def test_the_lean_hooks_never_import_the_json_package_or_re(indexed: Path, event: str) -> None:
    raw = (FIXTURES / f"{PAYLOADS[event]}.json").read_text(encoding="utf-8")
    data = raw.replace("{cwd}", str(indexed)).replace("{home}", str(indexed.parent / "home"))
    if event == "session-start":  # the first start reads the index; the next ones its cache
        imported_modules(event, data)
    names = set(imported_modules(event, data))
    assert "kenning.hooks.runner" in names
    assert not names & COSTLY, sorted(names & COSTLY)
