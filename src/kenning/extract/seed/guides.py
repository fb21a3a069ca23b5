"""The rules, defaults, gotchas and lifecycle notes a project's own guides state. Stdlib only.

Read: the topic pages under `docs/` and `doc/` (Markdown and reStructuredText, three
folders deep at most) and the README at the root; not the changelog, the contributing
guide (read by `documents`), licences, sponsorship, API reference pages made of directives,
or translations. Code blocks, tables, directives' options and quoted text are skipped.

A sentence is proposed when it says one of these explicitly, and reads alone:

- a warning: the first sentence of a `!!! warning` / `.. warning::` / `> [!WARNING]`
  admonition (also danger, caution, important, attention);
- a limitation: a bullet or sentence under a heading named Limitations, Caveats, Gotchas,
  Pitfalls or Known issues;
- a default with its value ("Defaults to `500`", "The default thread pool size is 40");
- a lifecycle note with its version ("deprecated in version 0.15.0, and removed in 0.17.0").

A rule (must / must not / never / always / do not / should (not)) is not proposed: judged
8 good of 14 (bench/data/SPLITS.md, round 10), too many restate the obvious ("pages must be
authored in Markdown") or a one-off ("the plugin should detect the `blackd` executable").

Each proposal names the project, the page title and the section (a generic one,
"Limitations", with the heading above it: "Stash › Limitations"), so it reads on its own:
"starlette docs (Middleware › GZipMiddleware): `minimum_size`: Do not GZip responses smaller
than this size in bytes. Defaults to `500`." A sentence that opens by pointing
back ("This", "However", "It") is left out, and so is one that points forward to what
follows ("the following", "as shown below", a trailing colon). At most `PER_PAGE` per page
(warnings first, then limitations, lifecycle notes and defaults) and `MAX_PAGES`
pages, the shorter paths first.
"""

from __future__ import annotations

import html
import os
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from kenning.extract.seed.changelogs import PAGE_NAME, knob, own_variable
from kenning.extract.seed.documents import LEANS, line_of
from kenning.extract.seed.model import (
    DOC_DIRS,
    Proposal,
    lines_label,
    plain,
    pythons_own,
    regular_dir,
    regular_file,
    site_dirs,
)

MAX_BYTES = 256 * 1024
MAX_PAGES = 80
PER_PAGE = 5
PER_SECTION = 2
PER_SECTION_DEFAULTS = 1
MAX_DEPTH = 3
_README = ("README.md", "README.rst", "README", "README.markdown", "readme.md")
_SKIP_NAME = re.compile(
    r"^(?:changes|changelog|history|news|release[-_ ]?notes?|releases?|contributing|"
    r"contributors|authors|license|licence|copying|sponsor\w*|funding|code[-_]of[-_]conduct|"
    r"conduct|security|support|api[-_\w]*|reference|genindex|glossary|third[-_]party\w*|"
    r"changes[-_]\w+|upgrad\w*|migrat\w*|whatsnew\w*|what[-_]s[-_]new\w*|backers|thanks|"
    r"credits|todo|roadmap|tutorial\w*|faqs?|why\w*|comparison\w*|history\w*|"
    r"installation|install|[\w.-]*announcements?|[\w.-]*release[-_]notes)$", re.I)
# A changelog split into pages ("2013-news.md", `changelogs.PAGE_NAME`, or a page titled
# "Changelog - 2013") is the changelog, not a guide: its entries are dated news, and a guide's
# sentence is proposed with no release window and nothing later to overtake it.
_CHANGELOG_TITLE = re.compile(r"^\W*(?:change[-_ ]?log|changes|release notes|news|history|"
                              r"(?:version|release) history|what'?s new)\b", re.I)
# A page named for one release series ("installing-1.x", "upgrading-2.x"): that series' notes,
# history once the project is past it.
_SERIES = re.compile(r"(?:^|[-_.])v?\d+\.x$", re.I)
_SKIP_DIR = re.compile(r"^(?:_\w*|\.\w*|locales?|i18n|translations?|api|reference|"
                       r"changelog|changes|releases?|release[-_]notes|news|blog|adr|adrs|"
                       r"decisions|build|site|node_modules|img|images|static|tutorials?|examples?|"
                       r"getting[-_]started|blog|posts|talks|videos"
                       # a migration or upgrade guide's folder, as its page names are: what
                       # changed from one version to the next ("`x` now defaults to `True`")
                       r"|migrat\w*|upgrad\w*"
                       # a translation of the docs (`docs/pt-br/`, `docs/zh_CN/`): the same pages
                       # again in another language
                       r"|(?:ar|bn|cs|de|el|es|fa|fr|he|hi|hu|id|it|ja|ko|nl|pl|pt|ro|ru|sv|th|tr"
                       r"|uk|vi|zh)(?:[-_](?:br|pt|cn|tw|hk|hans|hant|es|mx|de|fr))?)$", re.I)
