"""Stop asks the agent, once per session, to save what it learnt (issue 16, `nudge.py`).

Real hook runs through `hooks/run`, on transcripts written the way Claude Code writes them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.test_hooks import SESSION, payload, run_hook

from kenning.cli import main as kenning_main

HEADLESS = {"CLAUDE_CODE_ENTRYPOINT": "sdk-cli"}
INTERACTIVE = {"CLAUDE_CODE_ENTRYPOINT": "cli"}


def _transcript(path: Path, calls: int, failures: int, saved: bool = False) -> None:
    """A session of `calls` Bash calls, the first `failures` of them failing."""
    lines = []
    parent = None
    for n in range(calls):
        a, r = f"a{n}", f"r{n}"
        name = "mcp__plugin_kenning_kenning__knowledge_add" if saved and n == calls - 1 else "Bash"
        lines.append({"type": "assistant", "uuid": a, "parentUuid": parent, "sessionId": SESSION,
                      "message": {"id": f"m{n}", "role": "assistant", "content": [
                          {"type": "tool_use", "id": f"t{n}", "name": name,
                           "input": {"command": "make test"}}]}})
        lines.append({"type": "user", "uuid": r, "parentUuid": a, "sessionId": SESSION,
                      "message": {"role": "user", "content": [
                          {"type": "tool_result", "tool_use_id": f"t{n}", "content": "ok",
                           "is_error": n < failures}]}})
        parent = r
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines),
                    encoding="utf-8")


@pytest.fixture
def project(repo: Path) -> Path:
    try:
        kenning_main(["init"])
    except SystemExit as exc:
        assert not exc.code
    return repo


def _stop(project: Path, env: dict, **changes: object) -> str:
    result = run_hook("stop", payload("stop", project, **changes), env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _config(home: str, value: str) -> None:
    path = Path(home) / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'[extract]\nask_agent = "{value}"\n', encoding="utf-8")


def test_stop_asks_the_agent_once_when_a_long_session_fixed_failures_and_saved_nothing(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = payload("stop", project)
    _transcript(Path(data["transcript_path"]), calls=20, failures=2)
    out = _stop(project, INTERACTIVE)
    context = json.loads(out)["hookSpecificOutput"]
    assert context["hookEventName"] == "Stop"
    assert "knowledge_add" in context["additionalContext"]
    assert len(context["additionalContext"]) < 800  # a budgeted message, not a prompt
    assert _stop(project, INTERACTIVE) == ""  # once per session
    assert _stop(project, INTERACTIVE, session_id="another-session") != ""


def test_stop_does_not_ask_in_a_continuation_a_short_session_or_one_that_saved(
        project: Path) -> None:
    data = payload("stop", project)
    transcript = Path(data["transcript_path"])
    _transcript(transcript, calls=20, failures=2)
    assert _stop(project, INTERACTIVE, stop_hook_active=True) == ""
    _transcript(transcript, calls=5, failures=2)
    assert _stop(project, INTERACTIVE) == ""
    _transcript(transcript, calls=20, failures=0)
    assert _stop(project, INTERACTIVE) == ""  # nothing fixed, nothing read: no evidence
    _transcript(transcript, calls=20, failures=2, saved=True)
    assert _stop(project, INTERACTIVE) == ""


def test_ask_agent_interactive_skips_headless_runs_and_never_turns_it_off(
        project: Path) -> None:
    import os

    data = payload("stop", project)
    _transcript(Path(data["transcript_path"]), calls=20, failures=2)
    assert _stop(project, HEADLESS) == ""  # the default: `claude -p` output stays the task's
    _config(os.environ["KENNING_HOME"], "never")
    assert _stop(project, INTERACTIVE) == ""
    _config(os.environ["KENNING_HOME"], "always")
    assert "knowledge_add" in _stop(project, HEADLESS)


def test_stop_in_an_uninitialised_project_never_asks(repo: Path) -> None:
    data = payload("stop", repo)
    _transcript(Path(data["transcript_path"]), calls=20, failures=2)
    assert _stop(repo, INTERACTIVE) == ""


def test_stop_waits_while_the_turn_ended_on_a_question_to_the_user(project: Path) -> None:
    """Stop's `last_assistant_message`, not the transcript (which may lag): a turn that asks
    the person something is not interrupted; the next Stop that does not asks."""
    data = payload("stop", project)
    _transcript(Path(data["transcript_path"]), calls=20, failures=2)
    question = "I fixed the build.\n\nShould I also bump the version in `pyproject.toml`?"
    assert _stop(project, INTERACTIVE, last_assistant_message=question) == ""
    assert "knowledge_add" in _stop(project, INTERACTIVE,
                                    last_assistant_message="The build is fixed.")


def test_the_tool_definitions_the_transcript_records_are_not_a_save(project: Path) -> None:
    """With `alwaysLoad`, Claude Code writes kenning's tool definitions into the transcript:
    a name there is not a call."""
    data = payload("stop", project)
    transcript = Path(data["transcript_path"])
    _transcript(transcript, calls=20, failures=2)
    tools = {"type": "attachment", "attachment": {"type": "deferred_tools", "tools": [
        {"name": "mcp__plugin_kenning_kenning__knowledge_add", "description": "Remember."}]}}
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(tools, separators=(",", ":")) + "\n")
    assert "knowledge_add" in _stop(project, INTERACTIVE)
