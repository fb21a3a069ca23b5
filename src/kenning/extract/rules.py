"""Deterministic, offline fact extraction from a parsed transcript. Precision first.

A wrong fact injected into every later session costs more than a missed one (the user can
always say it again, or `remember` it), so every rule fires only on explicit phrasing
(`sentences.py`), on a failing command followed by the corrected one that passed
(`commands.py`, `workflow.py`), on a finding of the agent in a strict causal form that
nothing later takes back (`conclusions.py`) or on a comment it wrote into the code that gives a
reason about named code (`comments.py`). This module walks one session's turns: it decides
what counts as the user's words, applies those rules, anchors each candidate (`anchors.py`),
and orders and deduplicates the result.

Evidence is what the user typed, what a tool printed, a note the agent saved to Claude Code's
memory folder (`notes.py`), a comment it wrote into the code or one of the agent's findings;
the rest of its chat text (plans, guesses, instructions, status) is never evidence, and a
candidate that repeats a fact kenning itself injected is dropped (docs/design.md).
Pure and stdlib only; the pipeline redacts, dedups and writes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import replace

from kenning.core.textutil import STOPWORDS, words
from kenning.extract.anchors import find_anchors
from kenning.extract.commands import command_fixes, norm_command
from kenning.extract.comments import comment_candidates
from kenning.extract.conclusions import conclusion_candidates, main_prose, still_stands, withdrawn
from kenning.extract.diagnoses import diagnosis_candidates
from kenning.extract.documents import (
    document_source,
    issue_source,
    requirement_candidates,
    summary_candidates,
)
from kenning.extract.model import Candidate, Turn
from kenning.extract.notes import (
    answer_candidates,
    note_candidates,
    note_subject,
    plan_goal_candidates,
    rewritten,
    withdraws,
)
from kenning.extract.overturned import still_unchallenged
from kenning.extract.sentences import sentence_rules, split_sentences
from kenning.extract.tracker import tracker_routine
from kenning.extract.vocab import code_like
from kenning.extract.workflow import enforced_rules, failure_fixes, verification_workflow

_I = re.IGNORECASE
# A rule hit with no kind of its own is about how to talk to the user when it says so.
_INTERACTION = re.compile(
    r"\b(?:me|my|ask(?:ing)?|tell me|explain|answers?|responses?|replies|summar(?:y|ies|ise|ize)"
    r"|apologi[sz]e|emojis?|confirm with|check with|verbose|concise|tone)\b",
    _I,
)
# An absolute path of this machine: a home or temp folder, a Windows drive, or anything
# under the project root (made relative). Checked on every candidate's text.
_ABSOLUTE = re.compile(
    r"(?<![\w.~-])(?:/(?:Users|home|root|private|tmp|var|opt|mnt|Volumes|nix|usr|workspace"
    r"|srv|data|work)/|[A-Za-z]:\\)[^\s`'\"),;]*"
)
# A home folder itself is never a project root (its subfolders are anyone's files).
_HOME = re.compile(r"^(?:/(?:Users|home)/[^/]+|/root|[A-Za-z]:\\Users\\[^\\]+)[/\\]?$")
_REJECTED = re.compile(r"the user said:\s*(?P<said>.+)\Z", re.S | _I)


def _content_terms(text: str) -> set[str]:
    return {w for w in words(text.lower()) if w not in STOPWORDS and len(w) > 1}


def _repeats(text: str, injected: Sequence[set[str]]) -> bool:
    terms = _content_terms(text)
    return bool(terms) and any(len(terms & inj) >= 0.8 * len(terms) for inj in injected)


# Last word wins: a later user message or compaction summary that takes a statement back.
_RETRACTION = re.compile(
    r"\b(?:wrong|incorrect|not true|not the (?:cause|reason|problem|fix)|turned out|revert(?:ed)?"
    r"|undo|withdraw\w*|scratch that|ignore (?:that|what i said)|never ?mind|disproved"
    r"|misdiagnos\w*|red herring|was a mistake|no longer)\b"
)  # searched in lower-cased text (much faster than re.I)


def _retractions(turns: Sequence[Turn]) -> list[tuple[int, set[str]]]:
    """(turn index, content terms) of every sentence in a user turn or summary of the main
    conversation that carries a retraction word: read once per transcript."""
    said: list[tuple[int, set[str]]] = []
    for i, turn in enumerate(turns):
        if (turn.role not in ("user", "summary") or turn.is_sidechain
                or not _RETRACTION.search(turn.text.lower())):  # no sentence of it can
            continue
        said.extend((i, _content_terms(sentence))
                    for sentence in re.split(r"(?<=[.!?])\s+|\n+", turn.text)
                    if _RETRACTION.search(sentence.lower()))
    return said


def _withdrawn(c: Candidate, said: Sequence[tuple[int, set[str]]],
               position: dict[str, int]) -> bool:
    """True when a later retracting sentence (`_retractions`) shares most of the candidate's
    content terms."""
    terms = _content_terms(c.text)
    if len(terms) < 3:
        return False
    start = position.get(c.evidence)
    # not a line of the live branch: nothing later takes it back
    return start is not None and withdrawn(start, terms, said)


def machine_paths_out(text: str, root: str | None | Sequence[str | None]) -> str | None:
    """`text` with paths under the project root made repo-relative; None when another
    absolute path of this machine is left in it. `root` may be several folders (the project
    and the folders the session ran in): the shortest is taken out first, so a path under
    the project stays relative to the project even when the session ran in a subfolder."""
    roots = [root] if root is None or isinstance(root, str) else list(root)
    for base in sorted({r.rstrip("/\\") for r in roots if r and len(r.strip("/\\")) > 1},
                       key=len):
        text = re.sub(re.escape(base) + r"[/\\]([^\s`'\"]+)", r"\1", text)
        text = re.sub(re.escape(base) + r"(?![\w.-])", ".", text)
    return None if _ABSOLUTE.search(text) else text


def session_folders(turns: Sequence[Turn]) -> list[str]:
    """The folders Claude Code ran in during the session (each line's `cwd`): the project,
    or a folder of it, so paths under them are the project's own paths."""
    return sorted({t.cwd for t in turns if t.cwd and not _HOME.match(t.cwd)})


def _kind(kind: str | None, text: str) -> str:
    if kind:
        return kind
    return "interaction" if _INTERACTION.search(text) and not code_like(text) else "codebase"


def extract_candidates(
    turns: Sequence[Turn],
    injected_texts: Sequence[str] = (),
    root: str | os.PathLike[str] | None = None,
    *,
    findings: bool = True,
) -> list[Candidate]:
    """Candidate facts from one session's turns, in transcript order, without duplicates.

    `injected_texts` are the fact sentences kenning showed this session; a candidate that
    repeats one is not new evidence. `root` makes anchors project-relative (and drops files
    outside the project). `findings` keeps the agent's durable findings (`[extract] findings`).
    """
    root_str = os.fspath(root) if root is not None else None
    reader = _SessionReader(root_str)
    for turn in turns:
        reader.read(turn)
    prose = main_prose(turns)  # read once: the later-word checks below all need it
    concepts = [c for c in reader.out if c.rule == "summary-concept"]
    kept = {id(c) for c in still_stands(turns, concepts, prose)} if findings else set()
    out = [c for c in reader.out if c.rule != "summary-concept" or id(c) in kept]
    fixes = command_fixes(turns)
    out.extend(fixes)
    fixed = {c.evidence for c in fixes}
    out.extend(c for c in failure_fixes(turns, root_str) if c.evidence not in fixed)
    out.extend(verification_workflow(turns))
    out.extend(tracker_routine(turns))
    out.extend(enforced_rules(turns))
    if findings:
        out.extend(conclusion_candidates(turns, prose))
        out.extend(diagnosis_candidates(turns))
        out.extend(comment_candidates(turns))
    return _ordered_unique(out, turns, root_str, [_content_terms(t) for t in injected_texts],
                           prose)


class _SessionReader:
    """One pass over a session's turns: what the user said, what the tools printed and the
    notes the agent saved, each read with what the turns before it left behind."""

    def __init__(self, root: str | None) -> None:
        self.root = root
        self.out: list[Candidate] = []
        self.commands: list[str] = []  # Bash commands since the user last spoke
        self.touched: list[str] = []  # files edited since the user last spoke
        self.edit_targets: dict[str, str] = {}  # tool_use_id -> file it would have edited
        # tool_use_id -> (issue|document|answer, subject)
        self.reads: dict[str, tuple[str, str]] = {}
        # tool_use_id -> a knowledge note's (subject, input, uuid, session), until its result
        self.pending_notes: dict[str, tuple[str, dict, str, str | None]] = {}
        self.notes: dict[str, list[Candidate]] = {}  # note file -> what it says now
        self.withdrawn_notes: set[str] = set()  # notes marked as no longer current

    def read(self, turn: Turn) -> None:
        if turn.role == "summary":
            self.out.extend(summary_candidates(turn.text, turn.uuid, turn.session_id))
        elif turn.role == "assistant":
            self._tool_calls(turn)
        else:
            self._said(turn, self._tool_results(turn))
            if turn.role == "user":
                self.commands, self.touched = [], []

    def _tool_calls(self, turn: Turn) -> None:
        for tid, name, inp in turn.tool_uses:
            issue = issue_source(name, inp)
            doc = None if issue else document_source(name, inp)
            if issue or doc:
                self.reads[tid] = ("issue", issue) if issue else ("document", doc or "")
            if name == "AskUserQuestion":
                self.reads[tid] = ("answer", "")
            subject = note_subject(name, inp)
            if subject and not turn.is_sidechain:  # stored once its call succeeded
                self.pending_notes[tid] = (subject, inp, turn.uuid, turn.session_id)
            target = str(inp.get("file_path") or inp.get("notebook_path") or "")
            if name == "Bash" and inp.get("command"):
                self.commands.append(norm_command(str(inp["command"])))
            elif name in ("Edit", "Write", "MultiEdit", "NotebookEdit") and target:
                self.touched.append(target)
                self.edit_targets[tid] = target

    def _tool_results(self, turn: Turn) -> list[tuple[str, list[str]]]:
        """Candidates from what the tools printed; returns the user's own words in this
        turn, each with the files a rejected edit would have changed."""
        said: list[tuple[str, list[str]]] = []
        if turn.role == "user" and not turn.is_sidechain:  # a subagent's "user" is the agent
            said.append((turn.text, []))
            self.out.extend(plan_goal_candidates(turn.text, turn.uuid, turn.session_id))
        for tid, output, err in turn.tool_results:
            if tid in self.reads and not err and self.reads[tid][0] == "answer":
                self.out.extend(answer_candidates(output, turn.uuid, turn.session_id))
            elif tid in self.reads and not err:
                hint, subject = self.reads[tid]
                self.out.extend(requirement_candidates(output, subject, hint, turn.uuid,
                                                       turn.session_id, lists=True))
            if tid in self.pending_notes and not err:
                self._note(*self.pending_notes.pop(tid))
            m = _REJECTED.search(output) if "doesn't want to proceed" in output else None
            if m:  # the user's reason for rejecting a tool call: their words
                target = self.edit_targets.get(tid)
                said.append((m.group("said"), [target] if target else []))
        return said

    def _note(self, subject: str, inp: dict, uuid: str, session: str | None) -> None:
        """Last word wins for a knowledge note: a note written again replaces what its earlier
        text said, an edit replaces what the text it rewrites said, and a note marked as no
        longer current ("SHELVED …") says nothing until it is written again."""
        path = str(inp.get("file_path") or "")
        whole = isinstance(inp.get("content"), str)  # a Write, not an Edit
        before = self.notes.get(path, [])
        stale = {id(c) for c in before if whole or rewritten(c, inp)}
        if withdraws(inp):
            stale = {id(c) for c in before}
            self.withdrawn_notes.add(path)
        elif whole:
            self.withdrawn_notes.discard(path)
        found = [] if path in self.withdrawn_notes else note_candidates(subject, inp, uuid,
                                                                          session)
        self.out = [c for c in self.out if id(c) not in stale]
        self.notes[path] = [c for c in before if id(c) not in stale] + found
        self.out.extend(found)

    def _said(self, turn: Turn, said: list[tuple[str, list[str]]]) -> None:
        for text, rejected_files in said:
            for sentence in split_sentences(text):
                found = sentence_rules(sentence, self.commands)
                if not found:
                    continue
                kind, fact, rationale, rule = found
                near = rejected_files or (self.touched[-2:] if rule == "correction" else [])
                self.out.append(
                    Candidate(
                        kind=_kind(kind, fact),
                        text=fact,
                        rationale=rationale,
                        about=find_anchors(sentence, near, self.root),
                        evidence=turn.uuid,
                        rule=rule,
                        session=turn.session_id,
                    )
                )


def _ordered_unique(out: list[Candidate], turns: Sequence[Turn], root: str | None,
                    injected: Sequence[set[str]],
                    prose: Sequence[tuple[int, str]]) -> list[Candidate]:
    """`out` in transcript order, without withdrawn or overturned facts (`overturned.py`),
    facts that name a folder of this machine, repeats of each other or of what kenning
    injected."""
    position = {t.uuid: i for i, t in enumerate(turns)}
    roots = [root, *session_folders(turns)]
    out = sorted(out, key=lambda c: position.get(c.evidence, len(position)))  # stable
    said = _retractions(turns)
    out = [c for c in out if not _withdrawn(c, said, position)]
    out = still_unchallenged(out, turns, prose)
    seen: set[str] = set()
    unique: list[Candidate] = []
    for c in out:
        text = machine_paths_out(c.text, roots)
        if text is None:
            continue  # a fact never names a folder of this machine
        c = replace(c, text=text) if text != c.text else c
        key = c.text.lower()
        if key not in seen and not _repeats(c.text, injected):
            seen.add(key)
            unique.append(c)
    return unique
