"""Knowledge the session wrote down itself, and the answers the user picked.

Two sources the rest of the rules do not read (docs/design.md, "Extraction"):

- A knowledge note the agent wrote into Claude Code's own memory folder
  (`~/.claude/projects/<project>/memory/<topic>.md`, the `MEMORY.md` index left out), a file
  whose whole purpose is to carry what a later session needs. The agent wrote it at the end of
  the work, from what it verified, so it already holds the last word; its headline rule (first
  bullet or paragraph that is not history, status or a link) becomes a fact with the note's
  topic as subject. Plans, scratchpads and the project's source files are not notes. Last
  word wins inside a note too: a note written again, or an edit that takes out the text a
  fact came from, replaces what it said, and a note the agent marks as no longer current
  (a paragraph or description opening "SHELVED …", "Superseded …") gives nothing.
- The user's answers to the agent's multiple-choice questions (AskUserQuestion): the question
  with the option the user chose (or typed), one fact per answered call. They are the user's
  words, and the choice is a decision. A question about how to fix, scope or sequence the bug
  at hand ("how should the fix be shaped?", "ship that as its own change first?"), about the
  agent's own next step ("how should I deliver the fixes to PR #65?", "rename the flag
  now?", "… in this change?") is the task's plan and is left out; so is an answer that is
  itself a question (the user asked back, nothing was chosen).

- The goal of a plan the user approved: Claude Code starts the implementation with a user
  message "Implement the following plan: # <title> …"; a `**Goal**:` line in it states the
  decision the plan carries out, kept with the plan's title as subject. The plan's context
  section is not kept: it describes the state the plan is about to change.

Pure, stdlib only.
"""

from __future__ import annotations

import re

from kenning.extract.model import Candidate

# Claude Code's own memory folder. A skill's references/ were tried too: on the development set
# one in five of their bullets was labelled (topic files per shell nobody kept), so they are out.
_NOTE_PATH = re.compile(r"(?:^|/)\.claude/(?:projects/[^/]+/)?memory/(?P<stem>[^/]+)\.md$", re.I)
_NOT_NOTE = re.compile(r"(?:^|/)(?:MEMORY|README|SKILL|INDEX)\.md$|/(?:plans?|scratchpad|tmp)/",
                       re.I)
_FRONTMATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
_DESCRIPTION = re.compile(r"^description:\s*\"?(?P<d>.+?)\"?\s*$", re.M)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_LINK_ONLY = re.compile(r"^(?:related|see also|see)\b", re.I)
# History, status and plans inside a note: when it was found, what shipped, the staging.
_NOT_RULE = re.compile(r"^(?:discovered|found|findings|shipped|why|related|agreed|plan(?:ned)?"
                       r"|status|next|todo|patterns? for|companion|on \d{4}-)\b", re.I)
_HOME = re.compile(r"(?<![\w/])~[/\\]|\$HOME\b")  # a folder of this user's machine
MIN_WORDS = 8
MAX_FACT = 400
# A note's first rule is its headline; on the development set the later bullets of a note
# were mostly not what a labeller kept (precision first: 5 of 6 first units matched, 1 of 3
# second ones).
MAX_PER_NOTE = 1


def note_subject(name: str, tool_input: dict) -> str | None:
    """The note's topic when this tool call writes a knowledge note, else None."""
    if name not in ("Write", "Edit", "MultiEdit"):
        return None
    path = str(tool_input.get("file_path") or "").replace("\\", "/")
    m = _NOTE_PATH.search(path)
    if not m or _NOT_NOTE.search(path):
        return None
    return m.group("stem").replace("_", "-")


def _note_text(tool_input: dict) -> str:
    if isinstance(tool_input.get("content"), str):
        return tool_input["content"]
    if isinstance(tool_input.get("new_string"), str):
        return tool_input["new_string"]
    edits = tool_input.get("edits")
    if isinstance(edits, list):
        return "\n".join(str(e.get("new_string") or "") for e in edits if isinstance(e, dict))
    return ""


def _units(text: str) -> list[str]:
    """Bullets (with their wrapped lines) and prose paragraphs; headings, code and tables out."""
    out: list[str] = []
    current: list[str] = []
    fenced = False

    def close() -> None:
        if current:
            out.append(" ".join(current))
            current.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("```"):
            close()
            fenced = not fenced
            continue
        if fenced or not line or line.startswith(("#", "|", "<!--")):
            close()
            continue
        if _BULLET.match(line):
            close()
            line = _BULLET.sub("", line)
        current.append(line)
    close()
    return out


def _shorten(text: str) -> str:
    text = " ".join(text.replace("**", "").split())
    if len(text) <= MAX_FACT:
        return text
    cut = text[:MAX_FACT]
    return cut[: cut.rfind(". ") + 1] if ". " in cut else cut.rsplit(" ", 1)[0] + " …"


