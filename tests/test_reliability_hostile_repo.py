"""Issue 15's acceptance: a cloned repository whose committed `.kenning/` holds every hostile
file (`hostile.build`). Every CLI command, every MCP tool, every hook and the catch-up runs in
a child under 5 CPU-seconds and 200 MB of address space (resource limits, not timings),
reads nothing outside the repository and the home, and the good facts stay searchable and
injected.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import git
from hostile import (
    AUDIT_PRELUDE,
    GOOD_TEXTS,
    SECRET,
    Bounded,
    build,
    cli_code,
    hook_code,
    run_bounded,
)
from reliability import SESSION

FIXTURES_HOOKS = Path(__file__).parent / "fixtures" / "hooks"


@pytest.fixture
def clone(kenning, repo: Path, tmp_path: Path) -> dict:
    """An initialised repository with two good facts and, committed beside them, every
    hostile file."""
    assert kenning("init", "--no-move-facts").code == 0
    good = [json.loads(kenning("add", text, "--json").out)["id"] for text in GOOD_TEXTS]
    outside = tmp_path / "outside"
    made = build(repo, outside)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a hostile .kenning/")
    return {"repo": repo, "outside": outside, "good": good, "made": made,
            "home": Path(os.environ["KENNING_HOME"])}


def _confined(run: Bounded, clone: dict) -> None:
    """Nothing outside the repository and the home was opened (symlinks resolved)."""
    outside = clone["outside"].resolve()
    assert not [p for p in run.opened if p.is_relative_to(outside)], "read outside the repo"
    assert Path("/dev/zero") not in run.opened


def _survived(run: Bounded, what: str) -> None:
    assert run.code in (0, 1), f"{what}: exit {run.code} (killed by a limit?)\n{run.err[-2000:]}"
    assert "Traceback" not in run.err, f"{what}:\n{run.err[-2000:]}"
    assert "Traceback" not in run.out, f"{what}:\n{run.out[-2000:]}"


def _commands(clone: dict) -> dict[str, tuple[list[str], str]]:
    """Every CLI command (args, stdin); destructive ones aim at a good fact or a bad file."""
    good, repo = clone["good"], clone["repo"]
    bad = clone["made"]
    base = str(bad["fact with month 13"])
    transcript = repo.parent / "transcript.jsonl"
    transcript.write_text(json.dumps({"type": "user", "sessionId": SESSION, "message": {
        "role": "user", "content": "Always run make lint before pushing."}}) + "\n", "utf-8")
    return {
        "add": (["add", "The zebracluster needs a warm cache before deploys."], ""),
        "analyze": (["analyze"], ""),
        "confirm": (["confirm", good[0]], ""),
        "consolidate": (["consolidate", "--dry-run"], ""),
        "contradictions": (["contradictions"], ""),
        "decay": (["decay"], ""),
        "doctor": (["doctor"], ""),
        "edit": (["edit", good[1], "--text", GOOD_TEXTS[1]], ""),
        "export": (["export", "--format", "json"], ""),
        "extract": (["extract", str(transcript), "--dry-run"], ""),
        "forget": (["forget", bad["fact with month 13"].stem], ""),
        "git-sync": (["git-sync"], ""),
        "graph rebuild": (["graph", "rebuild"], ""),
        "graph communities": (["graph", "communities"], ""),
        "graph neighbors": (["graph", "neighbors", "src/app.py"], ""),
        "import": (["import"], ""),
        "index": (["index"], ""),
        "index --full": (["index", "--full"], ""),
        "init": (["init", "--no-move-facts"], ""),
        "list": (["list"], ""),
        "merge-fact": (["merge-fact", base, str(bad["fact with a 30-digit format"]),
                        str(bad["fact linked to /dev/zero"])], ""),
        "projects": (["projects"], ""),
        "rebuild": (["rebuild"], ""),
        "report": (["report", "-o", str(repo.parent / "report.html")], ""),
        "restore": (["restore", good[0]], ""),
        "review": (["review", "--json"], ""),
        "save": (["save", "--no-llm"], "summary: Checked the hostile clone end to end.\n"),
        "search": (["search", "quokkabuild wrapper"], ""),
        "seed": (["seed", "--dry-run"], ""),
        "sessions": (["sessions"], ""),
        "show": (["show", good[0]], ""),
        "stale": (["stale"], ""),
        "status": (["status"], ""),
        "supersede": (["supersede", bad["fact with 30 February"].stem, "New text."], ""),
        "trace": (["trace"], ""),
    }


COMMANDS = ["add", "analyze", "confirm", "consolidate", "contradictions", "decay", "doctor",
            "edit", "export", "extract", "forget", "git-sync", "graph rebuild",
            "graph communities", "graph neighbors", "import", "index", "index --full", "init",
            "list", "merge-fact", "projects", "rebuild", "report", "restore", "review", "save",
            "search", "seed", "sessions", "show", "stale", "status", "supersede", "trace"]


def test_the_command_list_covers_every_cli_command():
    from kenning.cli.app import cli, load_commands

    load_commands()
    listed = {name.split()[0] for name in COMMANDS}
    assert set(cli.commands) <= listed


@pytest.mark.parametrize("name", COMMANDS)
def test_every_cli_command_finishes_bounded_and_confined_in_a_hostile_clone(clone, name):
    args, stdin = _commands(clone)[name]
    run = run_bounded(cli_code(*args), clone["repo"], stdin)
    _survived(run, name)
    _confined(run, clone)
    assert SECRET not in run.out


MCP_CALLS = {
    "knowledge_search": {"query": "quokkabuild wrapper"},
    "knowledge_add": {"text": "The zebracluster keeps a warm cache.", "kind": "codebase"},
    "knowledge_forget": {"id": "01ARZ3NDEKTSV4RRFFQ69G5FAB"},
    "code_search": {"query": "quokka_handler"},
    "session_save": {"summary": "Checked the hostile clone through MCP."},
    "session_recall": {},
    "knowledge_seed": {},
}


# The server as a client starts it, in its own process under the same limits and audit.
AUDITED_SERVER = AUDIT_PRELUDE + "from kenning.mcp.server import serve\nserve()\n"


def _mcp_code(tool: str, args: dict) -> str:
    return f"""
