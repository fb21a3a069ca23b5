"""The plugin's manifests, hook config, skills and runtime install."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from kenning import runtime
from kenning.hookrunner import EVENTS

REPO = Path(__file__).resolve().parents[1]
PREFIX = "mcp__plugin_kenning_kenning__"


def load(path: str) -> dict:
    return json.loads((REPO / path).read_text(encoding="utf-8"))


def frontmatter(path: Path) -> dict[str, str]:
    """The skill's YAML front matter (Claude Code drops all of it when it does not parse)."""
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8").split("---\n")[1])
    assert isinstance(data, dict), path
    return {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in data.items()}


def test_manifests_name_the_plugin_and_the_marketplace_source():
    plugin = load(".claude-plugin/plugin.json")
    assert plugin["name"] == "kenning" and re.fullmatch(r"\d+\.\d+\.\d+", plugin["version"])
    assert isinstance(plugin["keywords"], list)
    market = load(".claude-plugin/marketplace.json")
    assert market["owner"]["name"]
    entry = market["plugins"][0]
    assert entry["name"] == "kenning" and entry["source"] == "./"
    assert "skills" not in entry  # declaring skills would replace the default scan


def test_mcp_server_key_is_kenning_and_runs_the_launcher():
    servers = load(".mcp.json")["mcpServers"]
    assert list(servers) == ["kenning"]
    assert servers["kenning"]["command"] == "${CLAUDE_PLUGIN_ROOT}/hooks/run"
    assert servers["kenning"]["args"] == ["mcp"]


def test_every_hook_handler_has_a_short_explicit_timeout_and_a_known_event():
    config = load("hooks/hooks.json")["hooks"]
    assert set(config) == {"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
                           "PostToolUseFailure", "Stop", "PreCompact", "SessionEnd"}
    for event, groups in config.items():
        for group in groups:
            for handler in group["hooks"]:
                assert handler["type"] == "command"
                assert handler["command"] == "${CLAUDE_PLUGIN_ROOT}/hooks/run"
                assert handler["args"][0] in EVENTS
                assert 0 < handler["timeout"] <= 10, (event, handler)
    assert config["SessionStart"][0]["matcher"] == "startup|resume|clear|compact"
    assert config["PreToolUse"][0]["matcher"] == "Read|Edit|Write|MultiEdit|NotebookEdit"
    # SessionEnd shares a 1.5 s budget that plugin timeouts cannot raise
    assert config["SessionEnd"][0]["hooks"][0]["timeout"] <= 1.5


def test_launcher_and_cli_wrapper_are_executable():
    for path in ("hooks/run", "bin/kenning"):
        assert os.access(REPO / path, os.X_OK), path


def test_skills_list_plugin_scoped_tools_and_remember_is_user_only():
    skills = {p.parent.name: p for p in (REPO / "skills").glob("*/SKILL.md")}
    assert set(skills) == {"remember", "recall", "forget", "save", "review"}
    needs = {"recall": ["knowledge_search"], "forget": ["knowledge_forget"],
             "save": ["session_save"], "review": ["knowledge_forget"]}
    for name, path in skills.items():
        meta = frontmatter(path)
        assert meta["description"], name
        assert "allowed-tools" in meta, name
        for tool in needs.get(name, []):
            assert PREFIX + tool in meta["allowed-tools"], (name, tool)
        for tool in re.findall(r"mcp__\w+", path.read_text(encoding="utf-8")):
            assert tool.startswith(PREFIX), (name, tool)
    remember = frontmatter(skills["remember"])
    assert remember["disable-model-invocation"] == "true"
    assert "kenning add --origin user" in skills["remember"].read_text(encoding="utf-8")


# ---- runtime ------------------------------------------------------------------------------
def test_runtime_stamp_tracks_requirements_plugin_version_and_python(tmp_path, monkeypatch):
    monkeypatch.setattr(runtime, "dev_python", lambda root=None: None)
    data = tmp_path / "data"
    assert runtime.state(str(data)) == "missing"
    venv_bin = data / "venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "python").symlink_to(sys.executable)
    (data / "venv" / runtime.STAMP_NAME).write_text(runtime.wanted_stamp(), encoding="utf-8")
    assert runtime.state(str(data)) == "ready"
    stamp = json.loads(runtime.wanted_stamp())
    assert stamp["plugin"] == load(".claude-plugin/plugin.json")["version"]
    assert any(r.startswith("mcp") for r in stamp["requirements"])
    stale = dict(stamp, plugin="0.0.0")
    (data / "venv" / runtime.STAMP_NAME).write_text(json.dumps(stale, sort_keys=True),
                                                    encoding="utf-8")
    assert runtime.state(str(data)) == "stale"


def test_two_sessions_starting_at_once_install_once(tmp_path):
    data = tmp_path / "data"
    count = tmp_path / "count"
    code = f"""
import os, sys, time
sys.path.insert(0, {str(REPO / 'src')!r})
from kenning import runtime

def fake(argv):
    with open({str(count)!r}, "a") as f:
        f.write(" ".join(argv[1:3]) + "\\n")
    if argv[1:3] == ["-m", "venv"]:
        os.makedirs(os.path.join(argv[3], "bin"), exist_ok=True)
        os.symlink(sys.executable, os.path.join(argv[3], "bin", "python"))
    time.sleep(1.0)
    return 0

print(runtime.install({str(data)!r}, runner=fake))
"""
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
             for _ in range(2)]
    results = sorted(p.communicate(timeout=60)[0].strip().splitlines()[-1] for p in procs)
    assert results == ["busy", "ready"]
    assert count.read_text().splitlines() == ["-m venv", "-m pip"]
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert again.stdout.strip() == "ready"
    assert count.read_text().splitlines() == ["-m venv", "-m pip"]  # nothing re-run


def test_a_checkout_with_its_own_venv_is_never_managed(monkeypatch, tmp_path):
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(tmp_path / "data"))
    assert runtime.state() == "dev"
    assert runtime.ensure_started() is False
    assert not (tmp_path / "data").exists()