_FENCE = re.compile(r"^\s*(```|~~~)")
# MyST: ":::{warning}" / "```{note}" … ":::" (a directive fenced like code).
_MYST = re.compile(r"^\s*(?P<mark>:{3,}|`{3,})\s*\{(?P<kind>[\w:-]+)\}\s*(?P<arg>.*)$")
_LIFECYCLE_KINDS = ("deprecated", "versionremoved")
# A note is read as prose (its sentences must fire a rule); a warning is a warning.
_NOTE_KINDS = ("note", "info", "tip", "hint")
_MD_HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
# MkDocs Material's icon shortcode before a heading's words (":material-apple: macOS")
_ICON = re.compile(r"^:[a-z][\w-]*:\s*")
_RST_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+])\1{2,}\s*$")
_MK_ADMONITION = re.compile(r"^(?P<indent>\s*)(?:!!!|\?\?\?\+?)\s*(?P<kind>\w+)")
_RST_DIRECTIVE = re.compile(r"^(?P<indent>\s*)\.\.\s+(?P<kind>[\w:-]+)::\s*(?P<rest>.*)$")
_GH_ADMONITION = re.compile(r"^\s*>\s*\[!(?P<kind>\w+)\]\s*$")
_QUOTE_ADMONITION = re.compile(r"^\s*>\s*\*\*(?P<kind>Warning|Caution|Important|Danger|Note)"
                               r"\**:?\**\s*(?P<rest>.*)$", re.I)
_WARNING_KINDS = ("warning", "danger", "caution", "important", "attention", "error")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)]|#\.)\s+")
_LIMITS = re.compile(r"\b(?:limitations?|caveats?|gotchas?|pitfalls?|known (?:issues|problems|"
                     r"bugs)|common mistakes)\b", re.I)
# A section named for what it holds, not its subject: said with the heading above it.
_GENERIC_SECTION = re.compile(r"^(?:(?:known |current )?(?:limitations?|caveats?|gotchas?|"
                              r"pitfalls?|issues|problems|notes?|warnings?)|usage|examples?|"
                              r"overview|introduction|details|options|arguments|parameters|"
                              r"settings|configuration|best practices|advantages|"
                              r"disadvantages|error handling|api|api reference|security|"
                              r"performance|testing|installation|summary)$", re.I)
_EMPHASIS = re.compile(r"(?<![\w*`])[*_](\w[^*_`]*?)[*_](?![\w*`])")
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*_(\"'])")

# A rule: an imperative ("Never …", "Do not …", "Make sure …"), or a subject that must,
# should or is required to; "cannot", "don't" inside a sentence describe, they do not rule.
_RULE = re.compile(r"^(?:never|always|do not|don't|make sure|be sure|avoid|ensure)\b|"
                   r"\b(?:must(?: not)?|mustn't|never|always|should(?: not| never| only| always)?"
                   r"|shouldn't|(?:is|are) required|required to|(?:is|are) not supported|"
                   r"not thread-?safe|(?:is|are) not safe|(?:is|are) not allowed)\b", re.I)
# The sentence names something of the code: `x`, x(), a.b, snake_case, CamelCase, --flag.
_CODE = re.compile(r"`[^`]+`|\b\w+\(\)|\b[a-z_]\w*\.[a-z_]\w*\b|\b[a-z]+_[a-z_]+\b|"
                   r"\b[A-Z][a-z]+[A-Z]\w*\b|(?<!\w)--?[a-z][\w-]+")
# "a custom default to be set" says no default
_DEFAULT = re.compile(r"\b(?:defaults? (?:to(?! be\b)|is|of)|by default|the default \w+"
                      r"(?: \w+){0,3} (?:is|are))\b", re.I)
_VALUE = re.compile(r"`[^`]+`|\b\d+(?:\.\d+)?\b|\b(?:True|False|None|true|false|null|on|off|"
                    r"enabled|disabled)\b")
_LIFECYCLE = re.compile(r"\b(?:deprecated|removed|no longer (?:supported|available|"
                        r"built[- ]in))\b[^.]*?\b(?:version|v)?\s*\d+\.\d+", re.I)
