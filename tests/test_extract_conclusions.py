"""The agent's findings in its prose (`conclusions.py`), the wrapper failure → fix and a design
doc's findings: real transcript files through the real reader and the rules."""

from __future__ import annotations

from pathlib import Path

from tests.transcript_writer import Transcript

from kenning.extract.rules import extract_candidates
from kenning.extract.transcript import read_transcript

FINDING = ("If the turn ends without file changes, `commitWithMetadata()` returns early, so "
           "the auto-apply trigger never runs.")


def _found(path: Path, rule: str = "conclusion") -> list:
    return [c for c in extract_candidates(read_transcript(path).turns) if c.rule == rule]


def test_a_finding_with_its_cause_in_the_agents_prose_is_kept_with_its_line(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("why does auto-apply never fire?")
    t.bash("grep -n commitWithMetadata hooks.go", "286: return nil")
    evidence = t.assistant(f"Found it.\n\n{FINDING}\n\nLet me fix that.")
    [c] = _found(t.path)
    assert c.text == FINDING and c.evidence == evidence and c.kind == "codebase"


def test_guesses_plans_status_and_the_story_of_the_work_are_not_findings(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("look at the resume bug")
    t.assistant(
        "The cache probably goes stale because `restoreCache` runs first.\n"  # a guess
        "I'll make `resume.go` fall back to `resumeSingleSession` instead of failing.\n"  # plan
        "`RestoreLogsOnly` now skips sessions without agent metadata, so the test passes.\n"
        "Testing whether `--data` can pin it, since that decides how the harness works.\n"
        "Resolving it: `Swag` goes in Support because merch is a revenue channel.\n"
        "The recorder skips disabled segments, so `chips.omp.json` replays in 1.22s.\n"
        "Does `git gc` run because of `gc.auto`?\n"  # a question
        "Always run `mise run lint` before committing.\n"  # an instruction, not a finding
        # planetfall (round 9): the agent's next step with its subject left out, and a bold
        # label whose aside made it look long
        "Will confirm the wording before implementing approach C in `confirmCheckpoint()`, "
        "since the user has been iterating on copy and asked for ideas first.\n"
        "**Command choice on the last question** (was idea 2): question 5 is about the whole "
        "day, so the chips are commands instead of answers: `explain` / `dispatch`.\n"
    )
    assert _found(t.path) == []


def test_a_finding_the_agent_later_takes_back_is_never_stored(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("why is the index corrupt?")
    t.assistant("The index breaks because `git gc` prunes the objects that the cache-tree "
                "of `.git/worktrees/1/index` references.")
    t.bash("git fsck", "ok")
    t.assistant("I was wrong: `git gc` pruning the cache-tree objects of the worktree index "
                "is not the cause.")
    assert _found(t.path) == []


def test_a_finding_said_twice_is_kept_once_in_its_later_words(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("go on")
    t.assistant("`ResolveSessionFile()` globs for the session file and falls back to "
                "`<dir>/<id>.json` when nothing matches.")
    later = t.assistant("`ResolveSessionFile()` falls back to `<dir>/<id>.json` when the glob "
                        "for the session file matches nothing.")
    [c] = _found(t.path)
    assert c.evidence == later


def test_a_subagents_prose_is_exploration_not_a_finding(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("explore the hooks")
    t._write("assistant", {"id": "m-side", "role": "assistant", "content": [
        {"type": "text", "text": FINDING}]}, isSidechain=True)
    assert _found(t.path) == []


def test_a_compaction_summary_gives_its_findings(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("go on")
    summary = ("This session is being continued from a previous conversation.\n\nSummary:\n"
               "5. Problem Solving:\n   - `docs/themes.md` is short in git because "
               "`npm run themes` only runs in CI.\n")
    evidence = t.user(summary, isCompactSummary=True, isVisibleInTranscriptOnly=True)
    [c] = _found(t.path)
    assert c.evidence == evidence and "`npm run themes` only runs in CI" in c.text


def test_a_wrapper_dropped_or_added_in_front_of_the_same_command_is_the_fix(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash("rtk bun run test", "Exit code 2\nerror: unrecognized subcommand 'bun'", error=True)
    dropped = t.bash("bun run test", "12 pass")
    t.bash("rake test", "Exit code 1\nerror: the Gemfile requires rake 12.3.3", error=True)
    added = t.bash("bundle exec rake test", "3 runs, 0 failures")
    found = _found(t.path, "failure-fix")
    assert [(c.text, c.evidence) for c in found] == [
        ("Run `bun run test` directly, not through `rtk`: `rtk bun run test` fails with "
         "`error: unrecognized subcommand 'bun'`.", dropped),
        ("Use `bundle exec rake test`: a plain `rake test` fails with "
         "`error: the Gemfile requires rake 12.3.3`.", added),
    ]


def test_a_design_doc_gives_its_rules_a_list_as_one_fact_and_no_findings(tmp_path: Path):
    """Issue 16 round 5: a design doc's findings matched nothing labelled on unseen sessions,
    so only its explicit rules are kept; a list of them under a lead-in is one fact."""
    t = Transcript(tmp_path / "s.jsonl")
    t.user("implement the sync")
    tid = "toolu-doc"
    t._write("assistant", {"id": "m-doc", "role": "assistant", "content": [
        {"type": "tool_use", "id": tid, "name": "Read",
         "input": {"file_path": "/p/docs/design/sync.md"}}]})
    t._write("user", {"role": "user", "content": [{
        "type": "tool_result", "tool_use_id": tid, "is_error": False,
        "content": "     1→# Sync\n     2→The `sync_state` table is rebuilt on start because "
                   "the index is derived from the YAML files.\n     3→\n     4→`POST /sync` is "
                   "only mounted with `--allow-sync`. Its validator enforces:\n     5→\n"
                   "     6→- Path must be absolute.\n     7→- Path must not contain `..`.\n"}]})
    found = [c for c in extract_candidates(read_transcript(t.path).turns)
             if c.rule.startswith("document-")]
    assert [(c.rule, c.text) for c in found] == [(
        "document-list", "design/sync.md: `POST /sync` is only mounted with `--allow-sync`. Its "
        "validator enforces: Path must be absolute; Path must not contain `..`.")]


def test_a_design_doc_read_in_a_window_gives_no_rules(tmp_path: Path):
    """extraction_test2, round 8: a Read with an offset is a lookup of one spot (usually the
    one then edited); its lines come without the heading that scopes them."""
    t = Transcript(tmp_path / "s.jsonl")
    t.user("update the docs")
    for n, extra in enumerate(({"offset": 120, "limit": 40}, {})):
        tid = f"toolu-doc-{n}"
        t._write("assistant", {"id": f"m-doc-{n}", "role": "assistant", "content": [
            {"type": "tool_use", "id": tid, "name": "Read",
             "input": {"file_path": f"/p/docs/convert-{n}.md", **extra}}]})
        t._write("user", {"role": "user", "content": [{
            "type": "tool_result", "tool_use_id": tid, "is_error": False,
            "content": "   120→Use the tool's own `refs/notes/sha1-origin` ref for the inverse "
                       "lookup of converted commits.\n"}]})
    found = [c.text for c in extract_candidates(read_transcript(t.path).turns)
             if c.rule.startswith("document-")]
    assert len(found) == 1 and found[0].startswith("docs/convert-1.md: ")


def test_the_state_of_this_run_is_not_a_finding_but_a_condition_is(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("why does login hang?")
    t.assistant(
        "The frontend is hitting `https://api-staging.example.com` instead of `localhost:3000`.\n"
        "The API just needs to be running, and it failed because `postgres` wasn't reachable.\n"
        "The git hooks are preventing the commit because of the `node_modules` warning.\n"
        "`plan-stream` is making an internal fetch to `/api/stream`, so the client can't parse "
        "it as SSE.\n"
        "The email is not sensitive data, so the simplest fix is to keep `userEmail` in "
        "localStorage.\n"
        "`kenning serve` only works when Redis is running, because `queue.py` keeps its jobs "
        "there.\n")
    assert [c.text for c in _found(t.path)] == [
        "`kenning serve` only works when Redis is running, because `queue.py` keeps its jobs "
        "there."]


def _edit(t: Transcript, path: str, old: str, new: str) -> str:
    tid = f"toolu-{t.n}"
    t._write("assistant", {"id": f"msg-{t.n}", "role": "assistant", "content": [
        {"type": "tool_use", "id": tid, "name": "Edit",
         "input": {"file_path": path, "old_string": old, "new_string": new}}]}, cwd="/p")
    return t._write("user", {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": tid, "content": "ok", "is_error": False}]},
        cwd="/p")


BUG = ("The problem is that `auth.service.ts` login stores `payload.sub` as the identifier, "
       "so every login creates a second auth method.")


def test_a_bug_the_session_then_fixes_is_not_a_finding(tmp_path: Path):
    kept = Transcript(tmp_path / "kept.jsonl")
    kept.user("why are there two auth methods?")
    kept.assistant(BUG)
    _edit(kept, "/home/me/.claude/plans/plan.md", "payload.sub", "email")  # outside: no fix
    assert [c.text for c in _found(kept.path)] == [BUG]
    fixed = Transcript(tmp_path / "fixed.jsonl")
    fixed.user("why are there two auth methods?")
    fixed.assistant(BUG)
    _edit(fixed, "/p/src/auth/auth.service.ts", "identifier: payload.sub",
          "identifier: payload.email")
    assert _found(fixed.path) == []


def test_extract_findings_off_leaves_the_agents_prose_out(tmp_path: Path, isolated, kenning):
    import json
    import os

    t = Transcript(tmp_path / "s.jsonl")
    t.user("why does auto-apply never fire?")
    t.assistant(FINDING)
    rules = lambda: [c["rule"] for c in json.loads(kenning(  # noqa: E731
        "extract", str(t.path), "--dry-run", "--json").out)["candidates"]]
    assert rules() == ["conclusion"]  # the default, `durable`
    config = Path(os.environ["KENNING_HOME"]) / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[extract]\nfindings = "off"\n', encoding="utf-8")
    assert rules() == []


def test_a_limit_of_the_code_or_a_correction_in_one_sentence_is_a_finding(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("why is the new file missing from the review?")
    t.assistant("`git diff HEAD` only shows tracked file changes in the review input.\n"
                "The `walShardChs == nil` guard doesn't help — the channel isn't nil, "
                "it's closed.\n"
                "The only extras are project-specific (`Bash`, `mcp`) plus the `entire` hooks.")
    assert [c.text for c in _found(t.path)] == [
        "`git diff HEAD` only shows tracked file changes in the review input.",
        "The `walShardChs == nil` guard doesn't help — the channel isn't nil, it's closed."]
