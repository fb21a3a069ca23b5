"""What the agent's own commands teach: the checks it keeps running, and how a failing
invocation was made to work.

In long agentic sessions the user types little; the project's ways of working show in the
Bash calls instead. Three rules, all judged by what the tools printed, never by what the model
said:

- *Verification workflow*: the build, format, lint and test commands the session ran at least
  twice, at least once successfully, and that the user's own words (a prompt, an approved
  plan) or a document the agent read (CLAUDE.md, CONTRIBUTING.md, a skill) name. The agent
  repeating a command is its habit, not yet the project's rule: on the development split the
  runs alone gave 19 workflow facts, half of them matching no label and a third of the
  negative hits; one fact names them in the order they were first run.
- *Failure → fix*: a command that exited non-zero, then a variant of it that passed within the
  next few calls, where the difference is the fix: a `cd` into a folder (a build that only
  works from its module root), another program or subcommand, or another flag. Exploratory
  commands (grep, cat, ls, git log …) and variants that differ only in their path arguments
  (another target, not a fix) are never facts.
- *A rule the tests enforce*: a failed test whose assertion message states a rule, once a
  later run of the same check passed and no later edit touched that test.

Absolute paths are never put in a fact: a `cd` into an absolute folder is kept only when it
lies under the project root, and made relative to it. Command lines are read by `shell.py`.
Pure, stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.extract.model import Candidate, Turn
from kenning.extract.shell import (
    PATHISH,
    RUNNERS,
    Call,
    Step,
    bash_calls,
    exploratory,
    program,
    relative_dir,
    same_task,
    steps,
    task,
)

# Runners of the project's own named tasks: `mise run lint` is what the team runs, not the
# `golangci-lint` it wraps.
TASK_RUNNERS = frozenset("npm pnpm yarn bun mise make just task deno".split())
# Tools whose first word is a subcommand worth naming (`go test`, `golangci-lint run`).
_SUBCOMMANDS = frozenset("go cargo golangci-lint dotnet gradle mvn mix deno vale terraform "
                         "swift flutter dart composer bundle rake".split())
_CHECK_WORD = re.compile(
    r"(?:^|[\s:./-])(?:test|tests|lint|fmt|format|typecheck|type-check|check|vet|build|ci"
    r"|verify|clippy|pytest|mypy|ruff|eslint|biome|tsc|golangci-lint|gofmt|prettier"
    r"|markdownlint(?:-cli2)?|vale|pyright|black|rspec|jest|vitest|phpunit|mvn|gradle|credo"
    r"|dialyzer|rubocop|shellcheck|stylelint|ktlint|swiftlint|phpstan|clang-tidy)"
    r"(?=$|[\s:.-])"
)
_REASON = re.compile(
    r"(?:^|\b)(?:error|fatal|hint|usage|unknown|unrecognized|not found|no such|cannot|can't"
    r"|does not (?:contain|exist)|must be run|not a (?:git )?repository|no upstream|denied"
    r"|invalid)\b",
    re.IGNORECASE,
)
# A path that is not there: the agent typed it wrong or from another folder (a session's
# slip, not how the project works).
MISSING_PATH = re.compile(r"no such file or directory|directory not found|cannot find the path"
                          r"|does not exist|no such file\b", re.IGNORECASE)
# Options that change how much a command prints, never whether it works.
_OUTPUT_FLAG = re.compile(r"^(?:-v+|-q+|-s|-x|--verbose|--quiet|--silent|--no-header|--tb=\w+"
                          r"|--color(?:=\w+)?|--no-color|--show-capture=\w+|-r\w+)$")
_NOISE_REASON = re.compile(r"^\s*(?:at |File \"|\d+ \| |[-=]{3,}|\W*$)")


def check_name(argv: Sequence[str]) -> str | None:
    """The stable name of a build/format/lint/test command (`mise run test:ci`,
    `go test`, `gofmt -l`), or None when `argv` is not one."""
    prog = program(argv)
    if not prog or exploratory(argv) or prog in ("git", "gh", "cd", "python", "python3", "node"):
        return None
    words = [a for a in argv[1:] if not PATHISH.search(a) and not a.startswith("-")]
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
    """One fact: the check commands the session ran repeatedly, saw pass, and found named
    by the user or a document it read."""
    calls = bash_calls(turns)
    runs: dict[str, list[Call]] = {}
    for call in calls:
        for step in steps(call.raw):
            name = check_name(step.argv)
            if name:
                runs.setdefault(name, []).append(call)
    named = _named_by_project(turns)
    kept = [name for name, rs in runs.items()
            if len(rs) >= MIN_RUNS and any(not r.failed for r in rs) and _names(named, name)]
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


# Documents whose text states how the project works (not source or config files, which name
# every target whether anyone runs it or not).
_DOC = re.compile(r"\.(?:md|mdc|markdown|rst|txt)$", re.IGNORECASE)


def _named_by_project(turns: Sequence[Turn]) -> str:
    """The user's words (prompts, queued messages, approved plans) and the documents the main
    agent read, as one text to look command names up in."""
    texts: list[str] = []
    reads: set[str] = set()
    for turn in turns:
        if turn.is_sidechain:
            continue
        if turn.role == "user":
            texts.append(turn.text)
        for tid, name, inp in turn.tool_uses:
            if name == "Read" and _DOC.search(str(inp.get("file_path") or "")):
                reads.add(tid)
        texts += [output for tid, output, err in turn.tool_results if tid in reads and not err]
    return "\n".join(texts)


def _names(text: str, name: str) -> bool:
    """True when `text` names the command `name` as a whole (`make check`, not
    `make checkout`)."""
    return re.search(r"(?<![\w:-])" + re.escape(name) + r"(?![\w:-])", text) is not None


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
    return tuple(a for a in step.argv if not PATHISH.search(a))


def _main_step(call: Call) -> Step | None:
    real = [s for s in steps(call.raw) if not exploratory(s.argv)]
    commits = [s for s in real if program(s.argv) == "git" and s.argv[1:2] == ("commit",)]
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
        if bad is None or len(call.raw) > (2000 if program(bad.argv) == "git" else 200):
            continue
        reason = _reason(call.output)
        if program(bad.argv) == "git":
            found = _git_fix(bad, call, calls[i + 1 : i + 1 + 5 * LOOKAHEAD],
                             reason or _first_line(call.output))
            if found:
                out.append(found)
            continue
        if not reason:
            continue
        if program(bad.argv) == "gh":
            continue
        for later in calls[i + 1 : i + 1 + LOOKAHEAD]:
            good = _main_step(later)
            if good is not None and not later.failed and _prefix_fix(bad, good):
                out.append(Candidate(kind="codebase", text=_prefix_fix(bad, good, reason),
                                     evidence=later.result_uuid, rule="failure-fix",
                                     session=later.session))
                break
            if good is None or program(good.argv) != program(bad.argv):
                continue
            if not same_task(bad, good):
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


def _prefix_fix(bad: Step, good: Step, reason: str = "") -> str | None:
    """The fix when the passing run only adds or drops a wrapper in front of the same command
    (`rtk bun run test` failing, `bun run test` passing; `pytest` failing, `uv run pytest`
    passing): the wrapper is the difference."""
    a, b = bad.argv, good.argv
    if len(a) == len(b) or good.cwd != bad.cwd or min(len(a), len(b)) < 2:
        return None
    short, long = (a, b) if len(a) < len(b) else (b, a)
    head = long[: len(long) - len(short)]
    if tuple(long[len(head):]) != tuple(short) or len(head) > 2:
        return None
    if any(PATHISH.search(x) or x.startswith("-") for x in head):
        return None
    cmd, before, wrapper = " ".join(b), " ".join(a), " ".join(head)
    if len(before) > 100 or any(x.startswith(("/", "~")) for x in long):
        return None
    if long is a:
        return (f"Run `{cmd}` directly, not through `{wrapper}`: `{before}` fails with "
                f"`{reason}`.")
    return f"Use `{cmd}`: a plain `{before}` fails with `{reason}`."


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
    if _IGNORED.search(call.output):
        left_out = _ignored_left_out(call, later)
        if left_out:
            return left_out
    if sub == "add" and _IGNORED.search(call.output):
        for c, step in passed:
            if program(step.argv) == "git" and step.argv[1:2] == ("add",) and "-f" in step.argv:
                paths = [a for a in step.argv[2:] if a != "-f" and not a.startswith("-")]
                if len(paths) == 1 and not paths[0].startswith(("/", "~")):
                    text = (f"`{paths[0]}` is ignored by .gitignore but committed: add it with "
                            f"`git add -f {paths[0]}`.")
                    return Candidate(kind="codebase", text=text, evidence=c.result_uuid,
                                     rule="failure-fix", session=c.session)
        return None
    if sub == "push" and _NO_UPSTREAM.search(call.output):
        for c, step in passed:
            if program(step.argv) == "git" and step.argv[1:2] == ("push",) and (
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
             and program(steps(n)[0].argv) != "git"]
    for n, (c, step) in enumerate(passed):
        if program(step.argv) == "git":
            continue
        ran = " ".join(step.argv)
        fix = next((x for x in named if ran.startswith(" ".join(steps(x)[0].argv))), None)
        if fix is None:
            continue
        committed = any(program(s.argv) == "git" and s.argv[1:2] == ("commit",)
                        for _, s in passed[n + 1:])
        if committed and len(fix) <= 80 and not fix.startswith(("/", "~")):
            said = _line_before(output, fix) or reason
            text = (f"The pre-commit hook fails `git commit` with `{said}`; the fix is to run "
                    f"`{fix}` and commit again.")
            return Candidate(kind="codebase", text=text, evidence=c.result_uuid,
                             rule="failure-fix", session=c.session)
    return None


def _git_add_paths(call: Call) -> list[str] | None:
    """The paths of the call's `git add`, or None when it has none."""
    for step in steps(call.raw):
        if program(step.argv) == "git" and step.argv[1:2] == ("add",):
            return [a for a in step.argv[2:] if not a.startswith("-")]
    return None


