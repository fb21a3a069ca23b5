"""The README is the front door: every command documented, every quick-start step working."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import click

from conftest import init_repo
from kenning.cli.app import cli

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def all_commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    found = []
    for name, command in group.commands.items():
        path = f"{prefix}{name}"
        found.append((path, command))
        if isinstance(command, click.Group):
            found += all_commands(command, f"{path} ")
    return found


def test_every_cli_command_is_in_the_readme_with_help_text():
    missing = [name for name, _ in all_commands(cli) if f"kenning {name}" not in README]
    assert missing == []
    undocumented = [name for name, cmd in all_commands(cli) if not (cmd.help or "").strip()]
    assert undocumented == []


def test_every_option_the_readme_shows_exists():
    """`kenning CMD ... --flag` in the README's command tables must be a real option."""
    commands = dict(all_commands(cli))
    problems = []
    for line in README.splitlines():
        for usage in re.findall(r"`kenning ([a-z-]+(?: [a-z-]+)?)([^`]*)`", line):
            name, rest = usage
            if name not in commands and name.split(" ")[0] in commands:
                rest = " " + name.split(" ", 1)[1] + rest
                name = name.split(" ")[0]
            command = commands.get(name)
            if command is None:
                continue
            options = {opt for p in command.params for opt in getattr(p, "opts", [])}
            options |= {opt for p in command.params for opt in getattr(p, "secondary_opts", [])}
            for flag in re.findall(r"(--[a-z][a-z-]*)", rest):
                if flag not in options and flag not in ("--help",):
                    problems.append(f"kenning {name} {flag}")
    assert problems == []


def test_the_quick_start_commands_work(tmp_path, monkeypatch):
    blocks = re.findall(r"```sh\n(.*?)\n```", README, re.S)
    use, test = blocks[0], blocks[1]
    assert test == "./install.sh --dev && .venv/bin/python -m pytest"
    tokens = shlex.split(use)
    steps, current = [], []
    for token in tokens + ["&&"]:
        if token == "&&":
            steps.append(current)
            current = []
        else:
            current.append(token)
    assert steps[0] == ["./install.sh"]
    project = init_repo(tmp_path / "demo")
    (project / "tests.md").write_text("# Tests\n\nRun pytest after install.sh.\n", "utf-8")
    outputs = []
    for step in steps[1:]:
        assert step[0] == ".venv/bin/kenning"
        argv = step[1:]
        result = subprocess.run([sys.executable, "-m", "kenning", *argv], cwd=project,
                                capture_output=True, text=True)
        assert result.returncode == 0, (step, result.stderr)
        outputs.append(result.stdout)
    assert "Run the test suite" in outputs[-1]


def test_the_readme_hit_table_names_every_field_a_hit_can_have():
    from kenning.core.records import Hit

    section = README.split("#### A search hit as JSON", 1)[1].split("\n#", 1)[0]
    documented = {name for row in re.findall(r"^\| (`.*?) \|", section, re.M)
                  for name in re.findall(r"`(\w+)`", row)}
    chunk = Hit(type="code", path="a.py", start_line=1, end_line=2, score=0.5, snippet="x",
                why="w", symbol="f", anchored_facts=("F1",))
    fact = Hit(type="fact", path="a.py", start_line=None, end_line=None, score=0.5,
               snippet="t", why="w", symbol="f", id="F1", kind="codebase", confidence=0.7)
    assert set(chunk.to_json()) | set(fact.to_json()) == documented
    assert "anchored_facts" not in fact.to_json() and "confidence" not in chunk.to_json()
