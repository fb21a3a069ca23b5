"""The agent's own findings: sentences of its prose that say how the code behaves and why.

In long agentic sessions the user types a few short prompts and most of what a later session
needs is said by the agent after it read the code or saw a failure: "if the turn ends without
changes, `commitWithMetadata()` returns early, so the trigger never runs". On the development
sessions (bench/data/SPLITS.md) about half of the labelled knowledge is cited from such prose.
Most of that prose is not knowledge, though (plans, guesses, the story of the work, status),
so a sentence is kept only when it has the form of a finding and reads on its own:

- a causal marker that ties two clauses ("because", ", so", "only when", "falls back",
  "returns early", "can't", "instead of", "silently", …), a present-tense verb (durable
  knowledge is told in the present; the story of the session in the past) and a name of the
  code (backticks, a path, a call, a snake_case or camelCase identifier);
- no hedge or question, no plan, no words to the user, no narrative label in front
  ("Resolving it:"), no imperative, no change report or measurement of this run ("now",
  "added", "14 of 15", "1.2s");
- durable, not the state of this run: nothing running, reachable, hitting, failing, blocked
  or missing right now ("The frontend is hitting staging", "the git hooks are preventing the
  commit"; such words inside a when/if clause are a condition and stay), no progressive
  "is doing", no negated past, no proposed fix ("the simplest fix is"), no "I …ed", and a
  subject that is a thing of the code, not "the API", "the frontend", "the tests";
- not a bug the session then fixed: a finding whose file, or a code name of which, a later
  edit in the project rewrites described the code that edit replaced ("The problem is that
  `auth.service.ts` login creates a second auth method", then `auth.service.ts` is edited);
- last word wins: a finding that a later sentence of the agent or the user takes back
  (a retraction word and most of its terms) is dropped, and of two findings that say the
  same thing only the later is kept.

`[extract] findings` (`durable`, the default, or `off`) switches the whole source off.

Read in the main conversation and in compaction summaries (written later, so already the
last word); a subagent's prose is its exploration and is left out. `documents.py` uses the
same test on a design doc's sentences. Pure, stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.core.textutil import STOPWORDS, words
from kenning.extract.model import Candidate, Turn
from kenning.extract.vocab import PATH

_I = re.IGNORECASE
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_BULLET = re.compile(r"^(?:[-*•>]|\d+[.)]|#+)\s+")
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(*])")
# The form of a finding: a cause, a condition, a constraint, a fallback or a trap.
_MARKER = re.compile(
    r"\b(?:because|since|so that|which means|that means|only (?:when|if|works|from|after"
    r"|once|runs?)|returns? early|falls? back|can't|cannot|won't work|doesn't work|silently"
    r"|instead of|rather than|is what|are what"
    r"|the (?:problem|issue|bug|catch|trap|key|gotcha|cause) (?:is|was) that)\b|, so\b|: so\b"
    # A limit on what the code does: "`git diff HEAD` only shows tracked files", "X never
    # exists there"; and a correction in one sentence: "it isn't nil — it's closed".
    r"|(?<!\bthe )\bonly (?!when|if|works|from|after|once|runs?)[a-z]+s\b|\bnever [a-z]+s\b"
    r"|\b(?:isn't|aren't|is not|are not)\b[^.;]*[—;,-]+\s*(?:it's|they're|it is)\b",
    _I,
)
# A narrative label in front ("Resolving it:", "Sweep in:", "Hydration handling is correct —")
# or a first word in -ing/-ed ("Testing whether", "Resolved by") tells the story of the work.
_LABEL = re.compile(r"^[^`:—]{3,40}(?::|\s—)\s|^[A-Za-z]+(?:ing|ed)\b")
# A sentence that opens with "will" has left out its subject, the agent: its own next step.
_PLAN_START = re.compile(r"^will\b", _I)
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_ASIDE = re.compile(r"\s*\((?![^()]*`)[^()]{1,80}\)")
# Durable knowledge is told in the present tense; the story of the session in the past.
_PRESENT = re.compile(
    r"\b(?:is|are|isn't|aren't|does|doesn't|do|don't|can|can't|cannot|must|has|have|needs?"
    r"|only \w+s|\w+s (?:only|always|never)|(?:always|never|silently|only) \w+s|returns|runs"
    r"|uses|reads|writes|calls|expects|requires|fails|skips|ignores|breaks|falls back)\b",
    _I,
)
_IMPERATIVE = re.compile(
    r"^(?:add|make|record|extend|change|drop|keep|use|move|run|fix|update|collapse|unify"
    r"|replace|remove|delete|create|put|set|leave|accept|resolve|test|check|verify|rename"
    r"|split|merge|wire|pass|skip|call|return|write|read|try|consider|commit|push|revert"
    r"|restore|rebuild|build|install|ensure)\b",
    _I,
)
# Guesses, plans, questions, the task at hand, and words to the user.
_HEDGE = re.compile(
    r"\b(?:might|may|maybe|perhaps|probably|possibly|likely|unlikely|i think|i believe"
    r"|i suspect|suspect|seems?|seemingly|appears? to|could|would|should|shouldn't|guess"
    r"|hypothes\w+|not sure|unclear|presumably|let me|let's|i'll|i will|i'd|i need|we need"
    r"|we'll|want me|shall i|you|your|i'm|i am|i've|i have|i was|i added|i changed|i fixed"
    r"|i removed|i updated|now (?:passes|pass|works|compiles)|all (?:tests )?pass"
    r"|tests? pass(?:es)?|todo|next step|plan is|option \d|either)\b",
    _I,
)
# The state of this session rather than of the code: a change report, the story of the
# work, a measurement of this run.
_SESSION_STATE = re.compile(
    r"\b(?:now|today|earlier|already|currently|so far|next run|this run|anymore|my|we|we're"
    r"|us|suspicion|theory|worth|done|verified|confirmed|proof|flagged|correction|nice|ever"
    r"|was|were|did|had|removed|added|renamed|changed|updated|replaced|introduced|fixed"
    r"|created|deleted|moved)\b"
    r"|\b\d+ (?:of|out of|rather than|instead of|vs\.?|versus) \d+\b"
    r"|\b\d+(?:\.\d+)?\s?(?:ms|s|sec|seconds|minutes)\b",
    _I,
)
# The state of this run rather than how the code is (see the module doc). Looked for outside
# a condition: "only works when Redis is running" is a constraint.
_RUN_STATE = re.compile(
    r"\b(?:is|are|'s|'re|isn't|aren't)\s+(?:still\s+|not\s+|just\s+|now\s+)?"
    r"(?!(?:nothing|something|everything|anything|string|thing|during)\b)[a-z]+ing\b"
    r"|\b(?:running|reachable|unreachable|hitting|getting|failing|blocked|blocking|preventing"
    r"|missing|broken|stuck|crashing|hanging|offline|just)\b"
    r"|\b(?:wasn't|weren't|didn't|hadn't|couldn't|wouldn't)\b"
    r"|\b(?:simplest|easiest|quickest|cleanest|proper|real) (?:fix|way|solution|approach)\b"
    r"|\bi [a-z]+ed\b",
    _I,
)
_CONDITION = re.compile(r"\b(?:when|if|unless|until|while|once|whether)\b[^,;:—]*", _I)
# A subject that is the running system or the session's trouble, not a thing of the code.
_VAGUE_SUBJECT = re.compile(
    r"^the (?:api|frontend|front-end|backend|back-end|server|client|app|application|ui|page"
    r"|site|build|ci|tests?|hooks?|git hooks|commit|push|deploy(?:ment)?|requests?|response"
    r"|calls?|uploads?|email|user|errors?|failure|fix|reason|culprit)\b(?!\s*`)",
    _I,
)
_DIAGNOSIS = re.compile(r"^the (?:problem|issue|bug|cause) (?:is|was) that\b", _I)
_EDITS = ("Edit", "MultiEdit", "Write", "NotebookEdit")
# A code name worth following into an edit: a call, snake_case, camelCase or a dotted name.
_CODE_NAME = re.compile(r"[A-Za-z_][\w.]*\w")
_CODE_LIKE = re.compile(r"_|[a-z][A-Z]|\w\.\w")
_STARTS_DEICTIC = re.compile(
    r"^(?:it|this|that|these|those|they|he|she|there|here|so|and|but|or|also|then|now|yes"
    r"|no|ok|okay|good|great|perfect|done|right|hmm|wait|still|both|which|same)\b",
    _I,
)
# Last word wins: a later sentence that takes a finding back.
_RETRACTION = re.compile(
    r"\b(?:wrong|incorrect|not true|not the (?:cause|reason|problem|issue|fix)|turned out"
    r"|actually|i was mistaken|my mistake|misread|misdiagnos\w*|red herring|withdraw\w*"
    r"|disproved|scratch that|not quite right|isn't (?:the|what)|wasn't (?:the|what)"
    r"|doesn't explain|not what)\b"
)  # searched in lower-cased text: five times faster than re.I on long transcripts
# It names the code: a backticked name, a path, a call, a snake_case or CamelCase identifier.
NAMES_CODE = re.compile(r"`[^`]+`|\w\(\)|\b[a-z]+_\w+|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*|"
                        + PATH.pattern)
_NAMES_CODE = NAMES_CODE
_MIN_WORDS, _MAX_WORDS = 8, 45
_SAME = 0.5  # share of content terms two findings have in common to say the same thing


def content_terms(text: str) -> set[str]:
    """The words of `text` that carry its content: lower case, no stop words, 3+ letters."""
    return {w for w in words(text.lower()) if w not in STOPWORDS and len(w) > 2}


def in_project(path: str, cwd: str | None) -> bool:
    """True for a path inside the project (the folder Claude Code ran in, `cwd`): a relative
    path, or an absolute one under `cwd`; not the user's own config, a plan file, the memory
    folder."""
    norm = path.replace("\\", "/")
    if not (norm.startswith(("/", "~")) or re.match(r"[A-Za-z]:/", norm)):
        return True
    root = (cwd or "").replace("\\", "/").rstrip("/").lower()
    return bool(root) and norm.lower().startswith(root + "/")


def prose_sentences(text: str) -> list[str]:
    """Prose sentences of an assistant message: code fences, tables and headings out,
    markdown emphasis stripped."""
    out: list[str] = []
    for line in _FENCE.sub("\n", text).splitlines():
        line = line.strip()
        if not line or line.startswith("|") or line.endswith(":"):
            continue
        line = _BULLET.sub("", line).replace("**", "").replace("__", "").strip()
        out.extend(s.strip() for s in _SPLIT.split(line) if s.strip())
    return out


def finding_text(sentence: str) -> str | None:
    """The sentence as a fact when it has a finding's form, else None."""
    s = " ".join(sentence.split()).strip(" -—–")
    if _LABEL.match(s):
        return None
    # [writer.go:377](src/terminal/writer.go:377) -> src/terminal/writer.go:377; asides out
    s = _ASIDE.sub("", _LINK.sub(lambda m: m.group(2), s)).replace("*", "")
    if _LABEL.match(s) or _PLAN_START.match(s):  # "X (was idea 2): …", "Will confirm …"
        return None
    n = len(s.split())
    if not _MIN_WORDS <= n <= _MAX_WORDS or "?" in s or s.endswith(":"):
        return None
    if _STARTS_DEICTIC.match(s) or _IMPERATIVE.match(s):
        return None
    if _HEDGE.search(s) or _SESSION_STATE.search(s) or _VAGUE_SUBJECT.match(s):
        return None
    if _RUN_STATE.search(_CONDITION.sub(" ", s)):
        return None
    if not _MARKER.search(s) or not _PRESENT.search(s):
        return None
    if not _NAMES_CODE.search(s) or sum(c.isalpha() for c in s) < 0.6 * len(s):
        return None
    if len(content_terms(s)) < 5:
        return None
    return s if s.endswith((".", "!")) else s + "."


