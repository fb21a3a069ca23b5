"""Issue 15: bad input and hostile conditions, one regression test per item.

Writes the reader would refuse (oversized, not UTF-8), a full or read-only disk, a torn log
line, a hostile config, and the one-line errors that replaced tracebacks.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client

from conftest import git
from kenning.core.config import load_config
from kenning.core.errors import KenningError
from kenning.core.paths import current_project
from kenning.store import eventlog
from kenning.store import events as events_reader
from mcpclient import stdio_server
from reliability import SESSION, run_hook

BIG = "word " * 14_000  # 70 KB: over the 64 KB a fact file may hold


def _fact_files(repo: Path) -> dict[str, str]:
    return {p.name: p.read_text("utf-8") for p in (repo / ".kenning" / "facts").glob("*.yaml")}


def _one_error_line(err: str) -> None:
    assert err.startswith("Error: ") and err.count("\n") == 1 and "Traceback" not in err, err


@pytest.fixture
def project(kenning, repo: Path) -> dict:
    assert kenning("init", "--no-move-facts").code == 0
    good = json.loads(kenning("add", "Builds run through the quokka wrapper.", "--json").out)
    return {"repo": repo, "good": good["id"]}


# ---- item 4: writes the reader refuses ----------------------------------------------------
@pytest.mark.parametrize("args", [
    ["add", BIG],
    ["add", "A short fact about quokkas.", "--rationale", BIG],
    ["add", "A short fact about quokkas.", "--tag", BIG],
    ["add", "A short fact about quokkas.", "--topic", BIG],
    ["add", "A short fact about quokkas.", *sum((["--about", f"src/{'d' * 200}/{n}.py"]
                                                 for n in range(400)), [])],
], ids=["text", "rationale", "tag", "topic", "about"])
def test_an_add_the_reader_would_refuse_is_refused_before_anything_is_written(
        project, kenning, args):
    before = _fact_files(project["repo"])
    result = kenning(*args)
    assert result.code == 1
    _one_error_line(result.err)
    assert _fact_files(project["repo"]) == before


def test_an_edit_over_the_read_cap_leaves_the_good_fact_intact(project, kenning):
    before = _fact_files(project["repo"])
    result = kenning("edit", project["good"], "--text", BIG)
    assert result.code == 1
    _one_error_line(result.err)
    assert _fact_files(project["repo"]) == before
    assert kenning("show", project["good"]).code == 0


def test_knowledge_add_over_the_read_cap_is_a_tool_error_and_writes_nothing(project):
    before = _fact_files(project["repo"])

    async def call():
        async with Client(stdio_server()) as client:
            return await client.call_tool("knowledge_add", {"text": BIG, "kind": "codebase"})

    result = anyio.run(call)
    assert result.is_error and "64 KB" in result.content[0].text
    assert _fact_files(project["repo"]) == before


def test_a_saved_session_over_the_read_cap_is_refused_before_any_fact_is_added(project):
    from kenning.extract.sessions import save_session
    from kenning.memory import Memory

    memory = Memory(current_project(), embedder_name="fake")
    before = _fact_files(project["repo"])
    fields = {"summary": "Big.", "pending_tasks": [f"task {n} " + "x" * 1900 for n in range(100)],
              "blockers": [f"blocker {n} " + "y" * 1900 for n in range(100)],
              "files_touched": [f"f{n}" + "z" * 1900 for n in range(100)],
              "decisions": [f"Decided {n} " + "w" * 1900 for n in range(100)]}
    with pytest.raises(KenningError, match="shorten"):
        save_session(memory, fields)
    memory.close()
    assert _fact_files(project["repo"]) == before
    assert not list((project["repo"] / ".kenning" / "sessions").glob("*.yaml"))


# ---- item 5: input that is not UTF-8 ------------------------------------------------------
@pytest.mark.parametrize("args", [["add", "caf\udce9 au lait is the build word"],
                                  ["add", "A fact about quokkas.", "--tag", "t\udcff"]],
                         ids=["text", "tag"])
def test_an_add_with_bytes_that_are_not_utf8_is_refused(project, kenning, args):
    before = _fact_files(project["repo"])
    result = kenning(*args)
    assert result.code == 1 and "not UTF-8" in result.err
    _one_error_line(result.err)
    assert _fact_files(project["repo"]) == before


def test_the_console_script_refuses_raw_non_utf8_argv(project):
    result = subprocess.run([sys.executable, "-m", "kenning", "add", b"caf\xe9 quokka"],
                            capture_output=True, cwd=project["repo"])
    assert result.returncode == 1 and b"not UTF-8" in result.stderr
    assert b"Traceback" not in result.stderr


# ---- item 6: a file name that is not UTF-8 -------------------------------------------------
@pytest.mark.parametrize("use_git", [True, False], ids=["git", "no-git"])
def test_one_non_utf8_file_name_does_not_stop_the_code_index(kenning, repo, use_git):
    src = repo / "src"
    src.mkdir()
    (src / "app.py").write_text("def quokka_handler():\n    return 1\n", "utf-8")
    Path(os.fsdecode(os.fsencode(src) + b"/\xff.py")).write_text("x = 1\n", "utf-8")
    if use_git:
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "odd name")
    else:
        subprocess.run(["rm", "-rf", str(repo / ".git")], check=True)
    result = kenning("index", "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["indexed"] >= 1
    assert "src/app.py" in kenning("search", "quokka_handler", "--json").out


# ---- items 7 and 8: a full disk, a read-only index, a torn line ----------------------------
@pytest.fixture
def small_disk(tmp_path: Path):
    """A 3 MB tmpfs (CI runs as root); skipped with a reason only where mounting is impossible
    outside CI."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"CI must be able to mount a tmpfs: {done.stderr.strip()}")
        pytest.skip(f"cannot mount a tmpfs here (needs root): {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def _fill(disk: Path) -> Path:
    filler = disk / "filler"
    with filler.open("wb") as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
                handle.flush()
        except OSError:
            pass
    return filler


def _index_facts(index: Path) -> list[str]:
    conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return sorted(r[0] for r in conn.execute("SELECT id FROM facts"))
    finally:
        conn.close()


def test_a_full_disk_keeps_the_index_and_loses_no_event_once_space_returns(
        kenning, repo, small_disk, monkeypatch):
    monkeypatch.setenv("KENNING_HOME", str(small_disk / "home"))
    assert kenning("init", "--no-move-facts").code == 0
    ids = [json.loads(kenning("add", text, "--json").out)["id"]
           for text in ("Builds run through the quokka wrapper.",
                        "Deploys go through the zebra staging cluster.")]
    project = current_project()
    index = project.index_path
    assert _index_facts(index) == sorted(ids)
    filler = _fill(small_disk)
    for args in (["add", "A third fact about the wombat release train."],
                 ["search", "quokka wrapper"], ["list"], ["index"]):
        result = kenning(*args)
        assert "Traceback" not in result.err, (args, result.err)
        if result.code:
            _one_error_line(result.err)
            assert "damaged" not in result.err
    assert index.exists() and sorted(ids) == [i for i in _index_facts(index) if i in ids]
    hook, _ = run_hook("post-tool-use", {
        "session_id": SESSION, "cwd": str(repo), "hook_event_name": "PostToolUse",
        "tool_name": "Read", "tool_input": {"file_path": str(repo / "README.md")},
        "tool_response": {}})
    assert hook.returncode == 0 and not hook.stdout
    filler.unlink()
    events = project.local_dir / "events.jsonl"
    eventlog.append(events, {"type": "search", "query": "after the disk was freed"})
    assert any(r.get("query") == "after the disk was freed"
               for r in events_reader.iter_records(events))
    result = kenning("search", "quokka wrapper", "--json")
    assert result.code == 0 and ids[0] in result.out and "damaged" not in result.err


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A child process: the test process keeps no file open on the disk it remounts."""
    return subprocess.run([sys.executable, "-m", "kenning", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


def test_a_read_only_home_is_one_error_line_and_the_index_is_kept(repo, small_disk,
                                                                  monkeypatch):
    monkeypatch.setenv("KENNING_HOME", str(small_disk / "home"))
    assert _cli("init", "--no-move-facts", cwd=repo).returncode == 0
    added = _cli("add", "Builds run through the quokka wrapper.", "--json", cwd=repo)
    fid = json.loads(added.stdout)["id"]
    index = current_project().index_path
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    try:
        for args in (["search", "quokka wrapper"], ["add", "Another fact about wombats."],
                     ["list"]):
            result = _cli(*args, cwd=repo)
            assert "Traceback" not in result.stderr, (args, result.stderr)
            if result.returncode:
                _one_error_line(result.stderr)
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    assert _index_facts(index) == [fid]


@pytest.mark.parametrize("state", ["full", "read-only"])
def test_a_full_or_read_only_repository_is_one_error_line(small_disk, monkeypatch, state):
    from conftest import init_repo

    repo = init_repo(small_disk / "repo")
    monkeypatch.chdir(repo)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(repo))
    assert _cli("init", "--no-move-facts", cwd=repo).returncode == 0
    assert _cli("add", "Builds run through the quokka wrapper.", cwd=repo).returncode == 0
    before = sorted(p.name for p in (repo / ".kenning" / "facts").iterdir())
    if state == "full":
        _fill(small_disk)
    else:
        subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    try:
        for args in (["add", "A second fact about the wombat release train."],
                     ["save", "--no-llm"], ["forget", before[0][:-5]]):
            result = subprocess.run([sys.executable, "-m", "kenning", *args], cwd=repo,
                                    input="summary: A session on a full disk.\n",
                                    capture_output=True, text=True, timeout=120)
            assert "Traceback" not in result.stderr, (args, result.stderr)
            assert result.returncode == 1, (args, result.stdout)
            _one_error_line(result.stderr)
    finally:
        if state != "full":
            subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    assert sorted(p.name for p in (repo / ".kenning" / "facts").iterdir()) == before


def test_a_torn_event_line_is_never_glued_to_the_next_record(tmp_path):
    log = tmp_path / "local" / "events.jsonl"
    eventlog.append(log, {"type": "read", "n": 1})
    with log.open("ab") as handle:
        handle.write(b'{"type":"read","n":2,"pa')  # what a short write on a full disk leaves
    eventlog.append(log, {"type": "read", "n": 3})
    assert [r["n"] for r in events_reader.iter_records(log)] == [1, 3]
    found, offset = events_reader.read_from(log)
    assert [e.data["n"] for e in found] == [1, 3] and offset == log.stat().st_size


def test_a_hook_event_after_a_torn_line_is_kept(repo, kenning):
    assert kenning("init", "--no-move-facts").code == 0
    events = current_project().local_dir / "events.jsonl"
    events.parent.mkdir(parents=True, exist_ok=True)
    events.write_bytes(b'{"type":"read","paths":["a')
    hook, _ = run_hook("post-tool-use", {
        "session_id": SESSION, "cwd": str(repo), "hook_event_name": "PostToolUse",
        "tool_name": "Read", "tool_input": {"file_path": str(repo / "README.md")},
        "tool_response": {}})
    assert hook.returncode == 0
    assert any("README.md" in json.dumps(r) for r in events_reader.iter_records(events))


# ---- item 10: config --------------------------------------------------------------------------
@pytest.mark.parametrize("text, key", [
    ('index = "x"\n', "index"),
    ('[index]\nmax_file_kb = "abc"\n', "index.max_file_kb"),
    ('[index]\nmax_file_kb = -5\n', "index.max_file_kb"),
    ('[index]\nignore = "*.md"\n', "index.ignore"),
    ('[index]\nignore = [1, 2]\n', "index.ignore"),
])
def test_a_bad_committed_config_key_is_named_and_falls_back_to_its_default(
        kenning, repo, text, key):
    assert kenning("init", "--no-move-facts").code == 0
    (repo / ".kenning" / "config.toml").write_text(text, encoding="utf-8")
    config = load_config(current_project())
    assert config.max_file_kb == 512 and "*.lock" in config.ignore
    assert len(config.ignore) == len(load_config.__globals__["DEFAULT_IGNORES"])
    assert any(f": {key}: " in p for p in config.problems), config.problems
    result = kenning("list")
    assert result.code == 0 and f": {key}: " in result.err and "Traceback" not in result.err


@pytest.mark.parametrize("text, key", [
    ("embedder = 3\n", "embedder"),
    ('[index]\nmax_file_kb = "abc"\n', "index.max_file_kb"),
    ('[hooks]\nprompt_search = "everything"\n', "hooks.prompt_search"),
    ("llm = 5\n", "llm"),
])
def test_a_bad_user_config_key_is_one_error_line_naming_it(kenning, repo, text, key):
    home = Path(os.environ["KENNING_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(text, encoding="utf-8")
    result = kenning("search", "x")
    assert result.code == 1 and f": {key}: " in result.err
    _one_error_line(result.err)


def test_a_config_that_is_a_symlink_or_a_fifo_is_never_read(kenning, repo):
    assert kenning("init", "--no-move-facts").code == 0
    config = repo / ".kenning" / "config.toml"
    config.unlink()
    config.symlink_to("/dev/zero")
    result = kenning("list")
    assert result.code == 0 and "symlink" in result.err
    config.unlink()
    os.mkfifo(config)
    result = kenning("list")
    assert result.code == 0 and "not a regular file" in result.err


def test_ignore_patterns_from_the_config_are_used_as_patterns(kenning, repo):
    assert kenning("init", "--no-move-facts").code == 0
    (repo / ".kenning" / "config.toml").write_text('[index]\nignore = ["*.md"]\n', "utf-8")
    config = load_config(current_project())
    assert config.ignore[-1] == "*.md" and not config.problems


# ---- item 11: one Error line, never a traceback ----------------------------------------------
def test_merge_fact_with_missing_files_is_one_error_line(kenning, tmp_path):
    result = kenning("merge-fact", str(tmp_path / "a"), str(tmp_path / "b"), str(tmp_path / "c"))
    assert result.code == 1
    _one_error_line(result.err)


@pytest.mark.parametrize("stdin", ["summary: [unclosed\n  - x\n", "a: &x 1\nb: *x\n"])
def test_invalid_yaml_to_save_is_one_error_line(repo, stdin):
    result = subprocess.run([sys.executable, "-m", "kenning", "save", "--no-llm"],
                            input=stdin, capture_output=True, text=True, cwd=repo)
    assert result.returncode == 1
    _one_error_line(result.stderr)


def test_a_session_with_a_bad_date_is_reported_and_skipped(kenning, repo):
    assert kenning("init", "--no-move-facts").code == 0
    sessions = repo / ".kenning" / "sessions"
    sessions.mkdir(exist_ok=True)
    (sessions / "bad.yaml").write_text(
        "format: 1\nname: bad\nsaved: 2024-13-01T00:00:00Z\nsummary: bad date\n", "utf-8")
    (sessions / "good.yaml").write_text(
        "format: 1\nname: good\nsaved: 2026-11-01T00:00:00Z\nsummary: all good\n", "utf-8")
    result = kenning("sessions")
    assert result.code == 0 and "all good" in result.out and "bad.yaml" in result.err


def test_a_session_alias_bomb_is_refused_without_expanding_it(kenning, repo):
    from hostile import SESSION_BOMB, cli_code, run_bounded

    assert kenning("init", "--no-move-facts").code == 0
    sessions = repo / ".kenning" / "sessions"
    sessions.mkdir(exist_ok=True)
    (sessions / "bomb.yaml").write_text(SESSION_BOMB, encoding="utf-8")
    run = run_bounded(cli_code("sessions"), repo)
    assert run.code == 0 and "aliases" in run.err, run.err[-2000:]


# ---- item 12: the review queue re-reads the facts before each action --------------------------
@pytest.fixture
def contradiction(kenning, repo) -> tuple[str, str]:
    assert kenning("init", "--no-move-facts").code == 0
    a = json.loads(kenning("add", "Always use tabs for indentation in the Go code.",
                           "--kind", "decision", "--json").out)["id"]
    b = json.loads(kenning("add", "Never use tabs for indentation in the Go code.",
                           "--kind", "decision", "--json").out)["id"]
    assert {a, b} <= set(kenning("contradictions", "--json").out.replace('"', " ").split())
    return a, b


def _statuses(kenning, *ids: str) -> list[tuple[str, str | None]]:
    out = []
    for fid in ids:
        text = kenning("show", fid).out
        status = "active" if "status: active" in text else "superseded" \
            if "status: superseded" in text else text
        superseded_by = None
        for line in text.splitlines():
            if line.startswith("superseded_by:") and "null" not in line:
                superseded_by = line.split(":", 1)[1].strip()
        out.append((status, superseded_by))
    return out


def test_review_actions_on_a_fact_an_earlier_action_superseded_are_refused(kenning,
                                                                           contradiction):
    kept, rejected = contradiction
    assert kenning("review", "keep", kept, rejected).code == 0
    for args in (["merge", kept, rejected], ["merge", rejected, kept], ["accept", rejected],
                 ["confirm", rejected], ["keep", rejected, kept]):
        result = kenning("review", *args)
        assert result.code == 1 and "no longer applies" in result.err, args
        _one_error_line(result.err)
    assert _statuses(kenning, kept, rejected) == [("active", None), ("superseded", kept)]


def test_the_interactive_queue_skips_an_item_an_earlier_action_made_stale(kenning,
                                                                          contradiction):
    from kenning.lifecycle import review
    from kenning.memory import Memory

    kept, rejected = contradiction
    memory = Memory(current_project(), embedder_name="fake")
    try:
        (item,) = [i for i in review.queue(memory) if i.kind == "contradiction"]
        assert review.still_applies(memory, item)
        review.apply(memory, "keep", [kept, rejected])
        assert not review.still_applies(memory, item)
    finally:
        memory.close()


def test_a_restored_fact_is_never_both_active_and_superseded(kenning, contradiction):
    kept, rejected = contradiction
    assert kenning("review", "keep", kept, rejected).code == 0
    assert kenning("restore", rejected).code == 0
    assert _statuses(kenning, rejected) == [("active", None)]


# ---- item 13: the smaller ones ----------------------------------------------------------------
def test_after_a_rebuild_an_empty_code_index_is_said_so(kenning, repo):
    (repo / "app.py").write_text("def quokka_handler():\n    return 1\n", "utf-8")
    assert kenning("index").code == 0
    rebuilt = kenning("rebuild")
    assert rebuilt.code == 0 and "kenning index" in rebuilt.err
    result = kenning("search", "quokka_handler", "--type", "code")
    assert result.code == 0 and "code index is empty" in result.out


def test_index_full_with_nothing_changed_says_the_files_are_unchanged(kenning, repo):
    (repo / "app.py").write_text("def quokka_handler():\n    return 1\n", "utf-8")
    assert kenning("index").code == 0
    result = kenning("index", "--full")
    assert result.code == 0 and "unchanged" in result.out


def test_an_empty_search_is_an_error_and_not_a_knowledge_gap(kenning, repo):
    result = kenning("search", "")
    assert result.code == 1
    _one_error_line(result.err)
    events = current_project().local_dir / "events.jsonl"
    assert not [r for r in events_reader.iter_records(events) if r.get("type") == "search"]


def test_a_lower_case_fact_id_names_the_same_fact(project, kenning):
    fid = project["good"]
    assert kenning("show", fid.lower()).code == 0
    assert kenning("confirm", fid.lower()).code == 0
    assert kenning("review", "accept", fid.lower()).code == 0
    assert kenning("show", fid).code == 0


@pytest.mark.parametrize("command", [["report", "-o"], ["export", "-o"]])
def test_an_output_in_a_missing_folder_is_refused_not_created(project, kenning, tmp_path,
                                                               command):
    target = tmp_path / "no" / "such" / "folder" / "out.html"
    result = kenning(*command, str(target))
    assert result.code == 1
    _one_error_line(result.err)
    assert not (tmp_path / "no").exists()


def test_the_index_is_private_like_the_other_local_files(project):
    mode = current_project().index_path.stat().st_mode & 0o777
    assert mode == 0o600, oct(mode)


def test_doctor_names_a_bad_fact_file_a_bad_session_and_a_bad_config(project, kenning):
    repo = project["repo"]
    (repo / ".kenning" / "facts" / "01ARZ3NDEKTSV4RRFFQ69G5FAV.yaml").write_text(
        "format: 1\nid: 01ARZ3NDEKTSV4RRFFQ69G5FAV\ncreated: 2024-13-01T00:00:00Z\n", "utf-8")
    sessions = repo / ".kenning" / "sessions"
    sessions.mkdir(exist_ok=True)
    (sessions / "zero.yaml").symlink_to("/dev/zero")
    (repo / ".kenning" / "config.toml").write_text('index = "x"\n', "utf-8")
    result = kenning("doctor")
    assert result.code == 1
    for name in ("fact files", "saved sessions", "config"):
        assert f"FAIL {name}" in result.out, name


# ---- the read path for logs and transcripts -----------------------------------------------------
@pytest.mark.parametrize("make", ["fifo", "zero"])
def test_a_transcript_that_is_a_fifo_or_a_link_to_dev_zero_is_one_error_line(repo, tmp_path,
                                                                             make):
    from hostile import cli_code, run_bounded

    transcript = tmp_path / "session.jsonl"
    if make == "fifo":
        os.mkfifo(transcript)
    else:
        transcript.symlink_to("/dev/zero")
    run = run_bounded(cli_code("extract", str(transcript)), repo)
    assert run.code == 1 and "Traceback" not in run.err, run.err[-2000:]
    _one_error_line(run.err)


def test_a_local_log_linked_to_dev_zero_is_never_read(kenning, repo):
    from hostile import cli_code, run_bounded

    assert kenning("init", "--no-move-facts").code == 0
    assert kenning("add", "Builds run through the quokka wrapper.").code == 0
    local = current_project().local_dir
    for name in ("events.jsonl", "injections.jsonl"):
        (local / name).unlink(missing_ok=True)
        (local / name).symlink_to("/dev/zero")
    for args in (["search", "quokka wrapper"], ["trace"], ["analyze"], ["rebuild"]):
        run = run_bounded(cli_code(*args), repo)
        assert run.code in (0, 1) and "Traceback" not in run.err, (args, run.err[-2000:])
        assert Path("/dev/zero") not in run.opened, args
        if args[0] == "search":  # the answer stands even when the use cannot be logged
            assert run.code == 0 and "quokka wrapper" in run.out


def test_a_saved_session_with_text_that_is_not_utf8_is_refused(project):
    from kenning.extract.sessions import save_session
    from kenning.memory import Memory

    memory = Memory(current_project(), embedder_name="fake")
    try:
        with pytest.raises(KenningError, match="not UTF-8"):
            save_session(memory, {"summary": "A summary with a lone \udcff surrogate."})
    finally:
        memory.close()
    assert not list((project["repo"] / ".kenning" / "sessions").glob("*.yaml"))


def test_knowledge_forget_takes_a_lower_case_id(project):
    async def call():
        async with Client(stdio_server()) as client:
            return await client.call_tool("knowledge_forget", {"id": project["good"].lower()})

    result = anyio.run(call)
    assert not result.is_error, result.content[0].text
    assert json.loads(result.content[0].text)["status"] == "forgotten"


def test_a_word_written_without_spaces_is_found(kenning, repo):
    fid = json.loads(kenning("add", "ビルドは日本語の説明書に従って make で行う。",
                             "--json").out)["id"]
    for query in ("日本語", "説明書"):
        result = kenning("search", query, "--type", "fact", "--json")
        assert result.code == 0 and fid in result.out, query
