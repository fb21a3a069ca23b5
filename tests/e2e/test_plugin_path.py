"""The README's plugin path, walked as a new user would, through the real Claude Code CLI.

A copy of the repository without `.venv`, a fresh `HOME`, `claude plugin marketplace add`
and `claude plugin install`, then headless sessions against the mock API: the first session
installs the dependencies while it runs (the MCP tools answer from its first seconds, the
Bash tool's `kenning` works once the install is done), the second finds what the first
wrote, a skill writes a fact, a teammate's clone sees the committed facts and merges fact
files, and a machine whose `python3` is too old is told what to install.

One real dependency install per test session (pip's cache is shared with the caller's, so
only the first run on a machine downloads); the teammate reuses it. The tests run in order.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from .mock_api import MockAPI, request_text, stream_events, text, tool_use
from .test_claude_code import CLAUDE, git

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
TOOL = "mcp__plugin_kenning_kenning__"
FACT = "The greeting script runs with python3 hello.py."
REMEMBERED = "Release notes are written in docs/CHANGES.md before tagging."
WAIT_INSTALLED = ("for i in $(seq 1 280); do kenning status >/dev/null 2>&1 && break; sleep 1; "
                  "done; echo \"data=$KENNING_PLUGIN_DATA\"; kenning init --no-move-facts "
                  ">/dev/null && kenning status")


def clone_without_venv(dest: Path) -> Path:
    """The repository as a user's clone has it: tracked and new files, no `.venv`, no caches."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=REPO, capture_output=True, check=True)
    for name in filter(None, listed.stdout.decode().split("\0")):
        source = REPO / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    git(dest, "init", "-q", "-b", "main")
    git(dest, "add", "-A")
    git(dest, "-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "-qm", "kenning")
    return dest


def pip_cache() -> str:
    return os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip")


class User:
    """One person: a fresh HOME with the plugin installed from the marketplace."""

    def __init__(self, root: Path, name: str, plugin: Path, path: str | None = None):
        self.home = root / f"home-{name}"
        self.tmp = root / f"tmp-{name}"
        for folder in (self.home, self.tmp):
            folder.mkdir(parents=True)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("ANTHROPIC_", "CLAUDE", "MCP_", "KENNING_"))}
        self.env.update({
            "HOME": str(self.home), "TMPDIR": str(self.tmp),
            "ANTHROPIC_API_KEY": "sk-ant-dummy-key-for-the-mock", "DISABLE_TELEMETRY": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
            "PIP_CACHE_DIR": pip_cache(),
            "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": f"{name}@example.com",
            "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": f"{name}@example.com",
        })
        if path is not None:
            self.env["PATH"] = path
        # An API address that answers at once: without one the CLI resolves api.anthropic.com
        # first, and on a machine whose DNS never answers that costs ~18 s per command.
        offline = {**self.env, "ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}
        for args in (["marketplace", "add", str(plugin)], ["install", "kenning@kenning"]):
            result = subprocess.run([CLAUDE, "plugin", *args], env=offline, cwd=root,
                                    capture_output=True, text=True, timeout=120,
                                    stdin=subprocess.DEVNULL)
            assert result.returncode == 0, result.stdout + result.stderr
        self.data = self.home / ".claude" / "plugins" / "data" / "kenning-kenning"
        self.sessions = 0

    def session(self, api: MockAPI, project: Path, prompt: str, *extra: str
                ) -> tuple[list[dict], str, str]:
        self.sessions += 1
        debug = self.tmp / f"debug-{self.sessions}.txt"
        result = subprocess.run(
            [CLAUDE, "-p", prompt, "--output-format", "stream-json", "--verbose",
             "--include-hook-events", "--debug-file", str(debug), *extra],
            cwd=project, env={**self.env, "ANTHROPIC_BASE_URL": api.url},
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
        events = stream_events(result.stdout)
        log = debug.read_text(encoding="utf-8", errors="replace") if debug.exists() else ""
        return events, result.stdout + result.stderr, log


def new_project(path: Path) -> Path:
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "hello.py").write_text("print('hello')\n", encoding="utf-8")
    git(path, "add", "hello.py")
    git(path, "-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "-qm", "init")
    return path


def tool_results(body: dict) -> list[str]:
    """The text of every tool_result in the request's last user message."""
    out = []
    for message in body.get("messages", []):
        if message.get("role") != "user" or isinstance(message.get("content"), str):
            continue
        for block in message.get("content") or []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                content = block.get("content")
                if isinstance(content, list):
                    content = " ".join(c.get("text", "") for c in content if isinstance(c, dict))
                out.append(str(content))
    return out


def mcp_status(events: list[dict]) -> dict[str, str]:
    for event in events:
        if event.get("type") == "system" and event.get("subtype") == "init":
            return {s["name"]: s["status"] for s in event.get("mcp_servers", [])}
    return {}


def assert_hooks_clean(events: list[dict], output: str) -> None:
    assert "hook error" not in output.lower(), output[-3000:]
    responses = [e for e in events if e.get("subtype") == "hook_response"]
    assert responses, "no hook ran"
    for event in responses:
        assert event.get("exit_code", 0) == 0 and not event.get("stderr"), event


def hook_latencies(log: str) -> dict[str, list[int]]:
    """kenning's hook durations (ms, as Claude Code measured them) from a debug log."""
    found: dict[str, list[int]] = {}
    pattern = r"Hooks: (\w+)\S* \[[^\]]*hooks/run [^\]]*\] \(plugin kenning@kenning\) " \
              r"finished with status (\d+) \((\d+)ms\)"
    for event, status, ms in re.findall(pattern, log):
        assert status == "0", (event, status)
        found.setdefault(event, []).append(int(ms))
    return found


def mcp_connect_ms(log: str) -> int | None:
    match = re.search(r'MCP server "plugin:kenning:kenning": Successfully connected '
                      r"\(transport: stdio\) in (\d+)ms", log)
    return int(match.group(1)) if match else None


def wait_for(predicate, timeout: float = 120.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.5)
    return predicate()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("plugin-path")
    plugin = clone_without_venv(root / "kenning")
    assert not (plugin / ".venv").exists()
    return {"root": root, "plugin": plugin}


@pytest.fixture(scope="module")
def first_day(world: dict) -> dict:
    """Session 1 of a new user: everything installs while it runs."""
    user = User(world["root"], "ada", world["plugin"])
    project = new_project(world["root"] / "proj")
    script = [
        [tool_use(TOOL + "knowledge_add", {"text": FACT, "kind": "codebase"})],
        [tool_use("Bash", {"command": WAIT_INSTALLED, "timeout": 300000})],
        [tool_use(TOOL + "knowledge_add", {"text": FACT, "kind": "codebase"})],
        [text("All set.")],
    ]
    started = time.monotonic()
    with MockAPI(script, delays={0: 5.0}) as api:  # the first call goes out 5 s in
        events, output, log = user.session(api, project, "Set the project up.",
                                           "--allowedTools", f"{TOOL}*", "Bash")
    return {"user": user, "project": project, "api": api, "events": events,
            "output": output, "log": log, "seconds": time.monotonic() - started}


def test_session_1_has_its_tools_from_the_start_and_kenning_in_the_bash_tool(first_day):
    api, events = first_day["api"], first_day["events"]
    requests = api.main_requests()
    assert len(requests) == 4, [request_text(b)[-600:] for b in requests]
    assert mcp_status(events).get("plugin:kenning:kenning") == "connected", mcp_status(events)
    assert_hooks_clean(events, first_day["output"])
    early = tool_results(requests[1])[-1]
    assert ("installing its dependencies" in early and "Retry" in early) or '"id"' in early, early
    status = tool_results(requests[2])[-1]
    assert "not installed" not in status and "still installing" not in status, status
    assert "Error" not in status and re.search(r"\bfacts?\b", status), status
    # SessionStart told the Bash tool where the runtime is, through $CLAUDE_ENV_FILE
    assert f"data={first_day['user'].data}" in status, status
    retried = tool_results(requests[3])[-1]
    assert '"id"' in retried, retried
    assert mcp_connect_ms(first_day["log"]) is not None, "the server never connected"
    facts = list((first_day["project"] / ".kenning" / "facts").glob("*.yaml"))
    assert [p for p in facts if FACT in p.read_text(encoding="utf-8")], facts
    user = first_day["user"]
    assert (user.data / "venv" / ".kenning-stamp").exists()
    # SessionStart and the MCP server both start the install; the loser logs nothing
    assert "install busy" not in (user.data / "install.log").read_text(encoding="utf-8")
    print(f"\nsession 1 took {first_day['seconds']:.1f} s; install log:\n"
          + (user.data / "install.log").read_text(encoding="utf-8")[-600:])


def test_session_2_injects_and_finds_the_fact_and_no_server_is_failed(first_day):
    user, project = first_day["user"], first_day["project"]
    script = [[tool_use(TOOL + "knowledge_search", {"query": "greeting script hello.py"})],
              [text("Found it.")]]
    with MockAPI(script) as api:
        events, output, log = user.session(api, project, "How is the greeting run?",
                                           "--allowedTools", f"{TOOL}*")
    first_day["logs"] = [first_day["log"], log]
    assert mcp_connect_ms(log) is not None
    statuses = mcp_status(events)
    assert statuses.get("plugin:kenning:kenning") == "connected", statuses
    assert "failed" not in statuses.values(), statuses
    requests = api.main_requests()
    assert FACT in request_text(requests[0])  # the SessionStart block
    found = tool_results(requests[1])[-1]
    assert FACT in found, found
    assert_hooks_clean(events, output)


def test_the_remember_skill_writes_a_fact_file(first_day):
    user, project = first_day["user"], first_day["project"]
    script = [[tool_use("Bash", {"command": f'kenning add --origin user --kind decision '
                                            f'"{REMEMBERED}"'})],
              [text("Remembered.")]]
    with MockAPI(script) as api:
        events, output, _ = user.session(api, project, f"/kenning:remember {REMEMBERED}")
    first = request_text(api.main_requests()[0])
    assert "The user wants this remembered as a project fact" in first
    facts = [p for p in (project / ".kenning" / "facts").glob("*.yaml")
             if REMEMBERED in p.read_text(encoding="utf-8")]
    assert len(facts) == 1 and "origin: user" in facts[0].read_text(encoding="utf-8")
    assert_hooks_clean(events, output)


def test_a_teammates_clone_lists_the_committed_facts_and_merges_fact_tags(first_day, world):
    project = first_day["project"]
    git(project, "add", ".kenning")
    git(project, "-c", "user.name=Ada", "-c", "user.email=ada@example.com", "commit", "-qm",
        "kenning facts")
    clone = world["root"] / "teammate-clone"
    git(world["root"], "clone", "-q", str(project), str(clone))
    mate = User(world["root"], "bob", world["plugin"])
    # the same machine's install, reused: the test pays for one dependency install
    mate.data.parent.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(mate.data, ignore_errors=True)
    mate.data.symlink_to(first_day["user"].data)
    with MockAPI([[text("Hello.")]]) as api:
        events, output, _ = mate.session(api, clone, "What do we know?")
    first = request_text(api.main_requests()[0])
    assert REMEMBERED in first, first[:3000]
    assert_hooks_clean(events, output)
    # the catch-up registers the merge driver in the clone (no `kenning init` needed)
    assert wait_for(lambda: subprocess.run(
        ["git", "config", "--get", "merge.kenning-fact.driver"], cwd=clone,
        capture_output=True).returncode == 0), "merge driver not registered"
    fact = next(p for p in (clone / ".kenning" / "facts").glob("*.yaml")
                if REMEMBERED in p.read_text(encoding="utf-8"))
    base = fact.read_text(encoding="utf-8")
    assert "tags: []" in base
    for branch, tag in (("a", "release"), ("b", "docs")):
        git(clone, "checkout", "-q", "-b", branch, "main")
        fact.write_text(base.replace("tags: []", f"tags: [{tag}]"), encoding="utf-8")
        git(clone, "commit", "-qam", tag)
    git(clone, "checkout", "-q", "a")
    merged = subprocess.run(["git", "merge", "--no-edit", "b"], cwd=clone, env=mate.env,
                            capture_output=True, text=True)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert "tags: [docs, release]" in fact.read_text(encoding="utf-8") or \
        "tags: [release, docs]" in fact.read_text(encoding="utf-8")


def test_closing_note_install_time_venv_size_and_hook_latency(first_day):
    """Not a check (timings vary with the machine's load): what this path measured here."""
    user = first_day["user"]
    log = (user.data / "install.log").read_text(encoding="utf-8")
    ready = re.findall(r"install ready after ([\d.]+) s", log)
    site = next((user.data / "venv" / "lib").glob("python3*/site-packages"))
    sizes = sorted(((sum(f.stat().st_size for f in p.rglob("*") if f.is_file()), p.name)
                    for p in site.iterdir() if p.is_dir() and not p.name.endswith("-info")),
                   reverse=True)
    total = sum(f.stat().st_size for f in (user.data / "venv").rglob("*") if f.is_file())
    lines = [f"venv ready after {ready[0] if ready else '?'} s; {total / 1e6:.0f} MB",
             "largest parts: " + ", ".join(f"{n} {b / 1e6:.0f} MB" for b, n in sizes[:8]),
             "MCP connect (ms): " + ", ".join(str(mcp_connect_ms(x)) for x in
                                              first_day.get("logs", [first_day["log"]]))]
    table: dict[str, list[int]] = {}
    for debug in first_day.get("logs", [first_day["log"]]):
        for event, values in hook_latencies(debug).items():
            table.setdefault(event, []).extend(values)
    lines += [f"{event:24s} n={len(v):2d} median {sorted(v)[len(v) // 2]:4d} ms  max {max(v)} ms"
              for event, v in sorted(table.items())]
    print("\n" + "\n".join(lines))
    assert table
