"""Changelogs: breaking changes, deprecations, removals and changed defaults, with their version.

A changelog is the project's own record of what changed and when; the entries that stay true
and that a newcomer trips over are the ones that take something away or change behaviour.
Additions and fixes are left alone: a fix is a fact about the past, not about the code now.
A deprecation or removal stays worth knowing only while recent: it is proposed only from a
release of the current major line or the one before it (the major is the first component
of the newest released version; for CalVer, 25.3.0, that is the year: about two years),
unless it is said as a choice ("use X instead of Y; Y is not supported anymore").
Formats: headings `Version 1.2.0`, `## [1.2.0] - 2020-01-01`, `1.2.0 (2020-01-01)` with an
underline, `v1.2.0`; Keep-a-Changelog sections (`### Removed`, `### Deprecated`,
`### Changed`, `### Breaking`); bullets with wrapped lines and nested bullets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from kenning.extract.seed.later import order, overtaken
from kenning.extract.seed.model import Proposal, lines_label, plain, regular_dir, regular_file

NAMES = re.compile(r"^(?:CHANGES|CHANGELOG|CHANGE_LOG|HISTORY|NEWS|RELEASE[-_ ]?NOTES)"
                   r"(?:\.(?:md|rst|txt|markdown))?$", re.I)
MAX_BYTES = 2_000_000
MAX_TEXT = 500

_VERSION = r"v?(?P<version>\d+(?:\.\d+){1,3}(?:[-.]?(?:a|b|rc|alpha|beta|dev|post)\.?\d*)?)"
_HEADING = re.compile(
    rf"^(?:#+\s*)?(?:\[?(?:version|release|v\.?)?\s*)?\[?{_VERSION}\]?"
    r"(?:\s*[-–—:(]\s*.*|\s*)$", re.I)
_UNDERLINE = re.compile(r"^([=\-~^*+#])\1{2,}\s*$")
_UNRELEASED = re.compile(r"^(?:#+\s*)?\[?unreleased\]?\s*$|^\s*unreleased\s*$", re.I)
_SECTION = re.compile(r"^#{2,6}\s*(?P<name>[A-Za-z][\w -]{2,40}?)\s*:?\s*$|"
                      r"^(?P<bold>\*\*)?(?P<plain>Breaking changes?|Deprecations?|Removals?|"
                      r"Removed|Deprecated|Changed|Backwards[- ]incompatible changes?)"
                      r"(?:\*\*)?\s*:?\s*$", re.I)
_PRE = re.compile(r"[-.]?(?:a|b|rc|alpha|beta|dev)\.?\d*$")
_BOLD_LINE = re.compile(r"^\*\*(?P<name>[^*]{3,80}?)\*\*\s*:?\s*$")
_BULLET = re.compile(r"^(?P<indent>\s*)(?:[-*+•]|\d+[.)])\s+(?P<text>\S.*)$")

# What an entry must say to be kept, by category (the rule name). "No longer" is a breaking
# change only with a verb of support or use: "X no longer crashes when …" is a fix.
_RULES = (
    ("breaking", re.compile(
        r"\b(?:breaking change|BREAKING|backwards?[- ]incompatible|is now required"
        r"|are now required|must now)\b|\bno longer (?:be |is |are )?(?:supported|a dependency"
        r"|a requirement|required|used|needed|necessary|available|accepted|allowed|exported"
        r"|installed|included|shipped|bundled|part of|compatible|supports?|accepts?|depends?"
        r"|requires?|uses?|has|have|returns?|exposes?|provides?|imports?|works? (?:with|on)"
        r"|defaults?)\b", re.I)),
    ("deprecation", re.compile(
        r"\b(?:is|are|was|were|been|now|considered) deprecated\b|^deprecat(?:e|es|ed)\b"
        r"|\bdeprecated in favou?r of\b|\bwill be removed\b|\bto be removed\b"
        r"|\bold names? (?:is|are) deprecated\b|\b(?:is|are) now (?:a |an )?deprecated\b"
        r"|\b(?:with|shows?|emits?|raises?) (?:a )?(?:DeprecationWarning|deprecation warning)",
        re.I)),
    ("removal", re.compile(r"^(?:remove[ds]?|drop(?:s|ped)?|delete[ds]?|end(?:ed)? support)\b"
                           r"|\b(?:drop(?:s|ped)? support|removed? support|(?:was|were|is|are"
                           r"|has been|have been|has now been|have now been|is now|are now)"
                           r" removed)\b|\bnot supported anymore\b"
                           r"|\baren't supported anymore\b", re.I)),
    ("requirement", re.compile(r"^minimum (?:required |supported )?versions? of \S+ (?:is|are)\b"
                               r"|^(?:update|raise|bump)[sd]? (?:the )?minimum (?:dependency |"
                               r"required )?versions?\b", re.I)),
    ("default", re.compile(r"^change[sd]? (?:the )?default\b|\bchanged (?:the )?default\b"
                           r"|\bdefault\b[^.]{0,40}\b(?:is|are) now\b"
                           r"|\bnow defaults? to\b|\bdefaults? (?:changed|is changed)\b"
                           r"|\bdefault\b[^.]{0,60}\bfrom\b[^.]{1,40}\bto\b"
                           r"|\bby default instead of\b|\bdefaults? to \S+ instead of\b", re.I)),
    ("instead", re.compile(r"^(?:use[sd]?|switch(?:ed)? to|migrate[sd]? to|move[sd]? to)\b.*"
                           r"\b(?:instead of|rather than)\b|^replace[sd]? .+ with\b", re.I)),
)
_INSTEAD = dict(_RULES)["instead"]
_SECTION_RULES = {"breaking": "breaking", "backwards incompatible": "breaking",
                  "removed": "removal", "removal": "removal", "deprecated": "deprecation",
                  "deprecation": "deprecation"}
# The verb a section heading gives its entries ("### Removed" + "- Python 3.8 support.").
_SECTION_VERBS = {"breaking": "Breaking change", "backwards incompatible": "Breaking change",
                  "removed": "Removed", "removal": "Removed", "deprecat": "Deprecated"}
# Sections whose entries are fixes or additions, whatever words they use.
_SKIPPED_SECTIONS = re.compile(r"\b(?:fix|fixed|fixes|bug|bugs|security|added|new features?"
                               r"|features?|documentation|docs|internal|misc)\b", re.I)
# Entries about the project's own plumbing, typos or cleanups are not knowledge about its
# behaviour; fixes are about the past.
_NOISE = re.compile(r"\b(?:typo|spelling|docs? (?:fix|build)|changelog|readme|ci\b|workflow"
                    r"|pre-commit|dependabot|test suite|tests? (?:fix|for)|coverage"
                    r"|version bump|bump(?:ed)? |unused|unnecessary|outdated|dead code|shim"
                    r"|leftover|remov(?:e|es|ed|ing) (?:the )?(?:usages?|uses?) of)"
                    r"|^(?:fix(?:e[sd])?|add(?:s|ed)?|improve[sd]?|document(?:s|ed)?)\b"
                    r"|>>>|```|^\.\. |\bstray\b|\b(?:incorrect|wrong)(?:ly)?\b|\bregression\b"
                    r"|\bno longer (?:crash|raise|render|fail|break|hang|leak|error|warn|trigger"
                    r"|gets?|points?|mutate|close|drop|show|print|emit|loses?)\w*", re.I)
MAX_ENTRY = 600
_YANKED = re.compile(r"\byanked\b", re.I)


@dataclass(frozen=True)
class Entry:
    version: str | None
    section: str | None
    text: str
    first: int
    last: int
    yanked: bool = False
    head: str | None = None  # the bullet's own words when nested bullets follow
    upcoming: str | None = None  # an unreleased entry's version-to-be ("Version 3.2.0\n
    # Unreleased")


def changelog_files(root: Path) -> list[Path]:
    found = [p for p in sorted(root.iterdir()) if NAMES.match(p.name) and regular_file(p)]
    docs = root / "docs"
    if not found and regular_dir(docs):
        found = [p for p in sorted(docs.iterdir()) if NAMES.match(p.name) and regular_file(p)]
    return found


def entries(text: str) -> list[Entry]:
    """Every top-level bullet under a version heading, its wrapped lines and nested bullets
    joined ("Remove deprecated code: A: use X instead; B: use Y instead")."""
    reader = _Reader(text.splitlines())
    for n, raw in enumerate(reader.lines, 1):
        reader.read(n, raw)
    reader.flush()
    return [replace(e, yanked=True) if e.version in reader.yanked else e for e in reader.out]


class _Reader:
    """The changelog walked line by line: the release and section it is in, the bullet being
    gathered (its wrapped lines and nested bullets), the releases marked as yanked."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.out: list[Entry] = []
        self.version: str | None = None
        self.section: str | None = None
        self.current: list[str] = []
        self.nested: list[str] = []
        self.start = self.end = self.base_indent = 0
        self.blank = False
        self.yanked: set[str | None] = set()  # "YANKED" under a heading: taken back
        self.upcoming: str | None = None
        self.heading_line = 0

    def flush(self) -> None:
        if self.current:
            body = " ".join(self.current)
            body = body.split("```")[0].strip() or body  # the words, not the example
            if self.nested:
                body = body.rstrip(" .:") + ": " + "; ".join(n.rstrip(" .;") for n in self.nested)
            self.out.append(Entry(self.version, self.section, body, self.start, self.end,
                                  head=" ".join(self.current) if self.nested else None,
                                  upcoming=self.upcoming if self.version == "unreleased"
                                  else None))
        self.current, self.nested = [], []

    def read(self, n: int, raw: str) -> None:
        line = raw.rstrip()
        if self._heading(n, line) or self._section(line) or _UNDERLINE.match(line.strip()):
            return
        bullet = _BULLET.match(line)
        was_blank, self.blank = self.blank, False
        if bullet:
            self._bullet(n, bullet, was_blank)
        elif not line.strip():
            self.blank = True
        elif self.current and raw.startswith((" ", "\t")) and not self.blank:
            if self.nested:
                self.nested[-1] += " " + line.strip()
            else:
                self.current.append(line.strip())
            self.end = n
        else:
            if not self.current and _YANKED.search(line):
                self.yanked.add(self.version)
            self.flush()

    def _heading(self, n: int, line: str) -> bool:
        """A release heading (or "Unreleased") starts a new release."""
        following = self.lines[n] if n < len(self.lines) else ""
        heading = _HEADING.match(line.strip()) if line.strip() else None
        underlined = bool(_UNDERLINE.match(following.strip())) if following.strip() else False
        if heading and (line.lstrip().startswith("#") or underlined or line.strip().lower()
                        .startswith(("version", "release", "v", "["))):
            self.flush()
            self.version, self.section = heading.group("version"), None
            self.heading_line = n
            if _YANKED.search(line):
                self.yanked.add(self.version)
            return True
        if _UNRELEASED.match(line.strip()) or line.strip().lower().startswith("## unreleased"):
            self.flush()
            right_under = self.version not in (None, "unreleased") and n - self.heading_line <= 3
            self.upcoming = self.version if right_under else None
            self.version, self.section = "unreleased", None
            return True
        return False

    def _section(self, line: str) -> bool:
        sec = _SECTION.match(line.strip())
        bold = _BOLD_LINE.match(line.strip())
        if not (sec or bold) or _BULLET.match(line):
            return False
        self.flush()  # "**The following changes are also included**:" ends "**Deprecations**:"
        self.section = (sec.group("name") or sec.group("plain") or "") if sec \
            else bold.group("name") if bold else ""
        self.section = self.section.strip().lower()
        return True

    def _bullet(self, n: int, bullet: re.Match[str], was_blank: bool) -> None:
        indent = len(bullet.group("indent"))
        if self.current and indent > self.base_indent and (
                self.nested or not was_blank or indent > 0):
            self.nested.append(bullet.group("text").strip())
            self.end = n
            return
        self.flush()
        self.base_indent = indent
        self.current = [bullet.group("text").strip()]
        self.start = self.end = n


