"""`kenning export --agents-md`: a bounded block between markers, regenerated in place."""

from __future__ import annotations

from kenning.insight.agents_md import BEGIN, END, MAX_BYTES, splice


def block_of(text: str) -> str:
    return text[text.index(BEGIN):text.index(END) + len(END)]


def test_the_block_round_trips_keeping_hand_edits_outside_the_markers(kenning, isolated):
    kenning("add", "Money amounts are integer cents, never floats.", "--kind", "decision",
            "--rationale", "float rounding lost cents in invoices")
    kenning("add", "The API server listens on port 8080 in development.", "--kind", "codebase")
    target = isolated / "AGENTS.md"
    target.write_text("# Agents\n\nRun `make check` before committing.\n", encoding="utf-8")
    result = kenning("export", "--agents-md")
    assert result.code == 0, result.err
    first = target.read_text(encoding="utf-8")
    assert first.startswith("# Agents\n\nRun `make check` before committing.\n\n" + BEGIN)
    assert "- Money amounts are integer cents, never floats. (why: float rounding lost " \
           "cents in invoices)" in first
    assert "port 8080" in first and first.count(BEGIN) == 1 and first.endswith(END + "\n")

    edited = first.replace("# Agents\n", "# Agents\n\nHand-written note.\n") + "\nTail.\n"
    target.write_text(edited, encoding="utf-8")
    kenning("add", "Migrations live in db/migrations and run in lexical order.",
            "--kind", "codebase")
    assert kenning("export", "--agents-md").code == 0
    second = target.read_text(encoding="utf-8")
    assert second.count(BEGIN) == 1 and second.count(END) == 1
    assert "Hand-written note." in second and second.endswith("\nTail.\n")
    assert "db/migrations" in block_of(second)
    assert second.replace(block_of(second), "") == edited.replace(block_of(edited), "")
    assert kenning("export", "--agents-md").code == 0
    assert target.read_text(encoding="utf-8") == second  # regenerating again changes nothing


def test_claude_md_can_be_the_target_and_the_block_is_bounded(kenning, isolated):
    for n in range(50):
        kenning("add", f"Service number {n} owns the queue named jobs-{n} and nothing else; "
                       + "it retries with backoff " * 8, "--kind", "codebase")
    assert kenning("export", "--agents-md", "CLAUDE.md").code == 0
    text = (isolated / "CLAUDE.md").read_text(encoding="utf-8")
    assert len(block_of(text).encode("utf-8")) <= MAX_BYTES
    assert 0 < text.count("\n- ") <= 40
    assert not (isolated / "AGENTS.md").exists()


def test_splice_removes_stale_duplicate_blocks():
    old = f"a\n{BEGIN}\nold\n{END}\nb\n{BEGIN}\nolder\n{END}\nc\n"
    new, replaced = splice(old, f"{BEGIN}\nnew\n{END}\n")
    assert replaced and new == f"a\n{BEGIN}\nnew\n{END}\nb\nc\n"
    assert splice("", f"{BEGIN}\nx\n{END}\n") == (f"{BEGIN}\nx\n{END}\n", False)
