"""Hooks through `hooks/run`, each in a fresh process, on a project with 10,000 facts.

Every timing is a ratio to `<the launcher's python> -I -S -c pass` — what the launcher itself
runs — measured interleaved with the hook runs so both see the same machine load (bench/
timing.py); the absolute medians are reported beside each ratio. Each row checks that its hook
did its work (the event logged, the context injected, the session marked), and SessionStart and
SessionEnd run with their real detached spawns.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from timing import Paired, bare_python, interleave, quiet_env, ratio_row, run_checked

REPO = Path(__file__).resolve().parents[1]
RUN = REPO / "hooks" / "run"
ROUNDS = 25
# The 10k generated facts share one small vocabulary, so no prompt stands out among them (the
# prompt gate rightly injects none); these ten facts are the ones the prompts are about, so
# the timed hook does the whole job: search, gate, format and inject.
ANSWERS = (
    "Webhook signatures from Stripe are verified in src/payments/stripe_webhooks.py with the "
    "endpoint secret before any event is parsed.",
    "The nightly reconciliation job compares ledger balances against the bank export and "
    "pages the on-call engineer on any mismatch.",
    "Feature flags are read from LaunchDarkly once at startup and cached for sixty seconds.",
    "Database migrations must be idempotent because the deploy job reruns them on release.",
    "The CSV export streams rows in pages of 500 so large tenants never exhaust worker memory.",
    "Sentry releases are tagged with the git SHA so crash reports map to the deployed commit.",
    "Password hashing uses argon2id with the parameters pinned in src/auth/hashing.py.",
    "Translations live in locales/*.po and are compiled by `make messages` before packaging.",
    "The GraphQL gateway rejects queries deeper than seven levels to stop abusive nesting.",
    "Thumbnails are generated lazily by the imaging worker and cached in the media bucket.",
)
PROMPTS = ["how are stripe webhook signatures verified", "what does the nightly reconciliation "
           "job do on a ledger mismatch", "how long are launchdarkly feature flags cached",
           "why must database migrations be idempotent", "how does the csv export avoid "
           "exhausting worker memory", "how are sentry releases tagged",
           "which argon2id parameters does password hashing use",
           "how are the locales po translations compiled", "how deep may a graphql query be",
           "where are thumbnails generated and cached"]


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
    """A project with 10k facts synced into its index and anchors map: a git repository on a
    feature branch with kenning initialised, as the plugin sees a project (SessionStart reads
    the branch and counts uncommitted fact files)."""
    import subprocess

    sys.path.insert(0, str(Path(__file__).parent))
    from facts_bench import generate_facts
    from kenning.core.paths import current_project
    from kenning.memory import Memory

    project_dir = folder / "proj"
    (project_dir / ".kenning" / "facts").mkdir(parents=True)
    (project_dir / ".kenning" / "facts" / ".gitkeep").write_text("", encoding="utf-8")
    for argv in (["init", "-q", "-b", "feature/payments-ledger"], ["add", "-A"],
                 ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid",
                  "commit", "-qm", "init"]):
        subprocess.run(["git", "-C", str(project_dir), *argv], check=True,
                       capture_output=True)
    generate_facts(project_dir, extra=ANSWERS)
    # The bundled model, so the hybrid UserPromptSubmit leg has real vectors to compare.
    memory = Memory(current_project(project_dir), embedder_name="bundled")
    memory.sync()
    memory.close()
    return project_dir


def measure(event: str, payloads: list[dict], env: dict[str, str], baseline: list[str],
            rounds: int = ROUNDS, launcher: str = str(RUN),
            settle: bool = False) -> tuple[Paired, list[bytes]]:
    """The hook against the bare interpreter, interleaved; also each run's stdout. With
    `settle`, the hook's detached children end (untimed) before the next round."""
    outputs: list[bytes] = []

    def hook(n: int) -> None:
        data = json.dumps(payloads[n % len(payloads)]).encode()
        result = run_checked([launcher, event], data, env)
        if result.stderr:
            raise RuntimeError(f"{event} wrote to stderr: {result.stderr[:300]!r}")
        outputs.append(result.stdout)

    paired = interleave(hook, lambda n: run_checked(baseline, env=env), rounds,
                        settle=(lambda: _wait_for_children(env["KENNING_HOME"])) if settle
                        else None)
    return paired, outputs


def expect(condition: bool, what: str) -> None:
    """A timed row counts only when the work it times happened."""
    if not condition:
        raise RuntimeError(f"hooks bench: {what}")


