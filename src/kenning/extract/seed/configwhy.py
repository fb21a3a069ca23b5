"""Settings a project's configuration explains in a comment: the reason beside the choice.
Stdlib only.

A maintainer who writes why a setting is what it is leaves the decision where it lives:

    [tool.coverage.run]
    # sysmon, default on 3.14, is too slow: https://github.com/…/issues/2172
    core = "ctrace"

    "PT",      # We use unittest

Read: `pyproject.toml`, `setup.cfg`, `tox.ini`, `pytest.ini`, `.flake8`, `mypy.ini` at the root.
A setting (`key = value`, or one item of a list a key holds) is proposed with the comment on its
own line or in the lines right above it, when the comment gives a reason ("so", "because",
"too slow", "required", "don't", "we use" …) in at least `MIN_WORDS` words and is not a note to
do something later, a link alone or commented-out configuration. Said with the project, the
file and the section, so it reads alone: "Scrapy (pyproject.toml, [tool.coverage.run]): `core =
"ctrace"`: sysmon, default on 3.14, is too slow." At most `PER_FILE` a file, in its order.
"""

from __future__ import annotations

import re
from pathlib import Path

from kenning.extract.seed import tooling
from kenning.extract.seed.model import Proposal, lines_label

PER_FILE = 5
MIN_WORDS = 5
MAX_COMMENT = 300
MAX_VALUE = 60

_SECTION = re.compile(r"^\s*\[(?P<name>[^\[\]]+)\]\s*(?:#.*)?$")
_SETTING = re.compile(r"^(?P<key>[A-Za-z_\"'][\w.\"' -]*?)\s*[=:]\s*(?P<value>.*)$")
_ITEM = re.compile(r"^\s*(?P<item>\"[^\"]+\"|'[^']+')\s*,?\s*(?:#\s*(?P<why>.*))?$")
_TRAILING = re.compile(r"\s#\s*(?P<why>.+)$")
# What makes a comment a reason, not a label ("Shadowing self also isn't a big deal." names no
# cause; "one sentence per line, so max length doesn't make sense" does).
_REASON = re.compile(
    r"\b(?:so|because|since|as|otherwise|to avoid|in order to|so that|too (?:slow|noisy|strict"
    r"|old|new)|required (?:for|by)|instead of|rather than|deliberately|intentionally"
    r"|on purpose|we use|is kept|are kept|(?:not|in)compatible|breaks|conflicts? with)\b", re.I)
# A linter's rule code or message name ("D203", "missing-trailing-comma"): its comment is often
# the rule's own description ("Use `elif` instead of `else` then `if`"), a reason only when it
# says one outright.
_LINT_CODE = re.compile(r"^[\"'](?:[A-Z]{1,4}\d{0,4}|[a-z]+(?:-[a-z]+)+)[\"']$")
_OUTRIGHT = re.compile(r"\b(?:so|because|since|we use|we write|we prefer)\b", re.I)
# A comment heading a group of items, or pointing at what follows, says nothing of one item.
_GROUP = re.compile(r"^(?:ones|these|those|the below|below|start of|end of"
                    r"|inline comments)\b|\bbelow\b|\bthe following\b|:$", re.I)
_LATER = re.compile(r"^\W*(?:todo|fixme|xxx|hack)\b(?:\([^)]*\))?:?\s*$", re.I)
_CODE_LIKE = re.compile(r"^\s*[\w.\"'-]+\s*=\s*\S|^\s*[\[\]{}\"',]|^\s*-\s")
_URL = re.compile(r"https?://\S+")


def config_files(root: Path) -> list[Path]:
    """The files `tooling` reads its settings from: `pyproject.toml` and the INI files."""
    return tooling.pyproject_file(root) + tooling.ini_files(root)


def _why(comment: str) -> str | None:
    """The comment as a reason, or None (too short, a to-do alone, code, a link alone)."""
    text = " ".join(comment.split())
    text = re.sub(r"^(?:todo|fixme|note)(?:\([^)]*\))?:\s*", "", text, flags=re.I)
    bare = _URL.sub("", text).strip(" :;,-–—()")
    if _LATER.match(text) or _CODE_LIKE.match(text) or _GROUP.search(bare) \
            or re.match(r"^no need\b", bare, re.I) or len(bare.split()) < MIN_WORDS \
            or len(text) > MAX_COMMENT or not _REASON.search(bare):
        return None
    bare = bare[0].upper() + bare[1:]
    return bare if bare.endswith((".", "!", "?")) else f"{bare}."


def _above(lines: list[str], n: int) -> str:
    """The full-line comments right above line `n` (0-based), joined."""
    said: list[str] = []
    k = n - 1
    while k >= 0 and re.match(r"^\s*[#;]", lines[k]):
        comment = re.sub(r"^\s*[#;]+\s?", "", lines[k]).strip()
        if _CODE_LIKE.match(comment) and re.search(r"[=:]", comment):
            return ""  # a setting left commented out: the words above may be about it
        said.insert(0, comment)
        k -= 1
    text = ""
    for part in (s for s in said if s):
        ends = text.rstrip().endswith((".", "!", "?", ":", ";", ","))
        text = f"{text} {part}" if not text or ends or part[:1].islower() else f"{text}. {part}"
    return text.strip()


def proposals(text: str, rel: str, name: str) -> list[Proposal]:
    lines = text.splitlines()
    out: list[Proposal] = []
    section: str | None = None
    holder: str | None = None  # the key whose multi-line list is open
    for n, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", ";")):
            continue
        if m := _SECTION.match(line):
            section, holder = m["name"].strip(), None
            continue
        said = None
        if holder and (item := _ITEM.match(line)) and len(item["item"]) <= MAX_VALUE:
            why = _why(item["why"] or "") or _why(_above(lines, n))
            if why and _LINT_CODE.match(item["item"]) and not _OUTRIGHT.search(why):
                why = None
            said = why and f"`{holder}` includes {item['item']}: {why}"
        elif not line[:1].isspace() and (setting := _SETTING.match(stripped)):
            key = setting["key"].strip().strip("\"'")
            value = _TRAILING.sub("", setting["value"]).strip()
            trailing = _TRAILING.search(setting["value"])
            holder = key if value in ("[", "") or value.endswith(("[", "=")) else None
            why = _why(trailing["why"]) if trailing else None
            why = why or _why(_above(lines, n))
            continued = n + 1 < len(lines) and lines[n + 1][:1].isspace() \
                and lines[n + 1].strip() and not lines[n + 1].strip().startswith(("#", ";"))
            if why and not holder and not continued and len(value) <= MAX_VALUE:
                said = f"`{key} = {value}`: {why}"
        elif stripped.startswith("]"):
            holder = None
        if said:
            where = f"{rel}, [{section}]" if section else rel
            out.append(Proposal(source="docs", kind="decision", text=f"{name} ({where}): {said}",
                                provenance=lines_label(rel, n + 1, n + 1), rule="config-why"))
    return out[:PER_FILE]