_NAMED = re.compile(r"`|\d|\w[._]\w|(?<!^)(?<![.:] )\b[A-Z][a-zA-Z]+")


def classify(entry: Entry) -> str | None:
    """The rule an entry fires, or None; the section heading counts as the entry's words.

    An entry must name what it is about (code, a version, a proper name): "Remove previously
    deprecated code." says nothing on its own."""
    text = plain(entry.text)
    if _NOISE.search(entry.text) or len(entry.text) > MAX_ENTRY * 2 or len(text.split()) < 4 \
            or not _NAMED.search(text[1:]):
        return None
    section = (entry.section or "").replace("-", " ")
    if _SKIPPED_SECTIONS.search(section):
        return None
    # A bullet with nested ones must say the change itself ("Remove deprecated code:" + what);
    # a headline ("Improved flag handling:") over a list of details is not one fact.
    said = plain(entry.head) if entry.head else text
    for name, pattern in _RULES:
        if pattern.search(said):
            return name
    for word, rule in _SECTION_RULES.items():
        if word in section:
            return rule
    return None


_LEANS = re.compile(r"\b(?:too|as well|also|likewise|the same)\W*(?:#\d+\W*)*$", re.I)


def whole(body: str) -> str | None:
    """The entry as it stands, or None when it is too long to read as one fact: a cut entry
    ("… can now …") says less than nothing; nor is one that leans on the entry before it
    ("… are now deleted too"), which does not say what it acts on."""
    return body if len(body) <= MAX_TEXT and not _LEANS.search(body) \
        and not body.endswith(":") else None


