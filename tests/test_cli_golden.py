"""Every `--help` and every `--json` output stays byte-identical unless changed on purpose.

The outputs were recorded before the package was split into layers; a restructuring that
changes one fails here. To record a deliberate change: `KENNING_UPDATE_GOLDEN=1 pytest
tests/test_cli_golden.py`, then read the diff.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import click
import pytest

from conftest import git, init_repo
from kenning.cli.app import cli

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("KENNING_UPDATE_GOLDEN") == "1"
ULID = re.compile(r"\b[0-9A-HJKMNP-TV-Z]{26}\b")
NOW = "2026-03-01T12:00:00Z"


def command_paths(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths = [prefix]
    for name in sorted(group.commands):
        command = group.commands[name]
        if isinstance(command, click.Group):
            paths.extend(command_paths(command, (*prefix, name)))
        else:
            paths.append((*prefix, name))
    return paths


def check(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"no golden output {name}; record it with KENNING_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"{name} changed"


def test_every_help_output_is_unchanged(kenning) -> None:
    from kenning.cli.app import load_commands

    load_commands()  # every command group, so `cli.commands` lists them all

    kenning("--help")
    paths = command_paths(cli)
    assert len(paths) > 30
    for path in paths:
        result = kenning(*path, "--help")
        assert result.code == 0, (path, result.err)
        check("help/" + ("_".join(path) or "kenning") + ".txt", result.out)


class Normaliser:
    """Fact ids become ID1, ID2... in order of first sight; temporary paths become <TMP>."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = str(tmp)
        self.ids: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        text = text.replace(self.tmp, "<TMP>")
        text = re.sub(r"project-[0-9a-f]{10}", "project-<HASH>", text)
        return ULID.sub(self._id, text)

    def _id(self, match: re.Match[str]) -> str:
        return self.ids.setdefault(match.group(0), f"ID{len(self.ids) + 1}")


def scenario_repo(project: Path) -> None:
    init_repo(project)
    (project / "src").mkdir()
    (project / "src" / "retry.py").write_text(
        'def retry_request(url, attempts=3):\n'
        '    """Retry an HTTP request with exponential backoff."""\n'
        '    for attempt in range(attempts):\n'
        '        pass\n'
        '    return None\n',
        encoding="utf-8",
    )
    (project / "README.md").write_text("# demo\n\nRun `make test` before pushing.\n")
    git(project, "add", ".")
    git(project, "commit", "-qm", "switch to httpx because requests has no HTTP/2")


JSON_RUNS = [
    ("add", ["add", "Retries use exponential backoff capped at 30 s", "--about",
             "src/retry.py:retry_request", "--tag", "http", "--json"]),
    ("add_decision", ["add", "Use httpx, not requests", "--kind", "decision",
                      "--rationale", "HTTP/2 support", "--topic", "http-client", "--json"]),
    ("add_interaction", ["add", "The user wants short commit messages", "--kind",
                         "interaction", "--json"]),
    ("index", ["index", "--json"]),
    ("list", ["list", "--json"]),
    ("status", ["status", "--json"]),
    ("review", ["review", "--json"]),
    ("contradictions", ["contradictions", "--json"]),
    ("decay", ["decay", "--json"]),
    ("stale", ["stale", "--json"]),
    ("consolidate", ["consolidate", "--json"]),
    ("sessions", ["sessions", "--json"]),
    ("git_sync", ["git-sync", "--json"]),
    ("analyze_churn", ["analyze", "churn", "--json"]),
    ("analyze_hotspots", ["analyze", "hotspots", "--json"]),
    ("analyze_crossover", ["analyze", "crossover", "--json"]),
    ("trace_hot", ["trace", "hot", "--json"]),
    ("trace_injections", ["trace", "injections", "--json"]),
    ("graph_rebuild", ["graph", "rebuild", "--json"]),
    ("graph_communities", ["graph", "communities", "--json"]),
    ("export", ["export", "--format", "json"]),
]


@pytest.fixture
def scenario(kenning, isolated: Path, monkeypatch) -> Normaliser:
    """The scripted project, opted in, with the clock and git's dates pinned."""
    monkeypatch.setenv("KENNING_NOW", NOW)
    monkeypatch.setenv("GIT_AUTHOR_DATE", NOW)
    monkeypatch.setenv("GIT_COMMITTER_DATE", NOW)
    scenario_repo(isolated)
    assert kenning("init").code == 0
    return Normaliser(isolated.parent)


def test_every_json_output_is_unchanged(kenning, scenario: Normaliser) -> None:
    norm = scenario
    for name, args in JSON_RUNS:
        result = kenning(*args)
        assert result.code == 0, (name, result.err)
        json.loads(result.out)
        check(f"json/{name}.json", norm(result.out))
    first = next(iter(norm.ids))
    shown = kenning("show", first, "--json")
    check("json/show.json", norm(shown.out))


def test_search_json_has_the_hit_shape(kenning, scenario: Normaliser) -> None:
    """The one JSON shape of a hit, shared by the CLI and the MCP server (see README)."""
    for _, args in JSON_RUNS[:4]:
        kenning(*args)
    result = kenning("search", "retry", "backoff", "--json")
    assert result.code == 0, result.err
    check("json/search.json", scenario(result.out))


def test_save_json_is_unchanged(kenning, isolated: Path, monkeypatch) -> None:
    import io
    import sys

    monkeypatch.setenv("KENNING_NOW", NOW)
    init_repo(isolated)
    kenning("init")
    monkeypatch.setattr(sys, "stdin", io.StringIO(
        "name: retry-work\nsummary: Made retries back off\npending_tasks: [ship it]\n"))
    result = kenning("save", "--json")
    assert result.code == 0, result.err
    check("json/save.json", Normaliser(isolated.parent)(result.out))
