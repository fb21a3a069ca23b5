"""Transcript parsing: the live branch, merged assistant turns, cursors, and no crashes."""

from __future__ import annotations

import json
import shutil
import threading
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kenning.core.errors import KenningError
from kenning.extract.cleaning import (
    MAX_RESULT_CHARS,
    clean_text,
    find_injected_ids,
    injected_texts,
)
from kenning.extract.transcript import (
    Cursor,
    read_new,
    read_transcript,
    subagent_transcripts,
    wait_until_stable,
)

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"
REFERENCE = Path(__file__).parents[1] / "bench" / "data" / "transcripts"  # copied, with licences
SESSION = "9b1c6a52-3f0e-4c1d-8e2a-5d7f0b3c4a11"


def _uuids(path: Path) -> list[str]:
    return [t.uuid for t in read_transcript(path).turns if t.role != "summary"]


def test_compaction_summaries_are_read_as_summary_turns_live_or_not():
    turns = read_transcript(FIXTURES / "rewind_compact.jsonl").turns
    summaries = [t for t in turns if t.role == "summary"]
    assert len(summaries) == 1 and summaries[0].text


def test_live_branch_follows_the_rewind_and_crosses_compaction():
    assert _uuids(FIXTURES / "rewind_compact.jsonl") == [
        "u-start",
        "a-start",
        "u-branch2",
        "a-branch2",
        "u-more",
        "a-more",
        "u-after",
        "a-after",
    ]


def test_a_parent_missing_from_the_file_does_not_cut_the_conversation_off(tmp_path: Path):
    """A copied checkpoint can leave out a line others hang off (a progress line): the live
    branch goes on at the line written before it instead of ending there."""
    rows = [("u-1", None, "user", "Run the release checklist"), ("a-1", "u-1", "assistant", "ok"),
            ("u-2", "a-1", "user", "now the docs"), ("a-2", "p-gone", "assistant", "done"),
            ("u-3", "a-2", "user", "thanks")]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps({
        "uuid": u, "parentUuid": parent, "type": kind, "sessionId": SESSION,
        "message": {"role": kind, "content": text} if kind == "user" else {
            "id": f"m-{u}", "role": kind, "content": [{"type": "text", "text": text}]}}) + "\n"
        for u, parent, kind, text in rows), encoding="utf-8")
    assert _uuids(path) == ["u-1", "a-1", "u-2", "a-2", "u-3"]


def test_compact_summary_is_not_a_user_turn():
    turns = read_transcript(FIXTURES / "rewind_compact.jsonl").turns
    assert not any("being continued" in t.text for t in turns if t.role == "user")


def test_assistant_lines_sharing_a_message_id_are_one_turn_with_parallel_results():
    turns = read_transcript(FIXTURES / "parallel_tools.jsonl").turns
    first = turns[1]
    assert first.role == "assistant" and first.uuid == "a-1"
    assert first.text == "Let me look at the importer and its tests."  # thinking dropped
    assert [name for _, name, _ in first.tool_uses] == ["Read", "Grep"]
    assert first.tool_uses[0][2] == {"file_path": "/home/dev/proj/src/app/importer.py"}
    # Both results follow the merged turn, although only one is on the parent chain.
    assert [t.uuid for t in turns[2:4]] == ["r-read", "r-grep"]
    assert turns[2].tool_results[0][0] == "toolu_read"
    assert turns[3].tool_results[0][1] == "src/app/importer.py:1:def load(path):"


def test_every_line_type_is_handled_and_bad_lines_are_counted():
    result = read_transcript(FIXTURES / "parallel_tools.jsonl")
    assert result.bad_lines == 3
    assert [t.role for t in result.turns] == [
        "user",
        "assistant",
        "tool_result",
        "tool_result",
        "assistant",
        "tool_result",
        "assistant",
        "tool_result",
        "user",
        "assistant",
        "user",
    ]
    assert "meta-1" not in {t.uuid for t in result.turns}  # isMeta


def test_failed_tool_result_keeps_its_error_flag():
    turns = {t.uuid: t for t in read_transcript(FIXTURES / "parallel_tools.jsonl").turns}
    assert turns["r-bash1"].tool_results == (
        ("toolu_bash1", "Exit code 127\n/bin/sh: 1: pytest: not found", True),
    )
    assert turns["r-bash2"].tool_results[0][2] is False


