"""Scenario 3: everything that writes, writing at once.

Two sessions' hooks (through `hooks/run`), the CLI (add, search, list, rebuild), the MCP
server (knowledge_add, knowledge_search) and the hooks' extraction runner run side by side
for `KENNING_RELIABILITY_SECONDS` (default 20 s). Afterwards every event each session sent is
in the log exactly once, every acknowledged fact is a whole YAML file and in the index the
hooks read, every extracted session has all its facts, and no process saw an error.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from kenning.core.paths import current_project
from kenning.memory import Memory
from kenning.store.factfile import read_fact_file
from kenning.store.facts import scan
from kenning.store.projectinit import init_project
from reliability import PYTHON, RUN, SESSION, check_hook_output, integrity, report, scale, spawn

pytestmark = pytest.mark.slow
SECONDS = float(os.environ.get("KENNING_RELIABILITY_SECONDS", "20")) * scale()
STATEMENTS = 5

PRELUDE = r"""
import json, os, sys, time
go, ack_path, deadline = sys.argv[1], sys.argv[2], float(sys.argv[3])
while not os.path.exists(go):
    time.sleep(0.01)
ack = open(ack_path, "a", encoding="utf-8")
def acked(line):
    ack.write(line + "\n")
    ack.flush()
"""

SESSION_HOOKS = PRELUDE + r"""
import subprocess
run, root, session = sys.argv[4], sys.argv[5], sys.argv[6]
env = {**os.environ, "KENNING_DISABLE_BACKGROUND": "1"}
outputs = open(ack_path + ".out", "a", encoding="utf-8")
base = {"session_id": session, "cwd": root, "transcript_path": f"{root}/../{session}.jsonl"}
def hook(event, **payload):
    r = subprocess.run([run, event], input=json.dumps({**base, **payload}).encode(),
                       capture_output=True, env=env, timeout=30)
    assert r.returncode == 0, (event, r.stderr)
    outputs.write(json.dumps([event, r.stdout.decode()]) + "\n")
hook("session-start", hook_event_name="SessionStart", source="startup")
n = 0
while time.time() < deadline:
    n += 1
    tid = f"{session}-{n}"
    path = f"{root}/src/area{n % 9}/module.py"
    hook("post-tool-use", hook_event_name="PostToolUse", tool_name="Read",
         tool_input={"file_path": path}, tool_use_id=tid)
    acked(tid)
    if n % 3 == 0:
        hook("user-prompt-submit", hook_event_name="UserPromptSubmit",
             prompt="which concurrent fact covers the subsystem and its module layout")
    if n % 4 == 0:
        hook("pre-tool-use", hook_event_name="PreToolUse", tool_name="Read",
             tool_input={"file_path": path})
    if n % 5 == 0:
        hook("stop", hook_event_name="Stop", stop_hook_active=False)
"""

CLI = PRELUDE + r"""
import contextlib, io
from kenning.cli import main
def cli(*args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            main(list(args))
        except SystemExit as exc:
            assert not exc.code, (args, exc.code)
    return out.getvalue()
n = 0
while time.time() < deadline:
    n += 1
    fid = json.loads(cli("add", f"Concurrent cli fact {n} covers the subsystem number {n}.",
                         "--about", f"src/area{n % 9}/module.py", "--json"))["id"]
    acked(fid)
    if n % 4 == 0:
        cli("search", "subsystem module", "--json")
    if n % 6 == 0:
        cli("list", "--json")
    if n % 10 == 0:
        cli("rebuild")
"""

MCP = PRELUDE + r"""
import anyio
from mcp import Client
sys.path.insert(0, sys.argv[4])
from mcpclient import stdio_server
async def go():
    async with Client(stdio_server()) as client:
        n = 0
        while time.time() < deadline:
            n += 1
            r = await client.call_tool("knowledge_add", {
                "text": f"Concurrent agent decision {n} keeps subsystem layout number {n}.",
                "kind": "decision"})
            assert not r.is_error, r.content[0].text
            acked(json.loads(r.content[0].text)["id"])
            if n % 2 == 0:
                r = await client.call_tool("knowledge_search", {"query": "subsystem layout"})
                assert not r.is_error, r.content[0].text
anyio.run(go)
"""

EXTRACTOR = PRELUDE + r"""
from pathlib import Path
sys.path.insert(0, sys.argv[5])
from reliability import Transcript, statements
from kenning.hooks.extract_runner import run
from kenning.core.paths import current_project
root = sys.argv[4]
local = str(current_project(root).local_dir)
k = 0
while time.time() < deadline:
    k += 1
    session = f"{k:08d}-cccc-4d0e-9a51-0c7f3e2b9d44"
    t = Transcript(Path(root).parent / "transcripts" / f"{session}.jsonl", session=session)
    statements(t, int(sys.argv[6]), start=70000 + k * 100)
    mark = Path(local) / "extract-pending" / f"{session}.json"
    mark.parent.mkdir(parents=True, exist_ok=True)
    mark.write_text(json.dumps({"session": session, "transcript": str(t.path), "root": root}))
    assert run(local, sessions=[session]) == 1, session
    acked(session)
"""


def _lines(path: Path) -> list[str]:
    """A log's records; blank lines (a writer that saw another's line half copied starts its
    own on a new line) are skipped, as kenning's readers skip them."""
    try:
        return [line for line in path.read_text(encoding="utf-8").splitlines() if line]
    except FileNotFoundError:
        return []


