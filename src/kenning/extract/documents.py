"""Requirements read from tool output: issue trackers, agent guides, skills, design docs.

In long agentic sessions the user types "implement X" and the constraints live in what the
agent *read*: the tracker's description of the task (`gh issue view`, `bd show`, `jira`, a
Linear/Jira MCP tool), the project's CLAUDE.md / AGENTS.md, a design doc or ADR, a skill the
session loaded. Those texts were written by people for this project, so their explicit rules
("never …", "X must …", "use A, not B") are evidence the way the user's own words are. Only
explicit rules: a design doc's findings ("X is rebuilt on start because …") were tried and
matched nothing labelled on the first unseen sessions.

Each rule line goes through the same sentence rules as a user message (`sentences.py`), and
the fact keeps its subject (the issue or document) so it reads on its own; a list of rules
under a lead-in is one fact, the lead-in first. Lines scoped to the task at hand are dropped:
checklists, acceptance criteria, "this issue/PR", steps. A doc read in a window (`offset` /
`limit`) is a lookup of one spot, most often the spot the agent then edits, and its lines come
without the heading or lead-in that scopes them ("Nuance: the signature is by the converter"
under "Sharp Edges"): only a doc read whole gives rules. On every labelled session (dev and
extraction_test2, round 8) the four doc facts from whole reads held three labelled facts, the
two from windows none (both in one extraction_test2 session; the dev windows gave nothing).
Pure, stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import PurePosixPath
from typing import NamedTuple

from kenning.extract.conclusions import states_code
from kenning.extract.model import Candidate
from kenning.extract.sentences import sentence_rules, split_sentences

_ISSUE_COMMAND = re.compile(
    r"^(?:gh\s+(?:issue|pr)\s+view|bd\s+show|jira\s+(?:issue\s+)?view|glab\s+issue\s+view"
    r"|linear\s+issue\s+view|issues?\s+show)\b"
)
_ISSUE_TOOL = re.compile(r"(?:get_issue|issue_read|get_ticket|view_issue|getJiraIssue)", re.I)
# CLAUDE.md, AGENTS.md and skills are already in front of every session that needs them (Claude
# Code loads them itself), so their rules are not copied into memory: on the development set
# three in four such lines were never labelled as facts. Design docs and ADRs are not loaded.
_DESIGN = re.compile(r"(?:^|/)(?:docs?|adr|adrs|design|decisions|rfcs?)/(?:[^/]+/)*[^/]+\.md$"
                     r"|(?:^|/)(?:DESIGN|ARCHITECTURE|DECISIONS)\.md$", re.I)
_NOT_DESIGN = re.compile(r"(?:^|/)(?:SKILL|CLAUDE|AGENTS|README|CHANGELOG)\.md$|/skills/", re.I)
# Sections of an issue or doc that describe the task at hand, not how the project works.
_TASK_HEADING = re.compile(
    r"^\s*#+\s*(?:acceptance|tests?\b|test plan|output files|files|steps|tasks?\b|todo"
    r"|technical specs?|implementation|plan\b|checklist|repro|how to test|verification"
    r"|definition of done|out of scope|notes for reviewers|changelog)",
    re.I,
)
_HEADING = re.compile(r"^\s*#+\s+\S")
# Sections whose every item is a rule however it is phrased ("Renderer remains a pure data
# transform module."): the author filed them as constraints. Shape Up pitches name them
# "No-gos" and "Rabbit holes". Such a section is one fact, its heading first.
_RULE_HEADING = re.compile(
    r"^\s*#+\s*(?:(?:architecture|architectural|design|technical|hard)\s+)?(?:constraints?"
    r"|no[- ]?gos?|guardrails?|invariants?|rabbit[- ]holes?|conventions|rules|principles"
    r"|don'?ts|anti[- ]?patterns)\s*:?\s*$",
    re.I,
)
# "… after this task": the rule holds from then on.
_FROM_NOW = re.compile(r"\s*\b(?:after|from|since) this (?:task|change|issue|pr)\b", re.I)
# Task-scoped: what to do in this task, not how the project works.
_TASK_SCOPED = re.compile(
    r"\b(?:this (?:issue|ticket|task|pr|pull request|bug|story|epic|change|feature)"
    r"|acceptance criteria|definition of done|repro(?:duce|duction)? steps?|steps to reproduce"
    r"|expected behaviou?r|actual behaviou?r|todo|tbd|in progress|assignee|labels?:|status:"
    r"|priority:|follow[- ]up)\b",
    re.I,
)
_CHECKBOX = re.compile(r"^\s*(?:[-*]\s*)?\[[ xX]\]")
_TITLE = re.compile(
    r"^(?:title:\s*(?P<title>.{4,100})"
    r"|\S*\s*[\w.-]+(?:\s+\[\w+\])?\s+·\s+(?P<bd>.{4,120}?)(?:\s+\[●.*)?"  # bd show
    r"|#\s+(?P<h1>.{4,100}))$",
    re.M,
)
MAX_PER_SOURCE = 12
MAX_LIST_FACT = 500


def issue_source(name: str, tool_input: dict) -> str | None:
    """A subject when this tool call printed an issue from a tracker, else None."""
    if name == "Bash":
        command = str(tool_input.get("command", "")).strip()
        command = re.sub(r"^(?:cd\s+\S+\s*&&\s*)+", "", command)
        return "issue" if _ISSUE_COMMAND.match(command) else None
    if name.startswith("mcp__") and _ISSUE_TOOL.search(name):
        return "issue"
    return None


def document_source(name: str, tool_input: dict) -> str | None:
    """A subject (the file's name) when this tool call read a design doc whole."""
    if name != "Read" or tool_input.get("offset") or tool_input.get("limit"):
        return None
    path = str(tool_input.get("file_path") or "").replace("\\", "/")
    if _DESIGN.search(path) and not _NOT_DESIGN.search(path):
        parts = PurePosixPath(path).parts
        return "/".join(parts[-2:]) if len(parts) > 1 else PurePosixPath(path).name
    return None


def _issue_subject(output: str) -> str:
    m = _TITLE.search(output[:2000])
    title = next((g for g in m.groups() if g), "").strip(" #") if m else ""
    return f"issue \"{title}\"" if title else "the issue"


def _strip_read_numbers(output: str) -> str:
    """Read prints `   12→text`; the rules want the text."""
    return re.sub(r"^\s*\d+[→\t]", "", output, flags=re.M)


def requirement_candidates(text: str, subject: str, kind_hint: str, evidence: str,
                           session: str | None, previous: Sequence[str] = (), *,
                           lists: bool = False) -> list[Candidate]:
    """The explicit rules in one document or issue text, each prefixed with its subject.

    With `lists` (what a session read), a list of rules under a lead-in ("When mounted, the
    path validator enforces:") is one fact, the lead-in first: its items do not read alone
    ("Path must be absolute"); and markdown bold is taken out."""
    plain = _plain if lists else str
    if kind_hint == "issue":
        subject = _issue_subject(text)
    text = _strip_read_numbers(text)
    out: list[Candidate] = []
    groups: dict[int, list[str]] = {}  # lead-in paragraph number -> its rule items
    sections: dict[str, list[str]] = {}  # rule section heading -> its items
    for unit in _paragraphs(text):
        line = _FROM_NOW.sub("", unit.text) if unit.section else unit.text
        if _CHECKBOX.match(line) or _TASK_SCOPED.search(line):
            continue
        if lists and unit.section:
            items = sections.setdefault(unit.section, [])
            if not items:  # the section's fact is written once, at its first item
                out.append(Candidate(kind="codebase", text="", evidence=evidence,
                                     rule=f"{kind_hint}-section", session=session,
                                     rationale=unit.section))
            line = re.sub(r"^(?:[-*•]|\d+[.)])\s+", "", line)
            if len(line) <= 300:
                items.append(_plain(line).rstrip("."))
            continue
        for sentence in split_sentences(line):
            if len(sentence) > 300 or _TASK_SCOPED.search(sentence):
                continue
            # Only explicit rules: a design doc's findings read by the test of
            # `conclusions.py` were tried and matched none of the labelled facts of the first
            # unseen sessions (issue 16, round 5), so they are out.
            found = sentence_rules(sentence, previous) or _clause_rule(sentence, previous)
            if not found:
                continue
            kind, fact, rationale, rule = found
            if rule not in ("preference", "constraint", "correction", "gotcha"):
                continue  # a document does not decide; "let's …" in it is quoted talk
            if lists and unit.lead is not None:
                items = groups.setdefault(unit.lead, [])
                if not items:  # the group's fact is written once, at its first rule
                    out.append(Candidate(kind=kind or "codebase", text="", evidence=evidence,
                                         rule=f"{kind_hint}-list", session=session))
                    out[-1] = replace(out[-1], rationale=str(unit.lead))
                items.append(_plain(fact).rstrip("."))
                continue
            out.append(Candidate(
                kind=kind or "codebase", text=f"{_cap(subject)}: {plain(fact)}",
                rationale=rationale, evidence=evidence, rule=f"{kind_hint}-{rule}",
                session=session))
            if len(out) >= MAX_PER_SOURCE:
                break
        if len(out) >= MAX_PER_SOURCE:
            break
    leads = {n: u.text for n, u in enumerate(_paragraphs(text))}
    done = []
    for c in out:
        if c.rule.endswith("-section"):
            items = [i for i in sections[str(c.rationale)] if i]
            body = f"{_cap(subject)}: {c.rationale}: " + "; ".join(
                i[:1].lower() + i[1:] if i[1:2].islower() else i for i in items) + "."
            if len(body) > MAX_LIST_FACT:
                body = body[:MAX_LIST_FACT].rsplit(";", 1)[0] + "."
            c = replace(c, text=body, rationale=None)
        elif c.rule.endswith("-list"):
            n = int(c.rationale or 0)
            head = _plain(leads.get(n, "")).rstrip(":").strip()
            body = f"{_cap(subject)}: {head}: " + "; ".join(groups[n]) + "."
            if len(body) > MAX_LIST_FACT:
                body = body[:MAX_LIST_FACT].rsplit(";", 1)[0] + "."
            c = replace(c, text=body, rationale=None)
        done.append(c)
    return done


def _clause_rule(sentence: str, previous: Sequence[str]):
    """The rules in the clauses of a "Label: a; b; c" line ("Architecture: Ash + Phoenix
    LiveView; UI work must follow the AGENTS.md Frontend Tasks guidance."), as one."""
    if "; " not in sentence:
        return None
    body = re.sub(r"^[A-Z][\w /-]{0,30}:\s+", "", sentence)
    # a clause's "beware X" loses what X was said of: only what it asks for is kept
    found = [f for f in (sentence_rules(c.strip(), previous) for c in body.split("; "))
             if f and f[3] in ("preference", "constraint")]
    if not found:
        return None
    kind, _, rationale, rule = found[0]
    joined = "; ".join(f[1].rstrip(".") for f in found) + "."
    return kind, joined, rationale, rule


def _plain(text: str) -> str:
    return " ".join(_BOLD.sub("", text).split())


class _Unit(NamedTuple):
    text: str
    lead: int | None  # the number of the lead-in paragraph of the list this item is in
    section: str | None = None  # the rule section (`_RULE_HEADING`) this unit is in


def _paragraphs(text: str) -> list[_Unit]:
    """Lines of prose joined across hard wraps; bullets and headings start a new one; the
    sections about the task at hand (acceptance, steps, files, specs) are left out. A list
    item knows the paragraph that led into its list (one that ends with a colon)."""
    out: list[_Unit] = []
    skipping = False
    current: list[str] = []
    bullet = False
    lead: int | None = None
    section: str | None = None

    def close() -> None:
        nonlocal lead
        if current:
            joined = " ".join(current)
            out.append(_Unit(joined, lead if bullet else None, section))
            if not bullet:
                lead = len(out) - 1 if joined.rstrip().endswith(":") else None
        current.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if re.match(r"^(?:-{3,}|\*{3,}|_{3,})$", line):  # a rule line ends a section
            close()
            skipping, section, lead = False, None, None
            continue
        if _HEADING.match(line):
            close()
            skipping = bool(_TASK_HEADING.match(line))
            rule = _RULE_HEADING.match(line)
            section = line.lstrip("#").strip().rstrip(":") if rule else None
        is_bullet = bool(re.match(r"^(?:[-*•>]|\d+[.)])\s", line))
        starts = not line or _HEADING.match(line) or is_bullet
        if starts or line.startswith(("|", "```")):
            close()
            if _HEADING.match(line) or line.startswith(("|", "```")):
                lead = None
            bullet = is_bullet
        if skipping or not line or _HEADING.match(line) or line.startswith("```"):
            continue
        current.append(line)
    close()
    return out


def _cap(subject: str) -> str:
    if "/" in subject or "." in subject.split()[0]:
        return subject  # a file name keeps its case
    return subject[:1].upper() + subject[1:]


# --- compaction summaries ----------------------------------------------------------------------

_SECTION = re.compile(r"^\s*(?:\d+\.\s*)?\**(?P<name>[A-Z][\w ,&/-]{2,60}?)\**:\**\s*$")
_FIXED = re.compile(r"\b(?:fix(?:ed)?(?: by| with)?:|fixed (?:by|with|it by)|resolved by"
                    r"|corrected (?:by|to)|the fix (?:is|was))\s", re.I)
_OPEN = re.compile(r"\b(?:current|not yet|still (?:open|failing|broken)|pending|unresolved"
                   r"|in progress|todo|next step|investigating|unclear|unknown)\b", re.I)
_BOLD = re.compile(r"\*\*|__")
# A bullet about a failure a tool reported (an error, a failing test or check), not about a
# plan or a claim that was wrong: those name a statement later withdrawn, the worst thing to
# store. Checked on the bullet's head (before its first colon).
_ERRORISH = re.compile(r"\b(?:error|errors|fatal|exception|panic|failing|fails|failed"
                       r"|failure|undefined|not found|lint|crash(?:es|ed)?|traceback)\b", re.I)
_RETRACTED = re.compile(r"\b(?:wrong|false|incorrect(?:ly)?|claim(?:ed|s)?|proved|mistaken"
                        r"|misdiagnos\w*|turned out|not the cause|red herring|actually"
                        r"|assumed|guess(?:ed)?|speculat\w*)\b", re.I)
MAX_SUMMARY_FACT = 400
# The summary's "Key Technical Concepts": the summarizer's own list of how the code works,
# read by the test a finding passes (`conclusions.states_code`).
_CONCEPTS = re.compile(r"\btechnical (?:concepts|details)\b", re.I)
MAX_CONCEPTS = 6  # a summary's concepts passing the test were at most 4 on the development set


def _sections(text: str) -> dict[str, list[str]]:
    """The bullets of each numbered section of a Claude Code compaction summary."""
    out: dict[str, list[str]] = {}
    name = ""
    for raw in text.splitlines():
        m = _SECTION.match(raw)
        if m:
            name = m.group("name").strip().lower()
            continue
        line = raw.strip()
        if re.match(r"^[-*]\s", line):
            out.setdefault(name, []).append(line[2:].strip())
        elif line and out.get(name) and raw.startswith("     "):
            out[name][-1] += " " + line  # a bullet's wrapped continuation
    return out


def summary_candidates(text: str, evidence: str, session: str | None) -> list[Candidate]:
    """From a compaction summary: each error the session fixed, with its fix. The summary is
    written at compaction from the whole conversation, so a claim withdrawn before it is
    already gone from it (last word wins); an error still open is not a fact."""
    out: list[Candidate] = []
    concepts: list[Candidate] = []
    for name, bullets in _sections(text).items():
        if _CONCEPTS.search(name):
            concepts.extend(Candidate(kind="codebase", text=line, evidence=evidence,
                                      rule="summary-concept", session=session)
                            for line in (" ".join(_BOLD.sub("", b).split()) for b in bullets)
                            if states_code(line) and not _RETRACTED.search(line)
                            and len(line) <= MAX_SUMMARY_FACT)
            continue
        if "error" not in name or "fix" not in name:
            continue
        for bullet in bullets:
            plain = " ".join(_BOLD.sub("", bullet).split())
            if not _FIXED.search(plain) or _OPEN.search(plain) or len(plain.split()) < 8:
                continue
            head = plain.split(": ", 1)[0][:150]
            if not _ERRORISH.search(head) or _RETRACTED.search(plain):
                continue
            if len(plain) > MAX_SUMMARY_FACT:
                cut = plain[:MAX_SUMMARY_FACT]
                plain = cut[: cut.rfind(". ") + 1] if ". " in cut else cut.rsplit(" ", 1)[0]
            out.append(Candidate(kind="codebase", text=plain, evidence=evidence,
                                 rule="summary-fix", session=session))
    return out[:MAX_PER_SOURCE] + concepts[:MAX_CONCEPTS]