def first_sentence(body: str) -> str | None:
    """A breaking change too long to quote whole, by its first sentence when that says it
    ("Class-level `kw_only=True` behavior is now consistent with `dataclasses`.")."""
    first = re.split(r"(?<=[.!?])\s+(?=[A-Z`*])", body)[0]
    return first if first.endswith(".") and 6 <= len(first.split()) <= 60 \
        and len(first) <= MAX_TEXT and not _LEANS.search(first) else None


def _verb(section: str | None) -> str:
    key = (section or "").lower().replace("-", " ")
    return next((v for k, v in _SECTION_VERBS.items() if k in key), "Changed")


# An entry that only takes something away or relaxes a requirement ("Removed support for
# `create_jinja_loader`", "no longer requires the SSL module") is news while recent; one
# that restricts or changes behaviour ("no longer accepts arbitrary encodings") stays true.
_TAKES_AWAY = re.compile(r"\b(?:remov|drop|delet)\w*|\bno longer (?:be |is |are )?(?:required"
                         r"|requires?|needed|necessary|used?|uses|a dependency|a requirement"
                         r"|supported|supports?|available|included|shipped|bundled"
                         r"|ha(?:s|ve) (?:a|an|any)\b)", re.I)
_SAID_BREAKING = re.compile(r"\bbackwards?[- ]incompatible\b|\bbreaking\b", re.I)
# A changelog's imperative ("Drop support for …") said of the project ("click 8.2.0 drops
# support for …"): present tense, with what it is about.
_IMPERATIVE = {"use": "uses", "drop": "drops", "remove": "removes", "deprecate": "deprecates",
               "change": "changes", "rely": "relies", "require": "requires",
               "replace": "replaces", "rename": "renames", "switch": "switches",
               "move": "moves", "make": "makes", "raise": "raises", "set": "sets",
               "allow": "allows", "disallow": "disallows", "prefer": "prefers",
               "stop": "stops", "support": "supports", "migrate": "migrates",
               "default": "defaults", "pass": "passes", "enable": "enables",
               "disable": "disables", "show": "shows", "validate": "validates",
               "treat": "treats", "ignore": "ignores", "reject": "rejects",
               "update": "updates", "bump": "bumps"}


