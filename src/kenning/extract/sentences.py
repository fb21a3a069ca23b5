"""The text rules on one sentence the user typed: is it a durable fact, and which kind?

Every rule fires only on explicit phrasing, because a wrong fact injected into every later
session costs more than a missed one: "always/never/don't …", "we use …", "no, use X
instead of Y", "let's go with X because Y", "X must …", "watch out: …". Sentences with
one-off markers ("for now", "yet", "this PR"), questions, and objects that only make sense
in the moment ("that", "the other one", "option 2") are skipped. This module also splits a
message into sentences and skips pasted logs. Pure, stdlib only; the session-level walk
over turns is `rules.py`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.core.textutil import words
from kenning.extract.vocab import FAMILIES, VAGUE, code_like, substantive

# --- vocabulary --------------------------------------------------------------------------

_I = re.IGNORECASE
_ONE_OFF = re.compile(
    r"\b(?:for now|right now|yet|this time|today|tonight|tomorrow|this week|again|in this pr"
    r"|for this (?:task|run|test run|pr|change|session|one|file)|at the moment|for the moment"
    r"|here is|see below|below:|let'?s see|let me see|see if|see whether)\b"
)  # searched in lower-cased text (much faster than re.I)
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
# Where the rule comes from, in front of it: "Per `CLAUDE.md`: any provider change must …".
_SOURCE_LEAD = re.compile(r"^(?:as )?(?:per|according to)\s+[^:,]{1,60}[:,]\s*", _I)
_DURABLE = re.compile(
    r"^(?:from now on|going forward|in the future|in general|as a rule|generally"
    r"|in this (?:repo|repository|project|codebase)|here(?=,?\s+we\b))\b[\s,:]*",
    _I,
)


def split_sentences(text: str) -> list[str]:
    """The first 40 prose sentences of `text`: code fences, logs and tables left out."""
    out: list[str] = []
    for line in _FENCE.sub("\n", text).splitlines():
        line = _BULLET.sub("", line.strip())
        letters = sum(map(str.isalpha, line))
        if not line or letters < 0.5 * len(line) or line.startswith(('File "', "at ", "E ")):
            continue  # pasted logs, tracebacks, tables
        out.extend(s.strip() for s in _SPLIT.split(line) if s.strip())
        if len(out) >= 40:
            break
    return out[:40]


def _finish(text: str) -> str:
    text = " ".join(text.split()).strip(" ,;:-—–")
    text = re.sub(r"[\s,]*\b(?:please|thanks|thank you)\b[.!]*$", "", text, flags=_I)
    if text and text[0].isalpha():
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!")) else text + "."


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
        if not m or not substantive(m.group("x")) or _ONE_OFF.search(m.group("x").lower()):
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
    r"|note(?: that)?|fyi|n\.?b\.?)\b(?!\()[\s:,!—–-]*(?P<rest>.+)$",  # not "NOTE(kgriffs):"
    _I,
)


def _gotcha(s: str) -> _Result | None:
    m = _GOTCHA.match(s)
    if not m or len(m.group("rest").split()) < 4 or not substantive(m.group("rest")):
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
    family = next((f for f in FAMILIES if head in f), frozenset())
    same_family = [p for p in programs if p.lower() in family]
    if same_family:
        return same_family[-1]
    return programs[-1] if len(set(programs)) == 1 else None


def _correction(s: str, corrected: bool, previous: Sequence[str]) -> _Result | None:
    m = _USE_INSTEAD.match(s)
    if m and (code_like(m.group("x")) or corrected) and substantive(m.group("x")):
        if not {w.lower() for w in words(m.group("x"))} & VAGUE:
            return None, _finish(s), None, "correction"
    m = _ITS_NOT.match(s)
    if m and code_like(m.group("x")):
        why = m.group("why")
        text = _finish(f"Use {m.group('x')}, not {m.group('y')}")
        return None, text, _finish(why) if why else None, "correction"
    if not corrected:
        return None
    m = _X_NOT_Y.match(s)
    if m and code_like(m.group("x")) and len(m.group("x").split()) >= 3:
        return None, _finish(s), None, "correction"
    m = _USE_ONE.match(s)
    if m and code_like(m.group("x")):
        used = m.group("x").strip("`")
        rival = _rival(used, previous)
        if rival:
            return None, _finish(f"Use `{used}`, not `{rival}`"), None, "correction"
    return None


# The verb, or a command in backticks where it stands: "Never ``print`` informational
# messages; use …".
_VERB_THEN_REST = r"(?P<verb>[a-z]+\b|`{1,2}[\w.-]+`{1,2})(?P<rest>.*)$"
_ALWAYS = re.compile(r"^(?:always|never)\s+" + _VERB_THEN_REST, _I)
_DONT = re.compile(r"^(?:don'?t|do not|avoid)\s+" + _VERB_THEN_REST, _I)
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
        if not substantive(f"{verb} {m.group('rest')}") or len(m.group("rest").split()) < 1:
            return None
        return None, _finish(s), None, "preference"
    for pattern in (_PREFER, _WE_VERB, _CONVENTION):
        m = pattern.match(s)
        if m and substantive(m.group("rest")) and not _DEICTIC_START.match(m.group("rest")):
            return None, _finish(s), None, "preference"
    m = _USE_FOR.match(s)
    if m and (code_like(m.group("x")) or durable) and substantive(m.group("x")):
        return None, _finish(s), None, "preference"
    if _STYLE.match(s) or (_I_PREFER.match(s) and substantive(s)):
        return "interaction", _finish(s), None, "preference"
    m = _IMPERATIVE.match(s)
    if durable and m and m.group("verb") not in _PRONOUN_SUBJECTS and substantive(s):
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
# "Getting 500 errors on upload": what someone sees in this run, not a rule of the code.
_SEEING = frozenset("getting seeing having hitting noticing".split())


def _constraint(s: str) -> _Result | None:
    for pattern in (_MUST, _BREAKS):
        m = pattern.match(s)
        if not m:
            continue
        subj = m.group("subj").strip()
        first = subj.split()[0].lower().strip("`")
        if first in _PRONOUN_SUBJECTS or first in _SEEING or len(subj.split()) > 6:
            return None
        if pattern is _MUST and _EPISTEMIC.match(m.group("pred")):
            return None
        if _FIRST_PERSON.search(s):  # "…before I can test it": a report, not a rule
            return None
        return "codebase", _finish(s), None, "constraint"
    return None


# A question typed without its question mark: an auxiliary before its subject ("is it that
# you always have to run …", "does the hook need …", "do you always …") asks, it states nothing.
_ASKS = re.compile(
    r"^(?:(?:is|are|was|were|does|did|can|could|will|would|should|shall|has|have)\s+"
    r"(?:it|this|that|there|you|we|i|they|he|she|the|a|an|your|our|my)"
    r"|do\s+(?:you|we|i|they))\b",
    _I,
)


def sentence_rules(sentence: str, previous_commands: Sequence[str] = ()) -> _Result | None:
    """Apply the text rules to one sentence: (kind or None, text, rationale, rule) or None."""
    s = sentence.strip()
    if not s or s.endswith("?") or _ASKS.match(s):
        return None
    corrected = False
    m = _CORRECTION.match(s)
    if m:
        corrected, s = True, m.group("rest").strip()
    durable = False
    for _ in range(4):
        before = s
        s = _SOURCE_LEAD.sub("", _FILLER.sub("", s))
        if _DURABLE.match(s):
            durable, s = True, _DURABLE.sub("", s)
        if s == before:
            break
    main = s
    if "because" in s or "since" in s or "—" in s or "–" in s:  # a reason or an aside
        main = re.split(r"\s+(?:because|since)\s+|\s+[—–]\s+", s, maxsplit=1)[0]
    if not s or _ONE_OFF.search(main.lower()) or len(s.split()) < 2 or _ASKS.match(s):
        return None
    return (
        _decision(s)
        or _gotcha(s)
        or _correction(s, corrected, previous_commands)
        or _preference(s, durable)
        or _constraint(s)
    )