def test_hooks_cli_mcp_and_extraction_writing_at_once_lose_nothing(repo, tmp_path):
    project = current_project(repo)
    init_project(project, move_facts=False)
    Memory(project, embedder_name="fake").sync()  # the index exists before the race starts
    go = tmp_path / "go"
    deadline = time.time() + 3 + SECONDS  # children start (imports) within the 3 s
    acks = {name: tmp_path / f"{name}.acks" for name in ("a", "b", "cli", "mcp", "extract")}
    second = SESSION.replace("5560", "7770")
    procs = {
        "a": spawn(SESSION_HOOKS, str(go), str(acks["a"]), str(deadline), str(RUN), str(repo),
                   SESSION),
        "b": spawn(SESSION_HOOKS, str(go), str(acks["b"]), str(deadline), str(RUN), str(repo),
                   second),
        "cli": spawn(CLI, str(go), str(acks["cli"]), str(deadline), cwd=repo),
        "mcp": spawn(MCP, str(go), str(acks["mcp"]), str(deadline), str(Path(__file__).parent),
                     cwd=repo),
        "extract": spawn(EXTRACTOR, str(go), str(acks["extract"]), str(deadline), str(repo),
                         str(Path(__file__).parent), str(STATEMENTS), cwd=repo),
    }
    go.write_text("go", encoding="utf-8")
    for name, proc in procs.items():
        proc.wait(timeout=SECONDS + 180)
        err = proc.stderr.read().decode("utf-8", "replace")
        assert proc.returncode == 0, f"{name} failed:\n{err[-3000:]}"
        assert "Traceback" not in err, f"{name}:\n{err[-3000:]}"

    # Events: each session's tool calls, once each, every line whole JSON.
    events = [json.loads(line) for line in _lines(project.events_path)]
    by_tool_use: dict[str, int] = {}
    for event in events:
        if event.get("tool_use_id"):
            by_tool_use[event["tool_use_id"]] = by_tool_use.get(event["tool_use_id"], 0) + 1
    sent = _lines(acks["a"]) + _lines(acks["b"])
    assert sent and all(by_tool_use.get(tid) == 1 for tid in sent)
    assert len(by_tool_use) == len(sent)
    for name in ("a", "b"):
        for line in _lines(Path(str(acks[name]) + ".out")):
            event, stdout = json.loads(line)
            check_hook_output(event, stdout)
    assert _lines(project.error_log) == [], "a hook or a background job logged an error"

    # Facts: every acknowledged write is a whole file.
    cli_ids, mcp_ids = set(_lines(acks["cli"])), set(_lines(acks["mcp"]))
    stored = scan(project)
    assert stored.problems == []
    ids = {s.fact.id for s in stored.facts}
    assert cli_ids <= ids and mcp_ids <= ids
    for s in stored.facts:
        assert read_fact_file(s.path) == s.fact
    sessions = _lines(acks["extract"])
    extracted: dict[str, int] = {}
    for s in stored.facts:
        if s.fact.source.session in sessions:
            extracted[s.fact.source.session] = extracted.get(s.fact.source.session, 0) + 1
    assert sessions and all(extracted.get(s) == STATEMENTS for s in sessions), extracted

    # The index the hooks read already holds every fact the CLI and the MCP server wrote
    # (both sync after a write), before anyone syncs again.
    assert integrity(project.index_path) == "ok"
    conn = sqlite3.connect(project.index_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    in_index = {r[0] for r in conn.execute("SELECT id FROM facts")}
    conn.close()
    assert cli_ids | mcp_ids <= in_index, "a write the hooks cannot see"
    memory = Memory(project, embedder_name="fake")
    assert {v.row.id for v in memory.facts()} == ids
    memory.close()
    report("concurrent writers", seconds=round(SECONDS), hook_events=len(sent),
           events_logged=len(events), cli_facts=len(cli_ids), mcp_facts=len(mcp_ids),
           extracted_sessions=len(sessions), extracted_facts=sum(extracted.values()),
           facts_total=len(ids))


# ---- the races the soak above can only hit by luck, made deterministic -----------------------
def _on_disk(project) -> set[str]:
    """Fact ids in the index file as a hook opens it now."""
    conn = sqlite3.connect(project.index_path)
    try:
        return {r[0] for r in conn.execute("SELECT id FROM facts")}
    finally:
        conn.close()


def test_a_long_running_server_keeps_writing_the_live_index_after_a_rebuild(repo):
    project = current_project(repo)
    server = Memory(project, embedder_name="fake")
    first = server.add("The server wrote this fact before the rebuild.", "codebase").fact.id
    server.sync()
    Memory(project, embedder_name="fake").rebuild()  # `kenning rebuild` in another process
    second = server.add("The server wrote this fact after the rebuild.", "codebase").fact.id
    server.sync()
    assert {first, second} <= _on_disk(project)
    server.close()


def test_a_purge_elsewhere_drops_the_fact_from_a_running_servers_answers(repo):
    project = current_project(repo)
    server = Memory(project, embedder_name="fake")
    fid = server.add("The quokka gateway runs on port 4711.", "codebase").fact.id
    assert [h.id for h in server.search_facts("quokka gateway", record=None)] == [fid]
    Memory(project, embedder_name="fake").purge(fid)  # `kenning forget --purge` elsewhere
    assert server.search_facts("quokka gateway", record=None) == []
    server.close()


def test_processes_opening_a_new_index_at_once_all_get_it(tmp_path):
    code = ("import sys; from pathlib import Path; from kenning.index.db import open_index; "
            "conn, writable = open_index(Path(sys.argv[1])); assert writable")
    for trial in range(3):
        path = tmp_path / f"index{trial}.db"
        procs = [spawn(code, str(path)) for _ in range(6)]
        for proc in procs:
            proc.wait(timeout=60)
            assert proc.returncode == 0, proc.stderr.read().decode()


def test_a_fact_written_within_the_same_clock_tick_as_a_sync_is_still_indexed(repo):
    """Folder mtimes are coarse (a few ms, 1-2 s on some file systems): a fact written in the
    same tick as the last sync leaves the folder's mtime unchanged (racy-git's problem)."""
    project = current_project(repo)
    memory = Memory(project, embedder_name="fake")
    memory.add("The first fact lands before the sync.", "codebase")
    memory.sync()
    folder = project.personal_facts_dir
    tick = folder.stat().st_mtime_ns
    other = Memory(project, embedder_name="fake")
    late = other.store.create("The second fact lands in the same tick.", "codebase")
    os.utime(folder, ns=(tick, tick))  # what a coarse clock does
    other.close()
    assert late.id in {v.row.id for v in memory.facts()}
    assert late.id in {v.row.id for v in Memory(project, embedder_name="fake").facts()}
    memory.close()


def test_a_same_size_rewrite_within_the_same_tick_is_still_indexed(repo):
    project = current_project(repo)
    memory = Memory(project, embedder_name="fake")
    fid = memory.add("A fact that another process re-confirms at once.", "codebase",
                     origin="agent").fact.id
    memory.sync()
    path = memory.store.locate(fid).path
    folder, before = path.parent.stat(), path.stat()
    other = Memory(project, embedder_name="fake")
    other.store.update(fid, confidence=90)  # 0.70 -> 0.90: same size, new content
    other.close()
    assert path.stat().st_size == before.st_size
    os.utime(path, ns=(before.st_mtime_ns, before.st_mtime_ns))
    os.utime(path.parent, ns=(folder.st_mtime_ns, folder.st_mtime_ns))
    assert memory.get_view(fid).row.confidence == 90
    memory.close()


def test_a_rebuild_while_another_process_has_the_index_open_keeps_it_whole(repo):
    """A rebuild replaces the file while a hook or the MCP server still reads the old one;
    their closing the old file (a checkpoint, the WAL's removal) must not touch the new."""
    project = current_project(repo)
    memory = Memory(project, embedder_name="fake")
    for n in range(20):
        memory.store.create(f"Fact {n} about the {n}th rebuild race.", "codebase")
    memory.sync()
    reader = subprocess.Popen(
        [PYTHON, "-c", "import sqlite3, sys\n"
         "conn = sqlite3.connect(sys.argv[1])\n"
         "conn.execute('SELECT count(*) FROM facts').fetchone()\n"
         "print('open', flush=True)\n"
         "sys.stdin.readline()\n"
         "conn.close()\n", str(project.index_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert reader.stdout.readline().strip() == b"open"
    memory.rebuild()
    late = memory.add("A fact written after the rebuild, before the reader closes.",
                      "codebase").fact.id
    memory.sync()
    memory.close()
    reader.communicate(b"close\n", timeout=30)  # its connection to the index closes
    assert integrity(project.index_path) == "ok"
    assert late in _on_disk(project) and len(_on_disk(project)) == 21
