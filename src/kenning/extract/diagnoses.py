"""The agent's diagnosis of a failure, kept only once what happened next confirmed it.

In long agentic sessions a command fails, the agent says why ("tauri-build validates
externalBin files at build time"), edits the code, and the same command then passes. The
sentence it wrote between the failure and its first edit is its diagnosis; the passing rerun
is the evidence that the diagnosis was right. Judged by the sequence, not by the wording:

- the failing command is not exploratory (grep, ls, cat …), and the next run of the same
  command (same program and subcommand, paths aside) passed, with an edit of the project in
  between; a rerun that failed again means the diagnosis before it was not the fix;
- the diagnosis is the first sentence of the agent's prose after the failure and before the
  first edit that names the code, says how it is (present tense) and is not a guess, a plan,
  a question, a step of the work or words to the user;
- last word wins: a retraction in the agent's prose before the passing rerun drops it.

Pure, stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.extract.conclusions import NAMES_CODE, prose_sentences
from kenning.extract.model import Candidate, Turn
from kenning.extract.shell import Call, bash_calls, exploratory, program, steps

_I = re.IGNORECASE
_EDITS = ("Edit", "MultiEdit", "Write", "NotebookEdit")
# A label in front of the diagnosis ("Found the bug —", "Root cause:"): dropped, the rest kept.
_LEAD = re.compile(
    r"^(?:found (?:it|the (?:bug|problem|issue|cause))|root cause|the (?:cause|culprit)"
    r"|diagnosis|got it|i see)\s*(?:[:—–-]|\bis\b(?=\s))\s*",
    _I,
)
_PRESENT = re.compile(
    r"\b(?:is|are|isn't|aren't|does|doesn't|can't|cannot|must|needs?|requires?|expects?"
    r"|only \w+s|validates?|rejects?|refuses?|strips?|drops?|returns?|reads?|writes?"
    r"|runs?|uses?|fails?|ignores?|treats?|resolves?|checks?|loads?|breaks?)\b",
    _I,
)
# Guesses, plans, steps of the work, words to the user, the run's own numbers.
_NOT_DIAGNOSIS = re.compile(
    r"\b(?:might|may|maybe|perhaps|probably|possibly|likely|seems?|appears?|could|would"
    r"|should|i think|i suspect|guess|let me|let's|i'll|i will|i need|we need|need to|need a"
    r"|now|next|then|first|you|your|i'm|i've|i was|i am|my|we|done|passes|passed|green"
    r"|fixed|added|updated|changed|removed|pre-existing|unrelated|warnings?)\b"
    r"|\b\d+ (?:of|/) \d+\b|\b\d+(?:\.\d+)?\s?(?:ms|s|sec|seconds|minutes)\b",
    _I,
)
_RETRACTION = re.compile(
    r"\b(?:wrong|incorrect|not the (?:cause|reason|problem|issue)|turned out|actually"
    r"|my mistake|misread|red herring|not what)\b",
    _I,
)
_MIN_WORDS, _MAX_WORDS = 6, 40
LOOKAHEAD = 8  # calls after the failure in which the passing rerun must come


def _shape(call: Call) -> tuple[str, ...] | None:
    real = [s for s in steps(call.raw) if not exploratory(s.argv)]
    if not real:
        return None
    argv = real[-1].argv
    words = [a for a in argv[1:] if not a.startswith("-") and "/" not in a and "." not in a]
    return (program(argv), *words[:1])


# A commit a pre-commit hook refused: the hook ran the project's checks, so the commit failed
# as a check does (spotter's hook runs the formatter, credo and dialyzer).
_GATE = re.compile(r"\b(?:pre-commit|hook)\b.{0,80}\b(?:fail|failed|error|errors|rejected"
                   r"|blocked)\b|\b(?:fail|failed|rejected)\b.{0,40}\bhook\b", _I | re.S)


def _gate_failed(call: Call) -> bool:
    return _shape(call) == ("git", "commit") and _GATE.search(call.output[:2000]) is not None


def _without_lead_ins(text: str) -> str:
    """Each line's closing lead-in ("… Let me fix the pattern:") taken off, so the diagnosis
    said before it on the same line is read (`prose_sentences` skips a line ending in ":")."""
    return "\n".join(re.sub(r"(?<=[.!])\s+[^.!?]*:\s*$", "", line)
                     for line in text.splitlines())


def _diagnosis(texts: Sequence[str]) -> str | None:
    for text in texts:
        for sentence in prose_sentences(_without_lead_ins(text)):
            s = _LEAD.sub("", " ".join(sentence.split())).strip(" -—–")
            if not s or not s[0].isalpha():
                continue
            s = s[0].upper() + s[1:]
            n = len(s.split())
            if not _MIN_WORDS <= n <= _MAX_WORDS or "?" in s or s.endswith(":"):
                continue
            if _NOT_DIAGNOSIS.search(s) or not _PRESENT.search(s) or not NAMES_CODE.search(s):
                continue
            return s if s.endswith((".", "!")) else s + "."
        return None  # only the first message after the failure says why
    return None


def diagnosis_candidates(turns: Sequence[Turn]) -> list[Candidate]:
    """Each diagnosis the next passing run of the failed command confirmed."""
    position = {t.uuid: i for i, t in enumerate(turns)}
    calls = [c for c in bash_calls(turns) if c.result_uuid in position]
    out: list[Candidate] = []
    for n, call in enumerate(calls):
        shape = _shape(call) if call.failed else None
        if not shape or (program(steps(call.raw)[-1].argv) in ("git", "gh")
                         and not _gate_failed(call)):
            continue
        rerun = next((c for c in calls[n + 1: n + 1 + LOOKAHEAD] if _shape(c) == shape), None)
        if rerun is None or rerun.failed:
            continue
        start, end = position[call.result_uuid], position[rerun.result_uuid]
        texts: list[str] = []
        edited = False
        for turn in turns[start + 1: end]:
            if turn.is_sidechain or turn.role != "assistant":
                continue
            if any(name in _EDITS for _, name, _ in turn.tool_uses):
                if not texts and turn.text.strip():
                    texts.append(turn.text)
                edited = True
                break
            if turn.text.strip():
                texts.append(turn.text)
        if not edited or not texts:
            continue
        said_after = " ".join(t.text for t in turns[start + 1: end]
                              if t.role == "assistant" and not t.is_sidechain)
        fact = _diagnosis(texts)
        if fact and not _RETRACTION.search(said_after):
            out.append(Candidate(kind="codebase", text=fact, evidence=rerun.result_uuid,
                                 rule="diagnosis", session=rerun.session))
    return out
