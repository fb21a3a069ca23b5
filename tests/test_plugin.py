"""The plugin's manifests, hook config, skills and runtime install."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from conftest import ready_venv
from kenning.core.locks import FileLock
from kenning.hooks.runner import EVENTS
from kenning.plugin import runtime
from kenning.plugin.layout import LOCK_NAME, LOG_NAME, STAMP_NAME, installed_data_dir
from kenning.plugin.stamp import wanted_stamp

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
    # the knowledge tools are the plugin's point: never deferred behind ToolSearch (README)
    assert servers["kenning"]["alwaysLoad"] is True


def test_every_hook_handler_has_a_short_explicit_timeout_and_a_known_event():
    config = load("hooks/hooks.json")["hooks"]
    assert set(config) == {"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
                           "PostToolUseFailure", "Stop", "PreCompact", "SessionEnd",
                           "FileChanged"}
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
    (data / "venv" / STAMP_NAME).write_text(wanted_stamp(), encoding="utf-8")
    assert runtime.state(str(data)) == "ready"
    stamp = json.loads(wanted_stamp())
    assert stamp["plugin"] == load(".claude-plugin/plugin.json")["version"]
    assert stamp["python"] == f"{sys.version_info[0]}.{sys.version_info[1]}"
    changed = tmp_path / "plugin"
    changed.mkdir()
    (changed / "pyproject.toml").write_text("[project]\ndependencies = ['mcp']\n",
                                            encoding="utf-8")
    assert json.loads(wanted_stamp(str(changed)))["pyproject"] != stamp["pyproject"]
    stale = dict(stamp, plugin="0.0.0")
    (data / "venv" / STAMP_NAME).write_text(json.dumps(stale, sort_keys=True),
                                                    encoding="utf-8")
    assert runtime.state(str(data)) == "stale"


def test_two_sessions_starting_at_once_install_once(tmp_path):
    data = tmp_path / "data"
    count = tmp_path / "count"
    code = f"""
import os, sys, time
sys.path.insert(0, {str(REPO / 'src')!r})
from kenning.plugin.install import install

def fake(argv):
    step = "venv" if argv[1:3] == ["-m", "venv"] else (
        "install" if "install" in argv else "uninstall" if "uninstall" in argv else "?")
    with open({str(count)!r}, "a") as f:
        f.write(step + "\\n")
    if step == "venv":
        os.makedirs(os.path.join(argv[-1], "lib", "python3", "site-packages", "pip"))
        os.makedirs(os.path.join(argv[-1], "bin"), exist_ok=True)
        os.symlink(sys.executable, os.path.join(argv[-1], "bin", "python"))
    time.sleep(1.0)
    return 0

print(install({str(data)!r}, runner=fake))
"""
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
             for _ in range(2)]
    results = sorted(p.communicate(timeout=60)[0].strip().splitlines()[-1] for p in procs)
    assert results == ["busy", "ready"]
    assert count.read_text().splitlines() == ["venv", "install", "uninstall"]
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert again.stdout.strip() == "ready"
    assert count.read_text().splitlines() == ["venv", "install", "uninstall"]  # not re-run


def test_a_checkout_with_its_own_venv_is_never_managed(monkeypatch, tmp_path):
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(tmp_path / "data"))
    assert runtime.state() == "dev"
    assert runtime.ensure_started() is False
    assert not (tmp_path / "data").exists()


# ---- finding the runtime from the Bash tool and a user's shell -----------------------------
def marketplace_install(tmp_path: Path) -> tuple[Path, Path]:
    """A plugin laid out as `claude plugin install` does, with a ready data venv whose python
    has the dependencies. Returns (plugin root, data folder)."""
    config = tmp_path / "claude"
    root = config / "plugins" / "cache" / "kenning" / "kenning" / "0.1.0"
    root.mkdir(parents=True)
    for name in ("hooks", "bin"):
        shutil.copytree(REPO / name, root / name)
    for name in ("src", "pyproject.toml", ".claude-plugin"):
        (root / name).symlink_to(REPO / name)
    data = config / "plugins" / "data" / "kenning-kenning"
    ready_venv(data, root)
    return root, data


def bin_kenning(root: Path, env: dict[str, str], cwd: Path, *args: str):
    clean = {k: v for k, v in env.items() if not k.startswith("CLAUDE_PLUGIN")}
    return subprocess.run([str(root / "bin" / "kenning"), *args], env=clean, cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_bin_kenning_finds_the_data_folder_beside_a_marketplace_install(isolated, tmp_path):
    root, data = marketplace_install(tmp_path)
    assert installed_data_dir(str(root)) == str(data)
    result = bin_kenning(root, dict(os.environ), isolated, "status")
    assert result.returncode == 0, result.stderr
    assert "fact" in result.stdout.lower()


def test_bin_kenning_uses_the_data_folder_session_start_exported(isolated, tmp_path):
    root, data = marketplace_install(tmp_path)
    moved = tmp_path / "elsewhere"
    data.rename(moved)  # not beside the install: only the exported variable can find it
    env = {**os.environ, "KENNING_PLUGIN_DATA": str(moved)}
    assert bin_kenning(root, env, isolated, "status").returncode == 0
    missing = bin_kenning(root, dict(os.environ), isolated, "status")
    assert missing.returncode == 1 and "not installed yet" in missing.stderr


def test_bin_kenning_says_so_while_the_install_runs(isolated, tmp_path):
    root, data = marketplace_install(tmp_path)
    lock = FileLock(data / LOCK_NAME)
    assert lock.acquire(wait=False)
    try:
        result = bin_kenning(root, dict(os.environ), isolated, "status")
    finally:
        lock.release()
    assert result.returncode == 1
    assert result.stderr.startswith("kenning: still installing its dependencies")
    assert str(data / LOG_NAME) in result.stderr


def test_session_start_exports_the_data_folder_for_the_bash_tool(isolated, tmp_path):
    env_file = tmp_path / "session-env" / "sessionstart-hook-0.sh"
    env_file.parent.mkdir()
    data = tmp_path / "it's data"
    env = {**os.environ, "CLAUDE_ENV_FILE": str(env_file), "CLAUDE_PLUGIN_DATA": str(data),
           "KENNING_DISABLE_BACKGROUND": "1"}
    result = subprocess.run([str(REPO / "hooks" / "run"), "session-start"], env=env,
                            input=json.dumps({"session_id": "s1", "cwd": str(isolated),
                                              "hook_event_name": "SessionStart"}),
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == ""
    sourced = subprocess.run(["sh", "-c", f'. "{env_file}"; printf %s "$KENNING_PLUGIN_DATA"'],
                             capture_output=True, text=True)
    assert sourced.stdout == str(data)


# ---- a machine whose python3 is too old ---------------------------------------------------
FAKE_OLD = """import sys
args = sys.argv[1:]
code = args[args.index("-c") + 1]
sys.argv = ["-c"] + args[args.index("-c") + 2:]
sys.version_info = (3, 9, 18, "final", 0)
exec(compile(code, "<string>", "exec"))
"""


def old_python_path(tmp_path: Path) -> Path:
    """A PATH folder whose only python3 reports 3.9 (like macOS's system python3)."""
    folder = tmp_path / "old-bin"
    folder.mkdir()
    (tmp_path / "fake_old.py").write_text(FAKE_OLD, encoding="utf-8")
    real = os.path.realpath(sys.executable)
    (folder / "python3").write_text(f'#!/bin/sh\nexec {real} {tmp_path / "fake_old.py"} "$@"\n',
                                    encoding="utf-8")
    (folder / "python3").chmod(0o755)
    return folder


def run_launcher(root: Path, path: Path, arg: str, cwd: Path, payload: str = "{}"):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "KENNING_PY"))}
    env.update({"PATH": str(path), "KENNING_DISABLE_BACKGROUND": "1"})
    return subprocess.run([str(root / "hooks" / "run"), arg], env=env, cwd=cwd, input=payload,
                          capture_output=True, text=True, timeout=60)