def _ignored_left_out(call: Call, later: list[Call]) -> Candidate | None:
    """`git add` refused an ignored path, and the add that then passed left it out: the
    path is kept out of git on purpose (local files), so commits leave it out."""
    before = _git_add_paths(call)
    if not before:
        return None
    for c in later:  # last word wins: forced in later after all, it is tracked
        forced = _git_add_paths(c) if {"-f", "--force"} & set(c.raw.split()) else None
        if forced and set(forced) & set(before):
            return None
    for c in later[:LOOKAHEAD]:
        after = _git_add_paths(c)
        if after is None:
            continue
        if c.failed:
            return None
        gone = [p for p in before if p not in after]
        if not gone or len(gone) > 2 or "-f" in c.raw.split() or not set(after) & set(before):
            return None
        if any(p.startswith(("/", "~")) for p in gone):
            return None
        named = _IGNORED_NAMES.findall(call.output.split("ignored by", 1)[-1])
        where = next((n for n in named if any(p.startswith(n.rstrip("/")) for p in gone)),
                     None)
        paths = ", ".join(f"`{p}`" for p in gone)
        text = (f"{paths} is ignored by .gitignore (`{where}` is local, not tracked): "
                "`git add` refuses it, so commits leave it out."
                if where and where not in gone else
                f"{paths} is ignored by .gitignore (local, not tracked): `git add` refuses "
                "it, so commits leave it out.")
        return Candidate(kind="codebase", text=text, evidence=c.result_uuid,
                         rule="failure-fix", session=c.session)
    return None


