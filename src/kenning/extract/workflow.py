"""What the agent's own commands teach: the checks it keeps running, and how a failing
invocation was made to work.

In long agentic sessions the user types little; the project's ways of working show in the
Bash calls instead. Two rules, both judged by what the tools printed, never by what the model
said:

- *Verification workflow*: the build, format, lint and test commands the session ran at least
  twice, at least once successfully. Repetition is the evidence that it is a habit of the
  project and not a one-off probe; one fact names them in the order they were first run.
- *Failure → fix*: a command that exited non-zero, then a variant of it that passed within the
  next few calls, where the difference is the fix: a `cd` into a folder (a build that only
  works from its module root), another program or subcommand, or another flag. Exploratory
  commands (grep, cat, ls, git log …) and variants that differ only in their path arguments
  (another target, not a fix) are never facts.

Absolute paths are never put in a fact: a `cd` into an absolute folder is kept only when it
lies under the project root, and made relative to it. Pure, stdlib only.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import NamedTuple

from kenning.extract.model import Candidate, Turn

RUNNERS = frozenset("npm pnpm yarn bun mise make just task uv poetry pdm hatch tox nox "
                    "cargo deno npx bunx".split())
# Runners of the project's own named tasks: `mise run lint` is what the team runs, not the
# `golangci-lint` it wraps.
TASK_RUNNERS = frozenset("npm pnpm yarn bun mise make just task deno".split())
# Tools whose first word is a subcommand worth naming (`go test`, `golangci-lint run`).
_SUBCOMMANDS = frozenset("go cargo golangci-lint dotnet gradle mvn mix deno vale terraform "
                         "swift flutter dart composer bundle rake".split())
_CHECK_WORD = re.compile(
    r"(?:^|[\s:./-])(?:test|tests|lint|fmt|format|typecheck|type-check|check|vet|build|ci"
    r"|verify|clippy|pytest|mypy|ruff|eslint|biome|tsc|golangci-lint|gofmt|prettier"
    r"|markdownlint(?:-cli2)?|vale|pyright|black|rspec|jest|vitest|phpunit|mvn|gradle)"
    r"(?=$|[\s:.-])"
)
EXPLORATORY = frozenset(
    """grep rg ag cat ls find head tail sed awk echo printf wc which whereis type file stat
    tree cut sort uniq jq less more diff cmp pwd env date sleep true false test [ md5 md5sum
    sha256sum xxd od hexdump readlink realpath basename dirname du df ps kill pkill lsof curl
    wget open code touch mkdir rm cp mv chmod ln tee xargs""".split()
)
_GIT_READ = frozenset("log show diff status blame branch rev-parse ls-files remote config "
                      "grep cat-file stash reflog fetch".split())
_ENV = re.compile(r"^[A-Z_][A-Z0-9_]*=\S*$")
_PATHISH = re.compile(r"[/\\]|\.\w{1,5}$|^\./")
_REASON = re.compile(
    r"(?:^|\b)(?:error|fatal|hint|usage|unknown|unrecognized|not found|no such|cannot|can't"
    r"|does not (?:contain|exist)|must be run|not a (?:git )?repository|no upstream|denied"
    r"|invalid)\b",
    re.IGNORECASE,
)
_NOISE_REASON = re.compile(r"^\s*(?:at |File \"|\d+ \| |[-=]{3,}|\W*$)")


class Call(NamedTuple):
    raw: str
    result_uuid: str
    failed: bool
    output: str
    session: str | None
    cwd: str | None = None


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
                failed = is_error or output.startswith("Exit code ")
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


def _program(argv: Sequence[str]) -> str:
    return PurePosixPath(argv[0]).name.lower() if argv else ""


def exploratory(argv: Sequence[str]) -> bool:
    prog = _program(argv)
    if prog in EXPLORATORY:
        return True
    return prog == "git" and len(argv) > 1 and argv[1] in _GIT_READ


def check_name(argv: Sequence[str]) -> str | None:
    """The stable name of a build/format/lint/test command (`mise run test:ci`,
    `go test`, `gofmt -l`), or None when `argv` is not one."""
    prog = _program(argv)
    if not prog or exploratory(argv) or prog in ("git", "gh", "cd", "python", "python3", "node"):
        return None
    words = [a for a in argv[1:] if not _PATHISH.search(a) and not a.startswith("-")]
    if prog in RUNNERS:
        if words[:1] in (["run"], ["exec"], ["x"]) and len(words) > 1:
            name = f"{prog} {words[0]} {words[1]}"
        elif words:
            name = f"{prog} {words[0]}"
        else:
            return None
    else:
        if "." in prog or any(a in ("-o", "--output") for a in argv):
            return None  # a binary of the project run by hand, or a build for manual testing
        sub = words[:1] if prog in _SUBCOMMANDS else []
        flags = [a for a in argv[1:3] if re.match(r"^-[a-z]$", a)]
        name = " ".join([prog, *sub, *flags])
    return name if _CHECK_WORD.search(" " + name) else None


# --- the verification workflow --------------------------------------------------------------

MIN_RUNS = 2
MAX_CHECKS = 8


def verification_workflow(turns: Sequence[Turn]) -> list[Candidate]:
    """One fact: the check commands the session ran repeatedly and saw pass."""
    calls = bash_calls(turns)
    runs: dict[str, list[Call]] = {}
    for call in calls:
        for step in steps(call.raw):
            name = check_name(step.argv)
            if name:
                runs.setdefault(name, []).append(call)
    kept = [name for name, rs in runs.items()
            if len(rs) >= MIN_RUNS and any(not r.failed for r in rs)]
    if not kept:
        return []
    # Runner names cover their own commands: `mise run lint` is what the team runs, not the
    # `golangci-lint` it wraps, so direct tools are listed only when no runner task is.
    if any(name.split()[0] in TASK_RUNNERS for name in kept):
        kept = [name for name in kept if name.split()[0] in TASK_RUNNERS]
    kept = kept[:MAX_CHECKS]
    if len(kept) < 2:
        return []
    listed = ", ".join(f"`{name}`" for name in kept)
    text = f"Verification commands: {listed}."
    evidence = runs[kept[-1]][-1]
    return [Candidate(kind="codebase", text=text, evidence=evidence.result_uuid,
                      rule="workflow", session=evidence.session)]


# --- failure → fix ---------------------------------------------------------------------------

LOOKAHEAD = 6


def _reason(output: str) -> str | None:
    for line in output.splitlines()[:40]:
        line = line.strip()
        if line.startswith(("Exit code", "$ ", "> ", "[")) and not line.startswith("[ERROR"):
            continue  # the runner echoing the command it runs, not what went wrong
        if _REASON.search(line) and not _NOISE_REASON.match(line) and len(line) > 8:
            line = re.sub(r"^(?:/bin/\w*sh|bash|zsh|sh)(?::\s*line)?(?::\s*\d+)?:\s*", "", line)
            return line[:120]
    return None


def _first_line(output: str) -> str:
    for line in output.splitlines():
        line = line.strip()
        if line and not line.startswith(("Exit code", "$ ", "> ")):
            return line[:120]
    return "a non-zero exit"


def _shape(step: Step) -> tuple[str, ...]:
    """The command without its path-like arguments: two runs with the same shape differ
    only in what they ran on."""
    return tuple(a for a in step.argv if not _PATHISH.search(a))


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


def _main_step(call: Call) -> Step | None:
    real = [s for s in steps(call.raw) if not exploratory(s.argv)]
    commits = [s for s in real if _program(s.argv) == "git" and s.argv[1:2] == ("commit",)]
    if commits:
        return commits[0]  # `git add … && git commit`: the commit is what a gate stops
    return real[-1] if len(real) == 1 else (real[0] if real else None)


def failure_fixes(turns: Sequence[Turn], root: str | None = None) -> list[Candidate]:
    """A non-exploratory command that failed, then a variant that passed: the difference."""
    calls = bash_calls(turns)
    out: list[Candidate] = []
    for i, call in enumerate(calls):
        if not call.failed:
            continue
        bad = _main_step(call)
        if bad is None or len(call.raw) > (2000 if _program(bad.argv) == "git" else 200):
            continue
        reason = _reason(call.output)
        if _program(bad.argv) == "git":
            found = _git_fix(bad, call, calls[i + 1 : i + 1 + 5 * LOOKAHEAD],
                             reason or _first_line(call.output))
            if found:
                out.append(found)
            continue
        if not reason:
            continue
        if _program(bad.argv) == "gh":
            continue
        for later in calls[i + 1 : i + 1 + LOOKAHEAD]:
            good = _main_step(later)
            if good is None or _program(good.argv) != _program(bad.argv):
                continue
            if not _same_task(bad, good):
                continue
            if later.failed:
                if _shape(good) == _shape(bad) and good.cwd == bad.cwd:
                    break  # the same thing failing again: no fix yet
                continue
            text = _fix_text(bad, good, reason, root, later.cwd)
            if text:
                out.append(Candidate(kind="codebase", text=text, evidence=later.result_uuid,
                                     rule="failure-fix", session=later.session))
            break
    return out


_IGNORED = re.compile(r"paths are ignored by one of your \.gitignore files", re.I)
_NO_UPSTREAM = re.compile(r"has no upstream branch", re.I)
_NAMED = re.compile(
    r"`([^`\n]{3,80})`|\brun(?:ning)?:?\s+'([^'\n]{3,80})'"
    r"|\brun(?:ning)?:?\s+\"([^\"\n]{3,80})\"",
    re.I,
)


def _git_fix(bad: Step, call: Call, later: list[Call], reason: str) -> Candidate | None:
    """What git's own gates teach about this project: a path it ignores (add it with -f), a
    branch pushed without upstream, and a pre-commit hook whose failure names the fix."""
    sub = bad.argv[1] if len(bad.argv) > 1 else ""
    passed = [(c, _main_step(c)) for c in later if not c.failed]
    passed = [(c, s) for c, s in passed if s is not None]
    if sub == "add" and _IGNORED.search(call.output):
        for c, step in passed:
            if _program(step.argv) == "git" and step.argv[1:2] == ("add",) and "-f" in step.argv:
                paths = [a for a in step.argv[2:] if a != "-f" and not a.startswith("-")]
                if len(paths) == 1 and not paths[0].startswith(("/", "~")):
                    text = (f"`{paths[0]}` is ignored by .gitignore but committed: add it with "
                            f"`git add -f {paths[0]}`.")
                    return Candidate(kind="codebase", text=text, evidence=c.result_uuid,
                                     rule="failure-fix", session=c.session)
        return None
    if sub == "push" and _NO_UPSTREAM.search(call.output):
        for c, step in passed:
            if _program(step.argv) == "git" and step.argv[1:2] == ("push",) and (
                    "-u" in step.argv or "--set-upstream" in step.argv):
                text = ("A new branch is pushed with `git push -u origin <branch>`: a plain "
                        "`git push` fails with no upstream branch.")
                return Candidate(kind="codebase", text=text, evidence=c.result_uuid,
                                 rule="failure-fix", session=c.session)
        return None
    if sub != "commit":
        return None
    output = call.output.replace("\\n", "\n")  # hooks that print JSON-escaped text
    named = [next(g for g in m.groups() if g) for m in _NAMED.finditer(output)]
    named = [n.strip() for n in named if steps(n) and not exploratory(steps(n)[0].argv)
             and _program(steps(n)[0].argv) != "git"]
    for n, (c, step) in enumerate(passed):
        if _program(step.argv) == "git":
            continue
        ran = " ".join(step.argv)
        fix = next((x for x in named if ran.startswith(" ".join(steps(x)[0].argv))), None)
        if fix is None:
            continue
        committed = any(_program(s.argv) == "git" and s.argv[1:2] == ("commit",)
                        for _, s in passed[n + 1:])
        if committed and len(fix) <= 80 and not fix.startswith(("/", "~")):
            said = _line_before(output, fix) or reason
            text = (f"The pre-commit hook fails `git commit` with `{said}`; the fix is to run "
                    f"`{fix}` and commit again.")
            return Candidate(kind="codebase", text=text, evidence=c.result_uuid,
                             rule="failure-fix", session=c.session)
    return None


def _line_before(output: str, fix: str) -> str | None:
    """The complaint next to the line that names `fix` (`[FORMAT] Code is not formatted.`)."""
    lines = [line.strip() for line in output.splitlines()]
    for n, line in enumerate(lines):
        if fix in line:
            before = line.split(fix)[0].strip(" `'\".:-")
            if len(before.split()) >= 3:
                return line[:120]
            earlier = [x for x in lines[:n] if x]
            return earlier[-1][:120] if earlier else None
    return None


def _task(step: Step) -> str | None:
    words = [a for a in step.argv[1:] if not a.startswith("-")]
    if words[:1] in (["run"], ["exec"]) and len(words) > 1:
        return words[1]
    return words[0] if words else None


def _same_task(bad: Step, good: Step) -> bool:
    """A runner's tasks are different commands (`mise run fmt` does not fix `mise run
    lint`); the variant must run the same task or one that extends it (`lint` → `lint:fix`)."""
    if _program(bad.argv) not in RUNNERS:
        return True
    before, after = _task(bad), _task(good)
    if before is None or after is None:
        return False
    return after == before or after.startswith(before + ":") or after.startswith(before + "-")


def _fix_text(bad: Step, good: Step, reason: str, root: str | None,
              cwd: str | None = None) -> str | None:
    cmd = " ".join(good.argv)
    if len(cmd) > 100 or any(a.startswith(("/", "~")) for a in good.argv):
        return None
    if good.cwd != bad.cwd and _shape(good) == _shape(bad):
        folder = relative_dir(good.cwd, root, cwd) if good.cwd else "."
        if not folder or folder == ".":
            return None
        return f"Run `{cmd}` from `{folder}/`: elsewhere it fails with `{reason}`."
    if _shape(good) == _shape(bad):
        return None  # only the paths changed: another target, not a fix
    if len(good.argv) > 1 and good.argv[1:2] == bad.argv[1:2] and good.argv[2:3] == bad.argv[2:3]:
        gone = [a for a in bad.argv if a not in good.argv and not _PATHISH.search(a)]
        added = [a for a in good.argv if a not in bad.argv and not _PATHISH.search(a)]
        if not gone and not added:
            return None
    before = " ".join(bad.argv)
    task, task_after = _task(bad), _task(good)
    if _program(bad.argv) in RUNNERS and task and task_after and task_after != task:
        return f"When `{before}` fails with `{reason}`, run `{cmd}`."
    if len(before) > 100 or any(a.startswith(("/", "~")) for a in bad.argv):
        return None
    return f"Use `{cmd}`, not `{before}`: that fails with `{reason}`."


def same_runner_task(failed: str, passed: str) -> bool:
    """For two command lines: False when both run a task runner and the tasks differ (a
    `mise run test:ci` failure is not fixed by `mise run lint`)."""
    a, b = steps(failed), steps(passed)
    if not a or not b or _program(a[0].argv) not in RUNNERS:
        return True
    return _same_task(a[0], b[0])