def said_of(project: str | None, version: str, rel: str, label: str, body: str) -> str:
    """"click 8.2.0 (CHANGES.md): Drops support for Python 3.7." or, when the section gives
    the verb, "Removed in structlog 26.1.0 (CHANGELOG.md): Python 3.8 and 3.9 support."."""
    rel = f"unreleased, {rel}" if version.endswith("(unreleased)") else rel
    version = version.removesuffix("(unreleased)").strip()  # "3.2.0 (unreleased, CHANGES.rst)"
    if not project:
        return f"{label} in {version or 'the next release'} ({rel}): {body}"
    first, _, rest = body.partition(" ")
    verb = _IMPERATIVE.get(first.lower())
    if verb and rest:  # the entry's own verb says it: "Removed in" would say it twice
        return f"{project} {version}".rstrip() + f" ({rel}): {verb.capitalize()} {rest}"
    if label != "Changed":
        return f"{label} in {project} {version}".rstrip() + f" ({rel}): {body}"
    return f"{project} {version}".rstrip() + f" ({rel}): {body}"


def _release(entry: Entry) -> str:
    """How an entry's release is named: "3.2.0", "3.2.0 (unreleased)", "unreleased"."""
    if entry.version != "unreleased":
        return entry.version or ""
    return f"{entry.upcoming} (unreleased)" if entry.upcoming else "(unreleased)"


