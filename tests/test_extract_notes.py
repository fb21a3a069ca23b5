"""Knowledge notes the agent wrote into Claude Code's memory folder, and the user's answers to
AskUserQuestion (notes.py), on snippets of real development-set sessions."""

from __future__ import annotations

from kenning.extract.model import Turn
from kenning.extract.rules import extract_candidates

# From a JanDeDobbeleer/oh-my-posh session (development split), shortened.
ZVM_NOTE = """---
name: zvm-transient-prompt-interplay
description: "zsh-vi-mode + omp transient prompt: widget wrap order, zpty keystroke repro harness"
metadata:
  type: project
---

Findings from fixing issue 5992 (commit d8afdeb8, 2026-07-14):

- zsh-vi-mode (ZVM) inits lazily at first precmd, so it ALWAYS wraps omp's `zle-line-init`
  regardless of source order: its wrapper runs our widget first, `zvm_zle-line-init` second.
- Landmine: `zvm_reset_prompt` resolves `$rawfunc` via dynamic scoping.
"""
ANSWERED = (
    'User has answered your questions: "When running suggestions on the updated repo after '
    'error fixes, should the suggestion prompt include info about what errors were just '
    'fixed?"="Include error fix summary", "For the intermediate error-fix diff: should the '
    'working directory be committed between error fixes and suggestions, or just left '
    'dirty?"="Capture diff, leave dirty (Recommended)". You can now continue with the '
    "user's answers in mind."
)


def _write(path: str, content: str, ok: bool = True) -> list[Turn]:
    return [
        Turn(uuid="a1", parent_uuid=None, role="assistant", text="", session_id="s",
             tool_uses=(("t1", "Write", {"file_path": path, "content": content}),)),
        Turn(uuid="r1", parent_uuid="a1", role="tool_result", text="", session_id="s",
             tool_results=(("t1", "File created successfully" if ok else "denied", not ok),)),
    ]


def test_a_memory_note_gives_its_headline_rule_with_its_topic():
    path = "C:\\Users\\me\\.claude\\projects\\D--proj\\memory\\zvm-transient-prompt-interplay.md"
    facts = [c for c in extract_candidates(_write(path, ZVM_NOTE)) if c.rule == "note"]
    assert len(facts) == 1  # the headline only; the dated "Findings from …" line is history
    assert facts[0].text.startswith("zsh-vi-mode + omp transient prompt: zsh-vi-mode (ZVM)")
    assert "regardless of source order" in facts[0].text
    assert facts[0].evidence == "a1"


def test_a_note_written_again_replaces_what_its_first_version_said():
    """Last word wins: the skill's first home, later moved, is not stored."""
    path = "/home/me/.claude/projects/p/memory/skills-home.md"
    first = "- Durable gotchas live in the local .claude/skills/project-knowledge skill folder.\n"
    later = "- Durable gotchas live in the committed .agents/skills/project-knowledge folder.\n"
    turns = _write(path, first) + [
        Turn(uuid="a2", parent_uuid="r1", role="assistant", text="", session_id="s",
             tool_uses=(("t2", "Write", {"file_path": path, "content": later}),)),
        Turn(uuid="r2", parent_uuid="a2", role="tool_result", text="", session_id="s",
             tool_results=(("t2", "File updated", False),))]
    facts = [c.text for c in extract_candidates(turns) if c.rule == "note"]
    assert facts == ["skills-home: Durable gotchas live in the committed "
                     ".agents/skills/project-knowledge folder."]


def _edit(n: int, path: str, old: str, new: str) -> list[Turn]:
    return [
        Turn(uuid=f"a{n}", parent_uuid=None, role="assistant", text="", session_id="s",
             tool_uses=((f"t{n}", "Edit", {"file_path": path, "old_string": old,
                                          "new_string": new}),)),
        Turn(uuid=f"r{n}", parent_uuid=f"a{n}", role="tool_result", text="", session_id="s",
             tool_results=((f"t{n}", "The file has been updated", False),)),
    ]


# Shaped on a planetfall-seed-signalkit session (extraction_test3, development since round 9):
# a design note built, then shelved after the playtest; its "BUILT" line was stored.
ARCHIVE = ("Cleanup owed before building: the abandoned corruption implementation in "
           "src/corruptionView.js and its wiring in main.js.\n")
BUILT = ("BUILT 2026-06-09 in `src/archiveView.js`: 21 blocks, seeded placement, a 90s clock, "
         "`entire checkpoint list` also works.")
SHELVED = ("\n\nSHELVED 2026-06-10 after the playtest: the story felt like too much; the "
           "implementation is kept for a later search level.")


def test_an_edit_that_takes_a_notes_text_out_replaces_what_it_said():
    path = "/home/me/.claude/projects/p/memory/level2-archive.md"
    turns = _write(path, ARCHIVE) + _edit(2, path, ARCHIVE.strip(), BUILT)
    facts = [c.text for c in extract_candidates(turns) if c.rule == "note"]
    assert facts == [f"level2-archive: {BUILT}"]  # the cleanup line is gone from the note
    # an edit that keeps the text and adds to it takes nothing back
    kept = _write(path, ARCHIVE) + _edit(2, path, ARCHIVE.strip(),
                                         ARCHIVE.strip() + " It is a separate commit.")
    assert [c.text for c in extract_candidates(kept) if c.rule == "note"][0].startswith(
        "level2-archive: Cleanup owed before building")