# A walkthrough's narration, not a rule: what "you should see", what the next step shows;
# a sentence leaning on its context ("this feature", "against that"), an option's
# description ("origins that should be permitted"), a reassurance ("should be fine").
_NARRATION = re.compile(
    r"\byou (?:should|will|'ll|must) (?:now |then |also )?(?:see|get|have|notice|be able|"
    r"find|end up|receive|be presented|be redirected|be greeted|now)\b|\bshould (?:now |also )?"
    r"(?:look|print|output|display|show|appear|work now|be (?:visible|displayed|shown|"
    r"printed))\b|\b(?:this|the) (?:tutorial|guide|chapter|section|page|example|document"
    r"|documentation)\b|\bthe following\b|\b(?:below|above|earlier|later on|next)\b|"
    r"\bin (?:this|our) (?:example|case)\b|\bfor (?:example|instance)\b|\be\.g\.|\blet'?s\b|"
    r"\bwe(?:'ll| will| can| could| need| have|'ve)\b|\bI\b|\?|\bhere\b|\bfoo\b|\bbar\b|"
    r"\bsimply\b|\bjust\b|^there seems?\b|\beg\.|\bshould be able\b|"
    r"\b(?:that|which|who|whether) (?:\w+ ){0,2}should\b|"
    r"\b(?:be sure|make sure) to (?:read|check)\b|\bhave the option\b|"
    r"\bas an? (?:\w+ )?example\b|\b(?:against|enables?|do|does|uses?|avoids?|changes?|fix|"
    r"fixes|prevents?|solves?) (?:that|this)\b|"
    r"\b(?:this|these|those) (?!project\b|repository\b|package\b|library\b)[a-z]\w*|"
    r"\b(?:if|when) you do (?:this|that|so)\b|\bto do (?:so|this|that)\b|^see\b|^\.\. |"
    r"\bshould be (?:simple|easy|straightforward|possible|fine|enough|okay|ok|sufficient)\b|"
    # what motivates the next paragraph ("sometimes a more compact … is required"), and
    # advice to the library's users about their own code ("can be copied into your codebase")
    r"\bsometimes\b|\bif (?:even )?(?:more|further|additional|extra) \w+ (?:is|are) "
    r"(?:required|needed)\b|\byour (?:own )?(?:code|codebase|code base)\b|\bcop(?:y|ied) "
    r"(?:\S+ )?(?:into|to|over)\b|"
    # history and hedges: "Prior to Django 2.1 …", "act as they always do", "most clients
    # will", "probably", "you'll also want", "a little attention", "the quickest way to …"
    r"\b(?:prior to|before) (?:[A-Z]\w* )?(?:version |v)?\d|"
    r"\b(?:prior to|before) [a-z][\w-]* v?\d+\.\d|\bas (?:they|it|you) (?:always|"
    r"usually|normally) (?:do|does|would)\b|\bmost \w+(?: \w+)? will\b|\bprobably\b|"
    r"\byou'?ll (?:also )?(?:want|need)\b|\ba little\b|\bthe (?:quickest|easiest|simplest) "
    r"way\b|\bto learn\b|\bdon'?t forget\b|\bbehind the scenes\b|\bnot currently\b|"
    # a hedge ("in general, almost all … should work"), trivia ("for the curious, …") and a
    # comparison that tells a story ("follows a more structured system, where you can …")
    r"\bin general\b|\balmost (?:all|every|always)\b|\bshould (?:\w+ )?work\b|\bfor the curious\b|"
    r"\bthe most common way\b|\boccasionally\b|\byou might (?:need|want)\b|"
    r"\bwhere you (?:can|could|may)\b|\ba (?:more|less) \w+ (?:system|approach|model|design"
    r"|way)\b",
    re.I)
# Opens by pointing back at what came before, in ways `LEANS` does not list.
_BACK = re.compile(r"^(?:if|when|unless|since) (?:it|this|that|they|so|not)\b|^(?:for|in|with|"
                   r"under) (?:these|those|this|that|such)\b|^(?:note that )?(?:this|that|it)\b|"
                   r"^in (?:any|either|both|each|that|this|such) cases?\b|"
                   r"^because (?:the|these|those|this|that|of)\b|^the (?:methods?|functions?|"
                   r"class|classes|callbacks?|objects?|result|other|two|first|second|next|"
                   r"previous)\b|^(?:and|or|nor|as with)\b|^by default,? (?:that'?s|this is|"
                   r"that is)\b"
                   # "Not to be confused with the `color` CSS rule …": with the page's subject
                   r"|^not to be confused with\b"
                   # "By default, it starts at time 0": what starts? ("it's assumed" is no one)
                   r"|^(?:by default|currently|normally|usually|typically),? (?:it|they)\b"
                   r"(?!'s|\s+(?:is|was)\b)"
                   # "By default, asserts that all sent requests are mocked": a verb with its
                   # subject left in the heading above (which option asserts?)
                   r"|^(?:by default|currently|normally|usually|typically),? [a-z]+s (?:that )?"
                   r"(?:the|a|an|all|any|every|each|its|their|whether|if|no|only)\b"
                   # "The default output is `format_item`": the default of what?
                   r"|^the default (?:output|format)s? (?:is|are)\b",
                   re.I)
# Code that reached the text (an indented block the paragraph rules missed): not a sentence.
_SOURCE_CODE = re.compile(r'"""|\)\s*:|\bdef \w+\(|\bclass \w+\(|\s==?\s|\[\s*$|\s#\s|'
                          r"\breturn \w+\W*$|\w\(\w+=")
# A list item that is no sentence: "Setting the `ordering` attribute on the `Meta` class."
_FRAGMENT = re.compile(r"^(?:(?:[Ii]f|[Ww]hen) [^,]+, )?(?:[A-Z][a-z]+ly )?[A-Za-z][a-z]+ing\b"
                       r"(?!(?:(?!\b(?:that|which|who|whose)\b).)*\b(?:is|are|will|would|"
                       r"may|might|can|cannot|can't|does|doesn't|do|don't|must|should|has|"
                       r"have|won't|causes?|leads?|breaks?|prevents?|requires?)\b)")
_SECOND_PERSON_OPTIONAL = re.compile(r"^(?:if you|when you|you can|you may|you might|"
                                     r"you could|see)\b|\byou can always\b", re.I)


@dataclass
class _Para:
    line: int
    text: str
    title: str
    section: str
    warning: bool = False
    limits: bool = False
    bullet: bool = False
    term: str = ""  # the RST definition list term it defines ("sockets", "trusted_proxy")


