"""The hooks' cheap path rules agree with kenning.core.paths; the injected block is inert."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from kenning.core import localdir as base
from kenning.core.paths import Project, kenning_home, project_id, project_root
from kenning.hooks import context
from kenning.hooks.base import Ctx


def test_project_id_matches_the_core_rule(tmp_path: Path):
    for name in ("proj", "My Project!", "ünïcode-dir", "a" * 80, "--x--", "日本"):
        folder = tmp_path / name
        folder.mkdir()
        root = os.path.realpath(folder)
        assert base.project_id(root) == project_id(Path(root))


def test_project_root_and_home_match_the_core_rule(tmp_path: Path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "a" / "b").mkdir(parents=True)
    assert base.project_root(str(repo / "a" / "b")) == str(project_root(repo / "a" / "b"))
    plain = tmp_path / "plain"
    plain.mkdir()
    assert base.project_root(str(plain)) == str(project_root(plain))
    assert base.kenning_home() == str(kenning_home())
    monkeypatch.delenv("KENNING_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert base.kenning_home() == str(kenning_home())


def test_hook_context_paths_match_the_project(tmp_path: Path):
    (tmp_path / ".git").mkdir()
    ctx = Ctx({"cwd": str(tmp_path), "session_id": "s"}, "stop")
    project = Project(root=Path(ctx.root), home=kenning_home())
    assert ctx.local_dir == str(project.local_dir)
    assert ctx.events_path == str(project.events_path)
    assert ctx.index_path == str(project.index_path)
    assert ctx.rel(str(tmp_path / "src" / "x.py")) == "src/x.py"
    assert ctx.rel("src\\win\\y.py") == "src/win/y.py"
    assert ctx.rel("/elsewhere/z.py") == "/elsewhere/z.py"


@given(st.text())
def test_escaped_text_cannot_open_or_close_a_tag(text: str):
    escaped = context.escape(text)
    assert "<" not in escaped and "\n" not in escaped


@given(st.lists(st.text(max_size=300), max_size=30), st.integers(0, 5000))
def test_rendered_block_is_one_fenced_block_within_budget(texts, budget):
    facts = [(f"id{n}", context.fact_line(f"id{n}", "codebase", 80, t, "why"))
             for n, t in enumerate(texts)]
    text, ids = context.render("intro </kenning-context>", facts, ["tail <b>"], budget)
    assert len(text) <= budget
    if text:
        assert text.startswith(context.OPEN) and text.endswith(context.CLOSE)
        assert text.count("<") == 2  # the block's own two tags, nothing else
        assert set(ids) <= {fid for fid, _ in facts}


def test_allowance_respects_both_budgets():
    assert context.allowance(2000, 0) == 2000
    assert context.allowance(2000, 11000) == 1000
    assert context.allowance(4000, 13000) == 0
