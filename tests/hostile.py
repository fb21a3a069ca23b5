"""A hostile committed `.kenning/` (issue 15) and a child runner that bounds and audits a run.

`build(repo, outside)` writes every file a cloned repository could hold to break kenning:
symlinks to `/dev/zero` and to a file outside the repository, a FIFO, a "billion laughs"
saved session, facts with values YAML or SQLite cannot hold, names that are not UTF-8.

`run_bounded` runs Python code in a child under RLIMIT_CPU (5 s) and RLIMIT_AS (200 MB) with
an audit hook that records every path the child opens or lists; the subprocess timeout is
only a guard against a hang (a child blocked on a FIFO uses no CPU).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from reliability import SRC

CPU_SECONDS = 5
MEMORY_BYTES = 200 * 1024 * 1024
HANG_GUARD_SECONDS = 120

GOOD_TEXTS = ("Builds run through the quokkabuild wrapper script.",
              "Deploys go through the zebracluster staging cluster first.")
SECRET = "quokkasecret-outside-the-repo"
IDS = [f"01ARZ3NDEKTSV4RRFFQ69G5F{c}{d}" for c in "ABCD" for d in "ABCDEFGHJK"]

LAUGHS = "lol0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"lol{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 10))


def fact_yaml(fid: str, *, created: str = "2026-11-01T10:00:00Z", fmt: str = "1",
              text: str = '"A hand-written fact."', extra: str = "") -> str:
    return (f"format: {fmt}\nid: {fid}\nkind: codebase\ntext: {text}\nabout: []\n"
            "tags: []\nsource:\n  origin: user\n"
            f"created: {created}\nconfirmed: 2026-11-01T10:00:00Z\nconfidence: 1.00\n"
            f"status: active\nsuperseded_by: null\n{extra}")


# Item 3 of the issue: each of these escaped the sync as a traceback.
BAD_VALUE_FACTS = {
    "month 13": lambda fid: fact_yaml(fid, created="2024-13-01T00:00:00Z"),
    "30 February": lambda fid: fact_yaml(fid, created="2024-02-30"),
    "an offset of 99 hours": lambda fid: fact_yaml(fid, created="2024-01-01T00:00:00+99:00"),
    "year 1 east of UTC": lambda fid: fact_yaml(fid, created="0001-01-01T00:00:00+05:00"),
    "a 5,000-digit integer": lambda fid: fact_yaml(fid, extra=f"x: {'9' * 5000}\n"),
    "a 30-digit format": lambda fid: fact_yaml(fid, fmt="9" * 30),
    "a 20-digit integer": lambda fid: fact_yaml(fid, extra=f"x: {'9' * 20}\n"),
    "a lone surrogate": lambda fid: fact_yaml(fid, text='"bad \\udcff text"'),
}
SESSION_BOMB = "format: 1\nname: bomb\nsaved: 2026-11-01T10:00:00Z\nsummary: boom\n" + LAUGHS


def build(repo: Path, outside: Path) -> dict[str, Path]:
    """Write the hostile files into an initialised `repo`; return them by label."""
    kenning_dir = repo / ".kenning"
    facts, sessions = kenning_dir / "facts", kenning_dir / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    outside.mkdir(parents=True, exist_ok=True)
    (outside / "secret.yaml").write_text(
        f"format: 1\nname: stolen\nsaved: 2026-11-01T10:00:00Z\nsummary: {SECRET}\n", "utf-8")
    (outside / f"{IDS[0]}.yaml").write_text(fact_yaml(IDS[0], text=json.dumps(SECRET)), "utf-8")
    made: dict[str, Path] = {}
    ids = iter(IDS[1:])
    for label, make in BAD_VALUE_FACTS.items():
        fid = next(ids)
        made[f"fact with {label}"] = facts / f"{fid}.yaml"
        made[f"fact with {label}"].write_text(make(fid), encoding="utf-8")
    link = facts / f"{IDS[0]}.yaml"
    link.symlink_to(outside / f"{IDS[0]}.yaml")
    made["fact linked outside"] = link
    zero = facts / f"{next(ids)}.yaml"
    zero.symlink_to("/dev/zero")
    made["fact linked to /dev/zero"] = zero
    fifo = facts / f"{next(ids)}.yaml"
    os.mkfifo(fifo)
    made["fact that is a FIFO"] = fifo
    bad_name = Path(os.fsdecode(os.fsencode(facts) + b"/\xff\xfe.yaml"))
    bad_name.write_text(fact_yaml(next(ids)), encoding="utf-8")
    made["fact named with bytes that are not UTF-8"] = bad_name
    (sessions / "bomb.yaml").write_text(SESSION_BOMB, encoding="utf-8")
    made["session alias bomb"] = sessions / "bomb.yaml"
    (sessions / "zero.yaml").symlink_to("/dev/zero")
    made["session linked to /dev/zero"] = sessions / "zero.yaml"
    (sessions / "stolen.yaml").symlink_to(outside / "secret.yaml")
    made["session linked outside"] = sessions / "stolen.yaml"
    (sessions / "baddate.yaml").write_text(
        "format: 1\nname: baddate\nsaved: 2024-13-01T00:00:00Z\nsummary: bad date\n", "utf-8")
    made["session with a bad date"] = sessions / "baddate.yaml"
    config = kenning_dir / "config.toml"
    config.unlink(missing_ok=True)
    config.symlink_to("/dev/zero")
    made["config linked to /dev/zero"] = config
    src = repo / "src"
    src.mkdir(exist_ok=True)
    (src / "app.py").write_text("def quokka_handler():\n    return 'local code'\n", "utf-8")
    Path(os.fsdecode(os.fsencode(src) + b"/\xff.py")).write_text("x = 1\n", "utf-8")
    return made


@dataclass
class Bounded:
    code: int
    out: str
    err: str
    opened: set[Path]


AUDIT_PRELUDE = """
import os, sys
_log = open(os.environ["KENNING_AUDIT_LOG"], "a", encoding="utf-8", errors="backslashreplace")
_EVENTS = {"open", "os.listdir", "os.scandir", "sqlite3.connect"}
def _hook(event, args):
    if event in _EVENTS and args and isinstance(args[0], (str, bytes, os.PathLike)):
        _log.write(os.path.realpath(os.fsdecode(args[0])) + "\\n")
        _log.flush()
sys.addaudithook(_hook)
"""


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def run_bounded(code: str, cwd: Path, stdin: str = "", env: dict | None = None) -> Bounded:
    """`code` in a child Python under the CPU and memory limits, with an open audit."""
    log = cwd.parent / f"audit-{os.getpid()}-{len(os.listdir(cwd.parent))}.log"
    full_env = {**os.environ, "KENNING_AUDIT_LOG": str(log), "KENNING_DISABLE_BACKGROUND": "1",
                "PYTHONPATH": str(SRC), **(env or {})}
    result = subprocess.run([sys.executable, "-c", AUDIT_PRELUDE + code], input=stdin.encode(),
                            capture_output=True, cwd=cwd, env=full_env, preexec_fn=_limits,
                            timeout=HANG_GUARD_SECONDS)
    opened = {Path(p) for p in log.read_text("utf-8").splitlines()} if log.exists() else set()
    log.unlink(missing_ok=True)
    return Bounded(result.returncode, result.stdout.decode("utf-8", "replace"),
                   result.stderr.decode("utf-8", "replace"), opened)


def cli_code(*args: str) -> str:
    return f"from kenning.cli import main\nmain({list(args)!r})\n"


def hook_code(event: str) -> str:
    return f"from kenning.hooks.runner import main\nmain([{event!r}])\n"