def test_a_note_marked_shelved_says_nothing_more():
    path = "/home/me/.claude/projects/p/memory/level2-archive.md"
    turns = (_write(path, ARCHIVE) + _edit(2, path, ARCHIVE.strip(), BUILT)
             + _edit(3, path, BUILT, BUILT + SHELVED))
    assert not [c for c in extract_candidates(turns) if c.rule == "note"]
    # written again as a whole without the mark, it speaks again
    again = turns + _write(path, ARCHIVE)
    assert [c.rule for c in extract_candidates(again)] == ["note"]


def test_plans_indexes_project_files_and_failed_writes_are_not_notes():
    for path in ("/home/me/.claude/projects/p/memory/MEMORY.md",
                 "/home/me/.claude/plans/velvet-strolling-rose.md",
                 "docs/memory/notes.md",
                 ".claude/skills/project-knowledge/references/pwsh.md"):
        assert not [c for c in extract_candidates(_write(path, ZVM_NOTE)) if c.rule == "note"]
    failed = _write("/home/me/.claude/projects/p/memory/zvm.md", ZVM_NOTE, ok=False)
    assert not [c for c in extract_candidates(failed) if c.rule == "note"]


def test_the_users_answers_become_one_decision_without_the_recommended_tag():
    turns = [
        Turn(uuid="a1", parent_uuid=None, role="assistant", text="", session_id="s",
             tool_uses=(("q1", "AskUserQuestion", {"questions": []}),)),
        Turn(uuid="r1", parent_uuid="a1", role="tool_result", text="", session_id="s",
             tool_results=(("q1", ANSWERED, False),)),
    ]
    facts = [c for c in extract_candidates(turns) if c.rule == "user-answer"]
    assert len(facts) == 1
    assert facts[0].kind == "decision" and facts[0].evidence == "r1"
    assert 'the user chose "Include error fix summary"' in facts[0].text
    assert 'the user chose "Capture diff, leave dirty"' in facts[0].text


def test_notes_and_answers_are_idempotent():
    path = "/home/me/.claude/projects/p/memory/zvm.md"
    assert extract_candidates(_write(path, ZVM_NOTE)) == extract_candidates(_write(path, ZVM_NOTE))


# From a PackmindHub/context-evaluator session (development split), shortened.
APPROVED_PLAN = """Implement the following plan:

# Plan: Consolidate AGENTS.md/CLAUDE.md Coexistence

## Context

When a repository contains both AGENTS.md and CLAUDE.md in the same directory with different
content, the current system keeps both files and lets the AI agent decide which to modify.

**Goal**: When both files coexist, AGENTS.md becomes the source of truth. CLAUDE.md is """ \
    """reduced to `@AGENTS.md` (a reference pointer).

## Changes
"""


def test_an_approved_plan_gives_its_goal_not_its_context():
    turns = [Turn(uuid="u1", parent_uuid=None, role="user", text=APPROVED_PLAN, session_id="s")]
    facts = [c for c in extract_candidates(turns) if c.rule == "plan-goal"]
    assert [c.text for c in facts] == [
        'Plan "Consolidate AGENTS.md/CLAUDE.md Coexistence": When both files coexist, AGENTS.md '
        "becomes the source of truth. CLAUDE.md is reduced to `@AGENTS.md` (a reference pointer)."
    ]
    assert facts[0].kind == "decision"
    assert not any("current system keeps both" in c.text for c in extract_candidates(turns))


def test_a_plan_without_a_goal_line_or_not_approved_gives_no_goal():
    no_goal = APPROVED_PLAN.replace("**Goal**:", "Also:")
    quoted = APPROVED_PLAN.replace("Implement the following plan:", "What do you think of:")
    for text in (no_goal, quoted):
        turns = [Turn(uuid="u1", parent_uuid=None, role="user", text=text, session_id="s")]
        assert not [c for c in extract_candidates(turns) if c.rule == "plan-goal"]


def test_the_agents_own_next_step_and_an_answer_that_asks_back_are_not_decisions():
    """extraction_test2 (round 8): "how should I deliver …", "… now?", "… in this change?"
    are the task's plan; an answer that is a question chose nothing."""
    answered = (
        'User has answered your questions: "How should I deliver the fixes to PR #65?"="Push '
        'the two commits", "Rename the --sign flag now?"="Rename to --sign-mode", "Should we '
        'attempt approve/reject signaling in this change?"="Yes, do it properly", "How should '
        'the CredentialProvider interact with HTTPConn?"="what is the most common go pattern '
        'you would recommend?", "How should convert-sha256 handle foreign PR refs?"="Exclude '
        "by default\". You can now continue with the user's answers in mind."
    )
    turns = [
        Turn(uuid="a1", parent_uuid=None, role="assistant", text="", session_id="s",
             tool_uses=(("q1", "AskUserQuestion", {"questions": []}),)),
        Turn(uuid="r1", parent_uuid="a1", role="tool_result", text="", session_id="s",
             tool_results=(("q1", answered, False),)),
    ]
    [fact] = [c for c in extract_candidates(turns) if c.rule == "user-answer"]
    assert fact.text == ('User decisions: asked "How should convert-sha256 handle foreign PR '
                         'refs?", the user chose "Exclude by default"')