import json, os, sys, anyio
from mcp import Client, StdioServerParameters
server = StdioServerParameters(command=sys.executable, args=["-c", {AUDITED_SERVER!r}],
                               env=dict(os.environ), cwd=os.getcwd())
async def go():
    async with Client(server) as client:
        result = await client.call_tool({tool!r}, json.loads({json.dumps(args)!r}))
        text = result.content[0].text if result.content else ""
        print(json.dumps({{"error": result.is_error, "text": text}}))
anyio.run(go)
"""


def test_the_mcp_call_list_covers_every_tool():
    import anyio
    from mcp import Client

    from mcpclient import stdio_server

    async def names() -> set[str]:
        async with Client(stdio_server()) as client:
            return {t.name for t in (await client.list_tools()).tools}

    assert anyio.run(names) == set(MCP_CALLS)


@pytest.mark.parametrize("tool", sorted(MCP_CALLS))
def test_every_mcp_tool_finishes_bounded_and_confined_in_a_hostile_clone(clone, tool):
    run = run_bounded(_mcp_code(tool, MCP_CALLS[tool]), clone["repo"])
    _survived(run, tool)
    assert run.code == 0, run.err[-2000:]
    _confined(run, clone)
    # The audit saw the server's own process: it opened the project's fact files.
    facts = (clone["repo"] / ".kenning").resolve()
    assert [p for p in run.opened if p.is_relative_to(facts)], sorted(run.opened)[:20]
    reply = json.loads(run.out.strip().splitlines()[-1])
    assert SECRET not in reply["text"]
    if tool == "knowledge_search":
        assert GOOD_TEXTS[0] in reply["text"]
    if tool == "session_recall":
        assert "boom" not in reply["text"]


HOOKS = ["session-start", "user-prompt-submit", "pre-tool-use", "post-tool-use", "stop",
         "pre-compact", "session-end"]
PAYLOAD_FILES = {"session-start": "session_start", "user-prompt-submit": "user_prompt_submit",
                 "pre-tool-use": "pre_tool_use_read", "post-tool-use": "post_tool_use_read",
                 "stop": "stop", "pre-compact": "pre_compact", "session-end": "session_end"}


@pytest.mark.parametrize("event", HOOKS)
def test_every_hook_finishes_bounded_confined_and_silent_on_errors_in_a_hostile_clone(
        clone, event):
    raw = (FIXTURES_HOOKS / f"{PAYLOAD_FILES[event]}.json").read_text(encoding="utf-8")
    payload = json.loads(raw.replace("{cwd}", str(clone["repo"])).replace(
        "{home}", str(clone["repo"].parent)))
    run = run_bounded(hook_code(event), clone["repo"], json.dumps(payload))
    assert run.code == 0 and not run.err, run.err[-2000:]
    _confined(run, clone)
    assert SECRET not in run.out
    if event == "session-start":
        context = json.loads(run.out)["hookSpecificOutput"]["additionalContext"]
        assert GOOD_TEXTS[0] in context and GOOD_TEXTS[1] in context
        assert "0 active facts" not in context


def test_the_catch_up_finishes_bounded_and_confined_and_keeps_the_good_facts(clone, kenning):
    run = run_bounded(f"from kenning.hooks.runner import main\n"
                      f"main(['catchup', {str(clone['repo'])!r}, {SESSION!r}])\n",
                      clone["repo"])
    assert run.code == 0, run.err[-2000:]
    _confined(run, clone)
    errors = clone["home"] / "errors.log"
    logged = errors.read_text("utf-8") if errors.exists() else ""
    assert "Traceback" not in logged
    listed = kenning("list", "--json").out
    assert all(fid in listed for fid in clone["good"])


def test_the_good_facts_stay_searchable_and_every_bad_file_is_reported(clone, kenning):
    result = kenning("rebuild")
    assert result.code == 0, result.err
    assert "Traceback" not in result.err
    assert result.out.startswith(f"indexed {len(clone['good'])} facts")
    for label, path in clone["made"].items():
        if label.startswith("fact"):
            assert os.fsdecode(path.name).split("\udcff")[0][:20] in result.err, label
    hits = kenning("search", "quokkabuild wrapper", "--json")
    assert hits.code == 0 and clone["good"][0] in hits.out
    status = kenning("status")
    assert status.code == 0 and "active                 2" in status.out
    sessions = kenning("sessions")
    assert sessions.code == 0
    for name in ("bomb", "zero", "stolen", "baddate"):
        assert f"{name}.yaml" in sessions.err, name
    assert SECRET not in sessions.out
