"""Changelogs kept in a form `changelogs` does not walk itself: a pointer to the real one, and
Sphinx's changelog directives. Pure apart from looking up the files a pointer names.

A short `CHANGES` may only send the reader elsewhere ("MOVED. Please see:
/docs/build/changelog.rst", `.. include:: ../docs/changes.rst`, a link to the docs'
changelog page): the changelog read is the file it names, when the repository holds it.

SQLAlchemy's projects (alembic, mako, dogpile …) write `.. changelog::` blocks with
`:version:` and `:released:` options holding `.. change::` entries with `:tags:` (the first
is the kind: bug, feature, usecase, changed, removed, deprecated …) and `:tickets:`. They are
rewritten line for line into the headings and bullets `changelogs` reads, so an entry keeps
its own line numbers: a release heading with its date, a section named by the entry's tags,
and the entry's first paragraph as one bullet (its later paragraphs, "Pull request courtesy …"
and `.. seealso::` blocks are not what changed).

The `releases` Sphinx extension's changelogs (paramiko's, invoke's, fabric's) are one list,
newest first: a `- :release:`3.0.3 <2026-04-07>`` bullet closes a release over the entries
below it, each a `- :bug:`742``, `- :feature:`-`` or `- :support:`- backported`` bullet. They
are rewritten line for line too: the release bullet a heading, each entry a plain bullet with
its kind as its section: a bug is a fix, as under a "Bug fixes" heading; a feature, which in
this format also changes what exists ("Removes the subclass requirement around
`Config.clone(into=...)`"), is read by its own words, as under a "Changes" heading.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from kenning.extract.seed.model import regular_file

POINTER_LINES = 40  # a pointer is a few lines; a changelog with no entries yet is longer
_INCLUDE = re.compile(r"^\s*(?:\.\.\s+include::\s*|```\{include\}\s*|include::)"
                      r"(?P<path>[^\s\[\]`]+)", re.M)
_PATH = re.compile(r"(?<![\w:/.-])/?(?P<path>(?:[\w.-]+/)*[\w.-]+\.(?:rst|md|txt|markdown))\b")
_URL_PAGE = re.compile(r"https?://\S+?/(?P<stem>[\w.-]+?)(?:\.html?)?/?(?=[\s>)\]`'\"]|$)")


def pointed_to(path: Path, root: Path, text: str,
               pages: Callable[[], list[Path]]) -> list[Path]:
    """The changelog `path` (its `text`) sends the reader to, when it is a short pointer: a
    file it includes or names that the repository holds, else the changelog page of the docs
    (`pages`, by name) a link of it names, or the source of the website page a link names
    (`site_source`); [] when it is not a pointer or names nothing here."""
    if len(text.splitlines()) > POINTER_LINES:
        return []
    here, real_root = path.parent, root.resolve()
    named = [m["path"] for m in _INCLUDE.finditer(text)] + [m["path"] for m in _PATH.finditer(text)]
    for rel in named:
        for base in (here, root):
            target = (base / rel.lstrip("/")).resolve()
            # inside the repository only (a symlink may lead anywhere), and said as under
            # `root` as given: the caller takes its path relative to that
            if target != path.resolve() and target.is_relative_to(real_root) \
                    and regular_file(target):
                return [root / target.relative_to(real_root)]
    # the page a link's path names (two parts or more) before a docs page by its last name
    source = site_source(root, text)
    if source is not None and source != path:
        return [source]
    stems = {m["stem"].lower() for m in _URL_PAGE.finditer(text)}
    return [p for p in pages() if p.stem.lower() in stems][:1] if stems else []


# A link's path on the project's website: "https://sanic.dev/en/release-notes/changelog.html".
_URL_PATH = re.compile(r"https?://[^\s/<>()\[\]`'\"]+(?P<path>/[^\s<>()\[\]`'\"#?]*)")
_SOURCE_SUFFIXES = (".md", ".rst", ".txt", ".markdown")
_NOT_SOURCE = re.compile(r"^(?:\.|_build$|node_modules$|site-packages$|build$|dist$|venv$)")
SITE_DEPTH = 6
SITE_MAX_FILES = 20_000


def site_files(root: Path) -> list[tuple[str, ...]]:
    """The repository's text pages a website could be built from, each as its folders and
    name without suffix (lower case) followed by its file name; at most `SITE_DEPTH` folders
    deep, the walk ending after `SITE_MAX_FILES` files."""
    found: list[tuple[str, ...]] = []
    seen = 0
    for here, dirs, files in os.walk(root):  # os.walk never follows a symlinked folder
        depth = len(Path(here).relative_to(root).parts)
        dirs[:] = sorted(d for d in dirs if depth < SITE_DEPTH and not _NOT_SOURCE.search(d))
        for f in files:
            seen += 1
            if f.lower().endswith(_SOURCE_SUFFIXES):
                rel = Path(here).relative_to(root).parts + (f.rsplit(".", 1)[0],)
                found.append(tuple(x.lower() for x in rel) + (f,))
        if seen > SITE_MAX_FILES:
            break
    return found


def site_source(root: Path, text: str,
                listed: Callable[[], list[tuple[str, ...]]] | None = None) -> Path | None:
    """The file of this repository a pointer's link to the project's website is built from:
    the page `/en/release-notes/changelog.html` is `guide/content/en/release-notes/
    changelog.md` when the repository keeps the site's sources. Its last two parts of the path
    at least must match (one, "changelog", could be any project's page), the longest match
    first; None when no link matches, or when two files match equally (which one is it?).
    `listed`: `site_files(root)`, walked once by a caller that asks for several pointers."""
    wanted: list[list[str]] = []
    for m in _URL_PATH.finditer(text):
        parts = [x.lower() for x in m["path"].split("/") if x]
        if parts and re.fullmatch(r"index(?:\.html?)?", parts[-1]):
            parts = parts[:-1]
        if len(parts) >= 2:
            parts[-1] = re.sub(r"\.html?$", "", parts[-1])
            wanted.append(parts)
    if not wanted:
        return None
    candidates = listed() if listed is not None else site_files(root)
    for parts in wanted:
        for size in range(min(len(parts), 4), 1, -1):
            tail = tuple(parts[-size:])
            hits = [c for c in candidates if c[:-1][-size:] == tail]
            if len(hits) == 1:
                target = root.joinpath(*hits[0][:-2], hits[0][-1])
                return target if regular_file(target) else None
            if hits:
                break  # two pages of that path: which one is meant?
    return None


_CHANGELOG = re.compile(r"^(?P<indent>\s*)\.\.\s+changelog::\s*$")
_CHANGE = re.compile(r"^(?P<indent>\s*)\.\.\s+change::\s*$")
_OPTION = re.compile(r"^\s+:(?P<name>[\w-]+):\s*(?P<value>.*?)\s*$")
_DIRECTIVE = re.compile(r"^(?P<indent>\s*)\.\.\s+[\w:-]+::")
# The kinds a tag may give that say what every entry of it does.
_KINDS = ("removed", "deprecated", "breaking", "backwards incompatible")


def is_directive_changelog(text: str) -> bool:
    return bool(re.search(r"^\s*\.\.\s+changelog::\s*$", text, re.M)) \
        and bool(re.search(r"^\s*\.\.\s+change::\s*$", text, re.M))


def from_directives(lines: list[str]) -> list[str]:
    """Sphinx changelog directives rewritten line for line into what `changelogs` reads:
    `.. changelog::` + `:version: 1.19.1` + `:released: August 8, 2026` is "## 1.19.1 (August
    8, 2026)" (a version not yet released: "## 1.19.2" + "Unreleased"); `.. change::` +
    `:tags: removed, py3k` is "#### removed", its first paragraph one bullet."""
    out = list(lines)
    k = 0
    while k < len(lines):
        line = lines[k]
        release, change = _CHANGELOG.match(line), _CHANGE.match(line)
        if not (release or change):
            k += 1
            continue
        options, end = _options(lines, k + 1)
        for n in range(k + 1, end):
            out[n] = ""
        if release:
            version = options.get("version", "").strip()
            when = options.get("released", "").strip()
            out[k] = f"## {version} ({when})" if version and when else f"## {version}"
            if version and not when and end > k + 1:
                out[k + 1] = "Unreleased"
            k = end
            continue
        out[k] = f"#### {_section(options.get('tags', ''))}"
        k = _body(lines, out, end, len(change["indent"]))
    return out


def _options(lines: list[str], k: int) -> tuple[dict[str, str], int]:
    """A directive's options from line `k` on, and the line after them."""
    options: dict[str, str] = {}
    while k < len(lines) and (m := _OPTION.match(lines[k])):
        options[m["name"].lower()] = m["value"]
        k += 1
    return options, k


