"""The agent's Bash calls as the extraction rules read them: each call with its result, a
command line split into its simple steps, the program a step runs, whether it only looks
around, which task of a task runner it runs, and a folder it names made project-relative.

Used by the rules that learn from commands (`workflow.py`, `commands.py`). Pure, stdlib only.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import NamedTuple

from kenning.extract.model import Turn

RUNNERS = frozenset("npm pnpm yarn bun mise make just task uv poetry pdm hatch tox nox "
                    "cargo deno npx bunx".split())
EXPLORATORY = frozenset(
    """grep rg ag cat ls find head tail sed awk echo printf wc which whereis type file stat
    tree cut sort uniq jq less more diff cmp pwd env date sleep true false test [ md5 md5sum
    sha256sum xxd od hexdump readlink realpath basename dirname du df ps kill pkill lsof curl
    wget open code touch mkdir rm cp mv chmod ln tee xargs""".split()
)
_GIT_READ = frozenset("log show diff status blame branch rev-parse ls-files remote config "
                      "grep cat-file stash reflog fetch".split())
_ENV = re.compile(r"^[A-Z_][A-Z0-9_]*=\S*$")
# An argument that names a file or folder rather than what the command does.
PATHISH = re.compile(r"[/\\]|\.\w{1,5}$|^\./")


class Call(NamedTuple):
    raw: str
    result_uuid: str
    failed: bool
    output: str
    session: str | None
    cwd: str | None = None


# `cmd 2>&1 | tail -20` exits with tail's status: the failure shows in the output only.
_MASKED = re.compile(r"\|\s*(?:tail|head|grep|less|cat)\b[^|]*$")
_FAILURE_LINE = re.compile(
    r"^\s*(?:\[[\w:.-]+\]\s*)?(?:error(?:\[\w+\])?:|fatal:|FAIL\b|FAILED\b|--- FAIL|npm ERR!"
    r"|Traceback \(most recent call last\)|panic:|thread '[^']*' panicked|make: \*\*\*"
    r"|error TS\d+|\S+:\d+:\d+: error\b|ERROR\b)"
    r"|\b[1-9]\d* (?:failed|errors?)\b(?!\s*(?:and|or)? ?0)",
    re.M,
)


def masked_failure(command: str, output: str) -> bool:
    """True when `command` pipes into tail/head/grep (so its exit status is lost) and what it
    printed says it failed."""
    return bool(_MASKED.search(command.strip())) and bool(_FAILURE_LINE.search(output[:20000]))


def bash_calls(turns: Sequence[Turn]) -> list[Call]:
    """Every Bash call with its result, in transcript order (rejected calls left out)."""
    commands = {
        tid: str(inp.get("command", ""))
        for t in turns
        if t.role == "assistant"
        for tid, name, inp in t.tool_uses
        if name == "Bash" and inp.get("command")
    }
    calls: list[Call] = []
    for t in turns:
        for tid, output, is_error in t.tool_results:
            if tid in commands and "doesn't want to proceed" not in output:
                failed = (is_error or output.startswith("Exit code ")
                          or masked_failure(commands[tid], output))
                calls.append(Call(commands[tid], t.uuid, failed, output, t.session_id, t.cwd))
    return calls


# --- splitting a command line ----------------------------------------------------------------


class Step(NamedTuple):
    cwd: str | None  # the folder a leading `cd` moved into, as written
    argv: tuple[str, ...]


def _tokens(part: str) -> list[str]:
    try:
        return shlex.split(part, comments=True)
    except ValueError:
        return part.split()


def steps(command: str) -> list[Step]:
    """The simple commands of a command line joined by `&&`, `;` or `||`; pipes keep their
    first stage; `cd X` is carried onto the commands after it; env assignments dropped."""
    cut = min((i for i in (command.find("<<"), command.find("$("), command.find("`"))
               if i >= 0), default=-1)
    if cut >= 0:  # heredocs and substitutions: read only what comes before them
        command = command[:cut].replace('"', " ").replace("'", " ")
    out: list[Step] = []
    cwd: str | None = None
    for part in re.split(r"\s*(?:&&|\|\||;|\n)\s*", command):
        part = re.sub(r"\s+\d?>&?\d?\s*\S*$", "", part.split(" | ")[0].strip())
        argv = [t for t in _tokens(part)]
        while argv and _ENV.match(argv[0]):
            argv.pop(0)
        if not argv:
            continue
        if argv[0] == "cd" and len(argv) == 2:
            cwd = argv[1]
            continue
        argv = [a for a in argv if not re.match(r"^\d?>", a) and a not in ("2>&1",)]
        out.append(Step(cwd, tuple(argv)))
    return out


def program(argv: Sequence[str]) -> str:
    """The program a step runs, by its file name, lower case ("" for none)."""
    return PurePosixPath(argv[0]).name.lower() if argv else ""


def exploratory(argv: Sequence[str]) -> bool:
    prog = program(argv)
    if prog in EXPLORATORY:
        return True
    return prog == "git" and len(argv) > 1 and argv[1] in _GIT_READ


# --- task runners ------------------------------------------------------------------------------


def task(step: Step) -> str | None:
    """The task a runner step runs (`test:ci` of `mise run test:ci`), or its first word."""
    words = [a for a in step.argv[1:] if not a.startswith("-")]
    if words[:1] in (["run"], ["exec"]) and len(words) > 1:
        return words[1]
    return words[0] if words else None


def same_task(bad: Step, good: Step) -> bool:
    """A runner's tasks are different commands (`mise run fmt` does not fix `mise run
    lint`); the variant must run the same task or one that extends it (`lint` → `lint:fix`)."""
    if program(bad.argv) not in RUNNERS:
        return True
    before, after = task(bad), task(good)
    if before is None or after is None:
        return False
    return after == before or after.startswith(before + ":") or after.startswith(before + "-")


def same_runner_task(failed: str, passed: str) -> bool:
    """For two command lines: False when both run a task runner and the tasks differ (a
    `mise run test:ci` failure is not fixed by `mise run lint`)."""
    a, b = steps(failed), steps(passed)
    if not a or not b or program(a[0].argv) not in RUNNERS:
        return True
    return same_task(a[0], b[0])


# --- folders -----------------------------------------------------------------------------------


def _posix_forms(root: str) -> list[str]:
    """`root` as a shell on this machine may write it: `D:\\x` is also `D:/x` and `/d/x`."""
    root = root.replace("\\", "/").rstrip("/")
    forms = [root]
    m = re.match(r"^([A-Za-z]):(/.*)?$", root)
    if m:
        forms.append(f"/{m.group(1).lower()}{m.group(2) or ''}")
    return forms


def relative_dir(folder: str, *roots: str | None) -> str | None:
    """`folder` as written relative to the project root (or the session's working folder);
    None when it cannot be (absolute and outside them, or none known)."""
    folder = folder.replace("\\", "/")
    if folder.startswith(("/", "~")) or re.match(r"^[A-Za-z]:/", folder):
        for root in (r for r in roots if r):
            for form in _posix_forms(root):
                if folder.rstrip("/") == form:
                    return "."
                if folder.lower().startswith(form.lower() + "/"):
                    rest = folder[len(form) + 1:].strip("/")
                    return None if ".." in rest.split("/") else rest or "."
        return None
    folder = folder.strip("/") or "."
    return None if ".." in folder.split("/") else folder
