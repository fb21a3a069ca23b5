"""Changelogs: breaking changes, deprecations, removals and changed defaults, with their version.

A changelog is the project's own record of what changed and when; the entries that stay true
and that a newcomer trips over are the ones that take something away or change behaviour.
Additions and fixes are left alone: a fix is a fact about the past, not about the code now.
Formats: headings `Version 1.2.0`, `## [1.2.0] - 2020-01-01`, `1.2.0 (2020-01-01)` with an
underline, `v1.2.0`; Keep-a-Changelog sections (`### Removed`, `### Deprecated`,
`### Changed`, `### Breaking`); bullets with wrapped lines and nested bullets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from kenning.extract.seed.model import Proposal, lines_label, plain

NAMES = re.compile(r"^(?:CHANGES|CHANGELOG|CHANGE_LOG|HISTORY|NEWS|RELEASE[-_ ]?NOTES)"
                   r"(?:\.(?:md|rst|txt|markdown))?$", re.I)
MAX_BYTES = 2_000_000
MAX_TEXT = 400

_VERSION = r"v?(?P<version>\d+(?:\.\d+){1,3}(?:[-.]?(?:a|b|rc|alpha|beta|dev|post)\.?\d*)?)"
_HEADING = re.compile(
    rf"^(?:#+\s*)?(?:\[?(?:version|release|v\.?)?\s*)?\[?{_VERSION}\]?"
    r"(?:\s*[-–—:(]\s*.*|\s*)$", re.I)
_UNDERLINE = re.compile(r"^([=\-~^*+#])\1{2,}\s*$")
_UNRELEASED = re.compile(r"^(?:#+\s*)?\[?unreleased\]?\s*$|^\s*unreleased\s*$", re.I)
_SECTION = re.compile(r"^#{2,6}\s*(?P<name>[A-Za-z][\w ]{2,40}?)\s*:?\s*$|"
                      r"^(?P<bold>\*\*)?(?P<plain>Breaking changes?|Deprecations?|Removals?|"
                      r"Removed|Deprecated|Changed|Backwards[- ]incompatible changes?)"
                      r"(?:\*\*)?\s*:?\s*$", re.I)
_BULLET = re.compile(r"^(?P<indent>\s*)(?:[-*+•]|\d+[.)])\s+(?P<text>\S.*)$")

# What an entry must say to be kept, by category (the rule name).
_RULES = (
    ("breaking", re.compile(r"\b(?:breaking change|BREAKING|backwards?[- ]incompatible"
                            r"|no longer|is now required|are now required|must now)\b")),
    ("deprecation", re.compile(r"\bdeprecat(?:e|es|ed|ion)\b", re.I)),
    ("removal", re.compile(r"^(?:remove[ds]?|drop(?:s|ped)?|delete[ds]?|end(?:ed)? support)\b"
                           r"|\b(?:drop(?:s|ped)? support|removed? support|(?:was|were|is|are|has"
                           r" been|have been) removed)\b", re.I)),
    ("default", re.compile(r"^change[sd]? (?:the )?default\b|\bchanged (?:the )?default\b"
                           r"|\bdefault\b[^.]{0,40}\b(?:is|are) now\b"
                           r"|\bnow defaults? to\b|\bdefaults? (?:changed|is changed)\b"
                           r"|\bdefault\b[^.]{0,60}\bfrom\b[^.]{1,40}\bto\b"
                           r"|\bby default\b[^.]{0,60}\bnow\b", re.I)),
    ("instead", re.compile(r"^(?:use[sd]?|switch(?:ed)? to|migrate[sd]? to|move[sd]? to"
                           r"|replace[sd]?)\b.*\b(?:instead of|rather than|with)\b", re.I)),
)
_SECTION_RULES = {"breaking": "breaking", "backwards incompatible": "breaking",
                  "removed": "removal", "removal": "removal", "deprecated": "deprecation",
                  "deprecation": "deprecation"}
# Entries about the project's own plumbing or typos are not knowledge about its behaviour.
_NOISE = re.compile(r"\b(?:typo|spelling|docs? (?:fix|build)|changelog|readme|ci\b|workflow"
                    r"|pre-commit|dependabot|test suite|tests? (?:fix|for)|coverage"
                    r"|version bump|bump(?:ed)? )", re.I)


@dataclass(frozen=True)
class Entry:
    version: str | None
    section: str | None
    text: str
    first: int
    last: int


def changelog_files(root: Path) -> list[Path]:
    found = [p for p in sorted(root.iterdir()) if p.is_file() and NAMES.match(p.name)]
    docs = root / "docs"
    if not found and docs.is_dir():
        found = [p for p in sorted(docs.iterdir()) if p.is_file() and NAMES.match(p.name)]
    return [p for p in found if p.stat().st_size <= MAX_BYTES]


def entries(text: str) -> list[Entry]:
    """Every top-level bullet under a version heading, its wrapped lines and nested bullets
    joined ("Remove deprecated code: A: use X instead; B: use Y instead")."""
    lines = text.splitlines()
    out: list[Entry] = []
    version: str | None = None
    section: str | None = None
    current: list[str] = []
    nested: list[str] = []
    start = 0
    end = 0
    base_indent = 0
    blank = False

    def flush() -> None:
        nonlocal current, nested
        if current:
            body = " ".join(current)
            if nested:
                body = body.rstrip(" .:") + ": " + "; ".join(n.rstrip(" .;") for n in nested)
            out.append(Entry(version, section, body, start, end))
        current, nested = [], []

    for n, raw in enumerate(lines, 1):
        line = raw.rstrip()
        following = lines[n] if n < len(lines) else ""
        heading = _HEADING.match(line.strip()) if line.strip() else None
        underlined = bool(_UNDERLINE.match(following.strip())) if following.strip() else False
        if heading and (line.lstrip().startswith("#") or underlined or line.strip().lower()
                        .startswith(("version", "release", "v", "["))):
            flush()
            version, section = heading.group("version"), None
            continue
        if _UNRELEASED.match(line.strip()) or line.strip().lower().startswith("## unreleased"):
            flush()
            version, section = "unreleased", None
            continue
        sec = _SECTION.match(line.strip())
        if sec and not _BULLET.match(line):
            flush()
            name = (sec.group("name") or sec.group("plain") or "").strip().lower()
            section = name
            continue
        if _UNDERLINE.match(line.strip()):
            continue
        bullet = _BULLET.match(line)
        was_blank, blank = blank, False
        if bullet:
            indent = len(bullet.group("indent"))
            if current and indent > base_indent and (nested or not was_blank or indent > 0):
                nested.append(bullet.group("text").strip())
                end = n
                continue
            flush()
            base_indent = indent
            current = [bullet.group("text").strip()]
            start = end = n
            continue
        if not line.strip():
            blank = True
            continue
        if current and raw.startswith((" ", "\t")) and not blank:
            if nested:
                nested[-1] += " " + line.strip()
            else:
                current.append(line.strip())
            end = n
            continue
        flush()
    flush()
    return out


_NAMED = re.compile(r"`|\d|\w[._]\w|(?<!^)(?<![.:] )\b[A-Z][a-zA-Z]+")


def classify(entry: Entry) -> str | None:
    """The rule an entry fires, or None; the section heading counts as the entry's words.

    An entry must name what it is about (code, a version, a proper name): "Remove previously
    deprecated code." says nothing on its own."""
    text = entry.text
    if _NOISE.search(text) or len(text.split()) < 4 or not _NAMED.search(plain(text)[1:]):
        return None
    for name, pattern in _RULES:
        if pattern.search(text):
            return name
    key = (entry.section or "").replace("-", " ")
    for word, rule in _SECTION_RULES.items():
        if word in key:
            return rule
    return None


def proposals(path: Path, root: Path) -> list[Proposal]:
    rel = path.relative_to(root).as_posix()
    text = path.read_text(encoding="utf-8", errors="replace")
    out: list[Proposal] = []
    for entry in entries(text):
        if entry.version is None:
            continue
        rule = classify(entry)
        if rule is None:
            continue
        body = plain(entry.text)
        if len(body) > MAX_TEXT:
            cut = body[:MAX_TEXT]
            body = cut[: cut.rfind(". ") + 1] if ". " in cut else cut.rsplit(" ", 1)[0] + " …"
        when = "not yet released" if entry.version == "unreleased" else entry.version
        label = "in the next release" if entry.version == "unreleased" else f"in {when}"
        out.append(Proposal(
            source="changelog", kind="decision" if rule == "instead" else "codebase",
            text=f"Changed {label} ({rel}): {body}",
            provenance=lines_label(rel, entry.first, entry.last), rule=f"changelog-{rule}"))
    return out
