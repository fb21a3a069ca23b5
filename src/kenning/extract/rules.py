"""Deterministic, offline fact extraction from a parsed transcript. Precision first.

A wrong fact injected into every later session costs more than a missed one (the user can
always say it again, or `remember` it), so every rule fires only on explicit phrasing:
"always/never/don't …", "we use …", "no, use X instead of Y", "let's go with X because Y",
"X must …", "watch out: …", and a failing command followed by the corrected one that passed.
Sentences with one-off markers ("for now", "yet", "this PR"), questions, and objects that
only make sense in the moment ("that", "the other one", "option 2") are skipped.

Evidence is only ever what the user typed or what a tool printed: assistant text is never
evidence, and a candidate that repeats a fact kenning itself injected is dropped (DESIGN §3).
Pure and stdlib only; the pipeline redacts, dedups and writes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import NamedTuple

from kenning.extract.transcript import Turn
from kenning.records import Anchor
from kenning.textutil import STOPWORDS, words


@dataclass(frozen=True, kw_only=True)
class Candidate:
    """One proposed fact; `evidence` is the uuid of the user or tool-output line."""

    kind: str  # codebase | interaction | decision
    text: str
    rationale: str | None = None
    about: tuple[Anchor, ...] = ()
    evidence: str
    rule: str
    session: str | None = None


# --- vocabulary --------------------------------------------------------------------------

_I = re.IGNORECASE
_ONE_OFF = re.compile(
    r"\b(?:for now|right now|yet|this time|today|tonight|tomorrow|this week|again|in this pr"
    r"|for this (?:task|run|test run|pr|change|session|one|file)|at the moment|for the moment"
    r"|here is|see below|below:)\b",
    _I,
)
_VAGUE = frozenset(
    """it this that these those one ones other same option options suggestion approach thing
    things stuff way above below before previous whichever whatever something anything
    everything mine yours first second third last both again there here idea version""".split()
)
_NOT_VERBS = frozenset(
    """the a an same mind seen been heard understood ever sure really just worry bother know
    think care stop again do be have get it this that happy glad good nice great fine right
    wrong true false so too very more less better worse fun easy hard possible here there
    thought""".split()
)
# Imperatives use the base form: "always wanted …", "never had …" are memories, not rules.
_PAST_OR_ING = re.compile(
    r"^(?:\w+ed|\w+ing|had|was|were|did|got|saw|went|made|knew|said|came|took)$"
)
_BASE_ED = frozenset("need feed seed embed proceed exceed succeed shed speed bed".split())
_DEICTIC_START = re.compile(r"^(?:it|this|that|these|those|them|one|the same)\b", re.IGNORECASE)
_PRONOUN_SUBJECTS = frozenset(
    "it this that they you we i he she there which what who something everything"
    " these those".split()
)
_KNOWN_TOOLS = frozenset(
    """uv pip pipx poetry pdm conda npm pnpm yarn bun npx node deno pytest unittest tox nox
    ruff black isort flake8 pylint mypy pyright make cmake cargo go gradle maven mvn docker
    podman kubectl helm terraform git gh jest vitest mocha eslint prettier tsc webpack vite
    postgres postgresql mysql sqlite redis mongodb httpx requests click argparse typer django
    flask fastapi celery mix pathlib""".split()
)
_FILE_EXT = (
    r"py|pyi|js|jsx|ts|tsx|mjs|cjs|toml|json|ya?ml|md|rst|cfg|ini|sh|rs|go|rb|java|kt|ex|exs"
    r"|heex|sql|lock|txt|env|html|css|scss|c|h|cc|cpp|hpp|cs|swift|php|lua|proto|tf|gradle"
)
_PATH = re.compile(
    r"(?<![\w/.:\\-])((?:/|~/|[A-Za-z]:[/\\])?(?:[\w.-]+[/\\])*[\w-][\w.-]*\.(?:"
    + _FILE_EXT
    + r"))(?![\w/])"
)
# Flags, calls, snake_case, dotted calls, and directories (`tests/unit`, `services/`).
_CODE_HINT = re.compile(r"(?:^|\s)--?\w|\w\(\)|\w_\w|\w\.\w+\(|[\w.-]+/(?:[\w.-]|\s|$)")
_BACKTICK = re.compile(r"`([^`]+)`")
_SYMBOL = re.compile(r"^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*(?:\(\))?$")
_INTERACTION = re.compile(
    r"\b(?:me|my|ask(?:ing)?|tell me|explain|answers?|responses?|replies|summar(?:y|ies|ise|ize)"
    r"|apologi[sz]e|emojis?|confirm with|check with|verbose|concise|tone)\b",
    _I,
)

# --- sentence preparation ------------------------------------------------------------------

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")
_BULLET = re.compile(r"^(?:[-*•>]|\d+[.)])\s+")
_CORRECTION = re.compile(r"^(?:no|nope|nah|wrong|not quite|actually)\b[\s,.!:;-]*(?P<rest>.*)$", _I)
_FILLER = re.compile(
    r"^(?:please|pls|also|and|oh|btw|ok(?:ay)?|so|hey|just|remember(?: that)?"
    r"|keep in mind(?: that)?|make sure(?: that)?(?: you| to)?)\b[\s,:]*",
    _I,
)
_DURABLE = re.compile(
    r"^(?:from now on|going forward|in the future|in general|as a rule|generally"
    r"|in this (?:repo|repository|project|codebase)|here(?=,?\s+we\b))\b[\s,:]*",
    _I,
)
_REJECTED = re.compile(r"the user said:\s*(?P<said>.+)\Z", re.S | _I)


def _sentences(text: str) -> list[str]:
    out: list[str] = []
    for line in _FENCE.sub("\n", text).splitlines():
        line = _BULLET.sub("", line.strip())
        letters = sum(c.isalpha() for c in line)
        if not line or letters < 0.5 * len(line) or line.startswith(('File "', "at ", "E ")):
            continue  # pasted logs, tracebacks, tables
        out.extend(s.strip() for s in _SPLIT.split(line) if s.strip())
    return out[:40]


def _finish(text: str) -> str:
    text = " ".join(text.split()).strip(" ,;:-—–")
    text = re.sub(r"[\s,]*\b(?:please|thanks|thank you)\b[.!]*$", "", text, flags=_I)
    if text and text[0].isalpha():
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!")) else text + "."


def _code_like(text: str) -> bool:
    if "`" in text or _PATH.search(text) or _CODE_HINT.search(text):
        return True
    return any(w.lower() in _KNOWN_TOOLS for w in words(text))


def _substantive(phrase: str) -> bool:
    if _code_like(phrase):
        return True
    content = [w for w in words(phrase.lower()) if w not in STOPWORDS and w not in _VAGUE]
    return len(content) >= 2 and not {w.lower() for w in words(phrase)} & {"other", "same"}


# --- the rules on one sentence ------------------------------------------------------------
# Each returns (kind or None, text, rationale, rule) or None. kind None = decide later.

_Result = tuple[str | None, str, str | None, str]

_LETS = re.compile(
    r"^let'?s\s+(?P<verb>go with|use|pick|choose|stick with|switch to|adopt|keep|move to"
    r"|standardi[sz]e on|drop|deprecate|replace)\s+(?P<x>.+?)"
    r"\s+(?:because|since|as|so that|given that)\s+(?P<why>.+)$",
    _I,
)
_DECIDED = re.compile(
    r"^(?:we|i)(?:'ve| have)?\s+(?:decided|agreed)\s+(?P<how>to|that|on|against)\s+(?P<x>.+?)"
    r"(?:,?\s+(?:because|since|as|so that)\s+(?P<why>.+))?$",
    _I,
)
_GOING_WITH = re.compile(
    r"^we(?:'re| are|'ll| will)\s+(?:going|go)\s+with\s+(?P<x>.+?)"
    r"(?:,?\s+(?:because|since|as|so that)\s+(?P<why>.+))?$",
    _I,
)


def _decision(s: str) -> _Result | None:
    for pattern in (_LETS, _DECIDED, _GOING_WITH):
        m = pattern.match(s)
        if not m or not _substantive(m.group("x")) or _ONE_OFF.search(m.group("x")):
            continue
        groups = m.groupdict()
        if "verb" in groups:
            head = f"Decided to {groups['verb'].lower()} {m.group('x')}"
        elif "how" in groups:
            head = f"Decided {groups['how'].lower()} {m.group('x')}"
        else:
            head = f"Decided to go with {m.group('x')}"
        why = groups.get("why")
        return "decision", _finish(head), _finish(why) if why else None, "decision"
    return None


_GOTCHA = re.compile(
    r"^(?:watch out|careful|be careful|beware|gotcha|heads[- ]up|caution|warning|important"
    r"|note(?: that)?|fyi|n\.?b\.?)\b[\s:,!—–-]*(?P<rest>.+)$",
    _I,
)


def _gotcha(s: str) -> _Result | None:
    m = _GOTCHA.match(s)
    if not m or len(m.group("rest").split()) < 4 or not _substantive(m.group("rest")):
        return None
    rest = m.group("rest")
    first, second = (rest.lower().split() + [""])[:2]
    if first.strip(",") in _PRONOUN_SUBJECTS - {"you", "we"} or _FIRST_PERSON.search(rest):
        return None
    if first == "you" and not re.match(
        r"(?:must|need|have|should|can't|cannot|shouldn't)$", second
    ):
        return None  # "careful, you just deleted …" is a complaint, not a gotcha
    return "codebase", _finish(rest), None, "gotcha"


_USE_INSTEAD = re.compile(
    r"^use\s+(?P<x>.+?),?\s+(?:instead of|rather than|over|not)\s+(?P<y>.+?)$", _I
)
_ITS_NOT = re.compile(
    r"^(?:it'?s|its|it is)\s+(?P<x>.+?),?\s+not\s+(?P<y>.+?)(?:\s*[—–;-]+\s*(?P<why>.+))?$", _I
)
_X_NOT_Y = re.compile(r"^(?P<x>.+?),?\s+not\s+(?P<y>[^,;]+)$", _I)
_USE_ONE = re.compile(r"^use\s+(?P<x>`[^`]+`|[\w.-]+)$", _I)


def _rival(used: str, previous: Sequence[str]) -> str | None:
    """The program a bare "no, use X" replaces: the latest earlier command of X's family
    (pip for uv, npm for pnpm), or the only program run since the user last spoke."""
    head = used.split()[0].lower()
    programs = [c.split()[0] for c in previous if c.split() and c.split()[0].lower() != head]
    family = next((f for f in _FAMILIES if head in f), frozenset())
    same_family = [p for p in programs if p.lower() in family]
    if same_family:
        return same_family[-1]
    return programs[-1] if len(set(programs)) == 1 else None


def _correction(s: str, corrected: bool, previous: Sequence[str]) -> _Result | None:
    m = _USE_INSTEAD.match(s)
    if m and (_code_like(m.group("x")) or corrected) and _substantive(m.group("x")):
        if not {w.lower() for w in words(m.group("x"))} & _VAGUE:
            return None, _finish(s), None, "correction"
    m = _ITS_NOT.match(s)
    if m and _code_like(m.group("x")):
        why = m.group("why")
        text = _finish(f"Use {m.group('x')}, not {m.group('y')}")
        return None, text, _finish(why) if why else None, "correction"
    if not corrected:
        return None
    m = _X_NOT_Y.match(s)
    if m and _code_like(m.group("x")) and len(m.group("x").split()) >= 3:
        return None, _finish(s), None, "correction"
    m = _USE_ONE.match(s)
    if m and _code_like(m.group("x")):
        used = m.group("x").strip("`")
        rival = _rival(used, previous)
        if rival:
            return None, _finish(f"Use `{used}`, not `{rival}`"), None, "correction"
    return None


_ALWAYS = re.compile(r"^(?:always|never)\s+(?P<verb>[a-z]+)\b(?P<rest>.*)$", _I)
_DONT = re.compile(r"^(?:don'?t|do not|avoid)\s+(?P<verb>[a-z]+)\b(?P<rest>.*)$", _I)
_PREFER = re.compile(r"^prefer\s+(?P<rest>.+)$", _I)
_WE_ADVERB = re.compile(
    r"^we\s+(?:always|never|usually|generally|only|don'?t|do not)\s+(?P<verb>[a-z-]+)\b"
    r"(?P<rest>.*)$",
    _I,
)
_WE_VERB = re.compile(
    r"^we\s+(?:use|prefer|follow|write|keep|run|deploy|build|store|name|format|lint|test|put"
    r"|pin|vendor|target|support|squash|rebase)\s+(?P<rest>.+)$",
    _I,
)
_CONVENTION = re.compile(r"^(?:our|the)\s+conventions?\s+(?:is|are)\s+(?P<rest>.+)$", _I)
_USE_FOR = re.compile(r"^use\s+(?P<x>.+?)\s+for\s+(?P<rest>.+)$", _I)
_STYLE = re.compile(
    r"^(?:keep|make)\s+(?:your\s+)?(?:answers|responses|replies|explanations|summaries"
    r"|messages|output)\s+\w+",
    _I,
)
_I_PREFER = re.compile(
    r"^i(?:'d| would) rather\s+|^i prefer\s+|^i (?:don'?t|do not) (?:like|want)\s+", _I
)
_IMPERATIVE = re.compile(r"^(?P<verb>[a-z]+)\s+(?P<rest>.+)$")
_DONT_ONE_OFF = frozenset("worry stop forget change touch".split())


def _preference(s: str, durable: bool) -> _Result | None:
    for pattern in (_ALWAYS, _DONT, _WE_ADVERB):
        m = pattern.match(s)
        if not m:
            continue
        verb = m.group("verb").lower()
        if verb in _NOT_VERBS or (_PAST_OR_ING.match(verb) and verb not in _BASE_ED):
            return None
        if pattern is not _ALWAYS and verb in _DONT_ONE_OFF and not durable:
            return None
        if not _substantive(f"{verb} {m.group('rest')}") or len(m.group("rest").split()) < 1:
            return None
        return None, _finish(s), None, "preference"
    for pattern in (_PREFER, _WE_VERB, _CONVENTION):
        m = pattern.match(s)
        if m and _substantive(m.group("rest")) and not _DEICTIC_START.match(m.group("rest")):
            return None, _finish(s), None, "preference"
    m = _USE_FOR.match(s)
    if m and (_code_like(m.group("x")) or durable) and _substantive(m.group("x")):
        return None, _finish(s), None, "preference"
    if _STYLE.match(s) or (_I_PREFER.match(s) and _substantive(s)):
        return "interaction", _finish(s), None, "preference"
    m = _IMPERATIVE.match(s)
    if durable and m and m.group("verb") not in _PRONOUN_SUBJECTS and _substantive(s):
        return None, _finish(s), None, "preference"
    return None


_MUST = re.compile(
    r"^(?P<subj>[\w`./()'\- ]{2,60}?)\s+(?:must(?:n'?t| not| never| always)?|has to|have to"
    r"|needs? to|should (?:always|never))\s+(?P<pred>.+)$",
    _I,
)
# "X must be flaky", "X must have failed": guesses about a bug, not rules about X.
_EPISTEMIC = re.compile(
    r"^be\s+(?:a|an|the|some|somewhere|down|up|missing|broken|wrong|confused|related"
    r"|because|caused|due|it|that|this|here|there|stale|cached|off|out|something|in|flaky"
    r"|failing|hanging|stuck|slow|corrupt(?:ed)?|outdated|old|empty|null|none|undefined"
    r"|changed|gone|why)\b"
    r"|^have\s+(?:been|gone|done|had|got|made|run|broken|\w+ed|\w+en)\b",
    _I,
)
_BREAKS = re.compile(
    r"^(?P<subj>[\w`./()'\- ]{2,60}?)\s+(?:\w+\s+)?(?:breaks|fails|crashes|hangs|errors(?: out)?"
    r"|(?:doesn'?t|does not|won'?t|will not) work|only works|times out|deadlocks|corrupts)"
    r"\s+(?:if|when|unless|with|without|on|for|because|after|before|in)\b",
    _I,
)
_FIRST_PERSON = re.compile(r"\b(?:i|my|me|i'm|i've)\b", _I)


def _constraint(s: str) -> _Result | None:
    for pattern in (_MUST, _BREAKS):
        m = pattern.match(s)
        if not m:
            continue
        subj = m.group("subj").strip()
        first = subj.split()[0].lower().strip("`")
        if first in _PRONOUN_SUBJECTS or len(subj.split()) > 6:
            return None
        if pattern is _MUST and _EPISTEMIC.match(m.group("pred")):
            return None
        if _FIRST_PERSON.search(s):  # "…before I can test it": a report, not a rule
            return None
        return "codebase", _finish(s), None, "constraint"
    return None


def sentence_rules(sentence: str, previous_commands: Sequence[str] = ()) -> _Result | None:
    """Apply the text rules to one sentence: (kind or None, text, rationale, rule) or None."""
    s = sentence.strip()
    if not s or s.endswith("?"):
        return None
    corrected = False
    m = _CORRECTION.match(s)
    if m:
        corrected, s = True, m.group("rest").strip()
    durable = False
    for _ in range(4):
        before = s
        s = _FILLER.sub("", s)
        if _DURABLE.match(s):
            durable, s = True, _DURABLE.sub("", s)
        if s == before:
            break
    main = re.split(r"\s+(?:because|since)\s+|\s+[—–]\s+", s, maxsplit=1)[0]
    if not s or _ONE_OFF.search(main) or len(s.split()) < 2:
        return None
    return (
        _decision(s)
        or _gotcha(s)
        or _correction(s, corrected, previous_commands)
        or _preference(s, durable)
        or _constraint(s)
    )


# --- anchors ------------------------------------------------------------------------------


def _relative(path: str, root: str | None) -> str | None:
    path = path.replace("\\", "/")
    if root is None:
        return path.removeprefix("./")
    root_posix = root.replace("\\", "/").rstrip("/")
    if path.startswith("~"):
        return None
    if path.startswith("/") or re.match(r"^[A-Za-z]:/", path):
        if path == root_posix or not path.startswith(root_posix + "/"):
            return None  # outside the project: not something a project fact is about
        return path[len(root_posix) + 1 :]
    return str(PurePosixPath(path.removeprefix("./")))


def _anchors(text: str, touched: Sequence[str], root: str | None) -> tuple[Anchor, ...]:
    files: list[str] = []
    for m in _PATH.finditer(text):
        if "://" not in text[max(0, m.start() - 8) : m.start()]:
            files.append(m.group(1))
    if not files:
        files = list(touched)
    symbols = [
        b.removesuffix("()")
        for b in _BACKTICK.findall(text)
        if _SYMBOL.match(b) and not _PATH.fullmatch(b) and b.lower() not in _KNOWN_TOOLS
    ]
    out: dict[tuple[str, str | None], None] = {}
    for f in files:
        rel = _relative(f, root)
        if rel:
            out[(rel, None)] = None
    if len(out) == 1 and symbols:
        ((only, _),) = out
        out = {(only, sym): None for sym in symbols}
    return tuple(Anchor(file=f, symbol=s) for f, s in out)


# --- tool-derived facts ---------------------------------------------------------------------

_INVOCATION_ERROR = re.compile(
    r"command not found|: not found\b|no module named|modulenotfounderror|is not recognized as"
    r"|unknown command|unknown option|unrecognized (?:arguments|option)|no such option"
    r"|missing script|externally-managed-environment|cannot find module|no such command"
    r"|no such file or directory",
    _I,
)
_TEST_WORDS = re.compile(r"\b(?:pytest|tests?|jest|vitest|mocha|unittest|tox|nox|rspec)\b")
_FAMILIES = (
    frozenset({"npm", "pnpm", "yarn", "bun"}),
    frozenset({"pip", "pip3", "uv", "poetry", "pdm", "pipenv"}),
    frozenset({"python", "python3", "py"}),
)


def _norm_command(cmd: str) -> str:
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
    return any(head in fam and _programs(passed) & fam for fam in _FAMILIES)


def _drop_common_tail(a: str, b: str) -> tuple[str, str]:
    x, y = a.split(), b.split()
    while len(x) > 1 and len(y) > 1 and x[-1] == y[-1]:
        x, y = x[:-1], y[:-1]
    return " ".join(x), " ".join(y)


def _reason(output: str) -> str | None:
    for line in output.splitlines():
        if _INVOCATION_ERROR.search(line):
            line = re.sub(r"^(?:/bin/\w*sh|bash|zsh|sh)(?::\s*line)?(?::\s*\d+)?:\s*", "", line)
            return line.strip()[:100]
    return None


class _Call(NamedTuple):
    command: str
    result_uuid: str
    failed: bool
    output: str
    session: str | None


def _bash_calls(turns: Sequence[Turn]) -> list[_Call]:
    commands = {
        tid: _norm_command(str(inp.get("command", "")))
        for t in turns
        if t.role == "assistant"
        for tid, name, inp in t.tool_uses
        if name == "Bash" and inp.get("command")
    }
    calls: list[_Call] = []
    for t in turns:
        for tid, output, is_error in t.tool_results:
            if tid in commands and "doesn't want to proceed" not in output:
                failed = is_error or output.startswith("Exit code ")
                calls.append(_Call(commands[tid], t.uuid, failed, output, t.session_id))
    return calls


def _command_fixes(turns: Sequence[Turn]) -> list[Candidate]:
    """A command that failed to even run, then a related one that passed: how to run it."""
    calls = _bash_calls(turns)
    out: list[Candidate] = []
    for i, call in enumerate(calls):
        reason = _reason(call.output) if call.failed else None
        if not reason or len(call.command) > 120:
            continue
        for later in calls[i + 1 : i + 7]:
            if later.failed or later.command == call.command or len(later.command) > 120:
                continue
            if not _related(call.command, later.command):
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


# --- the whole session ----------------------------------------------------------------------


def _content_terms(text: str) -> set[str]:
    return {w for w in words(text.lower()) if w not in STOPWORDS and len(w) > 1}


def _repeats(text: str, injected: Sequence[set[str]]) -> bool:
    terms = _content_terms(text)
    return bool(terms) and any(len(terms & inj) >= 0.8 * len(terms) for inj in injected)


def _kind(kind: str | None, text: str) -> str:
    if kind:
        return kind
    return "interaction" if _INTERACTION.search(text) and not _code_like(text) else "codebase"


def extract_candidates(
    turns: Sequence[Turn],
    injected_texts: Sequence[str] = (),
    root: str | os.PathLike[str] | None = None,
) -> list[Candidate]:
    """Candidate facts from one session's turns, in transcript order, without duplicates.

    `injected_texts` are the fact sentences kenning showed this session; a candidate that
    repeats one is not new evidence. `root` makes anchors project-relative (and drops files
    outside the project).
    """
    root_str = os.fspath(root) if root is not None else None
    injected = [_content_terms(t) for t in injected_texts]
    out: list[Candidate] = []
    commands: list[str] = []  # Bash commands since the user last spoke
    touched: list[str] = []  # files edited since the user last spoke
    edit_targets: dict[str, str] = {}  # tool_use_id -> file it would have edited
    for turn in turns:
        if turn.role == "assistant":
            for tid, name, inp in turn.tool_uses:
                target = str(inp.get("file_path") or inp.get("notebook_path") or "")
                if name == "Bash" and inp.get("command"):
                    commands.append(_norm_command(str(inp["command"])))
                elif name in ("Edit", "Write", "MultiEdit", "NotebookEdit") and target:
                    touched.append(target)
                    edit_targets[tid] = target
            continue
        said: list[tuple[str, list[str]]] = []
        if turn.role == "user" and not turn.is_sidechain:  # a subagent's "user" is the agent
            said.append((turn.text, []))
        for tid, output, _err in turn.tool_results:
            m = _REJECTED.search(output) if "doesn't want to proceed" in output else None
            if m:  # the user's reason for rejecting a tool call: their words
                target = edit_targets.get(tid)
                said.append((m.group("said"), [target] if target else []))
        for text, rejected_files in said:
            for sentence in _sentences(text):
                found = sentence_rules(sentence, commands)
                if not found:
                    continue
                kind, fact, rationale, rule = found
                near = rejected_files or (touched[-2:] if rule == "correction" else [])
                out.append(
                    Candidate(
                        kind=_kind(kind, fact),
                        text=fact,
                        rationale=rationale,
                        about=_anchors(sentence, near, root_str),
                        evidence=turn.uuid,
                        rule=rule,
                        session=turn.session_id,
                    )
                )
        if turn.role == "user":
            commands, touched = [], []
    out.extend(_command_fixes(turns))
    position = {t.uuid: i for i, t in enumerate(turns)}
    out.sort(key=lambda c: position.get(c.evidence, len(position)))  # stable: rule order kept
    seen: set[str] = set()
    unique: list[Candidate] = []
    for c in out:
        key = c.text.lower()
        if key not in seen and not _repeats(c.text, injected):
            seen.add(key)
            unique.append(c)
    return unique