def _section(tags: str) -> str:
    """The section an entry's tags name: its kind when that says what the entry does
    ("removed"), else every tag ("bug autogenerate": a fix, whatever it says)."""
    names = [t.strip().lower() for t in re.split(r"[,;]", tags) if t.strip()]
    return next((t for t in names if t in _KINDS), " ".join(names) or "changes")


def _body(lines: list[str], out: list[str], k: int, indent: int) -> int:
    """The change's body from line `k`, indented past the directive's `indent`: its first
    paragraph as a bullet, with a list right after it nested under it (what "Environmental
    updates:" were), the rest blanked; returns the line after the body."""
    while k < len(lines) and not lines[k].strip():
        k += 1
    base = len(lines[k]) - len(lines[k].lstrip()) if k < len(lines) else 0
    mode, item_at, block_at = "first", 0, None  # first | after | list | drop
    for n in range(k, len(lines)):
        line = lines[n]
        depth = len(line) - len(line.lstrip())
        if line.strip() and depth <= indent:
            return n
        out[n] = ""
        if not line.strip():
            mode = {"first": "after"}.get(mode, mode)
            continue
        if block_at is not None and depth > block_at:
            continue  # a `.. seealso::` block's content
        block_at = depth if _DIRECTIVE.match(line) else None
        if block_at is not None:
            continue
        text = line[base:] if depth >= base else line.lstrip()
        bullet = re.match(r"[*+-]\s", text.lstrip())
        if n == k:
            out[n] = f"- {text.strip()}"
        elif mode == "first" or mode == "list" and not bullet and depth > item_at:
            out[n] = f"  {text}"
        elif mode in ("after", "list") and bullet:
            out[n], mode, item_at = f"  {text}", "list", depth
        else:
            mode = "drop"
    return len(lines)