def guide_files(root: Path) -> list[Path]:
    """The topic pages and the README, shorter paths first, at most `MAX_PAGES`."""
    out: list[Path] = [root / n for n in _README if regular_file(root / n)][:1]
    pages: list[Path] = []
    for name in (*DOC_DIRS, *site_dirs(root)):
        top = root / name
        if not regular_dir(top):
            continue
        for here, dirs, files in os.walk(top):  # os.walk never follows a symlinked folder
            depth = len(Path(here).relative_to(top).parts)
            dirs[:] = sorted(d for d in dirs if depth + 1 < MAX_DEPTH and not _SKIP_DIR.match(d))
            for f in sorted(files):
                stem, _, ext = f.rpartition(".")
                if ext.lower() in ("md", "rst", "markdown") and not _SKIP_NAME.match(stem) \
                        and not PAGE_NAME.search(stem) and not _SERIES.search(stem) \
                        and regular_file(Path(here) / f):
                    pages.append(Path(here) / f)
    pages.sort(key=lambda p: (len(p.relative_to(root).parts), p.as_posix()))
    return out + pages[:MAX_PAGES - len(out)]


def _paragraphs(text: str, markdown: bool = True) -> list[_Para]:
    """Prose paragraphs with their first line, page title, section, and whether they are a
    warning's, a limitation section's or a bullet's; code, tables and directives skipped."""
    lines = text.splitlines()
    out: list[_Para] = []
    title = section = ""
    fence = False
    skip_indent: int | None = None  # inside a code block / directive body we skip
    warn_indent: int | None = None  # inside a warning admonition's body
    current: _Para | None = None
    term: tuple[str, int] | None = None  # the definition list term we are under, its indent

    def close() -> None:
        nonlocal current
        if current is not None and current.text.strip():
            current.term = term[0] if term else ""
            out.append(current)
        current = None

    above: dict[int, str] = {}  # the headings over the current one, by level
    rst_marks: list[str] = []  # RST's underline characters in the order the page uses them

    def heading(name: str, level: int, depth: int) -> None:
        nonlocal title, section
        words = plain(name).rstrip(".")
        # a name that opens lower case keeps its case ("macOS", "npm")
        name = words[:1].lower() + words[1:] if name.lstrip()[:1].islower() else words
        for deeper in [d for d in above if d >= depth]:
            del above[deeper]
        parent = next((above[d] for d in sorted(above, reverse=True) if above[d] != title), "")
        above[depth] = name
        if level == 1 and not title:
            title = name
        else:  # "Limitations" under "Stash" are the stash's: "Stash › Limitations"
            section = f"{parent} › {name}" if parent and _GENERIC_SECTION.match(name) else name

    def prev_line(n: int) -> str:
        return lines[n - 2] if n > 1 else ""

    myst: str | None = None  # the mark that closes the MyST directive we are in
    myst_skip = myst_warn = False
    note_indent: int | None = None  # inside a MkDocs note's indented body
    quoted = False  # inside a GitHub `> [!WARNING]` / `> **Warning**` block's quoted body
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip()
        indent = len(line) - len(line.lstrip())
        if myst is not None:
            if line.strip() == myst:
                close()
                myst = None
            elif not myst_skip and not re.match(r"^\s*:\w[\w-]*:", line):
                if not line.strip():
                    if not myst_warn:
                        close()
                    continue
                if current is None:
                    current = _Para(n, "", title, section, warning=myst_warn)
                current.text = f"{current.text} {line.strip()}".strip()
                current.line = current.line or n
            continue
        if m := _MYST.match(line):
            close()
            kind = m.group("kind").lower()
            myst, myst_warn = m.group("mark"), kind in _WARNING_KINDS + _LIFECYCLE_KINDS
            myst_skip = not myst_warn and kind not in _NOTE_KINDS
            if myst_warn:
                lead = f"Deprecated since {m.group('arg').strip()}:" if kind in \
                    _LIFECYCLE_KINDS and m.group("arg").strip() else ""
                current = _Para(0, lead, title, section, warning=True)
            continue
        if quoted:
            if line.lstrip().startswith(">"):
                body = line.lstrip()[1:].strip()
                if body and current is not None:
                    current.text = f"{current.text} {body}".strip()
                    current.line = current.line or n
                continue
            close()
            quoted = False
        if _FENCE.match(line) and (markdown or not _RST_UNDERLINE.match(line)):
            close()  # (RST has no fences: its "~~~~~" underlines a heading)
            fence = not fence
            continue
        if fence:
            continue
        if skip_indent is not None:
            if not line.strip() or indent > skip_indent:
                continue
            skip_indent = None
        if warn_indent is not None and line.strip() and indent <= warn_indent:
            close()
            warn_indent = None
        if note_indent is not None and line.strip() and indent <= note_indent:
            close()
            note_indent = None
        if term is not None and line.strip() and indent <= term[1]:
            close()
            term = None
        nxt = lines[n] if n < len(lines) else ""
        if line.strip() and _RST_UNDERLINE.match(nxt) and not _BULLET.match(line) \
                and len(nxt.strip()) >= len(line.strip()) - 2:
            close()
            mark = nxt.strip()[0] + ("o" if _RST_UNDERLINE.match(prev_line(n)) else "")
            if mark not in rst_marks:
                rst_marks.append(mark)
            heading(line.strip(), 1 if nxt.strip()[0] in "=#*" and not title else 2,
                    rst_marks.index(mark) + 1)
            continue
        if _RST_UNDERLINE.match(line):
            continue
        # a heading inside a MkDocs admonition's indented body ("    ### macOS" under "!!! info
        # "Your platform"") heads what follows in it
        inside = note_indent is not None or warn_indent is not None
        if m := _MD_HEADING.match(line.lstrip() if inside else line):
            close()
            heading(_ICON.sub("", m.group("title")), len(m.group("hashes")),
                    len(m.group("hashes")))
            continue
        if m := (_MK_ADMONITION.match(line) or _GH_ADMONITION.match(line)):
            close()
            if m.group("kind").lower() in _WARNING_KINDS:
                current = _Para(0, "", title, section, warning=True)
                if line.lstrip().startswith(">"):
                    quoted = True
                else:
                    warn_indent = len(m.groupdict().get("indent") or "")
            elif m.group("kind").lower() in _NOTE_KINDS and line.lstrip().startswith("!!!"):
                note_indent = len(m.groupdict().get("indent") or "")
            else:
                skip_indent = len(m.groupdict().get("indent") or "")
            continue
        if m := _QUOTE_ADMONITION.match(line):
            close()
            if m.group("kind").lower() in _WARNING_KINDS:
                rest = m.group("rest").strip()
                current = _Para(n if rest else 0, rest, title, section, warning=True)
                quoted = True
            continue
        if m := _RST_DIRECTIVE.match(line):
            close()
            kind = m.group("kind").lower()
            if kind in _WARNING_KINDS:
                warn_indent = len(m.group("indent"))
                current = _Para(n if m.group("rest").strip() else 0, m.group("rest"), title,
                                section, warning=True)
            elif kind not in _NOTE_KINDS:
                skip_indent = len(m.group("indent"))
            continue
        if line.rstrip().endswith("::") and not line.strip().startswith(".."):
            # An RST literal block follows. The line ends its paragraph's sentence ("…will
            # throw a SSLError if\nit's unable to verify the certificate::"): a clause is
            # said with a full stop, a lead-in ("… as follows::") keeps its colon and is left
            # out as pointing ahead; "::" alone on its line adds nothing.
            words = line.strip()[:-2].rstrip()
            if current is not None and words and not current.warning:
                ends = ":" if _LEAD_IN.search(words) else "."
                current.text = f"{current.text} {words}{ends}"
            close()
            skip_indent = indent
            continue
        stripped = line.strip()
        if not stripped:
            if current is not None and not current.warning:
                close()
            continue
        # HTML and tables close a paragraph; "<testing-time>` and …" ends an RST role's link.
        if stripped.startswith(("|", ">", "<", "+--", "{", "}", "[!", "[^")) \
                and not re.match(r"^<[^<>`]+>`", stripped) \
                or re.match(r"^\[[^\]]+\]:\s|^:[\w -]+:(?!`|[\w-]+:`)", stripped):
            # a field (":param x:"), not a line opening on a role (":py:func:`clean` is …")
            close()
            continue
        if _BULLET.match(stripped):
            close()
            current = _Para(n, _BULLET.sub("", stripped), title, section,
                            warning=warn_indent is not None, limits=bool(_LIMITS.search(section)),
                            bullet=True)
            continue
        prev = lines[n - 2] if n > 1 else ""
        if current is None and indent >= 4 and not prev.strip() and markdown \
                and (note_indent is None or indent >= note_indent + 8) \
                and not (out and out[-1].bullet and out[-1].line >= n - 12):
            skip_indent = indent - 1  # a Markdown code block: indented after a blank line
            continue
        if current is not None and not current.warning and not current.bullet \
                and indent > len(prev) - len(prev.lstrip()) and current.line == n - 1 \
                and not re.search(r"[.!?:]$", current.text):
            # An RST definition list's term: the definition reads alone, with its subject.
            term = (current.text, len(prev) - len(prev.lstrip()))
            current = None
        if current is None:
            current = _Para(n, stripped, title, section, warning=warn_indent is not None,
                            limits=bool(_LIMITS.search(section)))
        else:
            current.text = f"{current.text} {stripped}".strip()
            if not current.line:
                current.line = n
    close()
    return out


