"""The issue-16 sources: the verification workflow, failure → fix pairs, requirements read
from an issue tracker or design doc, queued messages and compaction summaries; and no
absolute path of this machine in a fact. Real transcript files through the real reader."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from tests.transcript_writer import Transcript

from kenning.extract.rules import extract_candidates, machine_paths_out
from kenning.extract.transcript import read_transcript


def _candidates(path: Path, root: str | None = None):
    return extract_candidates(read_transcript(path).turns, root=root)


def _tool(t: Transcript, name: str, tool_input: dict, output: str, error: bool = False) -> str:
    tid = f"toolu-{t.n}"
    t._write("assistant", {"id": f"msg-{t.n}", "role": "assistant", "content": [
        {"type": "tool_use", "id": tid, "name": name, "input": tool_input}]})
    return t._write("user", {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": tid, "content": output, "is_error": error}]})


def _run_checks(t: Transcript) -> None:
    for _ in range(2):
        t.bash("mise run fmt", "ok")
        t.bash("mise run lint 2>&1 | tail -20", "Exit code 1\nlint failed", error=True)
        t.bash("mise run lint", "0 issues")
        t.bash("mise run test:ci", "ok  \tpkg\t0.1s")
    t.bash('git commit -m "parser"', "[main 1a2b3c] parser")


def test_checks_run_repeatedly_seen_passing_and_named_by_a_doc_become_one_workflow_fact(
        tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("implement the parser")
    _tool(t, "Read", {"file_path": "CONTRIBUTING.md"},
          "1\tBefore a PR: `mise run fmt`, `mise run lint` and `mise run test:ci` must pass.")
    _run_checks(t)
    [c] = [c for c in _candidates(t.path) if c.rule == "workflow"]
    assert c.text == ("Verification commands: `mise run fmt`, `mise run lint`, "
                      "`mise run test:ci`.")


def test_checks_named_by_the_user_count_only_as_whole_names(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("implement the parser, then mise run fmt and mise run test:ci")
    _run_checks(t)  # `mise run lint` is the agent's own habit; "mise run test" is not named
    t.bash("mise run test", "ok")
    t.bash("mise run test", "ok")
    [c] = [c for c in _candidates(t.path) if c.rule == "workflow"]
    assert c.text == "Verification commands: `mise run fmt`, `mise run test:ci`."


def test_checks_only_the_agent_repeats_are_not_the_projects_workflow(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("implement the parser")
    _tool(t, "Read", {"file_path": "Makefile"}, "1\tfmt:\n2\t\tmise run fmt\n3\tlint:\n"
          "4\t\tmise run lint")  # a build file lists every target, run or not
    _run_checks(t)
    assert [c for c in _candidates(t.path) if c.rule == "workflow"] == []


def test_a_check_run_once_is_not_a_workflow(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash("make test", "ok")
    t.bash("make lint", "ok")
    assert [c for c in _candidates(t.path) if c.rule == "workflow"] == []


def test_a_build_that_only_works_from_its_module_folder_gives_the_cd_as_the_fix(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash("go build ./...", "Exit code 1\npattern ./...: directory prefix . does not contain "
           "main module or its selected dependencies", error=True)
    evidence = t.bash("cd src && go build ./...", "")
    [c] = [c for c in _candidates(t.path) if c.rule == "failure-fix"]
    assert c.text == ("Run `go build ./...` from `src/`: elsewhere it fails with `pattern ./...: "
                      "directory prefix . does not contain main module or its selected "
                      "dependencies`.")
    assert c.evidence == evidence


def test_a_path_typed_from_the_wrong_folder_is_a_slip_not_a_fix(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash("go test ./cmd/cli/session", "Exit code 1\nstat cmd/cli/cmd/cli/session: directory "
           "not found", error=True)
    t.bash("cd session && go test ./cmd/cli/session", "ok")
    t.bash('grep -n "paths" session/state.go', "Exit code 2\ngrep: session/state.go: No such "
           "file or directory", error=True)
    t.bash('grep -n "paths" cmd/cli/session/state.go', "12: paths")
    t.bash("./build.sh", "Exit code 127\nbash: ./build.sh: No such file or directory",
           error=True)
    t.bash("./scripts/build.sh", "built")
    assert [c.text for c in _candidates(t.path)] == [
        "Run `./scripts/build.sh`, not `./build.sh` (`./build.sh` fails: ./build.sh: No such "
        "file or directory)."]


def test_an_ignored_path_that_the_next_add_leaves_out_is_kept_out_of_commits(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash('git add Cargo.toml .work/docs/plan.md src/a.rs && git commit -m "v0.4.6"',
           "Exit code 1\nThe following paths are ignored by one of your .gitignore files:\n"
           ".work\nhint: Use -f if you really want to add them.", error=True)
    evidence = t.bash('git add Cargo.toml src/a.rs && git commit -m "v0.4.6"',
                      "[main 1a2b3c] v0.4.6")
    [c] = [c for c in _candidates(t.path) if c.rule == "failure-fix"]
    assert c.text == ("`.work/docs/plan.md` is ignored by .gitignore (`.work` is local, not "
                      "tracked): `git add` refuses it, so commits leave it out.")
    assert c.evidence == evidence
    # Last word wins: forced in later after all, it is tracked, not left out.
    t.bash("git add -f .work/docs/plan.md", "")
    assert not [c for c in _candidates(t.path) if "leave it out" in c.text]


def test_another_command_of_the_same_program_is_not_a_fix(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash("rtk bun run test 2>&1 | tail -5", "error: unrecognized subcommand 'bun'")
    t.bash("rtk git status", "On branch main")
    assert [c for c in _candidates(t.path) if c.rule == "failure-fix"] == []


def test_a_diagnosis_is_kept_once_the_rerun_passed_after_an_edit(tmp_path: Path):
    """The failure is piped into tail (exit 0): its output says it failed. The agent's first
    sentence after it is the diagnosis; the passing rerun after the edit confirms it."""
    t = Transcript(tmp_path / "s.jsonl")
    t.bash("cargo check -p app-tauri 2>&1 | tail -30", "   Compiling app-tauri v0.1.0\n"
           "error: failed to run custom build command for `app-tauri`\n  resource path "
           "`binaries/app-aarch64` doesn't exist")
    t.assistant("Tauri-build validates `externalBin` files exist at build time. Need a "
                "placeholder so `cargo check --workspace` still passes.")
    _tool(t, "Write", {"file_path": "build.rs", "content": "fn main() {}"}, "File created")
    evidence = t.bash("cargo check -p app-tauri 2>&1 | tail -10", "    Finished dev")
    [c] = [c for c in _candidates(t.path) if c.rule == "diagnosis"]
    assert c.text == "Tauri-build validates `externalBin` files exist at build time."
    assert c.evidence == evidence


def test_a_commit_the_pre_commit_hook_refused_is_a_check_whose_diagnosis_counts(
        tmp_path: Path):
    """The hook ran the checks; the diagnosis sits before a lead-in on its line."""
    t = Transcript(tmp_path / "s.jsonl")
    t.bash('git commit -m "feat: summaries"', "Exit code 1\nPre-commit validation failed:\n"
           "[DIALYZER]\nlib/summary.ex:112:pattern_match", error=True)
    t.assistant("Dialyzer says `LLMChain.run` returns `{:error, chain, reason}` on failure. "
                "Let me fix the pattern:")
    _tool(t, "Edit", {"file_path": "lib/summary.ex", "old_string": "a", "new_string": "b"}, "ok")
    evidence = t.bash('git commit -m "feat: summaries"', "[main 1a2b3c] feat: summaries")
    [c] = [c for c in _candidates(t.path) if c.rule == "diagnosis"]
    assert c.text == ("Dialyzer says `LLMChain.run` returns `{:error, chain, reason}` on "
                      "failure.")
    assert c.evidence == evidence


def test_a_commit_git_itself_refused_gives_no_diagnosis(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash('git commit -m "wip"', "Exit code 1\nnothing added to commit but untracked files "
           "present", error=True)
    t.assistant("The `config` module reads `KEY` from the environment first.")
    _tool(t, "Edit", {"file_path": "config.py", "old_string": "a", "new_string": "b"}, "ok")
    t.bash('git add config.py && git commit -m "wip"', "[main 1a2b3c] wip")
    assert [c for c in _candidates(t.path) if c.rule == "diagnosis"] == []


def test_a_diagnosis_the_rerun_did_not_confirm_or_that_is_a_guess_is_not_kept(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash("make test", "Exit code 2\nFAIL parser_test.go:12", error=True)
    t.assistant("The `parser` module rejects tabs in keys.")
    _tool(t, "Edit", {"file_path": "parser.go", "old_string": "a", "new_string": "b"}, "ok")
    t.bash("make test", "Exit code 2\nFAIL parser_test.go:30", error=True)
    t.assistant("The `lexer` probably drops the last token.")
    _tool(t, "Edit", {"file_path": "lexer.go", "old_string": "a", "new_string": "b"}, "ok")
    t.bash("make test", "ok")
    assert [c for c in _candidates(t.path) if c.rule == "diagnosis"] == []


def test_another_task_of_the_same_runner_is_not_a_fix(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash("mise run test:ci", "Exit code 1\nerror: open REDACTED.jsonl: no such file",
           error=True)
    t.bash("mise run lint", "0 issues")
    assert [c.rule for c in _candidates(t.path)] == []


def test_a_task_that_extends_the_failed_one_is_the_fix(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash("bun run lint", "Exit code 1\n$ biome check\nerror: formatter would have printed "
           "different content", error=True)
    t.bash("bun run lint:fix", "Fixed 2 files")
    [c] = [c for c in _candidates(t.path) if c.rule == "failure-fix"]
    assert c.text.startswith("When `bun run lint` fails with `error: formatter would have")
    assert c.text.endswith("run `bun run lint:fix`.")


def test_exploratory_commands_and_other_targets_are_never_fixes(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash("grep -n foo src/a.py", "Exit code 2\ngrep: src/a.py: No such file", error=True)
    t.bash("grep -n foo lib/a.py", "1: foo")
    t.bash("go test ./color/...", "Exit code 1\nFAIL color error", error=True)
    t.bash("go test ./terminal/...", "ok")
    assert [c for c in _candidates(t.path) if c.rule == "failure-fix"] == []


def test_a_fix_under_the_project_root_is_made_relative_and_one_outside_it_dropped(
        tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash("go build ./...", "Exit code 1\ndirectory prefix . does not contain main module",
           error=True)
    t.bash("cd /home/dev/proj/src && go build ./...", "")
    [c] = [c for c in _candidates(t.path, root="/home/dev/proj") if c.rule == "failure-fix"]
    assert "`src/`" in c.text and "/home/" not in c.text
    assert [c for c in _candidates(t.path, root="/work/other") if c.rule == "failure-fix"] == []


def test_no_fact_names_an_absolute_path_of_this_machine(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("Always run /Users/dev/.venv/bin/python -m pytest before pushing.")
    t.user("Always run `make check` in /home/dev/proj/api before pushing.")
    texts = [c.text for c in _candidates(t.path, root="/home/dev/proj")]
    assert texts == ["Always run `make check` in api before pushing."]


def test_paths_under_the_folder_the_session_ran_in_are_made_relative_without_a_root(
        tmp_path: Path):
    """The transcript's `cwd` is the project: its paths become repo-relative even when the
    extraction runs elsewhere (a review's clone, another machine); a home folder as `cwd`
    makes nothing relative."""
    t = Transcript(tmp_path / "s.jsonl")
    t.user("Always run `make check` in /Users/ana/code/shop/api before pushing.",
           cwd="/Users/ana/code/shop")
    t.user("Never edit /Users/ana/notes/todo.md from a hook.", cwd="/Users/ana")
    assert [c.text for c in _candidates(t.path)] == [
        "Always run `make check` in api before pushing."]


@given(st.text(alphabet="abc/ .-_`", max_size=40))
def test_machine_paths_out_never_leaves_a_home_folder(tail: str):
    text = machine_paths_out(f"use /home/dev/proj/{tail} or /Users/x/{tail}", "/home/dev/proj")
    assert text is None or "/Users/" not in text


def test_an_issue_from_the_tracker_gives_its_constraints_with_its_title(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("implement spotter-dov")
    issue = (
        "○ spotter-dov [EPIC] · Unified transcript rendering   [● P1 · OPEN]\n"
        "Owner: M · Type: epic\n\nDESCRIPTION\n## Problem\nThe two views drift apart.\n"
        "## Notes\n- Do not replace highlight.js with another\n  syntax highlighter.\n"
        "- Session pages must render rows through the shared component.\n"
        "## Acceptance Tests\n- Rows must show 10 lines by default.\n"
        "- [ ] Never truncate silently\n"
    )
    evidence = _tool(t, "Bash", {"command": "bd show spotter-dov"}, issue)
    found = [c for c in _candidates(t.path) if c.rule.startswith("issue-")]
    assert [c.text for c in found] == [
        'Issue "Unified transcript rendering": Do not replace highlight.js with another '
        "syntax highlighter.",
        'Issue "Unified transcript rendering": Session pages must render rows through the '
        "shared component.",
    ]
    assert {c.evidence for c in found} == {evidence}


def test_an_issues_constraint_section_is_one_fact_whatever_its_items_say(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    issue = (
        "○ app-7.2 · Upgrade the renderer   [● P1 · OPEN]\n\nDESCRIPTION\n"
        "## Architecture Constraints\n"
        "- Renderer remains a pure data transform module (no socket state).\n"
        "- No copied markup between the two pages after this task.\n"
        "## Definition Of Done\n- Renderer tests cover the new keys.\n"
        "## No-gos\n- Do not add a second highlighter.\n"
        "---\n"
        "Architecture: Phoenix LiveView; UI work must follow the AGENTS.md Frontend guidance.\n"
        "Docs: written in RST; beware the differences from GitHub Markdown.\n"  # of what?
    )
    _tool(t, "Bash", {"command": "bd show app-7.2"}, issue)
    assert [c.text for c in _candidates(t.path) if c.rule.startswith("issue-")] == [
        'Issue "Upgrade the renderer": Architecture Constraints: renderer remains a pure data '
        "transform module (no socket state); no copied markup between the two pages.",
        'Issue "Upgrade the renderer": No-gos: do not add a second highlighter.',
        'Issue "Upgrade the renderer": UI work must follow the AGENTS.md Frontend guidance.',
    ]


def _tracked_task(t: Transcript, close_output: str = "✓ Closed app-7.1: done",
                  close_error: bool = False) -> str:
    t.user("Work on bead app-7")
    t.bash("bd ready", "📋 Ready work (1 issue):\n1. [P1] app-7.1: Extract the component")
    t.bash("bd show app-7.1", "○ app-7.1 · Extract the component   [● P1 · OPEN]")
    t.bash("bd update app-7.1 --status in_progress", "✓ Updated issue: app-7.1")
    t.bash("mix test 2>&1 | tail -5", "1 test, 1 failure")
    t.bash("mix test 2>&1 | tail -5", "12 tests, 0 failures")
    t.bash("mix credo --strict", "found no issues")
    closed = t.bash('bd close app-7.1 --reason="Extracted the shared component"',
                    close_output, error=close_error)
    t.bash("bd sync --from-main", "ok")
    t.bash('git add .beads/issues.jsonl && git commit -m "feat: shared component"',
           "[app-7 1a2b3c] feat: shared component")
    t.bash("git push", "To github.com:o/app.git")
    return closed


def test_a_closed_tracked_task_gives_the_routine_the_session_followed(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    closed = _tracked_task(t)
    [c] = [c for c in _candidates(t.path) if c.rule == "tracker-routine"]
    assert c.text == (
        "Tracked tasks (beads, `bd`): find work with `bd ready`, read it with `bd show <id>`, "
        "claim it with `bd update <id> --status in_progress`; `mix test` and `mix credo` must "
        'pass before `bd close <id> --reason="…"`; then `bd sync --from-main`, commit, '
        "`git push`.")
    assert c.evidence == closed and c.kind == "interaction"


def test_a_tracked_task_left_open_or_failing_to_close_gives_no_routine(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    _tracked_task(t, close_output="Exit code 1\nError: issue not found", close_error=True)
    assert [c for c in _candidates(t.path) if c.rule == "tracker-routine"] == []
    t = Transcript(tmp_path / "s2.jsonl")
    t.bash("bd show app-7.1", "○ app-7.1 · Extract the component   [● P1 · OPEN]")
    t.bash("bd update app-7.1 --status in_progress", "✓ Updated issue: app-7.1")
    t.bash("mix test", "12 tests, 0 failures")
    assert [c for c in _candidates(t.path) if c.rule == "tracker-routine"] == []


def test_a_github_issue_closed_after_the_checks_gives_the_routine(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash("gh issue view 42", "title:\tCrash on empty input\nstate:\tOPEN")
    t.bash("npm test", "ok")
    t.bash("gh issue close 42 --comment 'Fixed in 1a2b3c'", "✓ Closed issue #42")
    [c] = [c for c in _candidates(t.path) if c.rule == "tracker-routine"]
    assert c.text == ("Tracked tasks (`gh issue`): read it with `gh issue view <id>`; `npm test` "
                      "must pass before `gh issue close <id> --comment \"…\"`.")


def test_agent_guides_and_skills_the_session_already_sees_are_not_copied(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    _tool(t, "Read", {"file_path": "/p/AGENTS.md"}, "     1→Never rewrite history on main.")
    _tool(t, "Read", {"file_path": "/p/docs/adr/0003-storage.md"},
          "     1→# Storage\n     2→Facts must stay plain YAML files under .kenning/facts.")
    assert [c.text for c in _candidates(t.path)] == [
        "adr/0003-storage.md: Facts must stay plain YAML files under .kenning/facts."
    ]


def test_a_message_queued_while_the_agent_was_busy_is_read(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("fix the importer")
    before = t.bash("uv run pytest", "3 passed")
    with t.path.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"type": "queue-operation", "operation": "enqueue",
                            "sessionId": t.session, "timestamp": "2026-11-29T10:09:00Z",
                            "content": "Never push directly to main; open a PR."}) + "\n")
    t.assistant("ok")
    [c] = _candidates(t.path)
    assert c.text == "Never push directly to main; open a PR." and c.evidence == before


SUMMARY = """This session is being continued from a previous conversation.

Summary:
4. Errors and fixes:
   - **ChakraProvider error**: Using `TreeView` from `@chakra-ui/react` crashed with
     `useContext returned undefined`. Fixed by importing it from `@ark-ui/react/tree-view`.
   - **Wrong claim that the lint error came from gofmt**: I claimed gofmt stripped the
     comments. Fix: restored the files.
   - **Duplicate key warnings (CURRENT)**: Skills appear twice. Fix: not applied yet.
   - **Phase 0 plan told the implementer to restore the filters.** Fix: plain deletion.

5. Problem Solving:
   - Resolved the provider error.
"""


def test_a_compaction_summary_gives_the_errors_fixed_and_never_a_withdrawn_claim(
        tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("go on")
    evidence = t.user(SUMMARY, isCompactSummary=True, isVisibleInTranscriptOnly=True)
    found = [c for c in _candidates(t.path) if c.rule == "summary-fix"]
    assert [c.text for c in found] == [
        "ChakraProvider error: Using `TreeView` from `@chakra-ui/react` crashed with "
        "`useContext returned undefined`. Fixed by importing it from `@ark-ui/react/tree-view`."
    ]
    assert found[0].evidence == evidence


CONCEPTS = """This session is being continued from a previous conversation.

Summary:
2. Key Technical Concepts:
   - `uv.lock` is **gitignored** in this project — CI resolves dependencies fresh each time
   - **Wingman**: Background auto-review system
   - `projectHash` is currently not stored in `CommittedMetadata`
   - `ResolveSessionFile()` probably globs for the session file before the fallback
   - `VoiceNotFoundError` was added to `punt_tts.types` in this session
"""


def test_a_compaction_summarys_technical_concepts_give_how_named_code_is(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("go on")
    evidence = t.user(CONCEPTS, isCompactSummary=True, isVisibleInTranscriptOnly=True)
    found = [c for c in _candidates(t.path) if c.rule == "summary-concept"]
    assert [(c.text, c.evidence) for c in found] == [
        ("`uv.lock` is gitignored in this project — CI resolves dependencies fresh each time",
         evidence)]


def test_git_gates_teach_an_ignored_path_a_new_branch_push_and_the_pre_commit_fix(
        tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash("git add priv/static/assets/app.css lib/a.ex",
           "Exit code 1\nThe following paths are ignored by one of your .gitignore files:\n"
           "priv/static/assets\nhint: Use -f if you really want to add them.", error=True)
    t.bash("git add -f priv/static/assets/app.css", "")
    t.bash('git commit -m "x"', "Exit code 1\nformat check failed: 2 files need formatting\n"
           "Run `mix format` to fix them.", error=True)
    t.bash("mix format", "")
    t.bash('git commit -m "x"', "[feature 1a2b3c] x")
    t.bash("git push", "Exit code 128\nfatal: The current branch feature has no upstream "
           "branch.", error=True)
    t.bash("git push --set-upstream origin feature", "branch 'feature' set up")
    texts = [c.text for c in _candidates(t.path) if c.rule == "failure-fix"]
    assert texts == [
        "`priv/static/assets/app.css` is ignored by .gitignore but committed: add it with "
        "`git add -f priv/static/assets/app.css`.",
        "The pre-commit hook fails `git commit` with `format check failed: 2 files need "
        "formatting`; the fix is to run `mix format` and commit again.",
        "A new branch is pushed with `git push -u origin <branch>`: a plain `git push` fails "
        "with no upstream branch.",
    ]


def test_a_statement_taken_back_later_in_the_session_is_never_stored(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("Always run the importer tests with --runslow before pushing.")
    t.assistant("ok")
    t.user("Actually that was wrong: the importer tests with --runslow are not needed "
           "before pushing.")
    t.user("Never push directly to main.")
    texts = [c.text for c in _candidates(t.path)]
    assert not any(x.startswith("Always run the importer tests") for x in texts)
    assert "Never push directly to main." in texts


def test_a_technical_concept_the_session_later_takes_back_is_not_stored(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("go on")
    t.user(CONCEPTS, isCompactSummary=True, isVisibleInTranscriptOnly=True)
    t.assistant("I was wrong: `uv.lock` is not gitignored in this project, CI resolves "
                "dependencies from the lockfile.")
    assert [c for c in _candidates(t.path) if c.rule == "summary-concept"] == []


_ARCH_FAILURE = (
    "Exit code 2\n========================= FAILURES =========================\n"
    "_______ TestOneClassPerFile.test_unit_test_files_have_at_most_one_class ________\n"
    ">       assert violations == [], \"Unit test files must contain at most one class:\\n\"\n"
    "E       AssertionError: Unit test files must contain at most one class:\n"
    "E           - providers/test_routes.py has 2 classes: ['TestA', 'TestB']\n"
    "E       assert ['providers/t...]\"] == []\n\n"
    "tests/architecture/test_one_class_per_file.py:26: AssertionError\n"
    "FAILED tests/architecture/test_one_class_per_file.py::TestOneClassPerFile::"
    "test_unit_test_files_have_at_most_one_class\n"
    "make: *** [test] Error 1")


def test_a_failed_test_that_states_a_rule_the_session_then_obeyed_is_a_fact(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("add the condition check")
    evidence = t.bash("make check 2>&1", _ARCH_FAILURE, error=True)
    _tool(t, "Write", {"file_path": "tests/unit/providers/test_routes_b.py",
                       "content": "class TestB: ..."}, "File created")
    t.bash("make check 2>&1", "2111 passed")
    [c] = [c for c in _candidates(t.path) if c.rule == "test-rule"]
    assert c.text == ("`tests/architecture/test_one_class_per_file.py` enforces: Unit test "
                      "files must contain at most one class.")
    assert c.evidence == evidence


def test_a_test_rule_is_no_fact_until_the_check_passes_or_once_the_test_is_changed(
        tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash("make check 2>&1", _ARCH_FAILURE, error=True)
    assert [c for c in _candidates(t.path) if c.rule == "test-rule"] == []
    _tool(t, "Edit", {"file_path": "tests/architecture/test_one_class_per_file.py",
                      "old_string": "at most one", "new_string": "at most two"}, "ok")
    t.bash("make check 2>&1", "2111 passed")
    assert [c for c in _candidates(t.path) if c.rule == "test-rule"] == []
    t.bash("uv run pytest tests 2>&1 | tail -5",
           "E       AssertionError: assert {'S': 'shipped'} == 'shipped'\n1 failed")
    t.bash("uv run pytest tests", "5 passed")
    assert [c for c in _candidates(t.path) if c.rule == "test-rule"] == []


def test_a_rerun_that_only_prints_more_or_less_is_not_a_fix(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.bash("uv run pytest tests/e2e/test_scenarios.py -v --tb=long",
           "Exit code 1\nERROR tests/e2e/test_scenarios.py - fixture 'runner' not found")
    t.bash("uv run pytest tests/e2e/test_scenarios.py -v --tb=short", "1 passed")
    assert [c for c in _candidates(t.path) if c.rule == "failure-fix"] == []
