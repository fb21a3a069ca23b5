"""Shared helpers for the reliability suite (tests/test_reliability_*.py).

`KENNING_RELIABILITY_SCALE` (default 1) multiplies every loop count and duration of the slow
tests: 0.2 for a quick look, 5 for a soak run. `KENNING_RELIABILITY_SECONDS` sets the
concurrency run's length (default 20 s).
"""

from __future__ import annotations

import json
import math
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

from transcript_writer import Transcript  # noqa: F401 - re-exported for the tests

REPO = Path(__file__).resolve().parents[1]
RUN = REPO / "hooks" / "run"
SRC = REPO / "src"
PYTHON = sys.executable
SESSION = "5560c1e2-8b1f-4d0e-9a51-0c7f3e2b9d44"


def scale() -> float:
    try:
        return max(0.05, float(os.environ.get("KENNING_RELIABILITY_SCALE", "1")))
    except ValueError:
        return 1.0


def scaled(count: int, minimum: int = 1) -> int:
    return max(minimum, round(count * scale()))


def hook_timeouts() -> dict[str, float]:
    """Launcher argument -> the timeout hooks/hooks.json gives that hook (seconds)."""
    config = json.loads((REPO / "hooks" / "hooks.json").read_text(encoding="utf-8"))["hooks"]
    out: dict[str, float] = {}
    for groups in config.values():
        for group in groups:
            for handler in group["hooks"]:
                out[handler["args"][0]] = float(handler["timeout"])
    return out


def cpu_limit(seconds: float | None):
    """A preexec_fn capping the child's CPU time (SIGXCPU past it): a budget that machine load
    cannot break, unlike a wall-clock limit."""
    if seconds is None:
        return None
    limit = max(1, math.ceil(seconds))

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit))

    return apply


def run_hook(event: str, data: bytes | str | dict, env: dict | None = None,
             timeout: float = 60, cpu_seconds: float | None = None
             ) -> tuple[subprocess.CompletedProcess[bytes], float]:
    """One hook through the launcher, as Claude Code runs it; returns (result, seconds).

    `timeout` only guards against a hang; `cpu_seconds` is the budget a test may hold a hook
    to. The seconds returned are for reports, never for an assertion."""
    if isinstance(data, dict):
        data = json.dumps(data)
    if isinstance(data, str):
        data = data.encode("utf-8")
    full_env = {**os.environ, "KENNING_DISABLE_BACKGROUND": "1", **(env or {})}
    start = time.monotonic()
    result = subprocess.run([str(RUN), event], input=data, capture_output=True, env=full_env,
                            timeout=timeout, preexec_fn=cpu_limit(cpu_seconds))
    return result, time.monotonic() - start


def check_hook_output(event: str, stdout: bytes | str) -> None:
    """Empty, or one JSON object naming the event with a fenced context block."""
    text = stdout.decode("utf-8") if isinstance(stdout, bytes) else stdout
    if not text:
        return
    assert event in ("session-start", "user-prompt-submit", "pre-tool-use"), (event, text)
    out = json.loads(text)
    specific = out["hookSpecificOutput"]
    assert set(out) == {"hookSpecificOutput"}
    assert specific["hookEventName"] in ("SessionStart", "UserPromptSubmit", "PreToolUse")
    block = specific["additionalContext"]
    assert block.startswith("<kenning-context>\n") and block.endswith("</kenning-context>")
    assert block.count("<") == 2, block  # the fence's own two tags, nothing else