# A version that belongs to something else: "deprecated since Python 3.6" is Python's news.
_OTHERS_VERSION = re.compile(r"\b(?P<name>[A-Z][\w-]*)\s+v?\d+\.\d+")
_OWN_VERSION_WORDS = ("version", "release", "v")


def _own_lifecycle(sentence: str, project: str) -> bool:
    """A lifecycle note about the project's own versions, not another product's."""
    m = _LIFECYCLE.search(sentence)
    return bool(m) and not any(
        o["name"].lower() not in (*_OWN_VERSION_WORDS, project.lower())
        for o in _OTHERS_VERSION.finditer(m.group(0)))


def _strength(p: _Para, sentence: str, first: bool, project: str = "") -> tuple[int, str] | None:
    """How strong a statement `sentence` is (lower first) and its rule, or None."""
    if p.warning and first:
        return 0, "guide-warning"
    if p.limits and (p.bullet or first) and not _SECOND_PERSON_OPTIONAL.search(sentence) \
            and not _FRAGMENT.match(sentence):
        return 1, "guide-limitation"
    if _own_lifecycle(sentence, project):
        return 2, "guide-lifecycle"
    if _POLICY.search(p.section or p.title) and _PROMISE.search(sentence):
        return 2, "guide-policy"
    if _DESIGN.search(sentence) and not _YOURS.search(sentence) \
            and not _VAGUE_DESIGN.search(sentence):
        return 3, "guide-design"
    if (name := knob(sentence)) and own_variable(name, project):
        return 3, "guide-knob"  # "Set `FALCON_DISABLE_CYTHON` to … to skip the extensions"
    if _RULE.search(sentence) and _CODE.search(sentence) \
            and not _SECOND_PERSON_OPTIONAL.search(sentence) \
            and not re.search(r"\b(?:can|could|may|might) (?:not|never)\b", sentence, re.I):
        return None  # a guide's must / should: 8 good of 14 judged (SPLITS.md), below the bar
    if _DEFAULT.search(sentence) and _VALUE.search(sentence.split("efault", 1)[-1]):
        return 4, "guide-default"
    return None