def recent_major(versions: Iterable[str | None]) -> tuple[int, ...]:
    """The oldest major line whose deprecations and removals are still proposed: the one
    before the newest released version's first component; for a 0.x project, whose minor
    releases are its major ones, the minor line before the newest (0.27 when 0.28 is out)."""
    released = [order(v) for v in versions if v is not None and v != "unreleased"]
    newest = max(released, default=(0,))
    if newest[0] == 0 and len(newest) > 1:
        return (0, newest[1] - 1)
    return (newest[0] - 1,)


def proposals(text: str, rel: str, project: str | None = None) -> list[Proposal]:
    """The changelog at `rel` (its text) of `project`: one proposal per entry a rule keeps,
    unless a newer entry overtook it (see `later`), its release was yanked, or a newer release
    says the same words (a fix backported to two lines is one fact, said by the newest)."""
    every = [(e, classify(e)) for e in entries(text) if not e.yanked and e.version is not None]
    # Unreleased entries are what HEAD holds: proposed (as "3.2.0 (unreleased)"), and they
    # overtake the released ones. So do entries no rule keeps ("`__lt__` does not consider
    # subclasses comparable anymore"), though they are not proposed.
    gone_all = overtaken([(order(e.version), plain(e.text), rule) for e, rule in every])
    found = [(e, rule) for k, (e, rule) in enumerate(every)
             if rule is not None and k not in gone_all]
    oldest = recent_major(e.version for e, _ in every)
    out: list[Proposal] = []
    said: set[str] = set()
    finals = {e.version for e, _ in every if e.version and not _PRE.search(e.version)}
    for entry, rule in sorted(found, key=lambda f: order(f[0].version), reverse=True):
        if (pre := _PRE.search(entry.version or "")) and entry.version[:pre.start()] in finals:
            continue  # 0.13.0.dev0 said again, or said better, by 0.13.0
        words = plain(entry.text)
        if order(entry.version)[:len(oldest)] < oldest and not _INSTEAD.search(words) and (
                rule in ("deprecation", "removal", "requirement")
                or (rule == "breaking" and _TAKES_AWAY.search(words)
                    and not _SAID_BREAKING.search(words))):
            continue  # old news, long settled; "use X instead of Y" is a decision, kept
        body = whole(words)
        if body is None and rule == "breaking":
            body = first_sentence(words)
        if body is None or " ".join(body.lower().split()) in said:
            continue
        said.add(" ".join(body.lower().split()))
        out.append(Proposal(
            source="changelog", kind="decision" if rule == "instead" else "codebase",
            text=said_of(project, _release(entry), rel, _verb(entry.section), body),
            provenance=lines_label(rel, entry.first, entry.last), rule=f"changelog-{rule}"))
    out.sort(key=lambda p: int(p.provenance.rsplit(":", 1)[1].split("-")[0]))
    return out
