"""Every test runs in its own KENNING_HOME and project folder, with the fake embedder."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from kenning.cli import main

# No test is timed (speed is measured by bench/, as a ratio): Hypothesis's per-example
# deadline and its too-slow health check are wall-clock limits a loaded machine fails.
# derandomize: the same examples on every run, so a clean clone's CI passes or fails on the
# code alone (a random run once found a counterexample in a change that touched nothing of it)
settings.register_profile("kenning", deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("kenning")

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "kenning-home"
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.setenv("KENNING_HOME", str(home))
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    monkeypatch.setenv("KENNING_EMBEDDER", "fake")
    monkeypatch.delenv("KENNING_NOW", raising=False)
    monkeypatch.chdir(project)
    return project


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def kenning(capsys: pytest.CaptureFixture[str]):
    """Run the CLI in-process exactly as the console script does."""

    def run(*args: str) -> Result:
        code = 0
        try:
            main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


def git(cwd: Path, *args: str) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


def commit_file(repo: Path, name: str, text: str, message: str = "add") -> Path:
    """Write `name` in the repository and commit it."""
    path = repo / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    git(repo, "add", name)
    git(repo, "commit", "-qm", message)
    return path


def commit_dated(root: Path, subject: str, files: dict[str, str], when: str) -> None:
    """Write `files` (path -> text) and commit them with author and committer date `when`."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    git(root, "add", "-A")
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    subprocess.run(["git", "-C", str(root), "commit", "-qm", subject], env=env, check=True,
                   capture_output=True)


def init_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "dev@example.com")
    git(path, "config", "user.name", "Dev")
    git(path, "config", "commit.gpgsign", "false")
    return path


@pytest.fixture
def repo(isolated: Path) -> Path:
    """The test's project folder as a git repository with one commit."""
    init_repo(isolated)
    (isolated / "README.md").write_text("# demo\n", encoding="utf-8")
    git(isolated, "add", "README.md")
    git(isolated, "commit", "-qm", "init")
    return isolated


PYTHON = sys.executable


def plugin_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A plugin copy without a checkout `.venv`, so the runtime is managed (as for users):
    CLAUDE_PLUGIN_ROOT points at it and CLAUDE_PLUGIN_DATA at `tmp_path/data`."""
    root = tmp_path / "plugin"
    root.mkdir()
    for name in ("src", "hooks", "pyproject.toml", ".claude-plugin"):
        (root / name).symlink_to(REPO / name)
    monkeypatch.setenv("CLAUDE_PLUGIN_ROOT", str(root))
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(tmp_path / "data"))
    return root


def ready_venv(data: Path, root: Path) -> None:
    """The plugin's data venv as a finished install leaves it: a python that has the
    dependencies (this one) and the stamp of `root`'s pyproject.toml."""
    from kenning.plugin.layout import STAMP_NAME
    from kenning.plugin.stamp import wanted_stamp

    venv_bin = data / "venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "python").write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n',
                                     encoding="utf-8")
    (venv_bin / "python").chmod(0o755)
    (data / "venv" / STAMP_NAME).write_text(wanted_stamp(str(root)),
                                                   encoding="utf-8")