# A section where the project states what it promises of its releases ("Deprecation policy",
# "API stability", "Backwards compatibility policy"): its rules ("We aim to maintain support
# for deprecated Scrapy features for at least 1 year.", "Methods … that start with a single
# underscore are private and should never be relied upon as stable.").
_POLICY = re.compile(r"^(?:(?:deprecation|versioning|release|compatibility|backwards?[- ]"
                     r"compatibility|support|stability) polic(?:y|ies)|(?:api |interface )?"
                     r"stability(?: (?:promise|guarantees?))?)$", re.I)
_PROMISE = re.compile(r"\b(?:will|must|should|never|at least|aim to|promise\w*|guarantee\w*"
                      r"|may)\b", re.I)
# A choice the project says it made on purpose ("This is deliberately different from the `201`
# returned by insert: …", "By design the text is customizable, but the layout is not."), not
# what a reader may do on purpose ("If you intentionally want to …").
_DESIGN = re.compile(r"\b(?:deliberately|intentionally|by design|on purpose)\b", re.I)
# A design said only as a quality ("kept deliberately simple and explicit", "deliberately
# minimal"): a slogan, nothing a reader can act on.
_VAGUE_DESIGN = re.compile(r"\b(?:deliberately|intentionally|by design|on purpose),?\s+(?:kept\s+)?"
                           r"(?:very\s+|quite\s+)?(?:simple|minimal|small|explicit|lightweight"
                           r"|lean|basic|straightforward|thin|focused|opinionated)\b", re.I)
_YOURS = re.compile(r"\b(?:you|your|yours|want to|wish to|licen[cs]e|submitted)\b", re.I)
_ADVICE = re.compile(r"^(?:avoid|use|don'?t|do not|never|always|prefer|make sure|be sure"
                     r"|consider|remember)\b", re.I)
_NAMED = re.compile(r"`[^`]+`|\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?|\b\w+\(\)")


def _only_stdlib(sentence: str, project: str) -> bool:
    """Advice ("avoid instantiating ssl.SSLContext directly") whose every piece of code is the
    standard library's and which does not name the project: Python's advice, not this
    project's. A statement of what the project does with it ("`typing.TypeAlias` isn't
    supported") is the project's."""
    if not _ADVICE.match(sentence) or project.lower() in sentence.lower():
        return False
    names = [n.strip("`").removesuffix("()") for n in _NAMED.findall(sentence)]
    roots = {n.split(".", 1)[0] for n in names if "." in n}
    return bool(names) and all("." in n for n in names) and roots <= sys.stdlib_module_names


_PYTHONS = re.compile(r"\bPython(?:'s)?\b|\bstandard library\b|\bstdlib\b", re.I)


def _stdlib_default(sentence: str, project: str) -> bool:
    """A default of the standard library's, not the project's: every piece of code the
    sentence names is a standard module or reached through one, said as Python's or dotted
    ("time-zone information is not by default available for the Python `datetime` and `time`
    objects"), and the project is not named; a builtin or a dunder is Python's too."""
    if project.lower() in sentence.lower():
        return False
    names = [n.strip("`").removesuffix("()") for n in _NAMED.findall(sentence)]
    return bool(names) and all(pythons_own(n) for n in names) and (
        all("." in n for n in names) or bool(_PYTHONS.search(sentence)))


# Why a default was chosen ("Dropping TLS 1.0 by default means you won't be vulnerable …
# if a vulnerability … were discovered"), or what the reader can make the default ("You can
# also have it load by default by adding …"): neither says what the default is; nor does one
# that does not say of what ("The default is `None`, …").
_NOT_A_DEFAULT = re.compile(r"\bmeans? (?:that )?you\b|\byou (?:won'?t|will not|wouldn'?t|would"
                            r" not) be\b|\bif\b[^,.]* were\b|^(?:you|users?) (?:can|could|may"
                            r"|might)\b"
                            # "The default is `None`, which …": the default of what?
                            r"|^the default(?: value)? is\b", re.I)
# Whose default: "By default, highlight.js only supports 23 languages" is another product's.
_WHOSE = re.compile(r"^(?:`[^`]+`:\s+)?by default,?\s+(?P<who>[A-Za-z][\w.+-]*)", re.I)
_COMMON = frozenset("""a an the all any each every no only one some this these those it its
    they their there when if in on for with without as at after before most many such both
    either neither nothing none new your our we you""".split())


