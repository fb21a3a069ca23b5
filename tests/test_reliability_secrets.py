"""Scenario 5: secrets end to end, and `forget --purge` leaving no copy.

A session full of secrets goes through every door kenning has: the hooks (prompt, tool
inputs, the detached extraction and catch-up they spawn), the CLI, the MCP tools, the index
and the logs. Then every byte kenning wrote (fact YAML, saved sessions, index.db and its WAL,
every log and state file) is searched: zero secrets.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import time
from pathlib import Path

import anyio
from mcp import Client

from conftest import git
from kenning.core.paths import current_project
from kenning.core.records import Anchor
from kenning.core.redact import find_secrets
from kenning.hooks.marks import mark_path
from kenning.memory import Memory
from mcpclient import stdio_server
from reliability import PYTHON, SESSION, Transcript, files_under, report, run_hook
from sample_secrets import PEM, SECRETS

S = SECRETS


def _session(path: Path) -> Transcript:
    t = Transcript(path)
    t.user(f"Always pass --token {S['github']} to scripts/deploy.sh when releasing.")
    t.user(f"We use postgres://admin:{S['url_password']}@db.internal:5432/app for staging.")
    t.user(f"Never hardcode {S['aws']} in config/settings.py; read it from the environment.")
    t.user(f"The deploy job must export STRIPE_KEY={S['stripe']} before scripts/release.sh.")
    t.user(f"We use the OpenAI key {S['openai']} for the eval harness in tools/eval.py.")
    t.user(f"Always set ANTHROPIC_API_KEY={S['anthropic']} in .env.local for the summariser.")
    t.user(f"No, use password={S['password']} for the local db, not the default one.")
    t.user(f"Use curl -H \"Authorization: Bearer {S['jwt']}\" against staging only.")
    t.user(f"We use the Slack bot token {S['slack']} for alerts in ops/alerts.py.")
    t.user(f"Maps calls must use key={S['google']} from the frontend config.")
    t.assistant(f"I will keep {S['aws_secret']} out of the repo. <private>{S['github']}</private>")
    t.bash("cat .env", f"AWS_SECRET_ACCESS_KEY={S['aws_secret']}\n{PEM}\n"
           f'{{"api_key": "{S["openai"]}"}}')
    t.bash(f"deploy --token {S['github']}", "bash: deploy: command not found", error=True)
    t.bash(f"./scripts/deploy.sh --token {S['github']}", "deployed")
    return t


def _wait_idle(local: Path, session: str, timeout: float = 90) -> None:
    """The detached extractor and catch-up the hooks spawned have finished."""
    from kenning.core.locks import is_locked

    deadline = time.monotonic() + timeout
    home = Path(os.environ["KENNING_HOME"])
    locks = [home / "extract.lock", local / "catchup.lock"]
    while time.monotonic() < deadline:
        busy = Path(mark_path(str(local), session)).exists()
        for lock in locks:
            if is_locked(lock):
                busy = True
        if not busy:
            return
        time.sleep(0.2)
    raise AssertionError("the background extraction never finished")


def _leaks(roots: list[Path]) -> list[str]:
    found = []
    for path in files_under(*roots):
        data = path.read_bytes()
        for name, secret in SECRETS.items():
            if secret.encode() in data:
                found.append(f"{name} in {path}")
    return found


def test_a_session_full_of_secrets_leaves_none_in_anything_kenning_wrote(repo, kenning,
                                                                        tmp_path):
    assert kenning("init", "--no-move-facts").code == 0
    (repo / "scripts").mkdir()
    (repo / "scripts" / "deploy.sh").write_text("#!/bin/sh\necho deploying\n", "utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "scripts")
    project = current_project(repo)
    t = _session(tmp_path / "claude" / f"{SESSION}.jsonl")
    base = {"session_id": SESSION, "cwd": str(repo), "transcript_path": str(t.path)}
    background = {"KENNING_DISABLE_BACKGROUND": "0"}
    hooks = [
        ("session-start", {**base, "source": "startup"}, background),
        ("user-prompt-submit", {**base, "prompt": f"deploy with {S['github']} and "
                                f"{S['stripe']}, password={S['password']}"}, None),
        ("pre-tool-use", {**base, "tool_name": "Edit", "tool_input": {
            "file_path": f"{repo}/scripts/deploy.sh", "new_string": f"TOKEN={S['github']}"}},
         None),
        ("post-tool-use", {**base, "tool_name": "Bash", "tool_input": {
            "command": f"export OPENAI_API_KEY={S['openai']}"},
            "tool_response": {"stdout": S["anthropic"]}, "tool_use_id": "t1"}, None),
        ("post-tool-use", {**base, "tool_name": "Grep", "tool_input": {
            "pattern": S["aws"], "glob": f"*{S['slack']}*"}, "tool_use_id": "t2"}, None),
        ("post-tool-use", {**base, "tool_name": "Write", "tool_input": {
            "file_path": f"{repo}/.env", "content": PEM}, "tool_use_id": "t3"}, None),
        ("post-tool-use-failure", {**base, "tool_name": "Bash", "tool_input": {
            "command": f"curl -u admin:{S['url_password']} x"},
            "error": f"401 for {S['jwt']}", "tool_use_id": "t4"}, None),
        ("stop", {**base, "stop_hook_active": False}, None),
        ("pre-compact", {**base, "trigger": "auto"}, background),
    ]
    for event, payload, env in hooks:
        result, _ = run_hook(event, payload, env=env)
        assert result.returncode == 0, (event, result.stderr)
    _wait_idle(project.local_dir, SESSION)
    added = [f for f in project.project_facts_dir.glob("*.yaml")]
    assert len(added) >= 8, "the background extraction wrote too few facts"

    # The CLI and the MCP tools, handed secrets directly.
    assert kenning("add", f"Staging uses the key {S['google']} for maps.", "--tag",
                   S["slack"], "--rationale", f"because {S['aws']} expired").code == 0
    assert kenning("search", S["github"]).code == 0
    assert kenning("search", S["password"]).code == 0  # finds nothing: logged as a gap
    assert kenning("search", f"token {S['stripe']}", "--type", "all").code == 0
    assert kenning("index").code == 0

    async def mcp() -> None:
        async with Client(stdio_server()) as client:
            calls = [
                ("knowledge_add", {"text": f"The CI token is {S['github']} for releases.",
                                   "kind": "decision", "rationale": f"see {S['jwt']}",
                                   "tags": [S["openai"]], "topic": S["stripe"],
                                   "about": [f"scripts/deploy.sh:{S['aws']}"]}),
                ("knowledge_search", {"query": f"where is {S['anthropic']} used"}),
                ("code_search", {"query": S["slack"]}),
                ("session_save", {"summary": f"Rotated {S['github']} after the leak.",
                                  "decisions": [f"Use {S['aws']} only in CI."],
                                  "name": "rotation"}),
            ]
            for name, args in calls:
                await client.call_tool(name, args)

    anyio.run(mcp)
    subprocess.run([PYTHON, "-m", "kenning", "rebuild"], cwd=repo, capture_output=True)

    events = [json.loads(line) for line in project.events_path.read_text("utf-8").splitlines()]
    assert any(e.get("type") == "gap" and "[REDACTED:" in e["query"] for e in events)
    assert any(e.get("type") == "search" and "[REDACTED:" in e["pattern"] for e in events)
    home = Path(os.environ["KENNING_HOME"])
    written = [home, repo / ".kenning"]
    leaks = _leaks(written)
    assert leaks == [], leaks
    scanned = files_under(*written)
    for path in scanned:  # nothing the scrubber itself would still call a secret
        if path.suffix in (".yaml", ".jsonl", ".json", ".log"):
            text = path.read_text(encoding="utf-8", errors="replace")
            assert find_secrets(text) == [], (path, find_secrets(text))
    report("secrets end to end", secrets=len(SECRETS), hook_calls=len(hooks), mcp_calls=4,
           files_scanned=len(scanned), bytes_scanned=sum(p.stat().st_size for p in scanned),
           facts=len(list(project.project_facts_dir.glob("*.yaml"))), leaks=0)


# ---- forget --purge --------------------------------------------------------------------------
MARK = "zanzibarquokka"


def _copies(roots: list[Path], needles: list[str]) -> list[str]:
    found = []
    for path in files_under(*roots):
        data = path.read_bytes()
        found += [f"{n} in {path}" for n in needles if n.encode() in data]
    return found


def test_forget_purge_leaves_no_copy_in_the_index_its_wal_or_any_log(repo, kenning, tmp_path):
    assert kenning("init", "--no-move-facts").code == 0
    (repo / "src").mkdir()
    (repo / "src" / "gateway.py").write_text("def route():\n    return 1\n", "utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "src")
    project = current_project(repo)
    memory = Memory(project, embedder_name="fake")
    text = f"The {MARK} gateway listens on the internal port 4711 for route calls."
    fid = memory.add(text, "codebase", about=[Anchor("src/gateway.py", "route")]).fact.id
    keep = memory.add("The billing module rounds half up.", "codebase").fact.id
    memory.sync()
    memory.close()
    assert kenning("index").code == 0
    # Use it every way there is: search, hook injection, the anchors map, an extraction that
    # saw it injected and heard it restated, the graph and the report.
    assert kenning("search", f"{MARK} gateway").code == 0
    base = {"session_id": SESSION, "cwd": str(repo)}
    for event, payload in (
        ("session-start", {**base, "source": "startup"}),
        ("user-prompt-submit", {**base, "prompt": f"which port does the {MARK} gateway use"}),
        ("pre-tool-use", {**base, "session_id": "s2", "tool_name": "Read",
                          "tool_input": {"file_path": "src/gateway.py"}}),
        ("post-tool-use", {**base, "tool_name": "Read",
                           "tool_input": {"file_path": "src/gateway.py"}}),
    ):
        result, _ = run_hook(event, payload)
        assert result.returncode == 0
    t = Transcript(tmp_path / "claude" / f"{SESSION}.jsonl")
    t.user(f"<kenning-context>\n- [codebase 1.00 {fid}; why] {text}\n</kenning-context>",
           isMeta=True)
    t.user(f"Remember that the {MARK} gateway listens on the internal port 4711 always.")
    t.user(f"Always restart the {MARK} gateway after editing src/gateway.py configs.")
    result, _ = run_hook("pre-compact", {**base, "transcript_path": str(t.path)},
                         env={"KENNING_DISABLE_BACKGROUND": "0"})
    assert result.returncode == 0
    _wait_idle(project.local_dir, SESSION)
    for args in (["graph", "rebuild"], ["report", "--output",
                                        str(project.local_dir / "report.html")]):
        assert kenning(*args).code == 0, args
    conn = sqlite3.connect(project.index_path)
    assert conn.execute("SELECT count(*) FROM graph_nodes WHERE id = ?",
                        (f"fact:{fid}",)).fetchone()[0] == 1
    conn.close()
    home = Path(os.environ["KENNING_HOME"])
    roots = [home, repo / ".kenning"]
    assert _copies(roots, [MARK, fid]), "the fact was never spread around"
    others = [p.stem for p in project.project_facts_dir.glob("*.yaml") if p.stem != fid
              and MARK in p.read_text(encoding="utf-8")]
    for other in others:  # facts extracted from the restatements carry the word too
        assert kenning("forget", other, "--purge").code == 0
    result = kenning("forget", fid, "--purge")
    assert result.code == 0, result.err
    left = _copies(roots, [MARK, fid])
    assert left == [], left
    assert [v["id"] for v in json.loads(kenning("list", "--json").out)] == [keep]
    report("forget --purge", purged=1 + len(others), files_scanned=len(files_under(*roots)),
           copies_left=0)


def _index_bytes(project) -> list[str]:
    """Every secret found in the index, its WAL or its shared-memory file."""
    paths = [Path(str(project.index_path) + suffix) for suffix in ("", "-wal", "-shm")]
    return [f"{name} in {p.name}" for p in paths if p.exists()
            for name, secret in SECRETS.items() if secret.encode() in p.read_bytes()]


def test_a_secret_committed_in_source_is_never_indexed_shown_or_searchable(repo, kenning):
    source = "\n".join(f'{name.upper()}_TOKEN = "{secret}"' for name, secret in SECRETS.items()
                       if name != "pem")
    (repo / "settings.py").write_text(
        f'"""Deploy settings."""\n\n{source}\nKEY = """{PEM}"""\n\n\n'
        "def deploy_target():\n    return 'eu-west-1'\n", "utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "settings")
    assert kenning("index").code == 0
    project = current_project(repo)
    memory = Memory(project, embedder_name="fake")
    memory.index.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    memory.close()
    assert _index_bytes(project) == []
    # The file is still indexed: its code is found, with the secrets shown as markers.
    hits = json.loads(kenning("search", "deploy settings token", "--type", "code",
                              "--json").out)
    assert any(h["path"] == "settings.py" for h in hits)
    shown = json.dumps(hits)
    assert "[REDACTED:" in shown and not any(s in shown for s in SECRETS.values())
    # Line numbers are those of the file, although the PEM block became one marker.
    line = (repo / "settings.py").read_text("utf-8").splitlines().index("def deploy_target():")
    symbols = json.loads(kenning("search", "deploy target", "--type", "code", "--json").out)
    assert any(h["symbol"] == "deploy_target" and h["start_line"] == line + 1 for h in symbols)


def test_an_index_from_before_scrubbing_has_its_secret_files_rewritten_once(repo, kenning):
    (repo / "app.py").write_text(f'API = "{SECRETS["github"]}"\n\n\ndef run():\n    pass\n',
                                 "utf-8")
    (repo / "clean.py").write_text("def add(a, b):\n    return a + b\n", "utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "app")
    assert kenning("index").code == 0
    project = current_project(repo)
    # What an older kenning left: the raw text in the rows and no scrubbing mark.
    conn = sqlite3.connect(project.index_path)
    conn.execute("UPDATE chunks SET text = ? WHERE path = 'app.py'",
                 (f'API = "{SECRETS["github"]}"',))
    conn.execute("DELETE FROM meta WHERE key = 'code_redaction'")
    conn.commit()
    clean_rows = conn.execute("SELECT id FROM chunks WHERE path = 'clean.py'").fetchall()
    conn.close()
    assert kenning("index").code == 0  # nothing changed on disk, yet app.py is redone
    conn = sqlite3.connect(project.index_path)
    texts = [r[0] for r in conn.execute("SELECT text FROM chunks WHERE path = 'app.py'")]
    # A file without a secret keeps its rows: the upgrade does not re-index everything.
    assert conn.execute("SELECT id FROM chunks WHERE path = 'clean.py'").fetchall() == clean_rows
    assert conn.execute("SELECT value FROM meta WHERE key = 'code_redaction'").fetchone()
    conn.close()
    assert texts and not any(SECRETS["github"] in t for t in texts)