def states_code(line: str) -> bool:
    """True when a summary's bullet states how named code is: a code name and a present
    tense (or a finding's marker), no hedge, no change report or state of the run."""
    return bool(_NAMES_CODE.search(line) and (_PRESENT.search(line) or _MARKER.search(line))
                and not _HEDGE.search(line) and not _SESSION_STATE.search(line)
                and len(line.split()) >= 6)


def main_prose(turns: Sequence[Turn]) -> list[tuple[int, str]]:
    """(turn index, sentence) of every prose sentence the user, the agent or a compaction
    summary wrote in the main conversation, in order: read once per transcript and shared by
    the checks that a later word wins."""
    return [(i, sentence) for i, turn in enumerate(turns)
            if not turn.is_sidechain and turn.role in ("assistant", "user", "summary")
            for sentence in prose_sentences(turn.text)]


def retractions(prose: Sequence[tuple[int, str]]) -> list[tuple[int, set[str]]]:
    """(turn index, content terms) of each sentence of `prose` that carries a retraction."""
    return [(i, content_terms(s)) for i, s in prose if _RETRACTION.search(s.lower())]


def still_stands(turns: Sequence[Turn], found: Sequence[Candidate],
                 prose: Sequence[tuple[int, str]]) -> list[Candidate]:
    """`found` (statements of how the code is, from elsewhere in the session: a summary's
    concepts) without those the rest of the session took back, as for a finding. (A later
    edit of a file they name is not a fix here: a summary lists how the code works, and on
    the development set both concepts that test dropped were labelled facts.) `prose` is
    `main_prose(turns)`."""
    if not found:
        return []
    position = {t.uuid: i for i, t in enumerate(turns)}
    said = retractions(prose)
    out = []
    for c in found:
        i = position.get(c.evidence, len(turns))
        if not withdrawn(i, content_terms(c.text), said):
            out.append(c)
    return out


