"""The fact merge driver works however kenning is installed, proven by real two-branch merges:
a checkout's `.venv`, a plugin (code in the plugin's `src/`, dependencies in its data venv,
including after a plugin update moved the code) and a pip install (code in site-packages)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
IGNORE = shutil.ignore_patterns("__pycache__", "*.egg-info")


def git(cwd: Path, *args: str) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def deps_venv(path: Path) -> Path:
    """A real venv that sees the test environment's dependencies (through a .pth file) but
    not kenning itself: an editable install's hook is not processed from a .pth folder."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    python = path / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; "
                              "print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n",
                                         encoding="utf-8")
    probe = subprocess.run([str(python), "-I", "-c", "import kenning"], capture_output=True,
                           cwd=path)
    assert probe.returncode != 0, "the venv must not see kenning through the test's install"
    return python


def env(tmp_path: Path) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "KENNING_PY"))}
    clean.update({"KENNING_HOME": str(tmp_path / "kenning-home"), "KENNING_EMBEDDER": "fake",
                  "GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.com",
                  "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.com"})
    return clean


def two_branch_merge(repo: Path, kenning: list[str], environ: dict[str, str]) -> str:
    """init + one fact on main; branches a and b each add a tag; merge b into a. Returns
    the merged fact file."""
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    run = lambda *args: subprocess.run([*kenning, *args], cwd=repo, env=environ,  # noqa: E731
                                       capture_output=True, text=True, timeout=120)
    result = run("init", "--no-move-facts")
    assert result.returncode == 0, result.stderr
    assert "registered" in result.stdout
    result = run("add", "--tag", "deploy", "Deploys go through the blue-green script.")
    assert result.returncode == 0, result.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "fact")
    fact = next((repo / ".kenning" / "facts").glob("*.yaml"))
    original = fact.read_text(encoding="utf-8")
    assert "tags: [deploy]" in original
    for branch, tag in (("a", "ops"), ("b", "release")):
        git(repo, "checkout", "-q", "-b", branch, "main")
        fact.write_text(original.replace("tags: [deploy]", f"tags: [deploy, {tag}]"),
                        encoding="utf-8")
        git(repo, "commit", "-qam", f"tag {tag}")
    git(repo, "checkout", "-q", "a")
    merged = subprocess.run(["git", "merge", "--no-edit", "b"], cwd=repo, env=environ,
                            capture_output=True, text=True)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    return fact.read_text(encoding="utf-8")


def assert_union(text: str) -> None:
    assert "<<<<<<<" not in text
    tags = next(line for line in text.splitlines() if line.startswith("tags:"))
    assert {t.strip() for t in tags[len("tags: ["):-1].split(",")} == {"deploy", "ops",
                                                                      "release"}


def test_a_checkout_venv_merges_fact_tags(tmp_path):
    text = two_branch_merge(tmp_path / "repo", [sys.executable, "-m", "kenning"], env(tmp_path))
    assert_union(text)


def test_a_pip_install_merges_fact_tags(tmp_path):
    python = deps_venv(tmp_path / "venv")
    purelib = subprocess.run([str(python), "-c", "import sysconfig; "
                              "print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    shutil.copytree(REPO / "src" / "kenning", Path(purelib) / "kenning", ignore=IGNORE)
    text = two_branch_merge(tmp_path / "repo", [str(python), "-I", "-m", "kenning"],
                            env(tmp_path))
    assert_union(text)


@pytest.fixture
def plugin(tmp_path: Path) -> tuple[Path, Path]:
    """A marketplace install (code only) and its data folder's venv (dependencies only)."""
    config = tmp_path / "claude" / "plugins"
    root = config / "cache" / "kenning" / "kenning" / "0.1.0"
    root.mkdir(parents=True)
    for name in ("src", "hooks", "bin", ".claude-plugin"):
        shutil.copytree(REPO / name, root / name, ignore=IGNORE)
    shutil.copy(REPO / "pyproject.toml", root)
    data = config / "data" / "kenning-kenning"
    deps_venv(data / "venv")
    sys.path.insert(0, str(root / "src"))
    try:
        from kenning.plugin.stamp import wanted_stamp

        stamp = wanted_stamp(str(root))
    finally:
        sys.path.remove(str(root / "src"))
    (data / "venv" / ".kenning-stamp").write_text(stamp, encoding="utf-8")
    return root, data


def test_a_plugin_merges_fact_tags_and_keeps_merging_after_an_update(tmp_path, plugin):
    root, data = plugin
    environ = env(tmp_path)
    repo = tmp_path / "repo"
    assert_union(two_branch_merge(repo, [str(root / "bin" / "kenning")], environ))
    driver = git(repo, "config", "--get", "merge.kenning-fact.driver")
    # the plugin is updated: its code moves to a new version folder, the old one is gone
    new_root = root.parent / "0.2.0"
    root.rename(new_root)
    catchup = ("import sys; sys.path.insert(0, sys.argv[1]); "
               "from kenning.hooks.catchup import main; main(sys.argv[2:])")
    subprocess.run([str(data / "venv" / "bin" / "python"), "-I", "-c", catchup,
                    str(new_root / "src"), str(repo), ""], env=environ, check=True,
                   timeout=120)
    assert git(repo, "config", "--get", "merge.kenning-fact.driver") == driver
    fact = next((repo / ".kenning" / "facts").glob("*.yaml"))
    base = fact.read_text(encoding="utf-8")
    for branch, extra in (("c", "ops, release, infra"), ("d", "ops, release, docs")):
        git(repo, "checkout", "-q", "-b", branch, "a")
        fact.write_text(base.replace("tags: [deploy, ops, release]", f"tags: [deploy, {extra}]"),
                        encoding="utf-8")
        git(repo, "commit", "-qam", branch)
    git(repo, "checkout", "-q", "c")
    merged = subprocess.run(["git", "merge", "--no-edit", "d"], cwd=repo, env=environ,
                            capture_output=True, text=True)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert "docs" in fact.read_text(encoding="utf-8") and "infra" in fact.read_text(
        encoding="utf-8")
