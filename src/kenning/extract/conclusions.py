"""The agent's own conclusions: sentences of its prose that state how the code behaves and why.

In long agentic sessions the user types a few short prompts and most of what a later session
needs is said by the agent, after it read the code or a failure: "X returns early when …, so
Y never runs", "the cause was …", "Z must be wrapped because lint …". A sentence is kept only
when it has the form of such a finding and reads on its own:

- a causal, constraint or gotcha marker ("because", "only when", "must", "falls back",
  "the cause", "instead of", "silently", …) and something that names the code (a path, a
  backticked name, an identifier);
- no hedge ("might", "probably", "I think", a question), no plan or status of the task at hand
  ("let me", "I'll", "now passes", "want me to"), no address to the user ("you");
- last word wins: a finding the agent or the user later takes back (a sentence with a
  retraction word sharing most of its terms) is dropped, and of two findings that say the
  same thing only the later one is kept.

Pure, stdlib only; `rules.py` calls it and orders the result with the other candidates.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.core.textutil import STOPWORDS, words
from kenning.extract.model import Candidate, Turn
from kenning.extract.vocab import code_like

_I = re.IGNORECASE
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_BULLET = re.compile(r"^(?:[-*•>]|\d+[.)]|#+)\s+")
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(*])")
# The form of a finding: a cause, a condition, a constraint, a fallback or a trap.
_MARKER = re.compile(
    r"\b(?:because|since|so that|which means|that means|only (?:when|if|works|from|after"
    r"|once|runs?)|returns? early|falls? back|can't|cannot|won't work|doesn't work|silently"
    r"|instead of|rather than)\b|, so\b|: so\b",
    _I,
)
# A narrative label in front ("Resolving it:", "Sweep in:", "Hydration handling is correct —")
# or a first word in -ing/-ed ("Testing whether", "Resolved by") tells the story of the work.
_LABEL = re.compile(r"^[^`:—]{3,40}(?::|\s—)\s|^[A-Za-z]+(?:ing|ed)\b")
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
# Guesses, plans, questions and status of the task at hand.
_HEDGE = re.compile(
    r"\b(?:might|may|maybe|perhaps|probably|possibly|likely|unlikely|i think|i believe"
    r"|i suspect|suspect|seems?|seemingly|appears? to|could|would|guess|hypothes\w+|not sure"
    r"|unclear|presumably|should|shouldn't|let me|let's|i'll|i will|i'd|i need|we need|we'll|want me|should i"
    r"|shall i|you|your|i'm|i am|i've|i have|i was|i added|i changed|i fixed|i removed"
    r"|i updated|now (?:passes|pass|works|compiles)|all (?:tests )?pass|tests? pass(?:es)?"
    r"|todo|next step|plan is|option \d|either)\b"
    # the state of this session rather than of the code: a change report, a measurement
    r"|\b(?:now|today|earlier|already|currently|so far|next run|this run|anymore|my|we|we're"
    r"|us|suspicion|theory|worth|done|verified|confirmed|proof|flagged|correction|nice|ever"
    r"|was|were|did|had|removed|added|renamed|changed|updated|replaced|introduced|fixed"
    r"|created|deleted|moved)\b"
    r"|\b\d+ (?:of|out of|rather than|instead of|vs\.?|versus) \d+\b|\b\d+(?:\.\d+)?\s?(?:ms|s|sec|seconds|minutes)\b",
    _I,
)
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
    r"|doesn't explain|not what)\b",
    _I,
)
_MIN_WORDS, _MAX_WORDS = 8, 45
_SAME = 0.5  # share of content terms two findings have in common to say the same thing


def _terms(text: str) -> set[str]:
    return {w for w in words(text.lower()) if w not in STOPWORDS and len(w) > 2}


def _sentences(text: str) -> list[str]:
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
    n = len(s.split())
    if not _MIN_WORDS <= n <= _MAX_WORDS or "?" in s or s.endswith(":"):
        return None
    if _STARTS_DEICTIC.match(s) or _IMPERATIVE.match(s) or _HEDGE.search(s):
        return None
    if not _MARKER.search(s) or not _PRESENT.search(s):
        return None
    if not code_like(s) or sum(c.isalpha() for c in s) < 0.6 * len(s):
        return None
    return s if s.endswith((".", "!")) else s + "."


def conclusion_candidates(turns: Sequence[Turn]) -> list[Candidate]:
    """The agent's findings in the main conversation and its compaction summaries, the later
    word winning. A subagent's prose is its exploration, not a conclusion: left out."""
    found: list[tuple[int, str, Turn]] = []
    said: list[tuple[int, set[str]]] = []  # the terms of every retracting sentence
    for i, turn in enumerate(turns):
        if turn.is_sidechain or turn.role not in ("assistant", "user", "summary") or not turn.text:
            continue
        for sentence in _sentences(turn.text):
            if _RETRACTION.search(sentence):
                said.append((i, _terms(sentence)))
            fact = finding_text(sentence) if turn.role != "user" else None
            if fact:
                found.append((i, fact, turn))
    kept: list[tuple[int, str, Turn, set[str]]] = []
    for i, fact, turn in found:
        terms = _terms(fact)
        if _withdrawn(i, terms, said):
            continue
        kept = [k for k in kept if len(k[3] & terms) < _SAME * min(len(k[3]), len(terms))]
        kept.append((i, fact, turn, terms))
    return [
        Candidate(kind="codebase", text=fact, evidence=turn.uuid, rule="conclusion",
                  session=turn.session_id)
        for _, fact, turn, _ in kept
    ]


def _withdrawn(i: int, terms: set[str], said: Sequence[tuple[int, set[str]]]) -> bool:
    need = max(3, 0.5 * len(terms))
    return any(j > i and len(terms & later) >= need for j, later in said)
