"""Saved sessions: `kenning save` / MCP `session_save` write YAML, facts and a value score;
`kenning sessions` / `session_recall` read them back."""

from __future__ import annotations

import io
import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import anyio
import pytest
import yaml
from mcp import Client

from kenning.core.errors import KenningError
from kenning.core.paths import current_project
from kenning.core.redact import find_secrets
from kenning.extract.sessions import save_session
from kenning.memory import Memory
from kenning.store.sessions import (
    SavedSession,
    find_sessions,
    latest_summary,
    validate,
    value_score,
)

NOW = datetime(2026, 11, 29, 14, 0, tzinfo=UTC)
FULL = """\
name: Retry backoff
summary: Moved retries into src/http/retry.py so both transports share one backoff.
decisions:
  - Retries live in src/http/retry.py, because the two transports had drifted apart.
constraints:
  - The retry budget must stay under 30 seconds so the CLI never looks hung.
assumptions:
  - The upstream API treats PUT as idempotent.
blockers: []
pending_tasks:
  - Add jitter to the backoff.
files_touched: [src/http/retry.py, src/http/client.py]
"""


@pytest.fixture
def save(kenning, monkeypatch):
    def run(text: str, *args: str):
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        return kenning("save", *args)

    return run


def _sessions_dir() -> Path:
    return current_project().sessions_dir


def _memory(at: datetime = NOW) -> Memory:
    return Memory(current_project(), embedder_name="fake", clock=lambda: at)


# --- save ---------------------------------------------------------------------------------


def test_save_from_yaml_writes_the_session_its_facts_and_value(save, isolated):
    result = save(FULL, "--json")
    assert result.code == 0, result.err
    out = json.loads(result.out)
    assert out["name"] == "retry-backoff" and out["value"] == 0.85
    path = _sessions_dir() / "retry-backoff.yaml"
    assert out["path"] == str(path)
    record = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert list(record)[:6] == ["format", "name", "saved", "session", "value", "summary"]
    assert record["decisions"] == [{"text": "Retries live in src/http/retry.py.",
                                    "rationale": "The two transports had drifted apart."}]
    assert record["files_touched"] == ["src/http/retry.py", "src/http/client.py"]
    assert len(record["facts"]) == 3 == len(out["facts"])
    memory = _memory()
    stored = [memory.store.get(i) for i in record["facts"]]
    assert [(f.kind, f.tags) for f in stored] == [
        ("decision", ()), ("codebase", ("constraint",)), ("codebase", ("assumption",))]
    assert stored[0].rationale == "The two transports had drifted apart."
    assert [a.file for a in stored[0].about] == ["src/http/retry.py"]
    assert all(f.source.rule == "session-save" for f in stored)
    assert all(f.source.origin == "user" and f.confidence == 100 for f in stored)


def test_save_reads_json_and_the_agent_origin_gives_0_70(save, isolated):
    data = {"summary": "Tried the async client.", "decisions": ["Keep the sync client."]}
    result = save(json.dumps(data), "--origin", "agent", "--name", "async-probe",
                  "--session", "5560c1e2-8b1f-4d0e-9a51-0c7f3e2b9d44")
    assert result.code == 0, result.err
    assert "saved session async-probe (value 0.70)" in result.out
    record = yaml.safe_load((_sessions_dir() / "async-probe.yaml").read_text())
    assert record["session"] == "5560c1e2-8b1f-4d0e-9a51-0c7f3e2b9d44"
    fact = _memory().store.get(record["facts"][0])
    assert fact.confidence == 70 and fact.source.session == record["session"]


def test_sessions_go_to_the_personal_store_before_init_and_the_project_after(
    save, kenning, repo
):
    project = current_project()
    assert save("summary: Before init.\nname: before\n").code == 0
    assert (project.personal_sessions_dir / "before.yaml").is_file()
    assert kenning("init", "--no-move-facts").code == 0
    assert save("summary: After init.\nname: after\n").code == 0
    assert (repo / ".kenning" / "sessions" / "after.yaml").is_file()
    # both are recalled
    names = [r.name for r in find_sessions(current_project())]
    assert sorted(names) == ["after", "before"]


