"""ADRs, design docs and CONTRIBUTING conventions; and the instructions written for agents.

ADRs (`docs/adr/`, `doc/adr/`, `docs/decisions/`, `doc/decisions/`, `adr/`): one decision
each, its title and the first sentence of its Decision section, its Context as the reason;
an ADR whose status is proposed, rejected, superseded or deprecated is left out.
ARCHITECTURE.md, DESIGN.md, CONTRIBUTING.md and the agent files (CLAUDE.md, AGENTS.md,
`.cursor/rules/*`, `.cursorrules`, `.github/copilot-instructions.md`): their explicit rules
("always/never …", "X must …", "use A, not B") through the same sentence rules a transcript
gets (`extract.documents`), each kept with its file and line; and a contributing guide's
numbered setup steps that run or install something with a command ("3. Run `make
import-cldr` to import the CLDR database."), by their first sentence.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from kenning.extract.documents import requirement_candidates
from kenning.extract.seed.model import (
    Proposal,
    lines_label,
    plain,
    regular_dir,
    regular_file,
    site_dirs,
)

MAX_BYTES = 256 * 1024
MAX_RULE_FILES = 200
ADR_DIRS = ("docs/adr", "doc/adr", "docs/adrs", "docs/decisions", "doc/decisions",
            "docs/architecture/decisions", "adr", "decisions")
DESIGN_FILES = ("ARCHITECTURE.md", "DESIGN.md", "CONTRIBUTING.md", "CONTRIBUTING.rst",
                "docs/CONTRIBUTING.md", ".github/CONTRIBUTING.md", "docs/architecture.md",
                "docs/contributing.md", "docs/design.md", "docs/contributing.rst",
                ".github/CONTRIBUTING.rst", "doc/contributing.md", "doc/contributing.rst",
                "docs/source/contributing.md", "docs/source/contributing.rst",
                "docs/development.md", "docs/development.rst")
AGENT_FILES = ("CLAUDE.md", "AGENTS.md", ".cursorrules", ".github/copilot-instructions.md",
               ".windsurfrules", "GEMINI.md")
AGENT_DIRS = (".cursor/rules",)
_STATUS = re.compile(r"^\s*(?:#+\s*)?\**status\**\s*:?\s*\**\s*(?P<value>\w+)?", re.I)
_BAD_STATUS = re.compile(r"\b(?:proposed|rejected|superseded|deprecated|draft)\b", re.I)
_SECTION = re.compile(r"^#+\s*(?P<name>.+?)\s*$")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_CHOSEN = re.compile(r"^chos(?:e|en) option:?\s*[\"“]?(?P<name>[^\"”,]+?)[\"”]?\s*,\s*because"
                     r"\s*(?P<why>.*)$", re.I)
# A sentence that opens by pointing back at the one before it does not stand alone.
LEANS = re.compile(r"^(?:however|but|also|so|then|otherwise|instead|therefore|thus|hence|meaning"
                    r"|again|likewise|similarly|in (?:that|this|which) case|as such|for example"
                    r"|e\.g\.|it|they|them|(?:this|that|these|those)(?! (?:project|repo"
                    r"|repository|package|library|codebase|file|folder|directory))"
                    r"|such|both|either|neither|(?:the )?(?:same|former|latter|rest|remaining)"
                    r"|(?:an? |the )?exceptions? (?:may|can|could|are|is|will|might|should)"
                    # "Unlike everything else, the API docstrings are …": unlike what?
                    r"|unlike (?:everything|anything|all|most|the (?:rest|others?))(?: else)?)\b",
                    re.I)
# Ends by pointing back ("Don't use the issue tracker for this.": for what?), or points at
# text elsewhere ("as described below") or at an example that follows ("If you must …, do
# this, for example.": do what?)
_POINTS_BACK = re.compile(r"\b(?:for|with|about|on|to|of|like|from) (?:this|that|these|those"
                          r"|it|them)\W*$|\b(?:described|mentioned|explained|listed|shown"
                          r"|see) (?:above|below)\b|\b(?:do|does|did) (?:this|that)\b"
                          r"|\b(?:for example|for instance|as follows|like so)\W*$", re.I)
_DEICTIC = re.compile(r"^(?:for|because of|given|due to) (?:the|these|those) (?:above |stated )?"
                      r"reasons?,?\s*|^(?:therefore|thus|hence|so),?\s*", re.I)


def adr_files(root: Path) -> list[Path]:
    out: list[Path] = []
    for rel in ADR_DIRS:
        folder = root / rel
        if regular_dir(folder):
            out += sorted(p for p in folder.glob("*.md") if regular_file(p)
                          and p.name.lower() != "readme.md"
                          and not p.name.lower().startswith("template"))
    return out


def design_files(root: Path) -> list[Path]:
    """The design and contributing documents at their usual places, and a contributing or
    development page of a Sphinx site kept outside docs/ (`model.site_dirs`)."""
    places = [*DESIGN_FILES, *(f"{site}/{name}" for site in site_dirs(root)
                               for name in _SITE_PAGES)]
    return [root / rel for rel in places if regular_file(root / rel)]


_SITE_PAGES = ("contributing.md", "contributing.rst", "development.md", "development.rst")


def agent_files(root: Path) -> list[Path]:
    out = [root / rel for rel in AGENT_FILES if regular_file(root / rel)]
    for rel in AGENT_DIRS:
        folder = root / rel
        if not regular_dir(folder):
            continue
        found: list[Path] = []
        for here, _dirs, files in os.walk(folder):  # never into a symlinked folder
            found += [Path(here) / f for f in files if f.endswith((".md", ".mdc"))
                      and regular_file(Path(here) / f)]
            if len(found) >= MAX_RULE_FILES:
                break
        out += sorted(found)[:MAX_RULE_FILES]
    return out


def adr_proposal(text: str, rel: str) -> Proposal | None:
    """The decision of the ADR at `rel` (its text), unless it is not (or no longer) accepted."""
    lines = text.splitlines()
    title = next((re.sub(r"^#+\s*", "", x).strip() for x in lines if x.startswith("#")), None)
    sections: dict[str, list[tuple[int, str]]] = {}
    name = ""
    status = None
    for n, line in enumerate(lines, 1):
        m = _SECTION.match(line)
        if m:
            name = m.group("name").strip().lower()
            continue
        s = _STATUS.match(line)
        if s and status is None and (s.group("value") or name == "status"):
            status = s.group("value") or ""
        if line.strip():
            sections.setdefault(name, []).append((n, line.strip()))
    status = status or " ".join(t for _, t in sections.get("status", [])[:1])
    if not title or _BAD_STATUS.search(status or ""):
        return None
    decision = sections.get("decision") or sections.get("decision outcome")
    if not decision:
        return None
    first_line, first = decision[0]
    sentence = _whole_decision([t for _, t in decision], sections.get("considered options", []))
    if sentence is None:
        return None
    sentence = _DEICTIC.sub("", sentence)
    context = sections.get("context") or sections.get("context and problem statement") or []
    reason = re.split(r"(?<=[.!?])\s+", " ".join(t for _, t in context[:6]))[0] \
        if context else None
    title = re.sub(r"^(?:ADR[- ]?)?\d+[.:]?\s*", "", title, flags=re.I)
    last = first_line + sum(1 for _ in decision[:6]) - 1
    return Proposal(source="docs", kind="decision",
                    text=f"Decision ({rel}, {title.rstrip('.')}): {plain(sentence)}",
                    provenance=lines_label(rel, first_line, last), rule="adr",
                    rationale=plain(reason) if reason else None)


def _whole_decision(lines: list[str], options: list[tuple[int, str]]) -> str | None:
    """The decision's first sentence, whole, or None. A sentence that runs into a list
    ("Chosen option: payment, because" + bullets) is quoted with its first reason only when
    the option it names is spelled out from Considered Options, with the ones passed over;
    else nothing: a fragment ("Chose option: payment, because -") reads as nonsense."""
    head = lines[0]
    bullets = [_BULLET.sub("", x) for x in lines[1:] if _BULLET.match(x)]
    chosen = _CHOSEN.match(head)
    if chosen:
        name = chosen.group("name").strip().lower()
        named = [_BULLET.sub("", t).strip() for _, t in options]
        picked = [o for o in named if re.search(rf"\b{re.escape(name)}\b", o, re.I)]
        why = (chosen.group("why") or "").strip() or (bullets[0] if bullets else "")
        if len(picked) != 1 or not why:
            return None
        others = [o for o in named if o != picked[0]]
        over = f" (over: {'; '.join(o.rstrip('.') for o in others)})" if others else ""
        return f"Chose: {picked[0].rstrip('.')}{over}, because {why.rstrip('.')}."
    if not re.search(r"[.!?]$", head) and lines[1:2] and _BULLET.match(lines[1]):
        return None
    sentence = re.split(r"(?<=[.!?])\s+", " ".join(lines[:6]))[0]
    if not re.search(r"[.!?]$", sentence) and len(lines) > 6:
        return None  # the sentence goes on past what is read: not whole
    return sentence


# A line ending by announcing the commands after it ("… and run:", "… as follows:"); a
# statement ending in a colon ("… must be based on CPython 3.10, …, or 3.15:") is whole.
_RUN_THIS = re.compile(r"\b(?:run|use|type|execute|do|install|follows?|following|below|this"
                       r"|these|example|commands?)\s*:\s*$", re.I)


def rule_proposals(text: str, rel: str, source: str) -> list[Proposal]:
    """The explicit rules in the guide at `rel` (its text), each with the line it starts on."""
    lines = text.splitlines()
    out: list[Proposal] = []
    for c in requirement_candidates(text, rel, "doc", rel, None):
        body = c.text.split(": ", 1)[1] if c.text.startswith(f"{rel}: ") else c.text
        first = line_of(body, lines)
        if 0 < first <= len(lines) and _RUN_THIS.search(lines[first - 1]):
            continue  # "… install *uv* and run:" over a code block: the rule is what follows
        head, body = _item_head(lines, first, body)
        if head is not None:  # a sub-point says nothing without the rule it explains
            body = f"{head} {body}" if len(head) + len(body) < 400 else ""
        elif LEANS.match(body) or _POINTS_BACK.search(body):
            continue  # "However, that HTTPS requests will only succeed …": says what, of what?
        if not body:
            continue
        if (lead := _lead_in(lines, first, body)) is not None:
            body = f"{lead} {body}"
        out.append(Proposal(source=source, kind=c.kind if c.kind != "interaction" else
                            "codebase", text=f"{rel}: {plain(body)}",
                            provenance=lines_label(rel, first, first), rule=f"{source}-"
                            f"{c.rule.split('-', 1)[1]}", rationale=c.rationale))
    return out


def _lead_in(lines: list[str], n: int, body: str) -> str | None:
    """The line that introduces the list holding line `n` ("Conventions for the fragment
    body:"), when the rule leans on it: it says "the body" of what only the lead-in says
    ("Do not include the issue or PR number in the body")."""
    k = n - 1
    while 0 < k < len(lines) and lines[k].strip() and not _BULLET.match(lines[k]):
        k -= 1  # up from a wrapped line to its bullet
    if not 0 <= k < len(lines) or not _BULLET.match(lines[k]):
        return None
    k -= 1
    while k >= 0 and (_BULLET.match(lines[k]) or re.match(r"\s+\S", lines[k])):
        k -= 1  # over the items above and their wrapped lines
    while k >= 0 and not lines[k].strip():
        k -= 1
    lead = lines[k].strip() if k >= 0 else ""
    if not lead.endswith(":") or lead.startswith("#") or len(lead.split()) > 12:
        return None
    theirs = {w.lower() for w in re.findall(r"\w+", lead)}
    leaning = {w.lower() for w in re.findall(r"\bthe (\w+)", body, re.I)}
    return plain(lead) if leaning & theirs - _COMMON else None


_COMMON = {"code", "project", "repository", "repo", "user", "users", "file", "files", "docs"}


_STEP = re.compile(r"^\s*\d+[.)]\s+(?=(?:run|install|execute|add|update|edit|write|record)\b)"
                   r"(?P<text>.+)$", re.I)
# A file or folder of the project a step names ("Add a changelog entry to
# `docs/changelog.rst` near the top of the document."): where every contribution writes.
_PATH = re.compile(r"`[\w.-]*(?:/[\w.-]+)+/?`|`[\w-]+\.(?:rst|md|txt|toml|cfg|ini|ya?ml|py)`")
# A command, not a name: words ("`make test`", "`pip install -e .[dev]`") or a runner.
_COMMAND = re.compile(r"`(?:[^`\s]+\s+[^`]+|(?:make|tox|nox|pytest|pre-commit|just)\b[^`]*)`")


def contributing_steps(text: str, rel: str) -> list[Proposal]:
    """A contributing guide's numbered steps that run or install something with a command,
    or add to a file of the project it names, each by its first sentence: how a contributor
    sets up and tests the project, and where each contribution writes ("Add a changelog entry
    to `docs/changelog.rst` near the top of the document."). Steps said without a command
    or a file ("Set up a virtualenv", "Add tests.") name nothing to do."""
    if not re.match(r"contributing\.", rel.rsplit("/", 1)[-1], re.I):
        return []
    lines = text.splitlines()
    out: list[Proposal] = []
    for n, line in enumerate(lines, 1):
        m = _STEP.match(line)
        if not m:
            continue
        item = [m.group("text").strip()]
        for more in lines[n:]:
            if not more.strip() or not re.match(r"\s+\S", more) or _BULLET.match(more):
                break
            item.append(more.strip())
        first = re.split(r"(?<=[.!?])\s+(?=[A-Z`])", plain(" ".join(item)))[0]
        runs = re.match(r"(?:run|install|execute)\b", first, re.I)
        if (_COMMAND.search(first) if runs else _PATH.search(first)) and len(first) <= 300:
            out.append(Proposal(source="docs", kind="codebase", text=f"{rel}: {first}",
                                provenance=lines_label(rel, n, n), rule="contributing-step"))
    return out


def _item_head(lines: list[str], n: int, body: str) -> tuple[str | None, str]:
    """What the list item says before `body`, which starts on its continuation line `n`
    ("- Talk to us first.\n  Don't waste energy on …": "Talk to us first."), None when line
    `n` is not such a continuation; and `body`, with the words of its sentence the line
    above holds ("- Include tests … Make sure the\n  test fails …": "Include tests …" and
    "Make sure the test fails …", not the item's first line cut mid-sentence)."""
    line = lines[n - 1] if 0 < n <= len(lines) else ""
    if not re.match(r"\s+\S", line) or _BULLET.match(line.strip()):
        return None, body
    for k in range(n - 2, -1, -1):
        above = lines[k]
        if not above.strip() or not (_BULLET.match(above) or re.match(r"\s", above)):
            return None, body
        if _BULLET.match(above):
            item = " ".join(x.strip() for x in [_BULLET.sub("", above), *lines[k + 1:n]])
            words = re.findall(r"\w+", body)[:4]
            at = re.search(r"\W+".join(map(re.escape, words)), item, re.I) if words else None
            said = item[:at.start()] if at else _BULLET.sub("", above)
            if at:  # "Make sure" of "Make sure the test fails", said on the line above
                cut = max(said.rfind(mark) for mark in ".!?;:") + 1
                said, rest = said[:cut], said[cut:].strip()
                body = f"{rest} {body[:1].lower()}{body[1:]}" if rest else body
            if not said.strip():
                return None, body
            head = plain(said).strip()
            return (head if head.endswith((".", "!", ":", ";")) else head + "."), body
    return None, body


def line_of(sentence: str, lines: list[str]) -> int:
    """The line a (joined, cleaned) sentence starts on: the first line holding most of its
    first six longer words (markup and wrapping differ between the two); of lines holding as
    many, one holding its first such word, then the one whose next lines hold most of the
    rest (a rule said again further down, "Do not invent a `## What …` PR\n body; use the
    template above.", is found where it is said, not where its opening words were first
    used)."""
    longer = [w.lower() for w in re.findall(r"\w+", sentence) if len(w) > 3]
    words = longer[:6]
    said = [{w.lower() for w in re.findall(r"\w+", line)} for line in lines]
    best, best_n = (0, False, 0), 1
    for n, found in enumerate(said, 1):
        score = sum(1 for w in words if w in found)
        if score == 0 or score < best[0]:
            continue
        around = set().union(*said[n - 1:n + _SPAN])
        score_here = (score, words[0] in found, sum(1 for w in longer if w in around))
        if score_here > best:
            best, best_n = score_here, n
    return best_n


_SPAN = 4  # the lines a wrapped sentence of a guide spans, mostly
