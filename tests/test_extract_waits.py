"""Extraction needs the plugin's dependencies: during their install it waits (no attempt
spent, the mark stays) and a failure of the extractor lands in errors.log."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import plugin_copy
from kenning.core.locks import FileLock
from kenning.hooks import extract_runner
from kenning.hooks.base import Ctx
from kenning.hooks.marks import mark, pending
from kenning.plugin import runtime
from kenning.plugin.layout import LOCK_NAME

REPO = Path(__file__).resolve().parents[1]


def marked(project: Path, transcript: Path) -> str:
    ctx = Ctx({"session_id": "s1", "transcript_path": str(transcript), "cwd": str(project)},
              "session-end")
    assert mark(ctx)
    return ctx.local_dir


def test_extraction_waits_while_the_dependencies_install(isolated, tmp_path, monkeypatch):
    plugin_copy(tmp_path, monkeypatch)
    local_dir = marked(isolated, tmp_path / "t.jsonl")
    lock = FileLock(tmp_path / "data" / LOCK_NAME)
    assert lock.acquire(wait=False)
    try:
        assert runtime.state() == "installing"
        assert extract_runner.run(local_dir) == 0
    finally:
        lock.release()
    assert [int(e.get("attempts") or 0) for e in pending(local_dir)] == [0]
    assert not (Path(local_dir) / "errors.log").exists()


def test_a_failed_extraction_is_recorded_in_errors_log(isolated, tmp_path, monkeypatch):
    # a bare interpreter: `python -m kenning` cannot import its dependencies
    bare = tmp_path / "bare"
    bare.write_text(f'#!/bin/sh\nexec {sys.executable} -S "$@"\n', encoding="utf-8")
    bare.chmod(0o755)
    monkeypatch.setattr(runtime, "best_python", lambda root=None: str(bare))
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("", encoding="utf-8")
    local_dir = marked(isolated, transcript)
    assert extract_runner.run(local_dir) == 0
    records = [json.loads(line) for line in
               (Path(local_dir) / "errors.log").read_text(encoding="utf-8").splitlines()]
    assert records[-1]["where"] == "extract session s1"
    assert "No module named" in records[-1]["error"]
    assert [e["attempts"] for e in pending(local_dir)] == [1]
