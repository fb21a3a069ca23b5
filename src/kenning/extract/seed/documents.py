"""ADRs, design docs and CONTRIBUTING conventions; and the instructions written for agents.

ADRs (`docs/adr/`, `doc/adr/`, `docs/decisions/`, `doc/decisions/`, `adr/`): one decision
each, its title and the first sentence of its Decision section, its Context as the reason;
an ADR whose status is proposed, rejected, superseded or deprecated is left out.
ARCHITECTURE.md, DESIGN.md, CONTRIBUTING.md and the agent files (CLAUDE.md, AGENTS.md,
`.cursor/rules/*`, `.cursorrules`, `.github/copilot-instructions.md`): their explicit rules
("always/never …", "X must …", "use A, not B") through the same sentence rules a transcript
gets (`extract.documents`), each kept with its file and line.
"""

from __future__ import annotations

import re
from pathlib import Path

from kenning.extract.documents import requirement_candidates
from kenning.extract.seed.model import Proposal, lines_label, plain

MAX_BYTES = 256 * 1024
ADR_DIRS = ("docs/adr", "doc/adr", "docs/adrs", "docs/decisions", "doc/decisions",
            "docs/architecture/decisions", "adr", "decisions")
DESIGN_FILES = ("ARCHITECTURE.md", "DESIGN.md", "CONTRIBUTING.md", "CONTRIBUTING.rst",
                "docs/CONTRIBUTING.md", ".github/CONTRIBUTING.md", "docs/architecture.md",
                "docs/contributing.md", "docs/design.md")
AGENT_FILES = ("CLAUDE.md", "AGENTS.md", ".cursorrules", ".github/copilot-instructions.md",
               ".windsurfrules", "GEMINI.md")
AGENT_DIRS = (".cursor/rules",)
_STATUS = re.compile(r"^\s*(?:#+\s*)?\**status\**\s*:?\s*\**\s*(?P<value>\w+)?", re.I)
_BAD_STATUS = re.compile(r"\b(?:proposed|rejected|superseded|deprecated|draft)\b", re.I)
_SECTION = re.compile(r"^#+\s*(?P<name>.+?)\s*$")
_DEICTIC = re.compile(r"^(?:for|because of|given|due to) (?:the|these|those) (?:above |stated )?"
                      r"reasons?,?\s*|^(?:therefore|thus|hence|so),?\s*", re.I)


def adr_files(root: Path) -> list[Path]:
    out: list[Path] = []
    for rel in ADR_DIRS:
        folder = root / rel
        if folder.is_dir():
            out += sorted(p for p in folder.glob("*.md") if p.is_file()
                          and p.stat().st_size <= MAX_BYTES and p.name.lower() != "readme.md"
                          and not p.name.lower().startswith("template"))
    return out


def design_files(root: Path) -> list[Path]:
    return [root / rel for rel in DESIGN_FILES if _small(root / rel)]


def agent_files(root: Path) -> list[Path]:
    out = [root / rel for rel in AGENT_FILES if _small(root / rel)]
    for rel in AGENT_DIRS:
        folder = root / rel
        if folder.is_dir():
            out += sorted(p for p in folder.rglob("*") if p.suffix in (".md", ".mdc")
                          and _small(p))
    return out


def _small(path: Path) -> bool:
    return path.is_file() and path.stat().st_size <= MAX_BYTES


def adr_proposal(path: Path, root: Path) -> Proposal | None:
    rel = path.relative_to(root).as_posix()
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
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
    sentence = re.split(r"(?<=[.!?])\s+", " ".join(t for _, t in decision[:6]))[0]
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


def rule_proposals(path: Path, root: Path, source: str) -> list[Proposal]:
    """The explicit rules in one guide, each with the line it starts on."""
    rel = path.relative_to(root).as_posix()
    text = path.read_text(encoding="utf-8", errors="replace")
    lines = text.splitlines()
    out: list[Proposal] = []
    for c in requirement_candidates(text, rel, "doc", rel, None):
        body = c.text.split(": ", 1)[1] if c.text.startswith(f"{rel}: ") else c.text
        first = _line_of(body, lines)
        out.append(Proposal(source=source, kind=c.kind if c.kind != "interaction" else
                            "codebase", text=f"{rel}: {plain(body)}",
                            provenance=lines_label(rel, first, first), rule=f"{source}-"
                            f"{c.rule.split('-', 1)[1]}", rationale=c.rationale))
    return out


def _line_of(sentence: str, lines: list[str]) -> int:
    """The line a (joined, cleaned) sentence starts on: the first line holding most of its
    first six longer words (markup and wrapping differ between the two)."""
    words = [w.lower() for w in re.findall(r"\w+", sentence) if len(w) > 3][:6]
    best, best_n = 0, 1
    for n, line in enumerate(lines, 1):
        found = {w.lower() for w in re.findall(r"\w+", line)}
        score = sum(1 for w in words if w in found)
        if score > best:
            best, best_n = score, n
    return best_n