def snapshot(root: Path, skip: tuple[str, ...] = (".git",)) -> dict[str, tuple[int, int]]:
    """Every file under `root` with (size, mtime_ns): to prove nothing was written there."""
    out: dict[str, tuple[int, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in skip]
        for name in filenames:
            path = os.path.join(dirpath, name)
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                continue
            out[os.path.relpath(path, root)] = (st.st_size, st.st_mtime_ns)
    return out


def files_under(*roots: Path) -> list[Path]:
    found = []
    for root in roots:
        if root.is_file():
            found.append(root)
            continue
        for dirpath, _, filenames in os.walk(root):
            found.extend(Path(dirpath) / name for name in filenames)
    return sorted(found)


def spawn(code: str, *args: str, env: dict | None = None, cwd: Path | None = None,
          stdout=subprocess.DEVNULL) -> subprocess.Popen:
    """A Python child in its own process group (so a kill reaches its children too)."""
    return subprocess.Popen([PYTHON, "-c", code, *args], env={**os.environ, **(env or {})},
                            cwd=cwd, stdout=stdout, stderr=subprocess.PIPE,
                            start_new_session=True)


def kill9(proc: subprocess.Popen) -> None:
    """SIGKILL the child's whole process group, as a crash or an OOM kill would."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=30)


def wait_for_line(proc: subprocess.Popen, path: Path, needle: str, timeout: float = 30) -> None:
    """Wait until the child wrote `needle` into `path` (its 'ready' signal)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if needle in path.read_text(encoding="utf-8"):
                return
        except FileNotFoundError:
            pass
        if proc.poll() is not None:
            err = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
            raise AssertionError(f"child exited {proc.returncode} before '{needle}': {err}")
        time.sleep(0.01)
    raise AssertionError(f"child never wrote '{needle}' to {path}")


def integrity(index_path: Path) -> str:
    import sqlite3

    conn = sqlite3.connect(index_path)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def report(name: str, **figures: object) -> None:
    """One line per scenario on stdout (`pytest -s` shows it; docs/reliability.md cites it)."""
    text = ", ".join(f"{k}={v}" for k, v in figures.items())
    print(f"\n[reliability] {name}: {text}")
    out = os.environ.get("KENNING_RELIABILITY_REPORT")
    if out:
        with open(out, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"scenario": name, **figures}, default=str) + "\n")


WORDS = ("amber", "basalt", "cobalt", "delta", "ember", "fjord", "garnet", "harbor", "indigo",
         "juniper", "krypton", "lagoon", "meadow", "nectar", "onyx", "prairie", "quartz",
         "raven", "sierra", "tundra", "umber", "violet", "willow", "xenon", "yarrow", "zephyr")


def words(n: int, count: int = 3) -> str:
    """Distinct, deterministic words for fact `n` (so no two facts are near-duplicates)."""
    out = []
    for _ in range(count):
        out.append(WORDS[n % len(WORDS)])
        n //= len(WORDS)
        n += 7
    return " ".join(out)


def statements(t: Transcript, count: int, start: int = 0) -> None:
    """`count` user turns the rule extractor turns into one fact each."""
    for n in range(start, start + count):
        t.user(f"Always run make check-{n} before committing the {words(n)} module {n}.")
        t.assistant(f"Noted: check-{n} first.")


class OpenAudit:
    """Every path this process opens, lists, creates, renames or removes while active.

    A `sys.addaudithook` hook (it cannot be removed; inactive it only checks one global), so
    the suite can prove what kenning touched, not just what it wrote.
    """

    EVENTS = frozenset({"open", "os.listdir", "os.scandir", "sqlite3.connect", "os.mkdir",
                        "os.remove", "os.rename", "os.rmdir", "os.symlink", "os.truncate",
                        "os.chmod", "os.utime", "shutil.rmtree", "shutil.copyfile"})
    _installed = False
    _current: OpenAudit | None = None

    def __init__(self) -> None:
        self.paths: list[str] = []

    def __enter__(self) -> OpenAudit:
        if not OpenAudit._installed:
            sys.addaudithook(OpenAudit._hook)
            OpenAudit._installed = True
        OpenAudit._current = self
        return self

    def __exit__(self, *exc: object) -> None:
        OpenAudit._current = None

    @staticmethod
    def _hook(event: str, args: tuple) -> None:
        current = OpenAudit._current
        if current is None or event not in OpenAudit.EVENTS:
            return
        for arg in args[:2] if event == "os.rename" else args[:1]:
            if isinstance(arg, str | bytes | os.PathLike):
                current.paths.append(os.fsdecode(arg))

    def touched(self, cwd: Path) -> set[Path]:
        """Every recorded path made absolute, symlinks resolved (where they really lead)."""
        return {Path(os.path.realpath(os.path.join(cwd, p))) for p in self.paths}


def outside(touched: set[Path], sandbox: Path, allowed: tuple[Path, ...]) -> list[Path]:
    """Paths inside the test's sandbox but outside every allowed root."""
    sandbox = Path(os.path.realpath(sandbox))
    roots = [Path(os.path.realpath(a)) for a in allowed]
    return sorted(p for p in touched if p.is_relative_to(sandbox)
                  and not any(p.is_relative_to(r) for r in roots))