def not_the_projects_default(sentence: str, project: str) -> bool:
    """A "by default" sentence that does not say the project's default: a motivation, what
    the reader can set, or another product's own default (a proper or dotted name other than
    the project's as the subject)."""
    if _NOT_A_DEFAULT.search(sentence):
        return True
    m = _WHOSE.match(sentence)
    if m is None:
        return False
    who = m["who"].rstrip(".")
    if sentence[m.end():m.end() + 1] == "(" or re.search(r"[A-Z][a-z]+[A-Z]", who):
        return False  # "By default, TaskGroup.start() returns …": the project's code
    return who.lower() not in _COMMON and who.lower() != project.lower() \
        and (who[:1].isupper() or "." in who) and not who.isupper()


def _names_term(term: str, sentence: str) -> bool:
    """The sentence says what the term names ("If a tuple only has one item" under
    "('tuple', 'of', 'values')")."""
    code = re.match(r"^`*(-{1,2}[\w-]+|[A-Za-z_][\w.]*(?=`))", term.strip())
    if code:  # "``--port=PORT``" is named by `--port`, not by the word "port"
        return code.group(1) in sentence
    words = {w.lower() for w in re.findall(r"[A-Za-z_]\w{2,}", term)}
    return bool(words & {w.lower() for w in re.findall(r"[A-Za-z_]\w{2,}", sentence)})


def _term(term: str) -> str:
    """A definition list term as a subject: a name of the code in backquotes."""
    name = plain(term).rstrip(".").strip()
    name = name[:1].lower() + name[1:] if term.strip()[:1].islower() else name
    return f"`{name}`" if re.fullmatch(r"[\w.-]+", name) and not name.istitle() else name


# What makes a bullet a sentence of its own rather than an item of its lead-in's list.
_VERB = re.compile(r"\b(?:is|are|was|were|be|been|can|cannot|can't|will|won't|may|might|must"
                   r"|should|does|do|don't|doesn't|has|have|had|needs?|requires?|supports?"
                   r"|works?|uses?|runs?|disable|enable|never|always|only|\w+ed)\b", re.I)


def _only_names(sentence: str) -> bool:
    """`sentence` names code and says nothing of it: fewer than three words besides its
    names, asides in brackets and "and" / "or"."""
    words = re.sub(r"\([^()]*\)|`[^`]*`|\b\w+(?:\.\w+)+\b", " ", sentence)
    return len([w for w in re.findall(r"[A-Za-z]+", words)
                if w.lower() not in ("and", "or", "the", "a", "an")]) < 3


_STATUS = re.compile(r"^(?:note:\s*)?(?:currently|at the moment|for now|as of now|at present"
                     r"|as of (?:this|today|writing))\b", re.I)
_HEDGED = re.compile(r"\btypically\b|\b(?:be|make) sure (?:that )?you understand\b", re.I)


# What announces the literal block after it rather than ending a statement.
_LEAD_IN = re.compile(r"\b(?:follows|following|example|instance|like this|like so|such as|e\.g\."
                      r"|below|this way|these|like|as|with|using|run|use|type|command|code)\s*$",
                      re.I)


def _reads_alone(sentence: str) -> bool:
    s = sentence.strip()
    if not 30 <= len(s) <= 320 or s.endswith((":", ",")) or LEANS.match(s.lstrip("*_`")) \
            or _BACK.match(s) or re.search(r"(?:^|\s)\d{1,2}\.$", s):  # "… two ways. 1."
        return False
    if _NARRATION.search(s) or _SOURCE_CODE.search(re.sub(r"`[^`]*`", "", s)):
        return False
    if _STATUS.match(s) or _HEDGED.search(s):
        return False  # "Currently there is no built-in mechanism …": a status that goes stale;
        # "Virtual environments typically reference …": how things usually are, anywhere
    if unicodedata.category(s[:1]) == "So":
        return False  # "✅ Expected: All … files will be included": one point of a feature list
    letters = sum(c.isalpha() for c in s)
    return letters >= 0.6 * len(s) and not s.startswith(("(", "[", "-", "*", "`$", "\\")) \
        and not re.search(r"<br\s*/?>|</?(?:p|div|span|td|tr|th|table|b|i|em|strong|a)>", s)


def _lead(project: str, p: _Para, rel: str) -> str:
    # a heading's HTML entities said as their characters: "&lt;color&gt;" is "<color>"
    page = html.unescape(p.title) if p.title \
        else Path(rel).stem.replace("-", " ").replace("_", " ").title()
    section = html.unescape(p.section) if p.section else p.section
    where = page if not section or section == page else f"{page} › {section}"
    return f"{project} docs ({where})" if not rel.lower().startswith("readme") \
        else f"{project} README" + (f" ({section})" if section else "")