def note_candidates(subject: str, tool_input: dict, evidence: str,
                    session: str | None) -> list[Candidate]:
    """Facts from a knowledge note the agent wrote, each prefixed with the note's topic."""
    text = _note_text(tool_input).replace("\r\n", "\n")
    m = _DESCRIPTION.search(text[:1000]) if text.startswith("---") else None
    if m:
        subject = m.group("d").split(":")[0].split("—")[0].strip() or subject
    text = _FRONTMATTER.sub("", text)
    out: list[Candidate] = []
    for unit in _units(text):
        plain = _shorten(unit)
        if (len(plain.split()) < MIN_WORDS or _LINK_ONLY.match(plain) or plain.endswith(":")
                or _NOT_RULE.match(plain) or _HOME.search(plain)):
            continue
        out.append(Candidate(kind="codebase", text=f"{subject}: {plain}", evidence=evidence,
                             rule="note", session=session))
        if len(out) >= MAX_PER_NOTE:
            break
    return out


# Last word wins inside a note: the agent marks a note's subject as no longer current by
# a paragraph, bullet or description that opens with its new status ("SHELVED 2026-06-10
# after the playtest: …", "Superseded by …").
_WITHDRAWN = re.compile(
    r"^(?:shelved|superseded|obsolete|outdated|abandoned|withdrawn|retracted|reverted"
    r"|replaced by|deprecated|dropped|no longer (?:true|valid|current|applies|used))\b",
    re.I,
)


def _plain(text: str) -> str:
    return " ".join(text.replace("**", "").split()).lower()


def withdraws(tool_input: dict) -> bool:
    """True when this write of a note says its subject is no longer current."""
    text = _note_text(tool_input).replace("\r\n", "\n")
    m = _DESCRIPTION.search(text[:1000]) if text.startswith("---") else None
    units = [m.group("d")] if m else []
    return any(_WITHDRAWN.match(_plain(u).strip("_*` ")) for u in
               units + _units(_FRONTMATTER.sub("", text)))


def rewritten(candidate: Candidate, tool_input: dict) -> bool:
    """True when this edit of a note takes out the text `candidate` was read from: the note's
    later words stand in for it (an edit that keeps the text and adds to it is no rewrite)."""
    edits = tool_input.get("edits")
    pairs = [(tool_input.get("old_string"), tool_input.get("new_string"))]
    if isinstance(edits, list):
        pairs += [(e.get("old_string"), e.get("new_string")) for e in edits if isinstance(e, dict)]
    body = candidate.text.split(": ", 1)[-1].removesuffix(" …")
    head = _plain(body)[:80]
    return bool(head) and any(head in _plain(str(old)) and head not in _plain(str(new or ""))
                              for old, new in pairs if old)


# --- AskUserQuestion --------------------------------------------------------------------------

_ANSWERED = re.compile(r"\b(?:user (?:has )?answered|questions have been answered)", re.I)
_PAIR = re.compile(r"\"(?P<q>[^\"]{8,400}?)\"=\"(?P<a>[^\"]{1,600}?)\"(?=,\s*\"|\.\s|\s*$)", re.S)
# How to fix, scope or sequence the bug at hand: the task's plan, not a lasting decision.
_HOW_TO_FIX = re.compile(
    r"\b(?:the fix|be fixed|scope (?:it|this|that)|its own (?:change|pr|commit)"
    r"|(?:ship|land|do|merge) (?:that|this|it) (?:first|separately|alone))\b"
    # The agent's own next step in this task: "should I …", "… in this change", "… now?".
    r"|\b(?:should|shall|do) i\b|\bwant me to\b|\bin this (?:change|pr|commit|branch)\b"
    r"|\bnow\?",
    re.I,
)
_RECOMMENDED = re.compile(r"\s*\((?:recommended|default)\)\s*$", re.I)


def answer_candidates(output: str, evidence: str, session: str | None) -> list[Candidate]:
    """The user's choices in one answered AskUserQuestion call, as one decision."""
    if not _ANSWERED.search(output[:200]):
        return []
    pairs = []
    for m in _PAIR.finditer(output):
        question = " ".join(m.group("q").split())
        answer = _RECOMMENDED.sub("", " ".join(m.group("a").split()))
        if _HOW_TO_FIX.search(question) or answer.endswith("?"):
            continue
        pairs.append(f"asked \"{question}\", the user chose \"{answer}\"")
    if not pairs:
        return []
    text = "User decisions: " + "; ".join(pairs)
    return [Candidate(kind="decision", text=text[:1200], evidence=evidence, rule="user-answer",
                      session=session)]


# --- approved plans ----------------------------------------------------------------------------

_PLAN_START = "Implement the following plan:"
_PLAN_TITLE = re.compile(r"^#\s+(?:plan:\s*)?(?P<t>.{4,120}?)\s*$", re.M | re.I)
_GOAL = re.compile(r"^\s*\*\*goal\*\*\s*:\s*(?P<g>.+?)\s*$", re.M | re.I)


def plan_goal_candidates(text: str, evidence: str, session: str | None) -> list[Candidate]:
    """The goal line of a plan the user approved, with the plan's title as subject."""
    if not text.startswith(_PLAN_START):
        return []
    title, goal = _PLAN_TITLE.search(text[:2000]), _GOAL.search(text)
    if not title or not goal or len(goal.group("g").split()) < MIN_WORDS:
        return []
    fact = f"Plan \"{title.group('t')}\": {_shorten(goal.group('g'))}"
    return [Candidate(kind="decision", text=fact, evidence=evidence, rule="plan-goal",
                      session=session)]
