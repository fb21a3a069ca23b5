"""`<private>…</private>`: what a user wraps in a prompt reaches no file kenning writes.

One session through the real hook scripts (subprocesses with JSON on stdin), its transcript
through the extractor the hooks start, then every way an agent could pass the words on
(a fact, a saved session, a search): afterwards no file under KENNING_HOME or the project
holds the marker.
"""

from __future__ import annotations

import json
from pathlib import Path

from kenning.core.paths import current_project
from kenning.core.private import strip_private
from test_hooks import payload, run_hook
from transcript_writer import SESSION, Transcript

MARKER = "Quillonmere"
SECRET = f"<private>the client we lost last spring was {MARKER} Ltd</private>"


def files_holding(marker: str, *roots: Path) -> list[str]:
    needle = marker.encode("utf-8")
    return [str(p) for root in roots for p in root.rglob("*")
            if p.is_file() and needle in p.read_bytes()]


def test_private_spans_reach_no_file_kenning_writes(kenning, repo, tmp_path, capsys):
    from kenning.hooks.extract_runner import run

    kenning("add", "Deploys are blue-green so a failed release never takes the site down.",
            "--kind", "decision")
    claude = tmp_path / "claude"  # Claude Code's own folder: its transcript is not ours
    transcript = Transcript(claude / f"{SESSION}.jsonl")
    prompt = (f"Deploys must stay blue-green, how do we run one? {SECRET} "
              "From now on always run `make deploy-check` before a deploy.")
    transcript.user(prompt)
    transcript.assistant("I will run the deploy check.")
    transcript.bash(f"echo '{SECRET}' | make deploy-check", "ok")

    def hook(event: str, name: str, **changes: object) -> None:
        data = payload(name, repo, transcript_path=str(transcript.path), **changes)
        result = run_hook(event, data)
        assert result.returncode == 0, result.stderr

    hook("session-start", "session_start")
    hook("user-prompt-submit", "user_prompt_submit", prompt=prompt)
    hook("pre-tool-use", "pre_tool_use_read",
         tool_input={"file_path": str(repo / "README.md")})
    for tool, tool_input in (("Bash", {"command": f"echo '{SECRET}'"}),
                             ("Grep", {"pattern": SECRET, "path": str(repo)})):
        hook("post-tool-use", "post_tool_use_bash", tool_name=tool, tool_input=tool_input)
    hook("stop", "stop")
    hook("pre-compact", "pre_compact")
    hook("session-end", "session_end")
    assert run(str(current_project(repo).local_dir)) >= 1  # what SessionEnd starts
    capsys.readouterr()
    facts = json.loads(kenning("export", "--all").out)
    assert any("make deploy-check" in f["text"] for f in facts)  # the rest was extracted

    # An agent passing the words on: a fact, a saved session, a search.
    assert kenning("add", f"The staging login is admin {SECRET} for now.").code == 0
    save = json.dumps({"summary": f"Set up deploys. {SECRET}", "decisions": [SECRET + " x"],
                       "pending_tasks": ["Check the deploy"]})
    import io
    import sys

    sys.stdin = io.StringIO(save)
    try:
        assert kenning("save", "--no-llm").code == 0
    finally:
        sys.stdin = sys.__stdin__
    kenning("search", f"staging password {SECRET}")
    assert kenning("rebuild").code == 0

    home = Path(current_project(repo).home)
    leaks = files_holding(MARKER, home, repo)
    assert leaks == [], "\n".join(leaks)
    assert files_holding(MARKER, claude)  # the check can see the marker where it is


def test_strip_private_removes_every_span_and_an_unclosed_one_to_the_end():
    assert strip_private("a <private>x</private> b <PRIVATE>y\nz</Private> c") == "a  b  c"
    assert strip_private("keep <private>the rest is private") == "keep "
    assert strip_private("no tags here") == "no tags here"