_RELEASE_ROLE = re.compile(r"^\s*[-*]\s+:release:`(?P<version>[^`<]+?)\s*(?:<(?P<date>[^>`]*)>)?`"
                           r"\s*$")
_ENTRY_ROLE = re.compile(r"^(?P<indent>\s*)[-*]\s+:(?P<kind>bug|feature|support):`[^`]*`\s*"
                         r"(?P<text>.*)$")
# The section each kind of entry is read under.
_RELEASES_KINDS = {"bug": "bug fixes", "feature": "changes", "support": "support"}


def is_releases_changelog(text: str) -> bool:
    return len(re.findall(r"^\s*[-*]\s+:release:`", text, re.M)) >= 2


def from_releases(lines: list[str]) -> tuple[list[str], dict[int, str]]:
    """A `releases` changelog rewritten line for line: "- :release:`3.0.3 <2026-04-07>`" is
    "## 3.0.3 (2026-04-07)", "- :bug:`742 major` Define …" is "- Define …"; with the section
    each entry's bullet opens (by 1-based line number: "bug fixes", "changes", "support")."""
    out = list(lines)
    sections: dict[int, str] = {}
    for k, line in enumerate(lines):
        if release := _RELEASE_ROLE.match(line):
            version, when = release["version"].strip(), (release["date"] or "").strip()
            out[k] = f"## {version} ({when})" if when else f"## {version}"
        elif entry := _ENTRY_ROLE.match(line):
            out[k] = f"{entry['indent']}- {entry['text']}"
            sections[k + 1] = _RELEASES_KINDS[entry["kind"]]
    return out, sections