def proposals(text: str, rel: str, project: str) -> list[Proposal]:
    """The guide at `rel` (its text): its warnings, limitations, rules, defaults and
    lifecycle notes, strongest first, at most `PER_PAGE`."""
    found: list[tuple[int, int, Proposal]] = []
    lines = text.splitlines()
    paragraphs = _paragraphs(text, not rel.endswith((".rst", ".txt")))
    if any(_CHANGELOG_TITLE.match(p.title) for p in paragraphs[:1]):
        return []
    lead_in, lead_where = "", ("", "")  # the sentence ending in ":" over the bullets below it
    for p in paragraphs:
        if not p.bullet:
            last = _SPLIT.split(plain(p.text))[-1].strip()
            lead_in = last if last.endswith(":") and len(last) <= 120 else ""
            lead_where = (p.title, p.section)
        elif lead_where != (p.title, p.section):
            lead_in = ""
        body = plain(re.sub(r"`([^`<]+)`_(?!\w)", r"`\1`", p.text))
        # "`minimum_size` - Do not GZip …": an option's bullet names its subject first.
        named = re.match(r"^(`[^`]+`|\*\*[^*]+\*\*)\s*[-–—:,]\s+", p.text) if p.bullet else None
        # A warning is read whole when it is short: its first sentence may only set the scene.
        said = _SPLIT.split(body)
        if p.warning and len(said) > 1 and len(body) <= 320:
            said = [body, *said]  # whole if it reads alone, else its first sentence
        for i, sentence in enumerate(said):
            sentence = sentence.strip()
            if named and i > 0:  # "This is always the outermost layer": the bullet's name is
                name = plain(named.group(1)).rstrip(".")
                sentence = re.sub(r"^(?:this|it) (?=(?:is|will|must|should|does|has|can)\b)",
                                  f"{name} ", sentence, flags=re.I)
                sentence = sentence if sentence.startswith(name) else f"{name}: {sentence}"
            joined = i > 0 and _DESIGN.search(sentence) and re.match(
                r"^(?:this|it)\b", sentence, re.I) and len(said[i - 1]) + len(sentence) < 320
            if joined:  # what "This" is deliberately: the sentence before says it
                alone = _reads_alone(re.sub(r"^(?:this|it)\b", "The choice", sentence,
                                            flags=re.I))
                sentence = f"{said[i - 1].strip()} {sentence}"
            if not (alone if joined else _reads_alone(sentence)):
                continue
            strength = _strength(p, sentence, i == 0 or (i == 1 and said[0] == body), project)
            if strength is None:
                continue
            rank, rule = strength
            if _only_stdlib(sentence, project):
                continue  # "avoid instantiating ssl.SSLContext directly": Python's advice
            if rule == "guide-default" and (_stdlib_default(sentence, project)
                                             or not_the_projects_default(sentence, project)):
                continue  # "… not by default available for the Python `datetime` objects"
            if named and i > 0:  # "`x`: Defaults to `9`." of what? Said with what `x` is.
                head = re.sub(r"^(`[^`]+`|\*\*[^*]+\*\*)\s*[-–—:,]\s+", r"\1: ",
                              _SPLIT.split(body)[0])
                whole = f"{head} {said[i].strip()}"
                sentence = whole if len(whole) <= 320 else sentence
            said_plain = _EMPHASIS.sub(r"\1", plain(sentence))
            if rule == "guide-limitation" and p.bullet and lead_in \
                    and not _VERB.search(_CODE.sub(" ", said_plain)) \
                    and len(lead_in) + len(said_plain) <= 320:
                # "Twisted-specific DNS resolvers (…)", no sentence, is an item of "The
                # following features are not available:": said with it
                said_plain = f"{lead_in} {said_plain}"
            if _only_names(said_plain):
                continue  # a bullet that is only names ("`FTPDownloadHandler`", "`A` and
                # `B` (…)") is an item of the list its lead-in introduces ("The following
                # features are not available:"), nothing said alone
            if rule == "guide-default" and not named and not p.term \
                    and re.match(r"^defaults? (?:to|is)\b", said_plain, re.I):
                # "Defaults to `False` for backwards compatibility." under the heading
                # "`use_site_for_root`": said with that name, or of nothing one can tell
                code = re.fullmatch(r"`[^`]+`", plain(p.section).strip())
                if code is None:
                    continue
                said_plain = f"{code.group(0)} {said_plain[:1].lower()}{said_plain[1:]}"
            if p.term and not named and not _names_term(p.term, said_plain):
                said_plain = f"{_term(p.term)}: {said_plain}"  # "`sockets`: May not be used …"
            fact = f"{_lead(project, p, rel)}: {said_plain}"
            first = p.line + line_of(sentence, lines[p.line - 1:p.line + 40]) - 1 \
                if i else p.line
            found.append((rank, first, Proposal(
                source="docs", kind="codebase", text=fact,
                provenance=lines_label(rel, first, first), rule=rule)))
            break  # one proposal per paragraph: the strongest first sentence that fires
    found.sort(key=lambda f: (f[0], f[1]))
    out: list[Proposal] = []
    per_section: dict[str, int] = {}
    defaults: dict[str, int] = {}  # by section: a page of many middlewares has one each
    for _rank, _line, proposal in found:
        where = proposal.text.split("): ", 1)[0]
        if proposal.rule == "guide-default":
            defaults[where] = defaults.get(where, 0) + 1
            if defaults[where] > PER_SECTION_DEFAULTS:
                continue
        if per_section.get(where, 0) < PER_SECTION:
            per_section[where] = per_section.get(where, 0) + 1
            out.append(proposal)
    return out[:PER_PAGE]
