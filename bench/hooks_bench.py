"""Hooks through `hooks/run`, each in a fresh process, on a project with 10,000 facts.

Timings are ratios to `<the launcher's python> -c pass` (DESIGN §8: timing is noisy, ratios
less so), measured interleaved with the hook runs so both see the same machine load.
UserPromptSubmit is also reported as an absolute p50.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RUN = REPO / "hooks" / "run"
ROUNDS = 25
PROMPTS = ["how are invoices retried in billing", "where do we cache sessions for auth",
           "webhook validation in the api module", "token rotation schedule",
           "why do we shard events in the queue", "email batching limits",
           "deploy configuration for storage", "which handler throttles uploads",
           "rate limit on the api", "database migrations order"]


def launcher_python() -> str:
    """The interpreter hooks/run picks here (same order as the launcher)."""
    for candidate in (os.environ.get("KENNING_PYTHON"),
                      f"{os.environ['CLAUDE_PLUGIN_DATA']}/venv/bin/python"
                      if os.environ.get("CLAUDE_PLUGIN_DATA") else None,
                      str(REPO / ".venv" / "bin" / "python")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return sys.executable


def build_workload(folder: Path) -> Path:
    """A project with 10k facts synced into its index and anchors map."""
    sys.path.insert(0, str(Path(__file__).parent))
    from facts_bench import generate_facts
    from kenning.memory import Memory
    from kenning.paths import current_project

    project_dir = folder / "proj"
    project_dir.mkdir()
    generate_facts(project_dir)
    # The bundled model, so the hybrid UserPromptSubmit leg has real vectors to compare.
    memory = Memory(current_project(project_dir), embedder_name="bundled")
    memory.sync()
    memory.close()
    return project_dir


def _timed(argv: list[str], stdin: bytes, env: dict[str, str]) -> float:
    start = time.perf_counter()
    result = subprocess.run(argv, input=stdin, capture_output=True, env=env)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"{argv} failed: {result.stderr.decode()[:300]}")
    return elapsed


def measure(event: str, payloads: list[dict], env: dict[str, str], baseline: list[str],
            rounds: int = ROUNDS) -> tuple[float, float]:
    """(median hook seconds, median baseline seconds), interleaved."""
    hook: list[float] = []
    base: list[float] = []
    for n in range(rounds):
        base.append(_timed(baseline, b"", env))
        data = json.dumps(payloads[n % len(payloads)]).encode()
        hook.append(_timed([str(RUN), event], data, env))
    return statistics.median(hook), statistics.median(base)


def row(name: str, value: float, budget: float | None, unit: str) -> dict:
    return {"name": name, "value": round(value, 2), "budget": budget, "unit": unit,
            "ok": budget is None or value <= budget}


def run(check: bool) -> list[dict]:
    python = launcher_python()
    baseline = [python, "-c", "pass"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {**os.environ, "KENNING_HOME": str(folder / "home"),
               "KENNING_EMBEDDER": "bundled", "KENNING_PROMPT_SEARCH": "fts"}
        saved = os.environ.get("KENNING_HOME")
        os.environ["KENNING_HOME"] = env["KENNING_HOME"]
        try:
            project = build_workload(folder)
            anchored = sorted(_anchor_files(project))[:ROUNDS]
        finally:
            if saved is None:
                os.environ.pop("KENNING_HOME", None)
            else:
                os.environ["KENNING_HOME"] = saved
        common = {"transcript_path": str(folder / "t.jsonl"), "cwd": str(project),
                  "permission_mode": "default"}
        rows = []

        def session(n: int) -> str:
            return f"bench-{n:04d}"

        reads = [{**common, "session_id": session(n), "hook_event_name": "PostToolUse",
                  "tool_name": "Read", "tool_input": {"file_path": f"{project}/src/a{n}.py"},
                  "tool_response": {}, "tool_use_id": f"t{n}"} for n in range(ROUNDS)]
        hook, base = measure("post-tool-use", reads, env, baseline)
        rows.append(row("hooks: PostToolUse / python -c pass", hook / base, 2.5, "x"))

        # A fresh session per call, so "once per file" never short-cuts the work.
        pre = [{**common, "session_id": session(100 + n), "hook_event_name": "PreToolUse",
                "tool_name": "Read", "tool_input": {"file_path": f"{project}/{path}"},
                "tool_use_id": f"p{n}"} for n, path in enumerate(anchored)]
        hook, base = measure("pre-tool-use", pre, env, baseline)
        rows.append(row("hooks: PreToolUse, 10k facts / python -c pass", hook / base, 4.0, "x"))

        prompts = [{**common, "session_id": session(200 + n),
                    "hook_event_name": "UserPromptSubmit", "prompt": PROMPTS[n % len(PROMPTS)]}
                   for n in range(ROUNDS)]
        hook, base = measure("user-prompt-submit", prompts, env, baseline)
        rows.append(row("hooks: UserPromptSubmit FTS, 10k facts, p50", hook * 1000, 60.0, "ms"))

        hybrid_env = {**env, "KENNING_PROMPT_SEARCH": "hybrid"}
        hook, base = measure("user-prompt-submit", prompts, hybrid_env, baseline, rounds=15)
        rows.append(row("hooks: UserPromptSubmit hybrid, 10k facts, p50", hook * 1000, 300.0,
                        "ms"))

        stops = [{**common, "session_id": session(300 + n), "hook_event_name": "Stop",
                  "stop_hook_active": False, "last_assistant_message": "ok"}
                 for n in range(ROUNDS)]
        hook, base = measure("stop", stops, env, baseline)
        rows.append(row("hooks: Stop / python -c pass", hook / base, 2.5, "x"))

        starts = [{**common, "session_id": session(400 + n), "hook_event_name": "SessionStart",
                   "source": "startup"} for n in range(10)]
        env_start = {**env, "KENNING_DISABLE_BACKGROUND": "1"}
        hook, base = measure("session-start", starts, env_start, baseline, rounds=10)
        rows.append(row("hooks: SessionStart, 10k facts, p50", hook * 1000, None, "ms"))

        ends = [{**common, "session_id": session(500 + n), "hook_event_name": "SessionEnd",
                 "reason": "other"} for n in range(10)]
        env_end = {**env, "KENNING_DISABLE_BACKGROUND": "1"}
        hook, base = measure("session-end", ends, env_end, baseline, rounds=10)
        rows.append(row("hooks: SessionEnd (1.5 s shared budget), p50", hook * 1000, 300.0,
                        "ms"))
        rows.append(row("hooks: baseline python -c pass, p50", base * 1000, None, "ms"))
    return rows


def _anchor_files(project: Path) -> list[str]:
    from kenning.hooks.base import Ctx

    ctx = Ctx({"cwd": str(project)}, "bench")
    folder = Path(ctx.local_dir) / "anchors"
    files: list[str] = []
    for bucket in sorted(folder.glob("*.json")):
        files.extend(json.loads(bucket.read_text(encoding="utf-8")))
    return files


if __name__ == "__main__":
    for r in run(check="--check" in sys.argv):
        print(r)
