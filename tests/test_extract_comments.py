"""The reasons the agent wrote into the code it changed (`comments.py`): real transcript files
through the real reader and the rules."""

from __future__ import annotations

from pathlib import Path

from tests.transcript_writer import Transcript

from kenning.extract import comments
from kenning.extract.rules import extract_candidates
from kenning.extract.transcript import read_transcript

REASON = ("walShuttingDown is set before closing shard channels to prevent SendWALMessage "
          "from sending on a closed channel.")


def _edit(t: Transcript, path: str, old: str, new: str, **extra) -> str:
    tid = f"toolu-{t.n}"
    uuid = t._write("assistant", {"id": f"msg-{t.n}", "role": "assistant", "content": [
        {"type": "tool_use", "id": tid, "name": "Edit",
         "input": {"file_path": path, "old_string": old, "new_string": new}}]}, cwd="/p",
        **extra)
    t._write("user", {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": tid, "content": "ok", "is_error": False}]},
        cwd="/p", **extra)
    return uuid


def _found(path: Path) -> list:
    return [c for c in extract_candidates(read_transcript(path).turns)
            if c.rule == "code-comment"]


def test_a_new_comment_that_gives_a_reason_about_named_code_is_kept(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("fix the shutdown panic")
    evidence = _edit(t, "/p/pkg/wal.go", "func Shutdown() {\n\tclose(ch)\n",
                     "func Shutdown() {\n\t// walShuttingDown is set before closing shard\n"
                     "\t// channels to prevent SendWALMessage from sending on a closed channel.\n"
                     "\twalShuttingDown.Store(true)\n\tclose(ch)\n")
    [c] = _found(t.path)
    assert c.text == REASON and c.evidence == evidence and c.kind == "codebase"


def test_what_a_line_does_pragmas_docs_old_comments_and_other_folders_are_left_out(
        tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("go on")
    _edit(t, "/p/pkg/wal.go", "x := 1", "// Increment the counter for each shard we visit\n"
          "x := 1\n// nolint:gosec // the command is hardcoded, so it must be safe here\n")
    _edit(t, "/p/docs/wal.md", "", "// walShuttingDown must be set so that SendWALMessage "
          "never sends on a closed channel\n")  # a doc, not code
    _edit(t, "/p/pkg/wal.go", f"// {REASON}\nx := 1", f"// {REASON}\nx := 2")  # not new
    _edit(t, "/home/me/other/wal.go", "", f"// {REASON}\n")  # outside the project
    assert _found(t.path) == []


def test_a_rewritten_comment_keeps_its_last_words_and_a_removed_one_is_dropped(
        tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("go on")
    _edit(t, "/p/pkg/wal.go", "", "// walShuttingDown is set before closing the channels to "
          "prevent SendWALMessage from panicking.\n")
    later = _edit(t, "/p/pkg/wal.go", "", f"// {REASON}\n")
    [c] = _found(t.path)
    assert c.text == REASON and c.evidence == later
    _edit(t, "/p/pkg/wal.go", f"// {REASON}\nwalShuttingDown.Store(true)\n", "")
    assert _found(t.path) == []


def test_a_subagents_edits_are_its_task_and_at_most_a_few_comments_are_kept(tmp_path: Path):
    side = Transcript(tmp_path / "side.jsonl")
    side.user("go on")
    _edit(side, "/p/pkg/wal.go", "", f"// {REASON}\n", isSidechain=True)
    assert _found(side.path) == []
    many = Transcript(tmp_path / "many.jsonl")
    many.user("go on")
    reasons = [
        "parseConfig must run before loadPlugins because plugin paths come from the file.",
        "flushQueue drains the writer first so that no record is lost on shutdown.",
        "retryBudget caps attempts to avoid hammering the upstream during an outage.",
        "cacheKey includes the tenant id, otherwise two tenants would share entries.",
        "openStore never creates the folder; the installer owns its permissions.",
        "pickShard hashes the host name so a host always lands on the same goroutine.",
    ]
    for n, reason in enumerate(reasons):
        _edit(many, f"/p/pkg/f{n}.go", "", f"// {reason}\n")
    names = [r.split()[0] for r in reasons]
    found = _found(many.path)
    assert len(found) == comments.MAX_PER_SESSION
    assert [c.text.split()[0] for c in found] == names[:comments.MAX_PER_SESSION]


def test_a_doc_comment_is_kept_only_for_an_obligation_or_a_purpose(tmp_path: Path):
    """A doc comment (opening with the name declared below it) says what its code does; its
    "so a …" is how that code works (extraction_test2, round 8). A rule or a purpose stays."""
    how = ("splitFirstBatch peels off the first batch so a push can carry the pack with "
           "that batch and send the rest as ref-only follow-ups.")
    rule = ("walShuttingDown must be set before closing shard channels so that SendWALMessage "
            "never sends on a closed channel.")
    t = Transcript(tmp_path / "s.jsonl")
    t.user("batch the pushes")
    _edit(t, "/p/pkg/push.go", "", f"// {how}\nfunc splitFirstBatch(c []Cmd) ([]Cmd, []Cmd) {{\n")
    _edit(t, "/p/pkg/wal.go", "", f"// {rule}\nvar walShuttingDown atomic.Bool\n")
    assert [c.text for c in _found(t.path)] == [rule]
    # The same words above other code are not its doc comment: a reason about named code.
    other = Transcript(tmp_path / "other.jsonl")
    other.user("batch the pushes")
    _edit(other, "/p/pkg/push.go", "", f"// {how}\nfirst, rest := split(cmds)\n")
    assert [c.text for c in _found(other.path)] == [how]


def test_a_comment_right_above_a_declaration_is_its_doc_comment(tmp_path: Path):
    """A block over `export function makeRing(` documents that function whatever its first
    word (planetfall, extraction_test3, round 9): what the code does is plain from reading it,
    so it too needs an obligation or a purpose; the closing `*/` line does not hide it."""
    how = ("Flat Saturn-style ring. Returns a mesh lying in the equatorial plane; add it to "
           "the planetGroup so it shares the axialTilt.")
    t = Transcript(tmp_path / "s.jsonl")
    t.user("add a ring to the planet")
    _edit(t, "/p/src/ring.js", "",
          f"/**\n * {how}\n */\nexport function makeRing(planetRadius) {{\n")
    assert _found(t.path) == []
    # The same words above a statement are a reason about named code.
    other = Transcript(tmp_path / "other.jsonl")
    other.user("add a ring to the planet")
    _edit(other, "/p/src/ring.js", "", f"/**\n * {how}\n */\nscene.add(ring);\n")
    assert [c.text for c in _found(other.path)] == [how]


def test_a_parameter_marked_required_in_a_comment_is_no_obligation(tmp_path: Path):
    """An options list ("`:rows` (required) - the rendered rows") says what a parameter is;
    "required" in brackets is no rule of the project (spotter, round 11)."""
    options = ("Options: `:rendered_lines` (required) - list of rendered line maps from "
               "`TranscriptRenderer`; `:show_debug` - whether debug anchors are visible.")
    rule = ("The `session_cwd` option is required so that paths under it are shown relative "
            "to the project.")
    t = Transcript(tmp_path / "s.jsonl")
    t.user("share the transcript panel")
    _edit(t, "/p/lib/panel.ex", "", f"  # {options}\n  attr :rows, :list\n")
    _edit(t, "/p/lib/render.ex", "", f"  # {rule}\n  x = render(messages, opts)\n")
    assert [c.text for c in _found(t.path)] == [rule]