_IGNORED_NAMES = re.compile(r"^([^\s:]+)$", re.M)


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


def _fix_text(bad: Step, good: Step, reason: str, root: str | None,
              cwd: str | None = None) -> str | None:
    cmd = " ".join(good.argv)
    if len(cmd) > 100 or any(a.startswith(("/", "~")) for a in good.argv):
        return None
    if good.cwd != bad.cwd and _shape(good) == _shape(bad):
        if MISSING_PATH.search(reason):
            return None  # a path typed from the wrong folder: where the shell was, not a rule
        folder = relative_dir(good.cwd, root, cwd) if good.cwd else "."
        if not folder or folder == ".":
            return None
        return f"Run `{cmd}` from `{folder}/`: elsewhere it fails with `{reason}`."
    if _shape(good) == _shape(bad):
        return None  # only the paths changed: another target, not a fix
    gone = [a for a in bad.argv if a not in good.argv and not PATHISH.search(a)]
    added = [a for a in good.argv if a not in bad.argv and not PATHISH.search(a)]
    if len(good.argv) > 1 and good.argv[1:2] == bad.argv[1:2] and good.argv[2:3] == bad.argv[2:3]:
        if not gone and not added:
            return None
    if gone + added and all(_OUTPUT_FLAG.match(a) for a in gone + added):
        return None  # only how much it printed changed (`--tb=long` -> `--tb=short`): no fix
    said_before = {a for a in bad.argv[1:] if not a.startswith("-") and not PATHISH.search(a)}
    said_after = {a for a in good.argv[1:] if not a.startswith("-") and not PATHISH.search(a)}
    if said_before and said_after and not said_before & said_after:
        return None  # another command of the same program (`rtk git status`), not a variant
    before = " ".join(bad.argv)
    task_before, task_after = task(bad), task(good)
    if program(bad.argv) in RUNNERS and task_before and task_after and task_after != task_before:
        return f"When `{before}` fails with `{reason}`, run `{cmd}`."
    if len(before) > 100 or any(a.startswith(("/", "~")) for a in bad.argv):
        return None
    return f"Use `{cmd}`, not `{before}`: that fails with `{reason}`."


