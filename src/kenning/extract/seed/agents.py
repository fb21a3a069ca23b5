"""Agent instruction files (`AGENTS.md`, `CLAUDE.md`, `.cursor/rules/`,
`.github/copilot-instructions.md`): every instruction, said with its section. Stdlib only.

A project writes these files for agents, so each list item in them is an instruction the
project chose to give, whatever its phrasing: "All new features and bug fixes target
`master`. A bot creates backports …" says no "must", and the phrasing rules the other guides
go through found 2 of aiohttp's 30 (issue 19's label sets: aiohttp's labeller took 7 facts from
its AGENTS.md). Each item is said with the section it stands under, since an agent file's
items lean on their heading ("Casts must be explicit; …" under "C extension"; "Run all: …"
under "Test"). Read:
- a top-level list item, with its wrapped lines; the items nested under one that announces
  them (ends with ":", or is a bold label: "**Draft.** Use `gh pr create --draft`.") joined to
  it with "; ";
- a paragraph led by a bold label ("**Commits**: Don't use conventional commits; …").
Not read: code blocks, tables, headings, other prose, an item of fewer than four words, one
that only links elsewhere. At most `PER_FILE` a file, in the file's order (the top of an agent
file is its most general part).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kenning.extract.seed.model import Proposal, lines_label, plain

PER_FILE = 30
PER_SECTION = 8
MAX_ITEM = 600
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_HEADING = re.compile(r"^(?P<marks>#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
_ITEM = re.compile(r"^(?P<indent>\s*)(?:[-*+]|\d+[.)])\s+(?P<text>\S.*)$")
_BOLD_LEAD = re.compile(r"^\*\*[^*]{2,40}\*\*")
# "…; see _Run the docs spell check_ above.": where else it is said, not part of it
_POINTER = re.compile(r"(?:[;,]\s*|\.\s+|\s+\()(?:see|refer to)\b[^.;]*?(?:\babove|\bbelow"
                      r"|\bfor (?:details|more(?: details| information)?))\W*$", re.I)
_EMPTY_CODE = re.compile(r"`[^`\w]*`")
_LINK_ONLY = re.compile(r"^(?:see\s+)?\[[^\]]*\]\([^)]*\)\W*$", re.I)


# A section of links to read elsewhere, not instructions.
_POINTERS = re.compile(r"^\W*(?:\d+[.)]\s*)?(?:pointers|links|references|see also|resources"
                       r"|further reading|useful links)\W*$", re.I)


def proposals(text: str, rel: str) -> list[Proposal]:
    """The instructions of the agent file at `rel` (its text), each with its section."""
    out: list[Proposal] = []
    per_section: dict[str | None, int] = {}
    for first, last, section, said in _items(text.splitlines()):
        if section and _POINTERS.search(section):
            continue  # "9) Pointers: README: canonical API and usage.": where to read, no rule
        words = _POINTER.sub(".", plain(said).strip())
        if len(words.split()) < 4 or len(words) > MAX_ITEM or _LINK_ONLY.match(said.strip()) \
                or words.endswith(":") or _EMPTY_CODE.search(words) or "``" in said:
            continue  # "Sign with `` -- by :user:`…` ``": markup whose content is gone
        per_section[section] = per_section.get(section, 0) + 1
        if per_section[section] > PER_SECTION:
            continue  # a long list of one kind (a reviewer's voice, fourteen points) says less
            # item by item than the file's other sections
        where = f"{rel} ({section.rstrip('.')})" if section else rel
        out.append(Proposal(source="agents", kind="interaction", text=f"{where}: {words}",
                            provenance=lines_label(rel, first, last), rule="agents-instruction"))
        if len(out) >= PER_FILE:
            break
    return out


@dataclass
class _Item:
    first: int  # its lines, 1-based
    last: int
    section: str | None
    text: str
    indent: int  # -1: a lead-in's list; -2: that list ended with its section
    announces: bool  # ends with ":" or is a bold label: its nested points are part of it


def _items(lines: list[str]) -> list[tuple[int, int, str | None, str]]:
    """(first line, last line, section, text) of each item, in order (lines 1-based)."""
    found: list[_Item] = []
    section: str | None = None
    lead: tuple[int, str] | None = None
    titled = False  # a heading came before: an H1 now is a section, not the title
    fenced = False
    paragraph_start = True
    for n, line in enumerate(lines, start=1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        if not line.strip():
            paragraph_start = True
            continue
        last = found[-1] if found else None
        if (h := _HEADING.match(line)) is not None:
            lead = None
            if last is not None and last.indent < 0:
                last.indent = -2  # a lead-in's list ends with its section
            if len(h["marks"]) > 1 or titled:  # the file's first H1 is its title
                section = plain(h["title"]).strip("*_ ").rstrip(":")
            titled = True
            paragraph_start = True
            continue
        if line.lstrip().startswith("|"):
            paragraph_start = True
            continue  # a table
        if (m := _ITEM.match(line)) is not None:
            indent, body = len(m["indent"].expandtabs()), m["text"].strip()
            if indent < 2 and lead is not None:  # "… should be revised when:" and its list
                last = _Item(lead[0], n, section, lead[1], -1, True)
                found.append(last)
                lead = None
            if last is not None and last.indent < indent and last.announces \
                    and (indent >= 2 or last.indent < 0):
                last.text = f"{last.text}{' ' if last.text.endswith((':', '.')) else '; '}{body}"
                last.last = n
                continue  # a point of the item that announced it
            if indent >= 2:
                paragraph_start = False
                continue  # a detail of an item that stands without it
            found.append(_Item(n, n, section, body, indent,
                               body.endswith(":") or bool(_BOLD_LEAD.match(body))))
            paragraph_start = False
            continue
        stripped = line.strip()
        if last is not None and not paragraph_start and last.last == n - 1 \
                and line[:1].isspace():
            last.text = f"{last.text} {stripped}"  # a wrapped line of the item
            last.last = n
            last.announces = last.announces or stripped.endswith(":")
            continue
        if paragraph_start and _BOLD_LEAD.match(stripped):
            found.append(_Item(n, n, section, stripped, 0, stripped.endswith(":")))
        elif paragraph_start and stripped.endswith(":") and not stripped.startswith(("<", "[")):
            lead = (n, stripped)  # a lead-in: the list after it is its points
        elif last is not None and last.last == n - 1 and not paragraph_start \
                and _BOLD_LEAD.match(last.text) and last.indent == 0:
            last.text = f"{last.text} {stripped}"
            last.last = n
        paragraph_start = False
    return [(i.first, i.last, i.section, re.sub(r"\s+", " ", i.text)) for i in found]
