"""Every test runs in its own KENNING_HOME and project folder, with the fake embedder."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from kenning.cli import main


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