def conclusion_candidates(turns: Sequence[Turn],
                          prose: Sequence[tuple[int, str]]) -> list[Candidate]:
    """The agent's findings in the main conversation and its compaction summaries, the later
    word winning. A subagent's prose is its exploration, not a conclusion: left out. `prose`
    is `main_prose(turns)`."""
    said = retractions(prose)  # the terms of every retracting sentence
    edits: list[tuple[int, str, str, str]] = []  # (turn, file name, old text, new text)
    for i, turn in enumerate(turns):
        edits.extend((i, *edit) for edit in _edits(turn))
    found: list[tuple[int, str, Turn]] = []
    for i, sentence in prose:
        fact = finding_text(sentence) if turns[i].role != "user" else None
        if fact:
            found.append((i, fact, turns[i]))
    kept: list[tuple[int, str, Turn, set[str]]] = []
    for i, fact, turn in found:
        terms = content_terms(fact)
        if withdrawn(i, terms, said) or _fixed_later(i, fact, edits):
            continue
        kept = [k for k in kept if len(k[3] & terms) < _SAME * min(len(k[3]), len(terms))]
        kept.append((i, fact, turn, terms))
    return [
        Candidate(kind="codebase", text=fact, evidence=turn.uuid, rule="conclusion",
                  session=turn.session_id)
        for _, fact, turn, _ in kept
    ]