# --- a rule the project's own tests enforce --------------------------------------------------

# pytest prints a failed assertion's message as `E   AssertionError: <message>` and then
# `<test file>:<line>: AssertionError`. A message that states a rule ("Unit test files must
# contain at most one class") is a convention of the project that its own suite checks.
_ASSERTION = re.compile(r"^E\s+AssertionError: (?P<msg>[^\n]{12,200}?)\s*$", re.M)
_RULE_WORD = re.compile(
    r"\b(?:must|should|never|always|at most|at least|only|not allowed|required|forbidden)\b",
    re.IGNORECASE,
)
_TEST_FILE = re.compile(r"^(?P<path>[\w./-]+\.py):\d+: AssertionError$", re.M)


def enforced_rules(turns: Sequence[Turn]) -> list[Candidate]:
    """A failed test whose assertion message states a rule, when a later run of the same
    check passed and nothing later edited that test (last word wins: the session obeyed the
    rule rather than changed it)."""
    position = {t.uuid: i for i, t in enumerate(turns)}
    edited = [(i, str(inp.get("file_path") or "").replace("\\", "/"))
              for i, t in enumerate(turns) if not t.is_sidechain
              for _, name, inp in t.tool_uses if name in ("Edit", "Write", "MultiEdit")]
    calls = bash_calls(turns)
    out: list[Candidate] = []
    said: set[str] = set()
    for n, call in enumerate(calls):
        checks = {check_name(s.argv) for s in steps(call.raw)} - {None}
        if not call.failed or not checks:
            continue
        at = position.get(call.result_uuid, 0)
        passed = next((c for c in calls[n + 1:] if not c.failed
                       and checks & {check_name(s.argv) for s in steps(c.raw)}), None)
        if passed is None:
            continue
        for m in _ASSERTION.finditer(call.output):
            rule = m.group("msg").strip().rstrip(":").strip()
            if not _RULE_WORD.search(rule) or rule.lower() in said:
                continue
            test = _TEST_FILE.search(call.output, m.end())
            path = test.group("path") if test else ""
            if path.startswith(("/", "~", "..")):
                path = ""
            if path and any(i > at and (f == path or f.endswith("/" + path))
                            for i, f in edited):
                continue  # the session changed the test: the rule it stated may be gone
            said.add(rule.lower())
            text = (f"`{path}` enforces: {rule}." if path
                    else f"The project's tests enforce: {rule}.")
            out.append(Candidate(kind="codebase", text=text, evidence=call.result_uuid,
                                 rule="test-rule", session=call.session))
    return out
