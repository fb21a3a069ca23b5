"""The routine of a tracked task: how the agent picks, claims, checks, closes and lands an
issue of the project's own tracker.

Projects that track work in a tracker driven from the shell (beads' `bd`, GitHub's `gh
issue`, GitLab's `glab issue`) repeat one routine every task: find ready work, claim it, run
the checks, close it with a reason, sync the tracker, commit, push. Nobody types it; the
agent follows it from the project's agent guide, so it shows only in the Bash calls. A
session that closed an issue shows the routine once: one fact says it in the order the steps
first ran, with the issue's id written `<id>`.

Only a close that succeeded counts (a session that leaves its issue open shows no routine).
The checks named are those that ran between the claim (or the first look at the issue) and
the close and passed on their last run there; commit and push are named when they ran after
the claim. Pure, stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.extract.model import Candidate, Turn
from kenning.extract.shell import Call, Step, bash_calls, program, steps
from kenning.extract.workflow import TASK_RUNNERS, check_name

MAX_CHECKS = 4
_VERBS = {"find": "find work with", "read": "read it with", "claim": "claim it with"}
# An issue id as trackers print them: beads' `prefix-hash[.n]`, a number, `#12`, `ABC-123`.
_ID = re.compile(r"^(?:#?\d+|[A-Za-z][\w]*-[\w]+(?:\.\d+)*)$")


def _tracker_step(step: Step) -> tuple[str, str] | None:
    """(what the step does in the routine, its command as the fact writes it), or None."""
    argv = step.argv
    prog = program(argv)
    if prog == "bd" and len(argv) > 1:
        sub = argv[1]
        rest = [a for a in argv[2:]]
        if sub == "ready":
            return "find", "bd ready"
        if sub == "show" and rest:
            return "read", "bd show <id>"
        if sub in ("update", "claim") and (sub == "claim" or _claims(rest)):
            return "claim", f"bd {sub} " + " ".join(_generic(rest))
        if sub == "close" and rest:
            return "close", "bd close " + " ".join(_generic(rest))
        if sub == "sync":
            return "sync", "bd " + " ".join(["sync", *[a for a in rest if a.startswith("-")]])
        return None
    if prog in ("gh", "glab") and len(argv) > 2 and argv[1] == "issue":
        sub, rest = argv[2], list(argv[3:])
        if sub == "view" and rest:
            return "read", f"{prog} issue view <id>"
        if sub == "edit" and any(a.startswith(("--add-assignee", "--assignee")) for a in rest):
            return "claim", f"{prog} issue edit <id> --add-assignee @me"
        if sub == "close" and rest:
            return "close", f"{prog} issue close " + " ".join(_generic(rest))
    return None


def _claims(args: Sequence[str]) -> bool:
    joined = " ".join(args)
    return "--claim" in args or re.search(r"--status[= ]in[_-]progress", joined) is not None


def _generic(args: Sequence[str]) -> list[str]:
    """Arguments with the issue id as `<id>` and a free-text value (a reason) as `"…"`."""
    out: list[str] = []
    for a in args:
        if a.startswith("-") and "=" in a:
            flag, value = a.split("=", 1)
            out.append(f'{flag}="…"' if " " in value or len(value) > 20 else a)
        elif not a.startswith("-") and _ID.match(a):
            if out[-1:] != ["<id>"]:  # `bd close a b c` closes several: one `<id>` says it
                out.append("<id>")
        elif not a.startswith("-") and out and out[-1] in ("--reason", "-r", "--comment"):
            out.append('"…"')
        else:
            out.append(a)
    return out[:4]


def _issue(step: Step) -> str | None:
    ids = [a for a in step.argv[2:] if not a.startswith("-") and _ID.match(a)]
    return ids[0] if ids else None


def tracker_routine(turns: Sequence[Turn]) -> list[Candidate]:
    """One fact: the routine the session followed to land an issue it closed."""
    calls = bash_calls(turns)
    seen: list[tuple[int, str, str, Step, Call]] = []  # (call index, role, text, step, call)
    for n, call in enumerate(calls):
        for step in steps(call.raw):
            found = _tracker_step(step)
            if found:
                seen.append((n, *found, step, call))
    closes = [s for s in seen if s[1] == "close" and not s[4].failed]
    if not closes:
        return []
    close_at, _, _, close_step, close_call = closes[0]
    issue = _issue(close_step)
    starts = [s[0] for s in seen if s[1] in ("claim", "read") and s[0] < close_at
              and (issue is None or _issue(s[3]) == issue)]
    start = min(starts) if starts else 0
    routine: dict[str, str] = {}  # role -> command, each role at its first successful run
    for n, role, text, _, call in seen:
        if role in routine or call.failed or (role in _VERBS and n > close_at) \
                or (role == "sync" and n < close_at):
            continue
        routine[role] = f"`{text}`"
    checks = _checks(calls[start:close_at])
    landed = _landing(calls[start:])
    if not checks and not landed and "claim" not in routine:
        return []  # a close alone says no routine
    parts = []
    before = [f"{verb} {routine[r]}" for r, verb in _VERBS.items() if r in routine]
    if before:
        parts.append(", ".join(before))
    if checks:
        named = [f"`{c}`" for c in checks]
        listed = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]
        parts.append(f"{listed} must pass before {routine['close']}")
    else:
        parts.append(f"close with {routine['close']}")
    tail = [t for r, t in routine.items() if r == "sync"] + landed
    if tail:
        parts.append("then " + ", ".join(tail))
    prog = program(close_step.argv)
    tool = "beads, `bd`" if prog == "bd" else f"`{prog} issue`"
    text = f"Tracked tasks ({tool}): " + "; ".join(parts) + "."
    return [Candidate(kind="interaction", text=text, evidence=close_call.result_uuid,
                      rule="tracker-routine", session=close_call.session)]


def _checks(calls: Sequence[Call]) -> list[str]:
    """The check commands run in `calls` whose last run passed, in first-run order."""
    last: dict[str, bool] = {}
    for call in calls:
        for step in steps(call.raw):
            name = check_name(step.argv)
            if name:
                last[name] = not call.failed
    kept = [name for name, passed in last.items() if passed]
    if any(name.split()[0] in TASK_RUNNERS for name in kept):
        kept = [name for name in kept if name.split()[0] in TASK_RUNNERS]
    return kept[:MAX_CHECKS]


def _landing(calls: Sequence[Call]) -> list[str]:
    """"commit" and "`git push`" when they ran (and passed) in `calls`."""
    out: list[str] = []
    for call in calls:
        if call.failed:
            continue
        for step in steps(call.raw):
            if program(step.argv) != "git" or len(step.argv) < 2:
                continue
            if step.argv[1] == "commit" and "commit" not in out:
                out.append("commit")
            elif step.argv[1] == "push" and "`git push`" not in out:
                out.append("`git push`")
    return out
