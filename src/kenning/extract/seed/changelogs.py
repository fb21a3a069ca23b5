"""Changelogs: breaking changes, deprecations, removals and changed defaults, with their version.

A changelog is the project's own record of what changed and when; the entries that stay true
and that a newcomer trips over are the ones that take something away or change behaviour.
Additions and fixes are left alone: a fix is a fact about the past, not about the code now
(but a changed default stays true in any section, and so does what a security fix refuses).
What takes something away (a deprecation, removal, relaxed requirement, move or rename)
stays worth knowing only while recent: not from a release older than `WINDOW` before the
newest (dated by the changelog, else by the release's git tag) nor from before the major line
preceding the newest (CalVer and 0.x projects: by date alone); an old deprecation holds only
while HEAD's code still warns (`Proposal.old`), an old choice ("use X instead of Y") only while
HEAD's code still uses X ("uses cPickle instead of pickle", 2013, does not).
A change of behaviour stays until a later entry overtakes it, or until it is twice the window
old (what a security fix refuses, however old). Acknowledgements and internal
changes (refactors, clean-ups, private members, an Infrastructure or CI section's entries)
are not facts; a section heading gives its entries a verb ("Deprecations") only when it says
nothing else ("Deprecation and compatibility" holds entries that deprecate nothing).
Formats: headings `Version 1.2.0`, `## [1.2.0] - 2020-01-01`, `1.2.0 (2020-01-01)` with an
underline, `### 8.0.0 February 19 2026` (a date in words after the version), `v1.2.0`,
`**1.2.0**`, `widget 1.2.0 (2020-01-01)`; Keep-a-Changelog sections
(`### Removed`, `### Deprecated`, `### Changed`, `### Breaking`); bullets with wrapped lines
and nested bullets; a pointer to the real changelog and Sphinx's changelog directives
(`formats`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date, timedelta
from pathlib import Path

from kenning.extract.seed.formats import (
    POINTER_LINES,
    from_directives,
    from_releases,
    is_directive_changelog,
    is_releases_changelog,
    pointed_to,
)
from kenning.extract.seed.later import (
    historical,
    identifiers,
    order,
    overtaken,
    without_containers,
)
from kenning.extract.seed.model import (
    Proposal,
    lines_label,
    lines_of,
    plain,
    pythons_own,
    regular_dir,
    regular_file,
    sentences,
)
from kenning.extract.seed.releasefiles import folders_named, release_files
from kenning.extract.seed.trivia import (
    FIX_WORDING,
    names_key,
    names_only_removal,
    point_fix,
    point_release,
    private_rename,
    replacement_said_before,
    signature_detail,
)

NAMES = re.compile(r"^(?:CHANGES|CHANGELOG|CHANGE_LOG|HISTORY|NEWS|RELEASE[-_ ]?NOTES)"
                   r"(?:\.(?:md|rst|txt|markdown))?$", re.I)
MAX_BYTES = 2_000_000
MAX_TEXT = 500

_VERSION = r"v?(?P<version>\d+(?:\.\d+){1,3}(?:[-.]?(?:a|b|rc|alpha|beta|dev|post)\.?\d*)?)"
# After the version: a dash, colon or bracket and anything, or a date said in words ("8.0.0
# February 19 2026", "5.6.1 [Hotfix] October 8, 2020", isort's), or nothing.
_HEADING = re.compile(
    rf"^(?:#+\s*)?(?:\[?(?:version|release|v\.?)?\s*)?\[?{_VERSION}\]?"
    r"(?:\s*[-–—:(]\s*.*|\s+(?:\[[^\]]{1,20}\]\s*)?[a-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?\b"
    r".*|\s+\[[^\]]{1,20}\]\s*|\s*)$", re.I)
# An RST link around a release's version ("`1.16.7 <https://…/tree/1.16.7>`_ - 2026-08-13",
# towncrier's template in some projects): the heading is its text.
_LINKED = re.compile(r"^`(?P<text>[^`<]+?)\s*<[^<>`]*>`__?")
_MD_LINKED = re.compile(r"\[(?P<text>[^\]]+)\]\([^)]*\)")
# A symbol before a section's name ("### ⚠ BREAKING CHANGES", release-please's; "### 🐛 Bug
# Fixes"): the name is the words.
_SYMBOLS = re.compile(r"^(#{2,6}\s*)[^\w\s#`*\[(]+\s*")
_UNDERLINE = re.compile(r"^([=\-~^*+#])\1{2,}\s*$")


# Bold around a release heading ("**4.14.2**", anyio's; "**4.5.2** (2026-05-14)", typeguard's
# with its date after), and the project's name before its
# version ("pluggy 1.6.0 (2025-05-15)", towncrier's default title): the heading is the
# version; a runtime's name before one is no release of the project ("Python 3.12").
_BOLD = re.compile(r"^\*\*(?P<text>[^*]+?)\*\*(?P<rest>\s*[-–—(][^*]*)?:?$")
_NAME_FIRST = re.compile(r"^(?P<hashes>#+\s*)?(?!(?:python|pypy|cpython|django|node|version"
                         r"|release)\b)[A-Za-z][\w.-]*\s+(?=v?\d+\.\d)", re.I)


_ADDS_SUPPORT = re.compile(r"\b(?:add(?:s|ed)?|introduc(?:es|ed)) (?:official |initial )?support"
                           r" for\b", re.I)


def _release_heading(line: str) -> re.Match[str] | None:
    """A line read as a release heading (its version linked, bold or after the project's
    name, or not), else None."""
    line = _BOLD.sub(lambda m: m["text"] + (m["rest"] or ""),
                     _LINKED.sub(r"\g<text>", line.strip()))
    line = _DATE_FIRST.sub(r"\g<hashes>\g<rest> (\g<date>)", line)
    return (_HEADING.match(line) or _HEADING.match(_NAME_FIRST.sub(r"\g<hashes>", line))
            if line else None)


# The date before the version ("## 2025-10-27: pdoc 16.0.0", pdoc's): read as "pdoc 16.0.0
# (2025-10-27)".
_DATE_FIRST = re.compile(r"^(?P<hashes>#+\s*)(?P<date>(?:19|20)\d\d-\d\d-\d\d)\s*[:–—-]\s*"
                         r"(?P<rest>\S.*\d.*)$")

_UNRELEASED = re.compile(r"^(?:#+\s*)?\[?unreleased\]?\s*$|^\s*(?:\*\*)?unreleased(?:\*\*)?\s*$",
                         re.I)
_SECTION = re.compile(r"^#{2,6}\s*(?P<name>[A-Za-z][\w -]{2,40}?)\s*:?\s*$|"
                      r"^(?P<bold>\*\*)?(?P<plain>Breaking changes?|Deprecations?|Removals?|"
                      r"Removed|Deprecated|Changed|Backwards[- ]incompatible changes?)"
                      r"(?:\*\*)?\s*:?\s*$", re.I)
# An underlined section title: "Bugfixes", towncrier's "Deprecations (removal in next major
# release)" and "Removals and backward incompatible breaking changes".
_TITLE = re.compile(r"[A-Za-z][\w ,&/'()-]{2,60}")
# A release's section named by the module it is about: "``tornado.websocket``" over "~~~~".
_CODE_TITLE = re.compile(r"(`{1,2})[A-Za-z_][\w.]{1,60}\1")
_TITLE_VERSION = re.compile(r"\s+[-–—]\s+v?\d+(?:\.\d+)+\S*$")
_PRE = re.compile(r"[-.]?(?:a|b|rc|alpha|beta|dev)\.?\d*$")
_BOLD_LINE = re.compile(r"^\*\*(?P<name>[^*]{3,80}?)\*\*\s*:?\s*$")
_ENDS_AT_A_COLON = re.compile(r"(?:deprecat|remov|breaking|backwards? incompatible)")
_COLON_TITLE = re.compile(r"(?P<name>[A-Z][A-Za-z]+(?:[ /&-][A-Za-z]+){0,3}):")
_BULLET = re.compile(r"^(?P<indent>\s*)(?:[-*+•]|\d+[.)])\s+(?P<text>\S.*)$")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_ISO_DATE = re.compile(r"\b(?P<y>(?:19|20)\d\d)[-/.](?P<m>\d\d?)[-/.](?P<d>\d\d?)\b")
_MONTH_FIRST = re.compile(r"\b(?P<mon>[A-Za-z]{3,9})\.?\s+(?P<d>\d\d?)(?:st|nd|rd|th)?,?\s+"
                          r"(?P<y>(?:19|20)\d\d)\b")
_DAY_FIRST = re.compile(r"\b(?P<d>\d\d?)(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>[A-Za-z]{3,9})\.?,?"
                        r"\s+(?P<y>(?:19|20)\d\d)\b")
_DATE_LINES = 4  # a release's date: on its heading line or a few lines under ("Released …")


def release_date(line: str) -> date | None:
    """The date a release heading or the line under it gives ("3.23.0 (2024-10-17)",
    "Released 2022-08-01", "## 0.28.1 (6th December, 2024)", "(August 24, 2025)")."""
    try:
        if m := _ISO_DATE.search(line):
            return date(int(m["y"]), int(m["m"]), int(m["d"]))
        for pattern in (_MONTH_FIRST, _DAY_FIRST):
            m = pattern.search(line)
            if m and m["mon"][:3].lower() in _MONTHS:
                return date(int(m["y"]), _MONTHS.index(m["mon"][:3].lower()) + 1, int(m["d"]))
    except ValueError:  # "2024-13-40"
        return None
    return None

# What an entry must say to be kept, by category (the rule name). "No longer" is a breaking
# change only with a verb of support or use: "X no longer crashes when …" is a fix.
_RULES = (
    ("breaking", re.compile(
        r"(?<!in lieu of introducing a )(?<!instead of introducing a )(?<!to avoid a )"
        r"(?<!without a )\b(?:breaking change|BREAKING|backwards?[- ]incompatible|is now required"
        r"|are now required|must now)\b|\bno longer (?:be |is |are )?(?:supported|a dependency"
        r"|a requirement|required|used|needed|necessary|available|accepted|allowed|exported"
        r"|installed|included|shipped|bundled|part of|compatible|supports?|accepts?|depends?"
        r"|requires?|uses?|has|have|returns?|exposes?|provides?|imports?|works? (?:with|on)"
        r"|defaults?)\b", re.I)),
    ("deprecation", re.compile(
        r"\b(?:is|are|was|were|been|now|considered) deprecated\b|^deprecat(?:e|es|ed)\b"
        # what a partial un-deprecation leaves: "`FormRequest` is no longer deprecated, only
        # its `from_response()` method is still deprecated"
        r"|\b(?:(?:is|are) still|remains?|stays?) deprecated\b"
        r"|\bdeprecated in favou?r of\b|\bwill be removed\b"
        # "is to be removed in 3.0", not "Requests which raise … need to be removed from the
        # pool queue" (a fix)
        r"|(?<!\bneed )(?<!\bneeds )(?<!\bhave )(?<!\bhas )(?<!\bhad )\bto be removed\b"
        r"|\bold names? (?:is|are) deprecated\b|\b(?:is|are) now (?:a |an )?deprecated\b"
        r"|\b(?:with|shows?|emits?|raises?) (?:a )?(?:DeprecationWarning|deprecation warning)"
        r"|\bmark(?:s|ed)? `[^`]+`(?: \w+)? (?:as )?deprecated\b"
        # a soft deprecation: "… remains available for backwards compatibility but is no
        # longer the recommended API for handling POST data"
        r"|\bno longer (?:the )?recommended\b",
        re.I)),
    ("removal", re.compile(r"^(?:remove[ds]?|drop(?:s|ped)?|delete[ds]?|end(?:ed)? support)\b"
                           r"|\b(?:drop(?:s|ped)? support|removed? support|(?:was|were|is|are"
                           r"|has been|have been|has now been|have now been|is now|are now)"
                           r" removed)\b|\bnot supported anymore\b"
                           r"|\baren't supported anymore\b"
                           # "Support for SQLAlchemy 1.3 … is now dropped from Alembic"
                           r"|^support for\b(?:[^.;]|\.(?=\d)){1,80}\b(?:is|are|was|were|has been"
                           r"|have been)(?: now)? (?:dropped|removed)\b", re.I)),
    ("rename", re.compile(r"^rename[sd]? \S.* (?:to|as) \S|\b(?:is|are|was|were|has been"
                          r"|have been) renamed (?:to|as)\b", re.I)),
    ("requirement", re.compile(r"^minimum (?:required |supported )?versions? of \S+ (?:is|are)\b"
                               r"|^(?:update|raise|bump)[sd]? (?:the )?minimum (?:dependency |"
                               r"required )?versions?\b", re.I)),
    ("default", re.compile(r"^change[sd]? (?:the )?default\b|\bchanged (?:the )?default\b"
                           r"|\bdefault\b[^.]{0,60}\b(?:is|are) now\b"
                           # "`s3://` requests now use HTTPS by default, instead of …"
                           r"|\bnow\b[^.]{0,40}\bby default,? instead of\b"
                           r"|\bnow defaults? to\b|\bdefaults? (?:changed|is changed)\b"
                           r"|\bdefault\b[^.]{0,60}\bfrom\b[^.]{1,40}\bto\b"
                           r"|\bby default instead of\b|\bdefaults? to \S+ instead of\b", re.I)),
    # what replaces what, said in passing ("… has been replaced with …", "These replace the
    # removed `get_canned_query()` …"): news while recent, like a removal
    ("change", re.compile(r"\b(?:has|have) been replaced (?:with|by)\b"
                          # "The project now uses `uv` for packaging …, replacing `poetry`."
                          r"|\bnow uses? \S[^.;]*?,? replacing\b"
                          r"|\b(?:is|are) (?:now )?replaced (?:with|by)\b"
                          r"|\breplaces? the (?:removed|deprecated|old|previous|former)\b", re.I)),
    # a change of how a thing behaves or where it lives, said as what it now does ("`x()`
    # now returns an `R` object instead of the raw cursor", "now execute using the
    # `IMMEDIATE` isolation level", "can now be found at …", "now lives in …"): news while
    # recent, and never a fix's ("now correctly …") or a type's ("returns `Self` instead of …")
    ("behaviour", re.compile(
        r"\bnow (?!correctly|properly|also|again|only|just)(?:\w+ ){0,1}?(?:returns?|uses?"
        r"|executes?|runs?|raises?|sends?|stores?|emits?|yields?|produces?|generates?"
        r"|treats?|expects?|reads?|writes?|loads?|calls?|parses?)\b[^.;]*?\b(?:instead of"
        r"|rather than|regardless of)\b"
        r"|\bnow (?:executes?|runs?) using\b"
        r"|\b(?:can|may|should) now be found (?:at|in|under)\b"
        r"|\bnow (?:lives?|resides?) (?:in|at|under)\b"
        # what a call or a page now asks for: "… now require a `data_source` argument"
        r"|\bnow requires?\b"
        # what now happens unless told otherwise: "The asyncio reactor is now enabled by
        # default." (a change of behaviour, news while recent, unlike a changed default's value)
        r"|\bnow\b[^.;]{0,60}\bby default\b", re.I)),
    ("instead", re.compile(r"^(?:use[sd]?|switch(?:ed)? to|migrate[sd]? to|move[sd]? to)\b.*"
                           r"\b(?:instead of|rather than)\b|^replace[sd]? .+ with\b", re.I)),
    # a notice to those who build on the project, saying what they must now do ("You need to
    # explicitly call `plugins.load_plugins()` to load them.", "please update it to populate a
    # list of `genres` instead", "otherwise your plugin will stop working with the next major
    # release"): news while recent, like a change
    ("notice", re.compile(r"\byou(?:'ll| will)? (?:now )?(?:need|have) to\b|\byou must\b"
                          r"|\bplease (?:update|change|migrate|switch|use)\b"
                          r"|\b(?:update|migrate|change) (?:it|them|your \w+(?: \w+)?) to\b"
                          r"|\bwill stop working\b|\bmust (?:now )?be (?:updated|changed"
                          r"|migrated|ported)\b", re.I)),
)
_RULE_PATTERNS = dict(_RULES)
_INSTEAD = _RULE_PATTERNS["instead"]
# A label a breaking entry opens with ("BACKWARDS INCOMPATIBLE Replaced …", "**BREAKING**:"):
# said by the verb, not left in the sentence.
_BREAKING_LABEL = re.compile(r"^\W*(?:backwards?[- ]incompatible|breaking(?: change)?)\b[\s:*_]*"
                             r"(?=[A-Z`])", re.I)
# What a sentence cut from a long entry must say to be the change itself.
_CHANGE_SAID = re.compile(r"\b(?:now|no longer|anymore|instead|renamed|removed|deprecated"
                          r"|dropped|replaced|changed|default|stopped)\b", re.I)
# A cut sentence that points at what was cut ("The classes listed below are now abstract base
# classes."): it does not read alone.
_POINTS_ON = re.compile(r"\b(?:listed|shown|given|described|mentioned|named) below\b"
                        r"|\bthe following\b|:$", re.I)
_SECTION_RULES = {"breaking": "breaking", "backwards incompatible": "breaking",
                  "backward incompatible": "breaking",
                  "removed": "removal", "removal": "removal", "deprecated": "deprecation",
                  "deprecation": "deprecation"}
# The verb a section heading gives its entries ("### Removed" + "- Python 3.8 support.").
_SECTION_VERBS = {"breaking": "Breaking change", "backwards incompatible": "Breaking change",
                  "backward incompatible": "Breaking change",
                  "removed": "Removed", "removal": "Removed", "deprecat": "Deprecated"}
# Sections whose entries are fixes or additions, whatever words they use.
_SKIPPED_SECTIONS = re.compile(r"\b(?:fix|fixed|fixes|bug|bugs|bug ?fix\w*|security|added"
                               r"|new features?"
                               r"|features?|documentation|docs|internal|misc|refactor\w*"
                               r"|chores?|maintenance|infrastructure|tooling|testing|ci)\b",
                               re.I)
# A towncrier "Misc" section is notes of any kind: a deprecation said there is one (falcon
# 4.3.0's "`falcon.testing.redirected` … has been deprecated in favor of …").
_GRAB_BAG = re.compile(r"\bmisc(?:ellaneous)?\b", re.I)
# A section that gives its entries a verb says only that ("Deprecations", "Possibly backwards
# incompatible changes"); one that says something besides ("Deprecation and compatibility")
# also holds entries that deprecate nothing ("Import `Literal` from the typing module"): there
# an entry must say it itself.
_LIFECYCLE_SECTION = re.compile(r"(?:(?:api|upcoming|possibly|potentially|planned|notable"
                                r"|major|and|breaking|changes?|backwards?|incompatible"
                                r"|incompatibilit(?:y|ies)|deprecat\w*|remov\w*)\W*)+", re.I)
_SECURITY = re.compile(r"\bsecurity\b", re.I)
# A preview style's or an experimental feature's entry ("### Preview style" + "- Remove
# parentheses around …") is not what the project does: said as a plain change it misleads.
_PREVIEW = re.compile(r"\b(?:preview|experimental|unstable)\b", re.I)
# Entries about the project's own plumbing, typos or cleanups are not knowledge about its
# behaviour; fixes are about the past ("Bugfix: …", "… MkDocs would crash with …"), whatever
# they remove.
_NOISE = re.compile(r"\b(?:typo|spelling|docs? (?:fix|build)|changelog|readme|ci\b|workflow"
                    r"|pre-commit|dependabot|test suite|tests? (?:fix|for)|coverage"
                    r"|version bump|bump(?:ed)? |unused|unnecessary|dead code|shim"
                    # "Remove outdated docs", not a reason: "as it has been badly outdated and
                    # insecure for a decade"
                    r"|(?<!\bbeen )(?<!\bis )(?<!\bwas )(?<!\bare )(?<!\bwere )\boutdated\b"
                    r"(?! and\b| or\b)"
                    r"|leftover|remov(?:e|es|ed|ing) (?:the )?(?:usages?|uses?) of|useless"
                    r"|redundant|superfluous|refactor\w*|clean(?:s|ed)?[- ]?up\w*"
                    r"|^\W*(?:\w+ ){0,3}internal(?:ly)?\b"
                    r"|(?:since|as|because) (?:it|they) (?:is|are|was|were) (?:no longer|not"
                    r"|never) (?:used|needed))"
                    r"|^\W*(?:we(?:'ve| have)? )?(?:fix(?:e[sd])?|bug ?fix(?:e[sd])?"
                    r"|hot ?fix(?:e[sd])?|add(?:s|ed)?"
                    r"|improve[sd]?|document(?:s|ed)?)\b"
                    r"|\bwould (?:crash|fail|hang|raise|error|break)\b"
                    r"|>>>|```|^\.\. |\bstray\b|\b(?:incorrect|wrong|erroneous)(?:ly)?\b"
                    r"|\bregression\b"
                    r"|\bno longer (?:crash|raise|render|fail|break|hang|leak|error|warn|trigger"
                    r"|gets?|points?|mutate|close|drop|show|print|emit|loses?)\w*"
                    # what is undone, not what holds: "Revert backward incompatible change
                    # (BaseURL)", "We had to revert the recursive feature for `evolve()`"
                    r"|^\W*(?:\w+ ){0,3}revert(?:s|ed)?\b"
                    # the project's own packaging and plumbing: "The deprecated license
                    # classifier was removed from setup.cfg", "Removes obsolete Makefile
                    # targets", "Python-Markdown was unpinned", "in pager implementation"
                    r"|\bclassifiers?\b|\b(?:un)?pinned\b"
                    # its own test and development dependencies: "Removes pytest-trio, mypy
                    # and flaky from the test dependencies"
                    r"|\b(?:test|testing|dev|development|docs?|lint|ci) (?:dependenc\w*"
                    r"|deps|requirements?|extras?)\b"
                    r"|\b(?:requirements|dependencies|deps) (?:of|for) (?:the )?(?:\w+ )?tests?\b"
                    # what says itself it changes nothing for users: "This should not have any
                    # impact on plugin developers or end-users."
                    r"|\b(?:should|will|does) not (?:have )?(?:any |an )?(?:impact|effect) on\b"
                    # "Technically a breaking change, but unlikely to affect anyone."
                    r"|\bunlikely to (?:affect|impact|break|matter to) (?:anyone|many|most|users)\b"
                    r"|\bno (?:user[- ]facing|functional|behaviou?ral) changes?\b"
                    r"|^\W*(?:remove[sd]?|drop(?:s|ped)?|delete[sd]?) (?:the |an? |some )?"
                    r"(?:obsolete|unneeded)\b|\bin (?:the |its |our )?[\w-]+ implementation\b",
                    re.I)
MAX_ENTRY = 600
# What a paragraph of a release's prose is proposed for: what replaces what, what the code now
# does, a default, a deprecation.
_PROSE_RULES = ("change", "behaviour", "default", "deprecation", "notice")
# What a change of behaviour that is a fix says: what it replaces is a server error or a crash
# ("now return `400` instead of `500`"), or it catches up with what the rest already did.
_FIXED = re.compile(r"\binstead of (?:an? |the )?(?:`?5\d\d`?|(?:internal )?server error|crash"
                    r"|fail|hang|rais|throw|error)\w*|\bas (?:\S+ ){1,4}already (?:did|does)\b",
                    re.I)
# What says how the code is typed, not what it does.
_TYPING = re.compile(r"\b(?:type (?:hints?|annotations?|checkers?|stubs?)|annotat\w+|typed"
                     r"|typing|mypy|pyright|`Self`|generic)\b", re.I)
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
    intro: str = ""  # its release's own prose, above the release's sections
    prose: bool = False  # a paragraph of the release's prose, not a bullet
    upcoming: str | None = None  # an unreleased entry's version-to-be ("Version 3.2.0\n
    # Unreleased")
    part_of: int | None = None  # a nested bullet read on its own: its bullet's first line


# A changelog kept as pages of the docs ("docs/content/2021-news.md", "doc/release-notes-2.x.rst"):
# read here, and never as a guide (`guides.guide_files`).
PAGE_NAME = re.compile(r"(?:^|[-_. ]|version|release)(?:changes|changelog|history|news|"
                       r"release[-_ ]?notes?|releases?)(?:$|[-_. ])", re.I)
MAX_PAGES = 40


def changelog_files(root: Path) -> list[Path]:
    """The project's changelogs: `CHANGES*` and the like at the root, else under docs/, else
    its pages there; a short one that only points at another ("MOVED. Please see
    docs/build/changelog.rst") stands for the file it names, and one that points at a folder
    of release notes, one file per version (`releasefiles`), for those files."""
    found = [p for p in sorted(root.iterdir()) if NAMES.match(p.name) and regular_file(p)]
    docs = root / "docs"
    if not found and regular_dir(docs):
        found = [p for p in sorted(docs.iterdir()) if NAMES.match(p.name) and regular_file(p)]
    if not found:
        found = release_files(root) or _changelog_pages(root) or _nested(root)
        if not found:
            return []
    out: list[Path] = []
    for path in found:
        out += [p for p in _followed(path, root) if p not in out]
    pointers = [_pointer_text(p) for p in out]
    if all(t is not None for t in pointers):  # only pointers, to a folder of release notes?
        named = [f for t in pointers for f in folders_named(t or "")]
        return release_files(root, named) or out
    return out


def _pointer_text(path: Path) -> str | None:
    """The text of a changelog that only points elsewhere (short, no entries), else None."""
    try:
        with open(path, "rb") as f:
            text = f.read(MAX_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    return text if len(text.splitlines()) <= POINTER_LINES and not entries(text) else None


def _followed(path: Path, root: Path) -> list[Path]:
    """`path`, or the file it points to when it is a pointer with no entries of its own."""
    try:
        with open(path, "rb") as f:
            text = f.read(MAX_BYTES).decode("utf-8", "replace")
    except OSError:
        return [path]
    if len(text.splitlines()) > POINTER_LINES or entries(text):
        return [path]  # a changelog (a pointer is a few lines); parsed whole only when short
    return pointed_to(path, root, text, lambda: _changelog_pages(root)) or [path]


def _changelog_pages(root: Path) -> list[Path]:
    """The changelog's pages under docs/ or doc/ (two folders deep at most), when the project
    has no changelog file of its own: the page named as a changelog is, else every page of it
    ("2013-news.md", …)."""
    pages: list[Path] = []
    for name in ("docs", "doc"):
        top = root / name
        if not regular_dir(top):
            continue
        for here, dirs, files in os.walk(top):  # os.walk never follows a symlinked folder
            depth = len(Path(here).relative_to(top).parts)
            dirs[:] = sorted(d for d in dirs if depth < 2 and not d.startswith((".", "_")))
            pages += [Path(here) / f for f in sorted(files)
                      if f.rpartition(".")[2].lower() in ("md", "rst", "txt", "markdown")
                      and PAGE_NAME.search(f.rpartition(".")[0])
                      and regular_file(Path(here) / f)]
    whole = [p for p in pages if NAMES.match(p.name)]  # "news.md" beside its yearly archives
    return whole or pages[:MAX_PAGES]


# Folders whose changelogs are not the project's: tests' fixtures, vendored and installed
# code, examples, build output.
_NOT_THE_PROJECTS = re.compile(r"^(?:\.|_)|^(?:tests?|testing|fixtures?|testdata|vendor(?:ed)?"
                               r"|third[-_]?party|external|node_modules|site-packages|examples?"
                               r"|samples?|build|dist|target|venv|env"
                               # a distribution's packaging: `debian/changelog` is the package's
                               r"|debian|rpm|packaging)$", re.I)
NESTED_DEPTH = 3


def _nested(root: Path) -> list[Path]:
    """A changelog file kept deeper in the tree when there is none at the root or in docs/:
    a Sphinx site's `sites/www/changelog.rst`. The shallowest found, never under tests,
    fixtures, vendored code or examples (their changelogs are someone else's)."""
    found: list[tuple[int, Path]] = []
    for here, dirs, files in os.walk(root):  # os.walk never follows a symlinked folder
        depth = len(Path(here).relative_to(root).parts)
        dirs[:] = sorted(d for d in dirs
                         if depth < NESTED_DEPTH and not _NOT_THE_PROJECTS.search(d))
        found += [(depth, Path(here) / f) for f in sorted(files)
                  if NAMES.match(f) and regular_file(Path(here) / f)]
    shallowest = min((d for d, _ in found), default=None)
    return [p for d, p in found if d == shallowest]


def entries(text: str) -> list[Entry]:
    """Every top-level bullet under a version heading, its wrapped lines and nested bullets
    joined ("Remove deprecated code: A: use X instead; B: use Y instead")."""
    return [e for e in _read(text)[0] if e.part_of is None]


def release_dates(text: str) -> dict[str, date]:
    """The date of each release the changelog `text` dates."""
    return _read(text)[1]


def _read(text: str) -> tuple[list[Entry], dict[str, date]]:
    """The entries and the date of each release that gives one."""
    lines = text.splitlines()
    sections: dict[int, str] = {}
    if is_directive_changelog(text):
        lines = from_directives(lines)
    elif is_releases_changelog(text):
        lines, sections = from_releases(lines)
    reader = _Reader(lines, sections)
    for n, raw in enumerate(reader.lines, 1):
        reader.read(n, raw)
    reader.flush()
    return ([replace(e, yanked=True, intro=reader.intros.get(e.version or "", ""))
             if e.version in reader.yanked else replace(e, intro=reader.intros.get(
                 e.version or "", "")) for e in reader.out], reader.dates)


# An example, or any directive (".. warning::" and its text are the entry's aside, not its
# words: "Removes the `py3compat` module. .. warning." otherwise)
_EXAMPLE = re.compile(r"```|\s\.\. [\w:-]+::|(?<=[\w`)\]])::(?=\s|$)")
# Lines that start no paragraph of prose: directives, field lists, tables, HTML, quotes,
# fences, an underline.
# A paragraph about the release itself, not one change ("This alpha introduces a major
# breaking change …", "Several of these changes are backwards-incompatible").
_ABOUT_RELEASE = re.compile(r"^\W*(?:this|the|these|our)\s+(?:\w+\s+){0,2}?(?:release|alpha|beta"
                            r"|version|rc|update)s?\b|^\W*(?:several|some|many|most|all) of\b",
                            re.I)
_NOT_PROSE = re.compile(r"^\s*(?:\.\.|:\w|\||<|>|```|~~~|[=\-~^*+#]{3,}\s*$|\[|!\[|\{"
                        r"|[*_](?![*_]))")  # an aside in italics too
_SHORTCODE = re.compile(r"\s*:(?P<name>[a-z_]+):\s*")
# A gitmoji before an entry ("🗑️ Deprecate `shell_complete` …", "➖ Drop `typing-extensions` …",
# ":sparkles: Add …"): the kind of change as a picture; the entry's words start after it.
_GITMOJI = re.compile("^(?:(?:[\u2190-\u21ff\u2300-\u23ff\u2460-\u27bf\u2900-\u2bff"
                      "\u3030\u303d\U0001f000-\U0001faff][\ufe0f\u200d]?)+|:[a-z0-9_+-]+:)"
                      r"\s+")
# The issue or pull request an entry opens on ("[#3071](https://…/pull/3071) Add …",
# "#2608 #2630 Signal conditions …"): a reference, not the entry's words.
_LEAD_REF = re.compile(r"^(?:\[?#\d+\]?(?:\([^()\s]*\))?[,:]?\s+)+(?=\S)")


def _bare(text: str) -> str:
    """A bullet's words, without the gitmoji and the references it opens on."""
    return _LEAD_REF.sub("", _GITMOJI.sub("", text))


def _explained(body: str, intro: str) -> str:
    """`body` with the first sentence of its release's own prose when that sentence is about
    it (two names of the code in common): "Replaces `requests` with `httpx` in `TestClient`.
    This release replaces the underlying HTTP client used on the `TestClient` (`requests` →
    `httpx`), and as those clients differ a bit on their API, your test suite will likely
    break." What a release note says of its headline change is the why a reader asks."""
    if not intro:
        return body
    intro = _SHORTCODE.sub(lambda m: " → " if "arrow" in m["name"] else " ", intro)
    first = re.split(r"(?<=[.!?])\s+(?=[A-Z])", plain(intro))[0]
    first = re.sub(r"(?<![\w`])_([^_`]+)_(?![\w`])", r"\1", first)  # "_a bit_"
    names = {n.lower() for n in re.findall(r"`([^`]+)`", body)}
    shared = names & {n.lower() for n in re.findall(r"`([^`]+)`", first)}
    if len(shared) < 2 or len(body) + len(first) > 400 or first.lower() in body.lower():
        return body
    return f"{body.rstrip()} {first}"


class _Reader:
    """The changelog walked line by line: the release and section it is in, the bullet being
    gathered (its wrapped lines and nested bullets), the releases marked as yanked."""

    def __init__(self, lines: list[str], sections: Mapping[int, str] | None = None) -> None:
        self.lines = lines
        self.sections = sections or {}  # a section a bullet opens itself (`from_releases`)
        self.out: list[Entry] = []
        self.version: str | None = None
        self.section: str | None = None
        self.current: list[str] = []
        self.nested: list[str] = []
        self.nested_at: list[tuple[int, int]] = []  # each nested bullet's first and last line
        self.start = self.end = self.base_indent = 0
        self.blank = False
        self.prose = False  # the entry being gathered is a paragraph, not a bullet
        self.yanked: set[str | None] = set()  # "YANKED" under a heading: taken back
        self.upcoming: str | None = None
        self.heading_line = 0
        self.dates: dict[str, date] = {}
        self.intros: dict[str, str] = {}  # a release's own prose, above its sections

    def flush(self) -> None:
        if self.current:
            body = " ".join(self.current)
            # the words, not the example (a Markdown fence, an RST code block or literal)
            words = _EXAMPLE.split(body, maxsplit=1)[0].strip()
            if words and words != body.strip():
                # "… using `-c/--config`::" ends there; "… a pattern like this:" leans on it
                body = f"{words}." if words[-1].isalnum() or words[-1] == "`" else words
            if self.nested:
                body = body.rstrip(" .:") + ": " + "; ".join(n.rstrip(" .;") for n in self.nested)
            upcoming = self.upcoming if self.version == "unreleased" else None
            self.out.append(Entry(self.version, self.section, body, self.start, self.end,
                                  head=" ".join(self.current) if self.nested else None,
                                  prose=self.prose, upcoming=upcoming))
            # each nested bullet on its own too, for a headline that says no change itself
            # ("Administrivia update:" over "removed the `ed25519` extra", …): see `proposals`
            self.out += [Entry(self.version, self.section, item, first, last, upcoming=upcoming,
                               part_of=self.start)
                         for item, (first, last) in zip(self.nested, self.nested_at,
                                                        strict=True)]
        self.current, self.nested, self.nested_at, self.prose = [], [], [], False

    def read(self, n: int, raw: str) -> None:
        line = raw.rstrip()
        if self._heading(n, line) or self._section(n, line) or _UNDERLINE.match(line.strip()):
            return
        bullet = _BULLET.match(line)
        was_blank, self.blank = self.blank, False
        if bullet:
            self._bullet(n, bullet, was_blank)
        elif not line.strip():
            self.blank = True
        elif self.current and not self.blank and (raw.startswith((" ", "\t"))
                                                  or self.prose and not was_blank):
            if self.nested:
                self.nested[-1] += " " + line.strip()
                self.nested_at[-1] = (self.nested_at[-1][0], n)
            else:
                self.current.append(line.strip())
            self.end = n
        else:
            if not self.current and _YANKED.search(line):
                self.yanked.add(self.version)
            self.flush()
            # a heading (underlined by the line after it) is no prose
            heading = n < len(self.lines) and _UNDERLINE.match(self.lines[n].strip())
            if self.version and self.section is None and not line.startswith((" ", "\t")) \
                    and not _UNDERLINE.match(line.strip()) and not heading:
                said = self.intros.get(self.version, "")
                self.intros[self.version] = f"{said} {line.strip()}".strip()
            if self.version and not raw.startswith((" ", "\t")) and not _NOT_PROSE.match(line) \
                    and not heading and not release_date(line) \
                    and not _YANKED.search(line) and not _ABOUT_RELEASE.match(line):
                # not "Released 2020-01-01", "YANKED: …", "This release focuses on …"
                # a paragraph of a release's prose is an entry too ("Datasette's token-based
                # CSRF protection has been replaced with …" under its own heading)
                self.current, self.nested, self.nested_at, self.prose = [line.strip()], [], [], True
                self.start = self.end = n
                self.base_indent = 0

    def _heading(self, n: int, line: str) -> bool:
        """A release heading (or "Unreleased") starts a new release."""
        following = self.lines[n] if n < len(self.lines) else ""
        heading = _release_heading(line)
        underlined = bool(_UNDERLINE.match(following.strip())) if following.strip() else False
        if heading and (line.lstrip().startswith(("#", "**")) or underlined
                        or line.strip().lower().startswith(("version", "release", "v", "["))):
            self.flush()
            self.version, self.section = heading.group("version"), None
            self.heading_line = n
            if _YANKED.search(line):
                self.yanked.add(self.version)
            if (when := self._date(n)) and self.version not in self.dates:
                self.dates[self.version] = when
            return True
        bare = _MD_LINKED.sub(r"[\g<text>]", line.strip())  # "## [Unreleased](…/compare/…)"
        if _UNRELEASED.match(bare) or bare.lower().startswith("## unreleased"):
            self.flush()
            right_under = self.version not in (None, "unreleased") and n - self.heading_line <= 3
            self.upcoming = self.version if right_under else None
            self.version, self.section = "unreleased", None
            return True
        return False

    def _date(self, n: int) -> date | None:
        """The date on heading line `n` or on the lines under it before its first entry."""
        for k, line in enumerate(self.lines[n - 1:n - 1 + _DATE_LINES]):
            if k and (_BULLET.match(line) or _release_heading(line)):
                return None
            if when := release_date(line):
                return when
        return None

    def _section(self, n: int, line: str) -> bool:
        sec = _SECTION.match(_SYMBOLS.sub(r"\1", line.strip()))
        if sec and sec.group("plain") and line[:1].isspace():
            sec = None  # an entry's wrapped last word ("… have now been\n  removed:")
        bold = _BOLD_LINE.match(line.strip())
        # reStructuredText and setext: "Bugfixes" over "~~~~~~~~" (a version's was read above)
        following = self.lines[n] if n < len(self.lines) else ""
        # towncrier's "{section} - {version}" titles: "Bug fixes - 4.57.2" (tox's)
        title = _TITLE_VERSION.sub("", line.strip())
        titled = (_TITLE.fullmatch(title) or _CODE_TITLE.fullmatch(title)) \
            if not line.startswith((" ", "\t")) and _UNDERLINE.match(following.strip()) else None
        # a title ending in a colon on a line of its own, a list under it ("Docs:", "CI:",
        # plumbum's), ends a deprecation, removal or breaking section: its entries are not
        # that section's (elsewhere such a line, "Highlights:", stays what it was)
        colon = _COLON_TITLE.fullmatch(line.rstrip()) \
            if _ENDS_AT_A_COLON.match(self.section or "") \
            and (n < 2 or not self.lines[n - 2].strip()) \
            and (not following.strip() or _BULLET.match(following)) else None
        if not (sec or bold or titled or colon) or _BULLET.match(line):
            return False
        self.flush()  # "**The following changes are also included**:" ends "**Deprecations**:"
        self.section = (sec.group("name") or sec.group("plain") or "") if sec \
            else bold.group("name") if bold else titled.group(0) if titled \
            else colon.group("name")
        self.section = self.section.strip().lower()
        return True

    def _bullet(self, n: int, bullet: re.Match[str], was_blank: bool) -> None:
        indent = len(bullet.group("indent"))
        if self.current and indent > self.base_indent and (
                self.nested or not was_blank or indent > 0):
            self.nested.append(_bare(bullet.group("text").strip()))
            self.nested_at.append((n, n))
            self.end = n
            return
        self.flush()
        self.section = self.sections.get(n, self.section)
        self.base_indent = indent
        self.current = [_bare(bullet.group("text").strip())]
        self.start = self.end = n


_NAMED = re.compile(r"`|\d|\w[._]\w|(?<!^)(?<![.:] )\b[A-Z][a-zA-Z]+")


# An entry that only sends the reader elsewhere ("There are multiple breaking changes with this
# release, please see the migration guide for a complete overview."): it names nothing (no
# code, number or dotted name), so nothing of it holds alone.
_ELSEWHERE = re.compile(r"\b(?:see|read|refer to|consult|check) (?:the|our) [\w -]{0,30}?"
                        r"(?:guide|docs|documentation|notes|page|post|section)\b", re.I)
_NAMES_SOMETHING = re.compile(r"`|\d|\w[._]\w|\w\(\)")


def classify(entry: Entry) -> str | None:
    """The rule an entry fires, or None; the section heading counts as the entry's words.
    An entry no other rule keeps, in any section, that tells how an environment variable the
    project reads switches something is a `knob` (see `knob`)."""
    said = plain(entry.text)
    if _ELSEWHERE.search(said) and not _NAMES_SOMETHING.search(said):
        return None
    rule = _classify(entry)
    if rule is None and knob(said) and not _not_a_knob(entry, said):
        return "knob"
    return rule


# An environment variable the project reads, as an entry of any section introduces or explains
# it ("Added `TEXTUAL_THEME` environment var, which should be a comma separated list of
# desired themes.", "Set `TEXTUAL_SPEEDUPS=0` to disable."): how a user switches something.
# It holds while HEAD's code still names the variable (`current`), whatever the entry's age.
_ENV_NAME = r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+"
_VARIABLE = r"(?i:env(?:ironment)?\.?\s+var(?:iable)?s?)\b"
_KNOB = re.compile(
    rf"(?<![\w.])`?(?P<a>{_ENV_NAME})`?\s+{_VARIABLE}"
    rf"|\b{_VARIABLE}\s+(?:called\s+|named\s+)?`?(?P<b>{_ENV_NAME})(?![\w.])"
    rf"|\b(?i:set|setting|use|using|with|export)\s+(?:the\s+)?`?(?P<c>{_ENV_NAME})=[^\s`]+")
# What a knob's entry must not be: a fix of how the variable was read, or its removal.
_KNOB_GONE = re.compile(r"\b(?:remov|drop|deprecat|renam)\w*|\bno longer\b|\banymore\b"
                        r"|^\W*(?:fix(?:e[sd])?|bug ?fix(?:e[sd])?|hot ?fix\w*)\b"
                        r"|\bnot (?:being )?(?:respected|honou?red|read|used|ignored)\b", re.I)
_BUG_SECTION = re.compile(r"\b(?:fix\w*|bugs?|bug ?fix\w*|regressions?)\b", re.I)
# Words that say what a variable does, beyond "Added `X` environment variable.".
_KNOB_SAYS = 5


def knob(text: str) -> str | None:
    """The environment variable an entry tells how to use, if it tells one."""
    m = _KNOB.search(text)
    return (m["a"] or m["b"] or m["c"]) if m else None


def own_variable(name: str, project: str | None) -> bool:
    """`TEXTUAL_THEME` is textual's own variable; `NO_COLOR` and `COVERAGE_PROCESS_START` are
    every program's, or a tool's the project's CI sets."""
    words = re.findall(r"[A-Za-z0-9]+", project or "")
    return bool(words) and any(name.startswith(f"{own.upper()}_")
                               for own in ("_".join(words), "".join(words)))


def _not_a_knob(entry: Entry, text: str) -> bool:
    """A fix of how the variable is read, its removal, a preview's or a private name's entry
    (`text`: the entry's words, `plain`)."""
    return bool(_BUG_SECTION.search(entry.section or "") or _PREVIEW.search(entry.section or "")
                or _KNOB_GONE.search(text) or private(text))


def _knob_body(words: str, name: str) -> str | None:
    """The entry whole when it fits, else its first sentence and the one naming `name`; None
    when it says nothing of what the variable does."""
    body = whole(words)
    if body is None:
        said = sentences(words)
        naming = next((s for s in said if name in s), None)
        if naming is None:
            return None
        body = naming if naming == said[0] else f"{said[0]} {naming}"
        if len(body) > MAX_TEXT:
            body = naming if len(naming) <= MAX_TEXT else None
    if body is None:
        return None
    rest = re.sub(rf"`?{name}`?|\b(?:add(?:s|ed)?|support(?:s|ed)?|for|an?|the|new|env(?:ironment)?"
                  r"\.?|var(?:iable)?s?)\b", " ", body, flags=re.I)
    return body if len(re.findall(r"[A-Za-z]{2,}", rest)) >= _KNOB_SAYS else None


def _classify(entry: Entry) -> str | None:
    """The rule an entry's words or its section fire (`classify` adds the knobs).

    An entry must name what it is about (code, a version, a proper name): "Remove previously
    deprecated code." says nothing on its own."""
    text = plain(entry.text)
    if len(entry.text) > MAX_ENTRY * 2:
        # A long entry tells its story after its first sentence ("`RefResolver` is now
        # deprecated in favor of the new referencing library. `referencing` will begin in
        # beta, …"): that sentence alone is read, and proposed alone (`proposals`).
        first = _headline(text)
        return classify(replace(entry, text=first, head=None)) \
            if first != text and len(first) <= MAX_ENTRY else None
    if len(text.split()) < (3 if "`" in text else 4) \
            or not _NAMED.search(text[1:]) or private(text):
        return None
    if _PREVIEW.search(entry.section or ""):
        return None
    if (span := _CODE_SPAN.search(text)) and span.group(1).startswith("."):
        return None  # "Deprecate `._version`": whose attribute? The entry does not say
    if _DEFAULT_FROM_TO.search(_headline(text)) and not re.search(
            r"\bdeprecat\w*|\bwill be removed\b", text, re.I):
        return "default"  # "Improved SSL connection handling by changing the default
        # `ssl_shutdown_timeout` from `0.1` to `0` seconds": a new default, whatever verb opens
        # the entry or section holds it; not when the entry goes on to deprecate a thing (the
        # setting itself, as aiohttp 3.12.11's did: its default is then moot)
    if _DEPRECATES.search(text) and not _NOISE.search(re.sub(r"^\W*add\w*", "", text, flags=re.I)):
        return "deprecation"  # "Add deprecated warning to `X`", "Add `env`, and deprecate `Y`"
    section = (entry.section or "").replace("-", " ")
    # what an aside says is not the entry's news: "spider callbacks (which was never officially
    # supported and may work incorrectly)" in a list of what a deprecation covers
    if _NOISE.search(_ASIDE.sub("", entry.text)):
        return None
    skipped = _SKIPPED_SECTIONS.search(section)
    # A bullet with nested ones must say the change itself ("Remove deprecated code:" + what);
    # a headline ("Improved flag handling:") over a list of details is not one fact.
    said = plain(entry.head) if entry.head else text
    said = re.sub(r"^`[^`]+`:\s+", "", said)  # "`MultiPartParser`: Rename `a` to `b`"
    # "`find_plugins` does not anymore load plugins" says "no longer"
    said = _ANYMORE.sub("no longer ", said)
    # "… has been deprecated since 18.2.0" tells what came of a deprecation, not of one.
    live = " ".join(s for s in re.split(r"(?<=[.!?])\s+", said) if not historical(s))
    # An aside is not the entry's news: "Sets a user agent when retrieving remote references
    # (which is deprecated)." adds a user agent.
    live = _ASIDE.sub("", live)
    if _INSTEAD.search(said) and pythons_swap(text):
        return None
    for name, pattern in _RULES:
        if pattern.search(live if name == "deprecation" else said):
            # A fix or an addition is about the past, but a changed default is not, nor is
            # what a security fix now refuses ("values such as `0x01` are no longer supported").
            if skipped and not (name == "default" and pattern.search(_headline(said))
                                or name == "breaking" and _SECURITY.search(section)
                                or name == "deprecation" and _GRAB_BAG.search(section)
                                and pattern.search(_headline(live))):
                # Nor is what a notice tells those who build on the project to do now ("… has
                # been moved to a separate plugin. … you'll need to explicitly add `x`").
                return "notice" if _RULE_PATTERNS["notice"].search(said) else None
            return name
    if skipped or entry.prose:  # a paragraph says its change in its own words, not its section's
        return None
    if "deprecat" in section.lower() and "remov" in section.lower():  # "Deprecations and
        # Removals": which of the two, its words say ("… raise a `DeprecationWarning`")
        warns = re.search(r"deprecation ?warning", text, re.I)  # not "after being deprecated"
        # and an entry saying neither ("Signal conditions and triggers saved on
        # `signal.extra`", "Warn on duplicate route names") is one of the section's strays
        gone = re.search(r"\b(?:remov|drop|delet)\w*|\bno longer\b|\bnot supported\b|\bnow\b"
                         r"|\binstead\b", text, re.I)
        if not _LIFECYCLE_SECTION.fullmatch(section.strip()) or not (warns or gone):
            return None
        return "deprecation" if warns else "removal"
    for word, rule in _SECTION_RULES.items():
        if word in section:
            return rule if _LIFECYCLE_SECTION.fullmatch(section.strip()) else None
    return None


_CODE_SPAN = re.compile(r"`([^`]+)`")
# A default of a named setting changed, with both values said in code.
_DEFAULT_FROM_TO = re.compile(r"\bdefault (?:value )?(?:(?:of|for) )?(?:the )?`[^`]+`"
                              r"(?: \w+)? (?:is changed |was changed |changed )?from `[^`]+`"
                              r"(?: \w+)? to `[^`]+`")
# What a removal names by its kind alone ("deprecated SSL client settings", "some legacy
# options"), and a name of code that would say which (`x`, a.b, x_y, f()).
_UNNAMED_KIND = re.compile(r"\b(?:deprecated|legacy|old|obsolete|several|some|various|unused)"
                           r"\s+(?:\w+\s+){0,3}(?:settings|options|parameters|arguments|params"
                           r"|features|methods|functions|apis|attributes|properties|classes"
                           r"|modules|helpers|aliases|names|flags|hooks|signals|keywords)\b",
                           re.I)
_CODE_NAME = re.compile(r"`[^`]+`|\w\.\w|\w_\w|\w\(\)")
# Where a removal goes on to its replacement: "…; use `ssl` instead", ", in favour of …".
_REPLACEMENT = re.compile(r";|,?\s+(?:use|in favou?r of|instead|replaced by|see)\b", re.I)
_CHANGE_FIRST = re.compile(r"^\W*(?:remov|drop|deprecat|renam|mov|replac|chang|switch|migrat)"
                           r"\w*\b", re.I)
_ANYMORE = re.compile(r"\b(?:does|do|did|will|would|can|is|are)(?: not|n't) anymore ", re.I)
# A remark in brackets ("(which was never officially supported and may work incorrectly)"),
# not a call's "()".
_BRACKETED = re.compile(r"\s*\((?=[^()]*\s)[^()]*\)")
_ASIDE = re.compile(r"\s*\((?:which|that) [^()]*\)")
_CAMEL_BUILTIN = re.compile(r"(?<![`\w.])[A-Z][a-z]+(?:[A-Z][a-z]+)+(?![\w.`])")


def pythons_swap(text: str) -> bool:
    """A swap of one piece of Python's own for another, said in one sentence ("Replaced all
    `typing.Optional` with `typing.Union`", "Replaces uses of `os.system` with
    `subprocess.Popen`", "Uses `map` instead of generator"): how the code is written, not
    what it does. One that goes on to say what it changes for its users ("Uses `ast` instead
    of `eval` for Python string extraction: This also enables extraction from static
    f-strings.") is kept."""
    if len(re.split(r"(?<=[.!?:])\s+(?=[A-Z`])", text.strip())) > 1:
        return False
    names = identifiers(without_containers(text))
    names += [w for w in _CAMEL_BUILTIN.findall(text) if pythons_own(w)]  # `ImportError`
    return bool(names) and all(pythons_own(n) for n in names)


# A deprecation said as what was added, in any section: "Add deprecated warning to
# `TestClient(timeout=...)`", "Add `env` parameter to `Jinja2Templates`, and deprecate `x`".
_ADD_WARNING = re.compile(r"^add(?:s|ed)? (?:a |the )?deprecat\w*(?: warnings?)? (?:to|for|on)"
                          r" (`[^`]+`(?: (?:parameter|argument|option|attribute))?)\.?$", re.I)
_DEPRECATES = re.compile(r"^add(?:s|ed)? (?:a |the )?deprecat\w*(?: warnings?)? (?:to|for|on|when)"
                         r"\b|,? and deprecat(?:e|es|ed) (?=`)"
                         # "Deprecate `shell_complete` and …" under Features or Refactors
                         r"|^deprecat(?:e|es|ed) (?:(?:the )?(?:support for|use of) )?(?=`)",
                         re.I)


def private(text: str) -> bool:
    """Every piece of code `text` names is private (`_serialize`, `Field._bind`) or reached
    through `self` ("Use self.logger … instead of self.log_info"): a change to the project's
    insides, not to what its users and contributors build on."""
    named = identifiers(without_containers(text))
    if named and all(n.startswith("self.") for n in named):
        return True
    spans = [m.strip("()") for m in _CODE_SPAN.findall(without_containers(text))]
    return bool(spans) and all(re.search(r"\w\._(?!_)\w", s) or (
        re.fullmatch(r"_(?!_)\w+", s) and re.search(
            rf"`{re.escape(s)}(?:\(\))?`\s+{_MEMBER}|{_MEMBER}\s+`{re.escape(s)}", text, re.I))
        for s in spans)


_MEMBER = r"(?:method|function|attribute|override|helper|class|module|property|member)s?\b"
# What a removal's own sentence takes from: "… from `HTTPConnectionPool`", "in favor of …".
_FROM = re.compile(r"\s(?:from|of|on|in favou?r of|instead of|in|and replaced|now)\s|;", re.I)
_SAID_INTERNAL = re.compile(r"\bprivate\s+(?:module|api|apis|interface|helper|function|method"
                            r"|class|attribute)s?\b|\binternal\b"
                            # the code's own tidying: "Removes single-use bad_length", "Removes
                            # unusd call to sys.exc_info", dead code
                            r"|\bsingle-use\b|\bun-?use?d\b|\bunusd\b|\bdead code\b"
                            r"|\bleftover\b", re.I)


def private_removal(text: str) -> bool:
    """A removal of the project's insides only: its own sentence says so ("from the private
    module `urllib3.util.ssl_`", "an internal helper"), or every name it removes is private
    (`_prepare_conn`, `__nonzero__`): what no user built on. A file is no name
    ("the `_version.py` file has been removed" tells distributors where the version went)."""
    headline = sentences(text)[0]
    if _SAID_INTERNAL.search(headline):
        return True
    removed = _FROM.split(headline, maxsplit=1)[0]
    # A bare `_x` is code when the sentence says what it is ("the `_bind` method") or calls
    # it; "the suffixes `_command` and `_cmd`" are no code, nor a bare `__version__` private.
    member = bool(re.search(rf"\b{_MEMBER}", removed, re.I))
    names = _CODE_SPAN.findall(removed)
    return bool(names) and all(
        re.fullmatch(r"[\w.]+(?:\(\))?", n) and not re.search(r"\.(?:py|pyi|cfg|toml|txt|ini)$", n)
        and _private_path(n.removesuffix("()"))
        and ("." in n or n.endswith("()") or member)
        for n in names)


def _private_path(name: str) -> bool:
    """`name` is private itself (`_bind`, `__nonzero__`) or reached through a private name
    (`_Result.result`: a member of a private class)."""
    *owners, last = name.split(".")
    return last.startswith("_") or any(re.match(r"_(?!_)", o) for o in owners)


_LEANS = re.compile(r"\b(?:too|as well|also|likewise|the same)\W*(?:#\d+\W*)*$"
                    r"|\bsee (?:above|below)\b|\b(?:above|below) for (?:details|more)\b"
                    # other entries: "See respective entries above." ("the four listed
                    # above" may be the entry's own)
                    r"|\b(?:entries|entry|notes?|sections?|items?|changes)\s+(?:above|below)\b"
                    # "Only the three above attributes are primary ones"
                    r"|\babove (?:\w+ )?(?:attributes?|items?|options?|names?|methods?"
                    r"|functions?|classes|changes|entries|settings?|fields?|parameters?)\b"
                    # one that opens on the entry before: "Similarly, we've replaced …"
                    r"|^\W*(?:similarly|likewise|also|additionally|in addition|as a result"
                    r"|consequently|as a consequence|furthermore|moreover|accordingly)\b",
                    re.I)


def whole(body: str) -> str | None:
    """The entry as it stands, or None when it is too long to read as one fact: a cut entry
    ("… can now …") says less than nothing; nor is one that leans on the entry before it
    ("… are now deleted too"), which does not say what it acts on."""
    return body if len(body) <= MAX_TEXT and not _LEANS.search(body) \
        and not body.endswith(":") else None


def first_sentence(body: str) -> str | None:
    """A breaking change too long to quote whole, or an entry whose first sentence says what
    its rule keeps, by that sentence ("Class-level `kw_only=True` behavior is now consistent
    with `dataclasses`.")."""
    first = sentences(body)[0]
    return first if first.endswith(".") and 6 <= len(first.split()) <= 60 \
        and len(first) <= MAX_TEXT and not _LEANS.search(first) else None


def _verb(section: str | None, rule: str | None = None) -> str:
    """The verb a section gives its entries; a section of both ("Deprecations and Removals")
    gives each the one its rule says ("Both … have been deprecated" is no removal)."""
    key = (section or "").lower().replace("-", " ")
    if "deprecat" in key and "remov" in key:
        return {"deprecation": "Deprecated", "removal": "Removed"}.get(rule or "", "Changed")
    return next((v for k, v in _SECTION_VERBS.items() if k in key), "Changed")


# An entry that only takes something away or relaxes a requirement ("Removed support for
# `create_jinja_loader`", "no longer requires the SSL module") is news while recent; one
# that restricts or changes behaviour ("no longer accepts arbitrary encodings") stays true.
_TAKES_AWAY = re.compile(r"\b(?:remov|drop|delet)\w*|\b(?:moved|renamed) (?:to|from|into)\b"
                         r"|^\W*(?:[A-Z ]+ )?move[sd]?\b.*\b(?:out of|into|to)\b"
                         r"|\bor (?:newer|later|higher|above)\b"
                         r"|\brenam(?:e|es|ed|ing)\b"
                         r"|\bno longer (?:be |is |are )?(?:required|requires?|needed"
                         r"|necessary|used|a dependency|a requirement|supported|supports?"
                         r"|available|included|shipped|bundled|ha(?:s|ve) (?:a|an|any)\b)",
                         re.I)
# A changelog's imperative ("Drop support for …") said of the project ("click 8.2.0 drops
# support for …"): present tense, with what it is about.
_IMPERATIVE = {"use": "uses", "drop": "drops", "remove": "removes", "deprecate": "deprecates",
               "change": "changes", "rely": "relies", "require": "requires",
               "replace": "replaces", "rename": "renames", "switch": "switches",
               "move": "moves", "make": "makes", "raise": "raises", "set": "sets",
               "allow": "allows", "disallow": "disallows", "prefer": "prefers",
               "stop": "stops", "support": "supports", "migrate": "migrates",
               "pass": "passes", "enable": "enables",
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
    # the entry's own verb says it ("Removed in" would say it twice); "Support for …" is none
    if verb and rest and not (first.lower() == "support" and rest.startswith("for ")):
        return f"{project} {version}".rstrip() + f" ({rel}): {verb.capitalize()} {rest}"
    if label != "Changed":
        return f"{label} in {project} {version}".rstrip() + f" ({rel}): {body}"
    return f"{project} {version}".rstrip() + f" ({rel}): {body}"


# A change of behaviour this many feature lines (x.y) back, and past the date window, is the
# project's settled history: fifteen releases of its own have been made on top of it, each
# free to change it again without saying so in words a rule reads.
SETTLED_LINES = 15


def _lines_since(versions: Iterable[str | None]) -> Callable[[str | None], int]:
    """How many of the changelog's feature lines (x.y, its pre-releases one with it) are newer
    than a version's."""
    lines = sorted({order(v)[:2] for v in versions
                    if v and v != "unreleased" and not _PRE.search(v)})

    def since(version: str | None) -> int:
        if version is None or version == "unreleased":
            return 0
        line = order(version)[:2]
        return sum(1 for other in lines if other > line)
    return since


def _breaking(section: str | None) -> bool:
    """A section of breaking changes ("Backward-incompatible changes"): each entry's first
    sentence is the change, whatever rule its later sentences fired."""
    key = (section or "").lower().replace("-", " ")
    return any(word in key for word, rule in _SECTION_RULES.items() if rule == "breaking")


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


def _headline(words: str) -> str:
    """An entry's first sentence: what it is about ("`freeze()` generates an ETag. The
    `no_etag` parameter is no longer used." is a change of behaviour, not a removal)."""
    return sentences(words)[0]


_BY_YEAR = re.compile(r"\b(?:will|to|should|may)\b[^.]*?\b(?:in|by|after|until|before|from)\s+"
                      r"(?:\w+\s+)?(?P<year>(?:19|20)\d\d)\b", re.I)


def _due(words: str, newest: date | None) -> bool:
    """A change announced for a year the newest release is past ("will stop working in
    2018"): what it promised has happened or was dropped; either way the notice is stale."""
    m = _BY_YEAR.search(words)
    return bool(m and newest and int(m["year"]) < newest.year)


WINDOW = timedelta(days=4 * 365)  # how long a removal or deprecation stays news
# "In the next release, the `bind` method … will become async", said by a release that is not
# the newest: that next release has come.
_NEXT_RELEASE = re.compile(r"\b(?:in|with|from|by) the (?:next|upcoming|following)"
                           r" (?:major |minor |feature )?(?:release|version)\b", re.I)


def _next_release(words: str) -> bool:
    return bool(_NEXT_RELEASE.search(_headline(words)))


def _dated(versions: Iterable[str], dates: Mapping[str, date]) -> dict[str, date]:
    """Each release's date, or for one that gives none the date of the nearest newer release
    that does (it is no newer than that); a release with no dated one above it is left out."""
    out: dict[str, date] = {}
    newer: date | None = None
    for version in sorted(set(versions), key=order, reverse=True):
        if version == "unreleased":
            continue
        newer = dates.get(version, newer)
        if newer is not None:
            out[version] = min(newer, dates.get(version, newer))
    return out


def _history(entries: list[Entry], dates: Mapping[str, date]) -> Callable[[Entry], bool]:
    """Whether an entry's release is history: when its release is dated (by the changelog or
    its tag), older than `WINDOW` before the newest release, whatever its major line (a
    long-lived major line holds a decade; textual shipped eight in two years); else older
    than the major line before the newest (see `recent_major`). A CalVer project's
    first component is a year, not a line: its releases are windowed by date alone."""
    versions = [e.version for e in entries if e.version]
    dated = _dated(versions, dates)
    # The project's newest release, whichever file or tag says it: a HISTORY.txt that stops
    # at 2.1.2 beside a CHANGES.txt at 3.0.2 is all history before 3.0.2's window.
    oldest = recent_major([*versions, *dates])
    newest = max([*dated.values(), *dates.values()], default=None)
    # A 0.x project's minor releases come fast (0.47 after seven years): by date too.
    calver = newest is not None and (oldest[0] + 1 in (newest.year, newest.year % 100)
                                     or oldest[0] == 0)
    cutoff = newest - WINDOW if newest else None

    released = [order(v) for v in [*versions, *dates] if v and v != "unreleased"]
    newest_major = max(released, default=(0,))[0]

    def history(e: Entry) -> bool:
        when = dated.get(e.version or "")
        if cutoff is not None and when is not None:
            return when < cutoff or (not calver and _majors_behind(
                order(e.version), newest_major) and when < newest - MAJORS_BEHIND_AGE)
        return not calver and order(e.version)[:len(oldest)] < oldest
    return history


# A release two or more major lines behind the newest (8.0.0 when 10.2 is out), and older than
# MAJORS_BEHIND_AGE, is history though inside the window: two majors have broken things since,
# and a blind reader called setuptools-scm 8.0.0's breaking changes "not durable" at 10.2.1
# (SPLITS.md, issue 19). A project shipping majors fast (textual: eight in two years) keeps
# them for that long; a 0.x line is judged by the window alone (textual's 0.x changes of return
# types were judged good).
MAJORS_BEHIND_AGE = timedelta(days=2 * 365)


def _majors_behind(version: tuple[int, ...], newest_major: int) -> bool:
    return bool(version) and 1 <= version[0] <= newest_major - 2


def _dated_before(entries: list[Entry], dates: Mapping[str, date],
                  window: timedelta) -> Callable[[Entry], bool]:
    """Whether an entry's release is dated more than `window` before the newest release (an
    undated one never is)."""
    dated = _dated([e.version for e in entries if e.version], dates)
    newest = max([*dated.values(), *dates.values()], default=None)

    def before(e: Entry) -> bool:
        when = dated.get(e.version or "")
        return newest is not None and when is not None and when < newest - window
    return before


# A later entry giving back what an earlier one removed: "Restore previously removed
# `HTTPResponse.getheaders()`", "Re-added `x`", "Reverted the removal of `y`".
# After a label too: "Community wanted: Reintroduce 7 as DayOfWeek (#90)" undoes the "Remove
# DayOfWeek alias 7 … (#90)" of a release before (croniter's).
_RESTORES = re.compile(r"^\W*(?:[A-Z][\w ]{0,30}:\s*)?(?:restor|re-?add|re-?introduc|reinstat"
                       r"|brought back|bring(?:s)? back)"
                       r"|\b(?:revert\w*|undo(?:es|ne)?|undid) the (?:removal|deletion) of\b"
                       r"|\bpreviously removed\b", re.I)
_ISSUE = re.compile(r"(?<![\w&])#(\d+)\b")


def _code_names(text: str) -> set[str]:
    """The code a changelog entry names, lower case: `HTTPResponse.getheader(name, default)`
    is `httpresponse.getheader`."""
    return {n for span in _CODE_SPAN.findall(text)
            if (n := re.split(r"[(\s]", span.strip(), maxsplit=1)[0].lower())
            and re.search(r"\w", n)}


def _restored(every: list[tuple[Entry, str | None]]) -> Callable[[Entry], bool]:
    """Whether a newer entry gave back what `entry` removed: code both name, or the issue
    both cite."""
    backs = []
    for e, _ in every:
        said = plain(e.text)
        if _RESTORES.search(said):
            names, refs = _code_names(said), set(_ISSUE.findall(e.text))
            if names or refs:
                backs.append((order(e.version), names, refs))

    def restored(entry: Entry) -> bool:
        names = _code_names(plain(entry.text))
        refs = set(_ISSUE.findall(entry.text))
        return any(v > order(entry.version) and (names & back or refs & back_refs)
                   for v, back, back_refs in backs)
    return restored


def fragment_proposals(text: str, rel: str, section: str, project: str | None = None,
                       tagged: Mapping[str, date] | None = None) -> list[Proposal]:
    """A towncrier news fragment (`seed.fragments`): one entry of the upcoming release, its
    type its section, read with the changelog's rules."""
    lines = text.splitlines()
    said = [n for n, line in enumerate(lines, 1) if line.strip()]
    if not said:
        return []
    body = " ".join(re.sub(r"^\s*[-*]\s+", "", line).strip() for line in lines if line.strip())
    entry = Entry("unreleased", section, body, said[0], said[-1])
    return proposals(text, rel, project, tagged, read=([entry], {}))


def proposals(text: str, rel: str, project: str | None = None,
              tagged: Mapping[str, date] | None = None,
              read: tuple[list[Entry], dict[str, date]] | None = None) -> list[Proposal]:
    """The changelog at `rel` (its text) of `project`: one proposal per entry a rule keeps,
    unless a newer entry overtook it (see `later`), its release was yanked, or a newer release
    says the same words (a fix backported to two lines is one fact, said by the newest).

    What takes something away (a removal, a deprecation, a relaxed requirement, a move or
    rename, breaking or not) is news while recent: from a release older than the window it
    is left out, but for a deprecation, kept as `old` (HEAD's code must still warn about it),
    and a choice said as "use X instead of Y", kept as `old` too (HEAD's code must still use
    X). A change of behaviour stays true until a
    later entry overtakes it or it is twice the window old."""
    read, dates = read or _read(text)
    dates = {**(tagged or {}), **dates}  # the changelog's own date first, else its tag's
    every = [(e, classify(e)) for e in read if not e.yanked and e.version is not None]
    # Unreleased entries are what HEAD holds: proposed (as "3.2.0 (unreleased)"), and they
    # overtake the released ones. So do entries no rule keeps ("`__lt__` does not consider
    # subclasses comparable anymore"), though they are not proposed.
    gone_all = overtaken([(order(e.version), plain(e.text), rule) for e, rule in every])
    # A nested bullet is its own entry only under a headline no rule keeps ("Administrivia
    # update:"); under one that says the change ("Remove deprecated code:") it is its detail.
    # It must say its change itself, opening on the verb ("Dropped support for Python <3.9",
    # "Renamed the `cancellable` argument …"), not go on with its headline's story or name a
    # thing a list's lead-in says is deprecated ("`close()` (use …)").
    said_whole = {e.first for e, rule in every if e.part_of is None and rule is not None}
    found = [(e, rule) for k, (e, rule) in enumerate(every)
             if rule is not None and k not in gone_all and (e.part_of is None or (
                 e.part_of not in said_whole and _CHANGE_FIRST.match(plain(e.text))))]
    history = _history([e for e, _ in every], dates)
    ancient = _dated_before([e for e, _ in every], dates, 2 * WINDOW)
    lines_since = _lines_since(e.version for e, _ in every)
    restored = _restored(every)
    newest = max(dates.values(), default=None)
    newest_version = max((e.version for e, _ in every if e.version != "unreleased"),
                         key=order, default=None)
    out: list[Proposal] = []
    said: set[str] = set()
    finals: dict[str, list[set[str]]] = {}
    for e, _ in every:
        if e.version and not _PRE.search(e.version):
            finals.setdefault(e.version, []).append(_words(e.text))
    for entry, rule in sorted(found, key=lambda f: order(f[0].version), reverse=True):
        if (pre := _PRE.search(entry.version or "")) \
                and _said_again(entry, finals.get(entry.version[:pre.start()])):
            continue  # 0.13.0.dev0 said again, or said better, by 0.13.0 (a changelog whose
            # final release lists only what came after its pre-releases keeps theirs: pendulum's
            # 3.0.0a1 "Renamed the `Period` class to `Interval`")
        words = plain(entry.text)
        if rule == "knob":  # true while HEAD's code names the variable, whatever its age
            name = knob(words)
            body = _knob_body(words, name) if name and own_variable(name, project) else None
            if body is not None and " ".join(body.lower().split()) not in said:
                said.add(" ".join(body.lower().split()))
                out.append(Proposal(
                    source="changelog", kind="codebase",
                    text=said_of(project, _release(entry), rel, "Changed", body),
                    provenance=lines_label(rel, entry.first, entry.last), rule="changelog-knob"))
            continue
        # A choice ("use X instead of Y") from past the window holds while HEAD still uses X.
        chose = rule == "instead" or bool(_INSTEAD.search(words))
        old = history(entry) and (chose or (
            rule in ("deprecation", "removal", "requirement", "rename", "change", "behaviour",
                     "notice")
            or (rule == "breaking" and bool(_TAKES_AWAY.search(_headline(words)))
                and not _SECURITY.search(entry.section or ""))))  # what it refuses, it still does
        if old and rule == "deprecation" and ancient(entry):
            continue  # "`Multi` … deprecated" of 2015 at 6.5: a decade on, an alias kept for
            # history whatever HEAD's code still says of it
        if old and rule != "deprecation" and (not chose or ancient(entry)):
            continue  # old news, long settled; a choice a decade old is the project's history
            # ("Replaces PyCrypto's `Random` with `os.urandom`", 2013), whatever HEAD still uses
        if history(entry) and not chose and rule != "deprecation" \
                and (lines_since(entry.version) >= SETTLED_LINES
                     or ancient(entry) and not _SECURITY.search(entry.section or "")):
            continue  # a change of behaviour many feature releases back, or from a release
            # twice the window before the newest: settled history, and often changed again
            # since without an entry saying so (falcon 0.2.0's "will no longer insert
            # placeholders … for empty elements", 2014, judged stale at 4.4.0)
        if rule == "removal" and (private_removal(words) or restored(entry)):
            continue  # "Removed the `_prepare_conn` method": the project's insides; a
            # removal a newer release undid ("Restore previously removed `getheaders()`")
        if rule in ("deprecation", "removal") and _ADDS_SUPPORT.search(_headline(words)) \
                and not re.search(r"deprecat|remov|drop", _headline(words), re.I):
            continue  # "Requests has officially added support for CPython 3.12" under
            # "Deprecations": the section is wrong, the entry says an addition
        if entry.prose and rule not in _PROSE_RULES:
            continue  # a paragraph's "breaking" or "removed" is often the release's story
        removed = _REPLACEMENT.split(_headline(words), maxsplit=1)[0]
        if rule in ("removal", "breaking") and _UNNAMED_KIND.search(removed) \
                and not _CODE_NAME.search(removed):
            continue  # "Drops deprecated SSL client settings": which ones? It names none
        if rule in ("removal", "breaking") and point_fix(entry.version, words):
            continue  # "Removes "!" from the unreserved characters in …" of a x.y.z release
        if rule == "behaviour" and (point_release(entry.version) or _TYPING.search(words)
                                    or _FIXED.search(words)):
            continue  # a x.y.z release's "now returns … instead of" is a fix; "returns
            # `Self` instead of `BindableLogger`" is how the code is typed
        borrowed = None
        if rule in ("removal", "breaking") and names_only_removal(words):
            borrowed = replacement_said_before(words, [
                (e.version or "", plain(e.text)) for e, _ in sorted(
                    every, key=lambda f: order(f[0].version), reverse=True)
                if order(e.version) < order(entry.version)])
            if borrowed is None:
                continue  # "Removed deprecated `Retry` options `method_whitelist`": and then?
        if rule not in ("deprecation", "default") and FIX_WORDING.search(words) \
                or rule == "rename" and private_rename(words) \
                or rule == "breaking" and history(entry) and signature_detail(_headline(words)):
            continue  # "… working around a bug", "Enforced keyword args in …" of 2020
        if _due(words, newest) or rule != "deprecation" and _next_release(words) \
                and entry.version != newest_version:
            continue  # "will stop working in 2018", read in 2026
        labelled = bool(_BREAKING_LABEL.match(words))  # "BACKWARDS INCOMPATIBLE Replaced …"
        words = _BREAKING_LABEL.sub("", words)
        body = whole(_ADD_WARNING.sub(r"\1 is deprecated (it warns).", words))
        if body is None and entry.head is not None and len(words) > MAX_TEXT \
                and (bare := whole(_BRACKETED.sub("", words))):
            words = body = bare  # a list's asides left out, it fits: still the whole entry
        if body is None and (rule == "breaking" or _breaking(entry.section) or entry.head is None
                             and (_RULE_PATTERNS[rule].search(_headline(words))
                                  or rule == "default"
                                  and _DEFAULT_FROM_TO.search(_headline(words)))):
            body = first_sentence(words)  # "Replaced `python-dateutil` with … zoneinfo. This …"
        if body is None and entry.head is not None and ": " in words:
            # a headline over points too long to say whole, by the headline and its first
            # point when that says the change: "Vendor Click …: Typer no longer depends on
            # Click as a third party dependency, it vendors (includes the source code of) Click."
            point = words.split("; ", 1)[0].rstrip(".") + "."
            if point != words and len(point) <= MAX_TEXT \
                    and _CHANGE_SAID.search(point.split(": ", 1)[1]):
                body = point
        if body is not None and body != words and (not _CHANGE_SAID.search(body)
                                                   or _POINTS_ON.search(body)):
            continue  # "Most of the public classes … weren't designed with subclassing in
            # mind."; "The classes listed below are now abstract base classes."
        if body is None or " ".join(body.lower().split()) in said:
            continue
        said.add(" ".join(body.lower().split()))
        body = _explained(body, entry.intro)
        if borrowed:  # what the deprecation before it said to use instead
            body = f"{body.rstrip()} ({borrowed})"
        out.append(Proposal(
            source="changelog", kind="decision" if rule == "instead" else "codebase",
            text=said_of(project, _release(entry), rel,
                         "Breaking change" if labelled else _verb(entry.section, rule), body),
            provenance=lines_label(rel, entry.first, entry.last), rule=f"changelog-{rule}",
            old=old))
    out = _once(out)
    out.sort(key=lambda p: lines_of(p.provenance)[0])
    return out


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9_]{3,}", plain(text).lower())) - {"the", "and", "for", "now"}


def _said_again(entry: Entry, final: list[set[str]] | None) -> bool:
    """The final release's notes say what this pre-release entry said: it lists all its
    pre-releases' changes (most do), or this one again in its own words (most of them)."""
    if final is None:
        return False
    said = _words(entry.text)
    return not said or any(len(said & words) >= 0.6 * len(said) for words in final)


def _once(found: list[Proposal]) -> list[Proposal]:
    """`found` (newest first) with one change said twice proposed once: the deprecation, which
    says what is deprecated and what to use, else the newest (see `trivia.names_key`)."""
    kept: list[Proposal] = []
    seen: set[frozenset[str]] = set()
    for p in sorted(found, key=lambda p: p.rule != "changelog-deprecation"):  # stable
        key = names_key(p.text.split("): ", 1)[-1])
        if key and key in seen:
            continue
        seen.add(key)
        kept.append(p)
    return kept