# Budgets, as ratios to `python -I -S -c pass` (what the launcher runs) measured interleaved.
# The first brief's PostToolUse 2.5x and PreToolUse 4x were stated against `python3 -c pass`, which
# loads site; like for like they are these. Chosen with margin over a quiet 2-core machine
# and checked with two CPU-bound processes beside the bench. Measured quiet / loaded: Post
# 2.44 / 2.56, Pre 3.28 / 3.28, prompt FTS 4.25 / 4.0, hybrid 21.7 / 26.8, Stop 2.5 / 2.44,
# SessionStart 6.0 / 6.2, SessionEnd 2.8 / 3.2.
# Issue 17: the hook process ends without the interpreter's teardown; the prompt and tool
# paths import neither re (with enum) nor the json package (core.fastjson, textutil without
# re), which together cost about as much as the bare interpreter; UserPromptSubmit imports its
# injection modules only to inject. Measured on a busy shared machine / with two CPU-bound
# processes beside it: prompt FTS 2.77 / 3.71 (4.4 before; an interleaved A/B of the old and
# new code: 4.05 -> 3.22), PostToolUse 1.41 / 2.25 (2.44 before). Budgets: prompt FTS
# 6.5 -> 4.5, PostToolUse 3.5 -> 3.0. Then the anchors map was read through fastjson too:
# PreToolUse 2.41 / 2.18 (3.28 before), budget 5.0 -> 3.5; in that run prompt FTS 3.16 / 3.94
# and PostToolUse 1.56 / 1.41 (the machine is shared: ratios move by +-0.5 between runs).
# SessionStart (issue 13) then lost its per-hot-file index scans (the anchors map), its 10k-fact
# count when the index has not changed (a cache the catch-up fills ahead), the `subprocess`
# import of its spawn (posix_spawn) and the `json` package (core.fastjson): checkout / plugin
# layout 2.1-2.3 / 2.0-2.3 on the shared machine, 2.3-3.1 with two CPU-bound processes beside
# it (10 rounds each); its budget 10 -> 3.5. The first start after the index changed without
# the catch-up (no cache) measured 6.1.
# Issue 13, UserPromptSubmit FTS: the index read through `_sqlite3` (the `sqlite3` package adds
# `datetime` and `collections.abc`), confidence decayed on epoch microseconds (no `datetime`),
# the index read through mmap. A/B on the shared machine, main / this: 2.99-3.21 / 2.73-2.92
# (27.5 / 24-26 ms against 8.5-9.3 ms); with two CPU-bound processes beside it 2.51 / 2.39
# (88 / 84 ms against 35 ms). Budget 4.5 -> 3.5.
# SessionStart's gate 3.5 -> 4.0 after a clean-clone CI read 3.27 on the checkout row (plugin
# layout 2.21): ten rounds with real detached spawns are noisier than the other rows.
# UserPromptSubmit FTS 3.5 -> 4.0 (2026-12-03): issue 17's gate reads the candidates' vectors
# and the prompt's word pieces (core of the "unrelated prompts stay silent" bar) on this path,
# and seven clean-clone CI runs since read 2.98-3.32; this machine read 3.09 quiet and 3.12-3.31
# with two CPU-bound processes beside it. Where the time goes (one run, 10k facts): interpreter
# and imports 8.6 ms (`_sqlite3` alone imports functools and collections, 3.3 ms), the FTS5
# query 8.9 ms cold, the gate's IDFs and stems 4 ms, word pieces and vectors 8 ms.
# SessionStart and SessionEnd settle between rounds (2026-12-03): their detached children (the
# catch-up, extraction) end, untimed, before the next pair is timed. Fired back to back without
# it, ten rounds' children piled up on the two cores and loaded whichever side happened to run
# beside them: the checkout row read 2.58-4.98 over four runs of the same code (42 vs 8.5 ms in
# the run that failed: the reference ran quiet, the hook beside the pile). Settled, the hook's
# own latency, which is what the user waits on: 1.86 (a probe, 15 rounds), the hook alone with
# background work switched off 2.17. The bench then: checkout / plugin layout / SessionEnd
# 2.15 / 1.99 / 1.61 quiet, 2.63 / 2.51 / 1.86 with two CPU-bound processes beside it.
BUDGETS = {"post": 3.0, "pre": 3.5, "prompt_fts": 4.0, "prompt_hybrid": 32.0, "stop": 3.5,
           "start": 4.0, "end": 5.0}