def test_injected_context_and_private_spans_are_removed_from_text():
    turns = {t.uuid: t for t in read_transcript(FIXTURES / "parallel_tools.jsonl").turns}
    assert turns["u-1"].text == (
        "Why does the importer crash on empty files? Please don't change the public API."
    )
    assert turns["u-2"].text == "no, use uv run pytest, not bare pytest."
    assert turns["r-bash2"].tool_results[0][1] == "1 failed, 4 passed in 0.21s"


def test_injected_fact_ids_are_collected_from_meta_lines_attachments_and_results():
    result = read_transcript(FIXTURES / "parallel_tools.jsonl")
    assert result.injected_ids == [
        "01JF3Z8Q6T1V3N1C2X7D9K4M5P",
        "01JF3Z9A1B2C3D4E5F6G7H8J9K",
        "01JF40AAAAAAAAAAAAAAAAAAAA",
    ]
    assert "Tests run with `uv run pytest -q`." in result.injected_texts


def test_slash_command_wrappers_keep_only_the_arguments_and_interruptions_vanish():
    turns = read_transcript(FIXTURES / "parallel_tools.jsonl").turns
    assert turns[-1].text == "focus on error handling"


def test_legacy_file_without_parent_links_is_read_in_file_order():
    turns = read_transcript(FIXTURES / "flat_legacy.jsonl").turns
    assert [t.uuid for t in turns] == ["x-1", "x-2", "x-3", "x-4"]
    assert turns[1].tool_uses[0][1] == "Write"


def test_subagent_transcript_parses_the_same_way():
    [agent] = subagent_transcripts(FIXTURES / f"{SESSION}.jsonl")
    assert agent.name == "agent-a7f3c21.jsonl"
    turns = read_transcript(agent).turns
    assert [t.role for t in turns] == ["user", "assistant", "tool_result", "assistant"]
    assert all(t.is_sidechain and t.agent_id == "a7f3c21" for t in turns)
    assert turns[0].session_id == SESSION


def test_turn_carries_envelope_fields():
    turn = read_transcript(FIXTURES / "rewind_compact.jsonl").turns[0]
    assert turn.parent_uuid is None
    assert turn.timestamp == "2026-02-10T10:01:00.000Z"
    assert turn.session_id == SESSION
    assert turn.is_sidechain is False and turn.agent_id is None