def test_an_old_python3_gets_one_line_of_context_saying_what_to_install(isolated, tmp_path):
    root, _ = marketplace_install(tmp_path)
    shutil.rmtree(tmp_path / "claude" / "plugins" / "data")  # a first session: no venv yet
    path = old_python_path(tmp_path)
    start = run_launcher(root, path, "session-start", isolated)
    assert start.returncode == 0 and start.stderr == ""
    assert start.stdout.count("\n") == 1
    assert "needs Python 3.11 or newer" in start.stdout and "Python 3.9" in start.stdout
    assert "uv python install 3.12" in start.stdout
    for event in ("user-prompt-submit", "pre-tool-use", "post-tool-use", "stop", "session-end"):
        result = run_launcher(root, path, event, isolated)
        assert (result.returncode, result.stdout, result.stderr) == (0, "", ""), event
    server = run_launcher(root, path, "mcp", isolated)
    assert server.returncode == 1 and "needs Python 3.11" in server.stderr
    logged = (isolated.parent / "kenning-home" / "errors.log").read_text(encoding="utf-8")
    assert "needs Python 3.11" in logged


def test_a_newer_python_beside_the_old_python3_is_used(isolated, tmp_path):
    root, _ = marketplace_install(tmp_path)
    path = old_python_path(tmp_path)
    (path / "python3.11").symlink_to(os.path.realpath(sys.executable))
    env_payload = json.dumps({"session_id": "s", "cwd": str(isolated),
                              "hook_event_name": "SessionStart"})
    start = run_launcher(root, path, "session-start", isolated, env_payload)
    assert start.returncode == 0
    assert "kenning project memory for" in start.stdout


def test_with_uv_but_no_python_it_knows_session_start_fetches_one_through_uv(isolated,
                                                                             tmp_path):
    root, _ = marketplace_install(tmp_path)
    shutil.rmtree(tmp_path / "claude" / "plugins" / "data")
    path = old_python_path(tmp_path)
    calls = tmp_path / "uv-calls"
    (path / "uv").write_text(f'#!/bin/sh\necho "$*" >> {calls}\n'
                             '[ "$1 $2" = "python install" ] && exit 0\nexit 2\n',
                             encoding="utf-8")
    (path / "uv").chmod(0o755)
    start = run_launcher(root, path, "session-start", isolated)
    assert start.returncode == 0 and start.stderr == "" and start.stdout.count("\n") == 1
    assert "fetching Python 3.12 through uv" in start.stdout, start.stdout
    deadline = time.monotonic() + 30
    while "python install 3.12" not in (calls.read_text() if calls.exists() else ""):
        assert time.monotonic() < deadline, "uv python install was not started"
        time.sleep(0.1)
    # a second session within minutes does not start another download
    again = run_launcher(root, path, "session-start", isolated)
    assert "fetching Python 3.12 through uv" in again.stdout
    time.sleep(0.5)
    assert calls.read_text().count("python install") == 1
    # other hooks stay silent
    stop = run_launcher(root, path, "stop", isolated)
    assert (stop.returncode, stop.stdout, stop.stderr) == (0, "", "")