def withdrawn(i: int, terms: set[str], said: Sequence[tuple[int, set[str]]]) -> bool:
    """True when a retracting sentence after turn `i` (`said`: turn index, its content
    terms) shares at least half of `terms`, and three or more."""
    need = max(3, 0.5 * len(terms))
    return any(j > i and len(terms & later) >= need for j, later in said)


def _edits(turn: Turn) -> list[tuple[str, str, str]]:
    """(file name, text replaced, text written) of each edit this turn makes inside the
    project (the folder Claude Code ran in); a Write replaces the whole file."""
    out: list[tuple[str, str, str]] = []
    for _, tool, data in turn.tool_uses:
        path = str(data.get("file_path") or data.get("notebook_path") or "")
        if tool not in _EDITS or not path or not in_project(path, turn.cwd):
            continue
        norm = path.replace("\\", "/")
        parts = [data, *(e for e in data.get("edits") or () if isinstance(e, dict))]
        old = "\n".join(str(e.get("old_string") or "") for e in parts)
        new = "\n".join(str(e.get("new_string") or e.get("content") or "") for e in parts)
        out.append((norm.rsplit("/", 1)[-1], old, new))
    return out


def _fixed_later(i: int, fact: str, edits: Sequence[tuple[int, str, str, str]]) -> bool:
    """The finding described code the session then changed: a later edit rewrites a file it
    names, or takes out a code name it names (a diagnosis, "the problem is that …": any
    later edit of a code name it names)."""
    files = {m.group(1).replace("\\", "/").rsplit("/", 1)[-1] for m in PATH.finditer(fact)}
    names = {n for n in _CODE_NAME.findall(" ".join(re.findall(r"`([^`]+)`", fact)))
             if len(n) >= 4 and _CODE_LIKE.search(n)}
    names |= {n for n in re.findall(r"\b[a-z]+[A-Z]\w*|\b\w+_\w+", fact) if len(n) >= 4}
    diagnosis = bool(_DIAGNOSIS.match(fact))
    for j, name, old, new in edits:
        if j <= i:
            continue
        if name in files:
            return True
        if any(n in old and (diagnosis or n not in new) for n in names):
            return True
    return False