def plugin_layout(folder: Path) -> dict[str, str]:
    """The layout `claude plugin install` makes, built cheaply: a plugin folder without a
    `.venv` (hooks/ copied, src/ linked) and a data folder whose `venv` runs this checkout's
    interpreter and packages, stamped as the install stamps it. Returns the environment
    Claude Code gives the plugin's hooks."""
    import shutil

    from kenning.plugin.stamp import wanted_stamp, write_stamp

    root, data = folder / "plugin", folder / "plugin-data"
    shutil.copytree(REPO / "hooks", root / "hooks", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / ".claude-plugin", root / ".claude-plugin")
    shutil.copy2(REPO / "pyproject.toml", root / "pyproject.toml")
    (root / "src").symlink_to(REPO / "src")
    dev = REPO / ".venv"
    venv = data / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(dev / "bin" / "python")
    (venv / "lib").symlink_to(dev / "lib")
    shutil.copy2(dev / "pyvenv.cfg", venv / "pyvenv.cfg")
    os.environ["CLAUDE_PLUGIN_ROOT"] = str(root)  # read by the stamp
    try:
        write_stamp(str(data), wanted_stamp(str(root)))
    finally:
        del os.environ["CLAUDE_PLUGIN_ROOT"]
    env_file = folder / "session-env.sh"
    env_file.write_text("", encoding="utf-8")
    return {"CLAUDE_PLUGIN_ROOT": str(root), "CLAUDE_PLUGIN_DATA": str(data),
            "CLAUDE_ENV_FILE": str(env_file)}


def run(check: bool) -> list[dict]:
    python = launcher_python()
    baseline = bare_python(python)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = quiet_env(KENNING_HOME=str(folder / "home"), KENNING_EMBEDDER="bundled",
                        KENNING_PROMPT_SEARCH="fts", KENNING_DISABLE_BACKGROUND="1")
        saved = os.environ.get("KENNING_HOME")
        os.environ["KENNING_HOME"] = env["KENNING_HOME"]
        try:
            project = build_workload(folder)
            anchored = sorted(_anchor_files(project))[:ROUNDS]
            local = _local_dir(project)
        finally:
            if saved is None:
                os.environ.pop("KENNING_HOME", None)
            else:
                os.environ["KENNING_HOME"] = saved
        transcript = folder / "t.jsonl"
        transcript.write_text("", encoding="utf-8")
        common = {"transcript_path": str(transcript), "cwd": str(project),
                  "permission_mode": "default"}
        plugin = plugin_layout(folder)
        try:
            return _rows(project, local, anchored, common, env, baseline, plugin)
        finally:
            _wait_for_children(env["KENNING_HOME"])