def test_repeated_uuid_keeps_the_later_line(tmp_path: Path):
    path = tmp_path / "t.jsonl"
    lines = [
        {"type": "user", "uuid": "a", "parentUuid": None, "message": {"content": "old text"}},
        {"type": "user", "uuid": "a", "parentUuid": None, "message": {"content": "new text"}},
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    assert [t.text for t in read_transcript(path).turns] == ["new text"]


# --- cursors ----------------------------------------------------------------------------


def _line(uuid: str, parent: str | None, text: str) -> str:
    obj = {"type": "user", "uuid": uuid, "parentUuid": parent, "sessionId": "s"}
    obj["message"] = {"role": "user", "content": text}
    return json.dumps(obj)


def test_second_read_returns_only_new_lines(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    shutil.copy(FIXTURES / "rewind_compact.jsonl", path)
    turns, cursor = read_new(path)
    assert len(turns) == 9  # 8 live turns and the compaction summary
    assert cursor.offset == path.stat().st_size
    assert cursor.last_uuid == "sys-dur"
    again, same = read_new(path, cursor)
    assert again == [] and same == cursor
    with path.open("a", encoding="utf-8") as f:
        f.write(_line("u-new", "a-after", "One more thing.") + "\n")
    new, cursor2 = read_new(path, cursor)
    assert [t.uuid for t in new] == ["u-new"]
    assert cursor2 == Cursor(path.stat().st_size, "u-new")


def test_trailing_partial_line_is_left_for_next_time(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    full = _line("u-1", None, "first") + "\n"
    second = _line("u-2", "u-1", "second")
    path.write_text(full + second[:20], encoding="utf-8")
    turns, cursor = read_new(path)
    assert [t.uuid for t in turns] == ["u-1"] and cursor.offset == len(full)
    with path.open("a", encoding="utf-8") as f:
        f.write(second[20:] + "\n")
    turns, cursor = read_new(path, cursor)
    assert [t.uuid for t in turns] == ["u-2"]
    assert cursor.offset == path.stat().st_size


def test_new_lines_after_a_rewind_follow_the_new_branch(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_text(
        "\n".join([_line("a", None, "one"), _line("b", "a", "two"), _line("c", "b", "three")])
        + "\n",
        encoding="utf-8",
    )
    _, cursor = read_new(path)
    with path.open("a", encoding="utf-8") as f:
        f.write(_line("b2", "a", "two again") + "\n" + _line("c2", "b2", "three again") + "\n")
    turns, _ = read_new(path, cursor)
    assert [t.uuid for t in turns] == ["b2", "c2"]


def test_cursor_past_the_end_of_a_replaced_file_starts_over(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_text(_line("a", None, "one") + "\n", encoding="utf-8")
    turns, _ = read_new(path, Cursor(10_000, "zzz"))
    assert [t.uuid for t in turns] == ["a"]


def test_missing_transcript_raises_a_kenning_error(tmp_path: Path):
    with pytest.raises(KenningError, match="cannot read transcript"):
        read_new(tmp_path / "nope.jsonl")


# --- text helpers -----------------------------------------------------------------------


def test_find_injected_ids_reads_only_kenning_blocks():
    text = (
        "unrelated 01ARZ3NDEKTSV4RRFFQ69G5FAV\n"
        '<kenning-context id="01HZX3KQ7M2N8P4R6T9V1W3Y5Z">\n'
        "- [id=01JF3Z8Q6T1V3N1C2X7D9K4M5P] Tests run with uv.\n"
        "</kenning-context>"
    )
    assert find_injected_ids(text) == ["01HZX3KQ7M2N8P4R6T9V1W3Y5Z", "01JF3Z8Q6T1V3N1C2X7D9K4M5P"]
    assert injected_texts(text) == ["Tests run with uv."]


def test_clean_text_drops_private_spans_even_when_unclosed():
    assert clean_text("keep <private>secret</private> this") == "keep  this"
    assert clean_text("keep <private>the rest is private") == "keep"


def test_long_tool_output_is_cut_to_head_and_tail(tmp_path: Path):
    output = "Exit code 1\n" + "x" * 50_000 + "\nFATAL: the real reason"
    lines = [
        {
            "type": "user",
            "uuid": "r",
            "parentUuid": None,
            "message": {
                "content": [
                    {"type": "tool_result", "tool_use_id": "t", "content": output, "is_error": True}
                ]
            },
        },
    ]
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(lines[0]) + "\n", encoding="utf-8")
    [turn] = read_transcript(path).turns
    text = turn.tool_results[0][1]
    assert len(text) < MAX_RESULT_CHARS + 20
    assert text.startswith("Exit code 1") and text.endswith("FATAL: the real reason")


# --- waiting ----------------------------------------------------------------------------


def test_wait_until_stable_returns_once_the_file_stops_growing(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_text("x\n", encoding="utf-8")
    done = threading.Event()

    def writer() -> None:
        for _ in range(25):
            with path.open("a", encoding="utf-8") as f:
                f.write("y\n")
            time.sleep(0.02)
        done.set()

    thread = threading.Thread(target=writer)
    thread.start()
    assert wait_until_stable(path, quiet_seconds=0.3, timeout=30, poll=0.02)
    assert done.is_set(), "returned while the file was still growing"
    thread.join()


def test_wait_until_stable_gives_up_at_the_timeout(tmp_path: Path):
    assert not wait_until_stable(tmp_path / "never.jsonl", quiet_seconds=0.1, timeout=0.3)


# --- robustness -------------------------------------------------------------------------

LINE = st.one_of(
    st.binary(max_size=60),
    st.text(max_size=60).map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=10)),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(
                st.sampled_from(
                    [
                        "type",
                        "uuid",
                        "parentUuid",
                        "message",
                        "content",
                        "isSidechain",
                        "logicalParentUuid",
                        "subtype",
                        "id",
                        "text",
                        "tool_use_id",
                        "isMeta",
                    ]
                ),
                inner,
                max_size=5,
            ),
        ),
        max_leaves=12,
    ).map(lambda o: json.dumps(o).encode()),
)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(LINE, max_size=12))
def test_garbage_never_raises(tmp_path: Path, lines: list[bytes]):
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n".join(line.replace(b"\n", b" ") for line in lines))
    result = read_transcript(path)
    assert result.cursor.offset <= path.stat().st_size