@pytest.mark.parametrize("fields,score", [
    ({"summary": "Read the code."}, 0.5),
    ({"summary": "Read the code.", "decisions": ["Use httpx for the client."]}, 0.7),
    ({"summary": "Read the code.", "assumptions": ["PUT is idempotent."]}, 0.7),
    ({"summary": "Read the code.", "constraints": ["Budget under 30 s."]}, 0.85),
    ({"summary": "Read the code.", "blockers": ["No staging access."]}, 0.85),
    ({"summary": "Tried: the async client; failed because of the GIL."}, 0.9),
    ({"summary": "x", "decisions": ["Use A; invalidates if B ships."]}, 0.9),
    ({"summary": "x", "pending_tasks": ["Do not retry the migration."]}, 0.9),
    ({"summary": "A security review is pending."}, 0.9),
    ({"summary": "Compliance asked for audit logs."}, 0.9),
])
def test_value_score_follows_the_seed_scale(fields, score):
    assert value_score(validate(fields, NOW)) == score


def test_a_because_clause_becomes_the_decisions_rationale():
    record = validate({"summary": "s", "decisions": [
        "Use argparse for the CLI, because it adds no dependency.",
        {"text": "Pin tree-sitter-language-pack", "rationale": "1.x downloads grammars"},
        "Go with B",
    ]}, NOW)
    assert [(i.text, i.rationale) for i in record.lists["decisions"]] == [
        ("Use argparse for the CLI.", "It adds no dependency."),
        ("Pin tree-sitter-language-pack", "1.x downloads grammars"),
        ("Go with B", None),
    ]


def test_secrets_in_a_save_are_redacted_everywhere(save, isolated):
    token = "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"
    text = (f"summary: Deployed with token {token}.\nname: leaky\n"
            f"constraints:\n  - Deploys must use DEPLOY_PASSWORD=Tr0ub4dor3xyzQ from the vault.\n")
    assert save(text).code == 0
    for root in (Path(os.environ["KENNING_HOME"]), isolated):
        for path in root.rglob("*.yaml"):
            body = path.read_text(encoding="utf-8")
            assert token not in body and "Tr0ub4dor3xyzQ" not in body
            assert find_secrets(body) == []
    record = yaml.safe_load((_sessions_dir() / "leaky.yaml").read_text())
    assert "[REDACTED:github_token]" in record["summary"]


def test_saving_a_name_again_updates_it_and_reconfirms_its_facts(isolated):
    fields = yaml.safe_load(FULL)
    first = save_session(_memory(), fields, origin="agent")
    later = NOW + timedelta(hours=1)
    second = save_session(_memory(later), {**fields, "pending_tasks": []}, origin="agent")
    assert first.path == second.path
    assert [a.created for a in second.facts] == [False, False, False]
    assert [a.fact.confidence for a in second.facts] == [90, 90, 90]
    record = yaml.safe_load(second.path.read_text())
    assert record["pending_tasks"] == [] and record["saved"] == "2026-11-29T15:00:00Z"
    assert list(_sessions_dir().iterdir()) == [second.path]  # no temp files left behind


def test_an_llm_fact_names_repo_relative_paths_and_one_naming_another_folder_is_dropped(
        isolated):
    """Issue 16, 5: no absolute path of the user's machine in a fact, the LLM's included."""
    from kenning.extract.llm import LLMResult
    from kenning.extract.model import Candidate

    root = current_project().root
    said = [Candidate(kind="codebase", text=f"Migrations live in {root}/db/migrations and run "
                      "in timestamp order.", evidence="", rule="llm"),
            Candidate(kind="codebase", text="The venv's python is /home/ana/.venv/bin/python "
                      "for every script.", evidence="", rule="llm")]
    result = save_session(_memory(), {"summary": "Moved the migrations."},
                          llm=lambda _text: LLMResult(candidates=said, tokens=10))
    assert [o.candidate.text for o in result.llm_facts] == [
        "Migrations live in db/migrations and run in timestamp order."]


