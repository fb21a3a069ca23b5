"""The detached extraction wrapper: per-machine lock, `kenning extract`, then clear the mark.

Spawned by PreCompact, SessionEnd and SessionStart's catch-up; never by anything in the
foreground. The extractor itself is `kenning extract PATH --session ID` (another module);
when it is missing or fails, the mark stays (up to MAX_ATTEMPTS) for a later catch-up.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from kenning.core.clock import now_iso
from kenning.core.locks import FileLock
from kenning.hooks.base import Ctx, kenning_home
from kenning.hooks.marks import clear, count_attempt, pending

LOCK_NAME = "extract.lock"
LOCK_WAIT_S = 60.0
RUN_TIMEOUT_S = 600
MAX_ATTEMPTS = 3


def machine_lock(wait: float = LOCK_WAIT_S) -> FileLock | None:
    """The per-machine extraction lock, held, or None after `wait` seconds."""
    lock = FileLock(os.path.join(kenning_home(), LOCK_NAME))
    deadline = time.monotonic() + wait
    while True:
        if lock.acquire(wait=False):
            return lock
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.5)


def extract_one(local_dir: str, entry: dict, python: str) -> bool:
    session = str(entry["session"])
    root = str(entry.get("root") or os.getcwd())
    argv = [python, "-P", "-m", "kenning", "-C", root, "extract", str(entry["transcript"]),
            "--session", session]
    print(f"{now_iso()} extract session {session}", flush=True)
    try:
        result = subprocess.run(argv, stdin=subprocess.DEVNULL, timeout=RUN_TIMEOUT_S,
                                capture_output=True, text=True, errors="replace",
                                cwd=root if os.path.isdir(root) else None)
        print(result.stdout + result.stderr, end="", flush=True)
        code = result.returncode
        problem = (result.stderr.strip().splitlines() or [f"exit code {code}"])[-1]
    except (OSError, subprocess.TimeoutExpired) as exc:
        code, problem = -1, f"{type(exc).__name__}: {exc}"
    if code == 0:
        clear(local_dir, session)
        return True
    print(f"{now_iso()} extract failed: {problem}", flush=True)
    from kenning.core.errorlog import log_error

    log_error(f"extract session {session}", RuntimeError(problem), Ctx({"cwd": root}, "").local_dir)
    count_attempt(local_dir, session)
    return False


def run(local_dir: str, sessions: list[str] | None = None, skip: str | None = None) -> int:
    """Extract the marked sessions (or just `sessions`); returns how many succeeded.

    While the plugin's dependencies are still installing, nothing runs and no attempt is
    spent: the install's own catch-up extracts the marked sessions when it is done."""
    from kenning.plugin.runtime import best_python, state

    if state() in ("installing", "missing", "stale"):
        return 0

    todo = [e for e in pending(local_dir)
            if (sessions is None or e["session"] in sessions) and e["session"] != skip
            and int(e.get("attempts") or 0) < MAX_ATTEMPTS]
    if not todo:
        return 0
    lock = machine_lock()
    if lock is None:
        return 0
    done = 0
    extracted: set[str] = set()
    try:
        python = best_python()
        for entry in todo:
            if extract_one(local_dir, entry, python):
                done += 1
                extracted.add(str(entry.get("root") or ""))
    finally:
        lock.release()
    for root in sorted(r for r in extracted if r and os.path.isdir(r)):
        try:  # new facts changed the index: the next SessionStart's counts, computed now
            from kenning.hooks.session_start import warm

            warm(root)
        except Exception as exc:  # noqa: BLE001 - a background job reports to the error log
            from kenning.core.errorlog import log_error

            log_error("warm SessionStart cache", exc, local_dir)
    return done


def main(argv: list[str]) -> None:
    local_dir, session = argv[0], (argv[1] if len(argv) > 1 else "")
    run(local_dir, sessions=[session] if session else None)


if __name__ == "__main__":
    main(sys.argv[1:])