# --- the real transcripts (skipped where they are not available) ------------------------

REFERENCE_FILES = sorted(REFERENCE.rglob("*.jsonl"))


@pytest.mark.parametrize("path", REFERENCE_FILES, ids=lambda p: str(p.relative_to(REFERENCE)))
def test_every_reference_transcript_parses_and_yields_turns(path: Path):
    result = read_transcript(path)
    assert result.cursor.offset == path.stat().st_size
    if path.stat().st_size:
        assert result.turns
        assert {t.role for t in result.turns} <= {"user", "assistant", "tool_result", "summary"}


# --- memory -----------------------------------------------------------------------------


def _step_lines(n: int, parent: str | None, body: str, signature: str) -> list[dict]:
    """One exchange: prompt, thinking, a Read call, hook progress, big output, answer."""
    mid = f"msg_{n}"
    return [
        {"type": "user", "message": {"role": "user", "content": f"Step {n}: read mod.py"}},
        {
            "type": "assistant",
            "message": {
                "id": mid,
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "Think. " * 200, "signature": signature}
                ],
            },
        },
        {
            "type": "assistant",
            "message": {
                "id": mid,
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": f"t{n}",
                        "name": "Read",
                        "input": {"file_path": "/p/m.py"},
                    }
                ],
            },
        },
        *[{"type": "progress", "data": {"type": "hook_progress", "command": "x" * 300}}] * 8,
        {
            "type": "user",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": f"t{n}", "content": body}],
            },
            "toolUseResult": {"type": "text", "file": {"filePath": "/p/m.py", "content": body}},
        },
        {
            "type": "assistant",
            "message": {
                "id": f"msg_{n}b",
                "role": "assistant",
                "content": [{"type": "text", "text": f"Read step {n}."}],
            },
        },
    ]


def _write_big_transcript(path: Path, target_bytes: int) -> int:
    """A realistic-shaped session of `target_bytes`; returns the number of exchanges."""
    body = "\n".join(f"{i:6}→    value_{i} = compute({i}) + offset" for i in range(500))
    signature = "EsQCCkYICxgCKkA" * 150
    written = n = 0
    parent: str | None = None
    with path.open("w", encoding="utf-8") as f:
        while written < target_bytes:
            n += 1
            out = []
            tool_line = None
            for i, obj in enumerate(_step_lines(n, parent, body, signature)):
                uuid = f"u{n}-{i}"
                # Progress hangs off the tool call; the result's parent is the call itself.
                link = tool_line if obj["type"] == "user" and i > 0 else parent
                obj = dict(
                    obj,
                    uuid=uuid,
                    parentUuid=link,
                    sessionId="big",
                    cwd="/p",
                    timestamp="2026-02-10T10:00:00Z",
                    isSidechain=False,
                )
                out.append(json.dumps(obj))
                parent = uuid
                if i == 2:
                    tool_line = uuid
            chunk = "\n".join(out) + "\n"
            f.write(chunk)
            written += len(chunk.encode("utf-8"))
    return n


@pytest.mark.slow
def test_a_100_mb_transcript_parses_in_bounded_memory(tmp_path: Path):
    path = tmp_path / "big.jsonl"
    steps = _write_big_transcript(path, 100 * 1024 * 1024)
    tracemalloc.start()
    try:
        turns, cursor = read_new(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert cursor.offset == path.stat().st_size
    assert len(turns) == 4 * steps
    assert [t.role for t in turns[:4]] == ["user", "assistant", "tool_result", "assistant"]
    print(f"\n100 MB transcript: {len(turns)} turns, peak traced memory {peak / 2**20:.1f} MB")
    assert peak < 50 * 2**20