@pytest.mark.parametrize("text,message", [
    ("", "nothing on stdin"),
    ("- a\n- b\n", "must be a mapping"),
    ("summary: ''\n", "summary is required"),
    ("summary: s\ndecision: [x]\n", "unknown field(s) decision"),
    ("summary: s\nblockers: {a: 1}\n", "blockers: expected a list"),
    ("summary: s\nconstraints: [[nested]]\n", "constraints[0]: expected text"),
])
def test_bad_input_is_a_clear_error(save, text, message):
    result = save(text)
    assert result.code == 1 and message in result.err


# --- recall -------------------------------------------------------------------------------


def _save_at(name: str, at: datetime, summary: str = "s") -> None:
    save_session(_memory(at), {"name": name, "summary": summary}, origin="agent")


def test_recall_returns_the_named_session_or_the_latest_within_72_hours(kenning, isolated):
    _save_at("old", NOW - timedelta(days=10))
    _save_at("monday", NOW - timedelta(hours=71))
    _save_at("today", NOW, "Where we stand today.")
    assert [r.name for r in find_sessions(current_project())] == ["today", "monday"]
    assert [r.name for r in find_sessions(current_project(), "old")] == ["old"]
    with pytest.raises(KenningError, match="no saved session named 'nope'"):
        find_sessions(current_project(), "nope")
    assert latest_summary(current_project()) == {
        "name": "today", "summary": "Where we stand today.", "saved": "2026-11-29T14:00:00Z",
        "value": 0.5}
    listed = kenning("sessions")
    assert listed.code == 0 and "# today" in listed.out and "# old" not in listed.out
    one = json.loads(kenning("sessions", "old", "--json").out)
    assert [r["name"] for r in one] == ["old"]
    assert kenning("sessions", "nope").code == 1


def test_session_start_catch_up_caches_the_latest_summary(isolated):
    from kenning.hooks.catchup import refresh_summary
    from kenning.store.sessions import SUMMARY_NAME

    _save_at("today", NOW, "Where we stand today.")
    project = current_project()
    refresh_summary(project)
    cached = json.loads((project.local_dir / SUMMARY_NAME).read_text(encoding="utf-8"))
    assert cached["name"] == "today" and cached["summary"] == "Where we stand today."


def test_recall_with_nothing_saved_says_so(kenning):
    result = kenning("sessions")
    assert result.code == 0 and "no saved sessions" in result.out
    assert latest_summary(current_project()) is None


def test_a_broken_session_file_is_skipped(isolated):
    _save_at("good", NOW)
    (_sessions_dir() / "bad.yaml").write_text("summary: [unclosed\n", encoding="utf-8")
    assert [r.name for r in find_sessions(current_project())] == ["good"]


def test_saved_session_dataclass_round_trips_through_yaml(isolated):
    save_session(_memory(), yaml.safe_load(FULL), origin="agent")
    (record,) = find_sessions(current_project(), "retry-backoff")
    assert isinstance(record, SavedSession)
    assert record.saved == NOW and record.value == 0.85
    assert record.lists["pending_tasks"][0].text == "Add jitter to the backoff."


# --- MCP ----------------------------------------------------------------------------------


def test_mcp_session_save_and_recall_round_trip(isolated):
    from mcpclient import stdio_server

    async def go():
        async with Client(stdio_server()) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            assert {"session_save", "session_recall"} <= tools
            saved = await client.call_tool("session_save", {
                "summary": "Moved retries into src/http/retry.py.",
                "decisions": ["Retries live in src/http/retry.py, because transports drifted."],
                "blockers": ["No staging access."], "name": "mcp-save"})
            assert not saved.is_error, saved.content[0].text
            data = json.loads(saved.content[0].text)
            assert data["name"] == "mcp-save" and data["value"] == 0.85
            assert data["facts"][0]["kind"] == "decision" and data["facts"][0]["created"]
            assert data["facts"][0]["confidence"] == 0.7
            assert "llm" not in data  # off by default
            recalled = json.loads((await client.call_tool("session_recall", {})).content[0].text)
            assert [s["name"] for s in recalled["sessions"]] == ["mcp-save"]
            assert recalled["sessions"][0]["blockers"] == ["No staging access."]
            missing = await client.call_tool("session_recall", {"name": "nope"})
            assert missing.is_error and "no saved session" in missing.content[0].text
            bad = await client.call_tool("session_save", {"summary": " "})
            assert bad.is_error and "summary" in bad.content[0].text

    anyio.run(go)
