"""`kenning doctor`: checks a user can act on, one line each."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from kenning.core.paths import Project

REQUIRED = ("yaml", "click", "sqlite_utils", "numpy", "tokenizers", "rapidfuzz", "model2vec",
            "tree_sitter_language_pack", "networkx")


def run_checks(project: Project) -> Iterator[tuple[str, bool, str]]:
    version = ".".join(map(str, sys.version_info[:3]))
    yield "python", sys.version_info >= (3, 11), f"{version} at {sys.executable}"
    for module in REQUIRED:
        try:
            importlib.import_module(module)
            yield f"import {module}", True, "available"
        except Exception as exc:  # noqa: BLE001 - report any import failure
            yield f"import {module}", False, f"{type(exc).__name__}: {exc}"
    import sqlite3

    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter')")
        yield "sqlite fts5", True, sqlite3.sqlite_version
    except sqlite3.OperationalError as exc:
        yield "sqlite fts5", False, str(exc)
    from kenning.index import BUNDLED_CODE
    from kenning.index.embed import bundled_model_dir, code_model_dir

    for check, name, folder in (("embedding model", "bundled", bundled_model_dir),
                                ("code embedding model", BUNDLED_CODE, code_model_dir)):
        yield _model_check(check, name, folder)
    home = project.home
    try:
        home.mkdir(parents=True, exist_ok=True)
        yield "KENNING_HOME", True, str(home)
    except OSError as exc:
        yield "KENNING_HOME", False, f"{home}: {exc.strerror}"
    yield "project", True, f"{project.root} (" + (
        "initialised" if project.initialised else "personal store only") + ")"
    yield from _file_checks(project)


def _model_check(check: str, name: str, folder: Callable[[], Path]) -> tuple[str, bool, str]:
    try:
        from kenning.index.embed import load_embedder

        embedder = load_embedder(name)
        size = sum(p.stat().st_size for p in folder().rglob("*") if p.is_file())
        return check, True, f"{embedder.id}, {size / 1e6:.1f} MB, offline"
    except Exception as exc:  # noqa: BLE001
        return check, False, f"{type(exc).__name__}: {exc}"


def _file_checks(project: Project) -> Iterator[tuple[str, bool, str]]:
    """Files that are skipped (a bad value, a symlink, over the cap) are a problem to fix,
    even though every command keeps working around them."""
    from kenning.core.config import project_settings
    from kenning.core.errors import KenningError
    from kenning.core.settings import user_settings
    from kenning.store.facts import scan
    from kenning.store.sessions import all_sessions

    found = scan(project)
    problems = [str(p) for p in found.problems]
    yield "fact files", not problems, f"{len(found.facts)} readable" + (
        f"; {len(problems)} skipped, first: {problems[0]}" if problems else "")
    _, bad_sessions = all_sessions(project)
    yield "saved sessions", not bad_sessions, (
        f"{len(bad_sessions)} skipped, first: {bad_sessions[0]}" if bad_sessions else "ok")
    try:
        user_settings(project.home)
        _, config_problems = project_settings(project)
    except KenningError as exc:
        config_problems = [str(exc)]
    yield "config", not config_problems, config_problems[0] if config_problems else "ok"
