"""The command-fix rule: a command that failed to even run, then a related one that passed.

Tool output is evidence the user did not have to type: when `pip install` says
"externally-managed-environment" and `uv pip install` then succeeds, how to run things here
is a codebase fact. Only invocation errors count (command not found, no module, unknown
option); a test that fails and is then fixed by editing code is not a command fact. The
fact cites the tool-result line of the command that passed. Pure, stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import NamedTuple

from kenning.extract.model import Candidate, Turn
from kenning.extract.shell import bash_calls, same_runner_task
from kenning.extract.vocab import FAMILIES

_I = re.IGNORECASE
_INVOCATION_ERROR = re.compile(
    r"command not found|: not found\b|no module named|modulenotfounderror|is not recognized as"
    r"|unknown command|unknown option|unrecognized (?:arguments|option)|no such option"
    r"|missing script|externally-managed-environment|cannot find module|no such command"
    r"|no such file or directory",
    _I,
)
_MISSING = re.compile(r"([^\s:]+):\s*no such file or directory", _I)
_TEST_WORDS = re.compile(r"\b(?:pytest|tests?|jest|vitest|mocha|unittest|tox|nox|rspec)\b")


def norm_command(cmd: str) -> str:
    """`cmd` without leading `cd … &&`, `2>&1` and trailing pipes into tail/head/grep."""
    cmd = re.sub(r"^(?:cd\s+\S+\s*&&\s*)+", "", cmd.strip())
    cmd = re.sub(r"\s+2>&1\b", "", cmd)
    while True:
        shorter = re.sub(r"\s*\|\s*(?:tail|head|grep|less|cat)\b[^|]*$", "", cmd)
        if shorter == cmd:
            return " ".join(cmd.split())
        cmd = shorter


def _programs(cmd: str) -> set[str]:
    tokens = [t for t in cmd.split() if not re.match(r"^[A-Z_][A-Z0-9_]*=", t)]
    return {PurePosixPath(t).name.lower() for t in tokens[:4] if not t.startswith("-")}


def _related(failed: str, passed: str) -> bool:
    head = PurePosixPath(failed.split()[0]).name.lower() if failed.split() else ""
    if head in _programs(passed):
        return True
    return any(head in fam and _programs(passed) & fam for fam in FAMILIES)


def _drop_common_tail(a: str, b: str) -> tuple[str, str]:
    x, y = a.split(), b.split()
    while len(x) > 1 and len(y) > 1 and x[-1] == y[-1]:
        x, y = x[:-1], y[:-1]
    return " ".join(x), " ".join(y)


def _reason(output: str, command: str = "") -> str | None:
    prog = command.split()[0] if command.split() else ""
    for line in output.splitlines():
        if _INVOCATION_ERROR.search(line):
            line = re.sub(r"^(?:/bin/\w*sh|bash|zsh|sh)(?::\s*line)?(?::\s*\d+)?:\s*", "", line)
            missing = _MISSING.search(line)
            if missing and missing.group(1).strip("'\"") != prog:
                return None  # a file argument that is not there, not the program: a slip
            return line.strip()[:100]
    return None


class _Call(NamedTuple):
    command: str
    result_uuid: str
    failed: bool
    output: str
    session: str | None


def _bash_calls(turns: Sequence[Turn]) -> list[_Call]:
    """shell.bash_calls, each command line normalised."""
    return [_Call(norm_command(c.raw), c.result_uuid, c.failed, c.output, c.session)
            for c in bash_calls(turns)]


def command_fixes(turns: Sequence[Turn]) -> list[Candidate]:
    """A command that failed to even run, then a related one that passed: how to run it."""
    calls = _bash_calls(turns)
    out: list[Candidate] = []
    for i, call in enumerate(calls):
        reason = _reason(call.output, call.command) if call.failed else None
        if not reason or len(call.command) > 120:
            continue
        for later in calls[i + 1 : i + 7]:
            if later.failed or later.command == call.command or len(later.command) > 120:
                continue
            if not _related(call.command, later.command):
                continue
            if not same_runner_task(call.command, later.command):
                continue
            bad, good = _drop_common_tail(call.command, later.command)
            what = "Run tests with" if _TEST_WORDS.search(good + " " + bad) else "Run"
            text = f"{what} `{good}`, not `{bad}` (`{bad}` fails: {reason})."
            out.append(
                Candidate(
                    kind="codebase",
                    text=text,
                    evidence=later.result_uuid,
                    rule="command-fix",
                    session=later.session,
                )
            )
            break
    return out