def _rows(project: Path, local: Path, anchored: list[str], common: dict, env: dict,
          baseline: list[str], plugin: dict[str, str]) -> list[dict]:
    rows = []

    def session(n: int) -> str:
        return f"bench-{n:04d}"

    reads = [{**common, "session_id": session(n), "hook_event_name": "PostToolUse",
              "tool_name": "Read", "tool_input": {"file_path": f"{project}/src/a{n}.py"},
              "tool_response": {}, "tool_use_id": f"t{n}"} for n in range(ROUNDS)]
    events = local / "events.jsonl"
    before = _lines(events)
    paired, _ = measure("post-tool-use", reads, env, baseline)
    expect(_lines(events) - before == ROUNDS, "PostToolUse did not log one event per call")
    rows.append(ratio_row("hooks: PostToolUse / python -I -S -c pass", paired,
                          BUDGETS["post"], "ms"))

    # A fresh session per call, so "once per file" never short-cuts the work.
    expect(len(anchored) == ROUNDS, "too few anchored files in the workload")
    pre = [{**common, "session_id": session(100 + n), "hook_event_name": "PreToolUse",
            "tool_name": "Read", "tool_input": {"file_path": f"{project}/{path}"},
            "tool_use_id": f"p{n}"} for n, path in enumerate(anchored)]
    paired, out = measure("pre-tool-use", pre, env, baseline)
    expect(all(b"additionalContext" in o for o in out), "PreToolUse injected nothing")
    rows.append(ratio_row("hooks: PreToolUse, 10k facts / python -I -S -c pass", paired,
                          BUDGETS["pre"], "ms"))

    prompts = [{**common, "session_id": session(200 + n),
                "hook_event_name": "UserPromptSubmit", "prompt": PROMPTS[n % len(PROMPTS)]}
               for n in range(ROUNDS)]
    paired, out = measure("user-prompt-submit", prompts, env, baseline)
    expect(sum(b"additionalContext" in o for o in out) >= ROUNDS * 0.8,
           "UserPromptSubmit (FTS) did not inject the facts its prompts are about")
    rows.append(ratio_row("hooks: UserPromptSubmit FTS, 10k facts / python -I -S", paired,
                          BUDGETS["prompt_fts"], "ms"))

    hybrid_env = {**env, "KENNING_PROMPT_SEARCH": "hybrid"}
    # New sessions: a fact already injected into a session is not injected again.
    prompts = [{**p, "session_id": session(600 + n)} for n, p in enumerate(prompts)]
    paired, out = measure("user-prompt-submit", prompts, hybrid_env, baseline, rounds=15)
    expect(sum(b"additionalContext" in o for o in out) >= 15 * 0.8,
           "UserPromptSubmit (hybrid) did not inject the facts its prompts are about")
    rows.append(ratio_row("hooks: UserPromptSubmit hybrid, 10k facts / python -I -S", paired,
                          BUDGETS["prompt_hybrid"], "ms"))

    stops = [{**common, "session_id": session(300 + n), "hook_event_name": "Stop",
              "stop_hook_active": False, "last_assistant_message": "ok"}
             for n in range(ROUNDS)]
    paired, _ = measure("stop", stops, env, baseline)
    expect(all((local / "extract-pending" / f"{session(300 + n)}.json").exists()
               for n in range(ROUNDS)), "Stop did not mark its sessions for extraction")
    rows.append(ratio_row("hooks: Stop / python -I -S -c pass", paired, BUDGETS["stop"], "ms"))

    # The last two run as Claude Code runs them: with their detached spawns (catch-up,
    # extraction) switched on.
    live = {k: v for k, v in env.items() if k != "KENNING_DISABLE_BACKGROUND"}
    starts = [{**common, "session_id": session(400 + n), "hook_event_name": "SessionStart",
               "source": "startup"} for n in range(10)]
    paired, out = measure("session-start", starts, live, baseline, rounds=10, settle=True)
    expect(all(b"10010 active facts" in o for o in out),
           f"SessionStart did not report the 10k facts: {out[0][:300]!r}")
    rows.append(ratio_row("hooks: SessionStart, 10k facts / python -I -S -c pass", paired,
                          BUDGETS["start"], "ms"))
    # The same as an installed plugin runs it: the plugin folder's launcher, the data
    # folder's venv (its stamp checked), the Bash tool's environment file written.
    starts = [{**s, "session_id": session(700 + n)} for n, s in enumerate(starts)]
    paired, out = measure("session-start", starts, {**live, **plugin}, baseline, rounds=10,
                          launcher=str(Path(plugin["CLAUDE_PLUGIN_ROOT"]) / "hooks" / "run"),
                          settle=True)
    expect(all(b"10010 active facts" in o for o in out),
           f"SessionStart (plugin layout) did not report the 10k facts: {out[0][:300]!r}")
    expect(b"KENNING_PLUGIN_DATA" in Path(plugin["CLAUDE_ENV_FILE"]).read_bytes(),
           "SessionStart (plugin layout) did not export the data folder to the Bash tool")
    rows.append(ratio_row("hooks: SessionStart, plugin layout, 10k facts / python -I -S",
                          paired, BUDGETS["start"], "ms"))

    ends = [{**common, "session_id": session(500 + n), "hook_event_name": "SessionEnd",
             "reason": "other"} for n in range(10)]
    paired, _ = measure("session-end", ends, live, baseline, rounds=10, settle=True)
    rows.append(ratio_row("hooks: SessionEnd (real detached spawn) / python -I -S", paired,
                          BUDGETS["end"], "ms"))
    return rows


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _wait_for_children(home: str, timeout: float = 120.0) -> None:
    """Detached children (catch-up, extraction) outlive their hook: wait until none of the
    processes started with this bench's KENNING_HOME is left, so they neither write into a
    removed folder nor load the next bench."""
    marker = f"KENNING_HOME={home}".encode()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = False
        for environ in Path("/proc").glob("[0-9]*/environ"):
            try:
                if marker in environ.read_bytes():
                    alive = True
                    break
            except OSError:
                continue
        if not alive:
            return
        time.sleep(0.2)


def _local_dir(project: Path) -> Path:
    from kenning.core.paths import current_project

    return current_project(project).local_dir


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
