"""The value every seed source returns, and the markup cleaning they share. Stdlib only."""

from __future__ import annotations

import builtins
import hashlib
import os
import re
import stat
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from kenning.lifecycle.dedup import normalise


@dataclass(frozen=True)
class Proposal:
    """One fact a source proposes; `provenance` is `FILE:LINE-LINE` or `commit SHA`."""

    source: str  # commits | changelog | docs | agents
    kind: str  # codebase | decision
    text: str
    provenance: str
    rule: str
    rationale: str | None = None
    old: bool = False  # from a release past the window: holds only while HEAD still warns


    @property
    def key(self) -> str:
        """Same source and same words: the same proposal (a rerun proposes it once)."""
        raw = f"{self.source}\x00{normalise(self.text)}"
        return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:20]

    def to_json(self) -> dict:
        return {**asdict(self), "key": self.key}

    @classmethod
    def from_json(cls, data: dict) -> Proposal:
        return cls(**{k: data[k] for k in ("source", "kind", "text", "provenance", "rule")},
                   rationale=data.get("rationale"), old=bool(data.get("old", False)))


def statement(p: Proposal) -> str:
    """What `p` says, without its source's label: "click 8.2.0 (CHANGES.md): ", "AGENTS.md: ",
    " (commit 1a2b3c4, 2024-01-01)."."""
    if p.source == "commits":
        return p.text.split(" (commit ")[0]
    return p.text.split(": ", 1)[-1]


_RST_REF = re.compile(r"\s*:(?:pr|pull|issue|user|ghuser|bug|gh|commit|ticket|rev):`[^`]*`[,;]?")
_MYST_REF = re.compile(r"\s*\{(?:pr|pull|issue|user|ghuser|bug|gh|commit)\}`[^`]*`[,;]?")
_MYST_PEP = re.compile(r"\{pep\}`(\d+)`")
_MYST_ROLE = re.compile(r"\{(?:py:)?(?:meth|func|class|attr|mod|data|exc|obj|ref|doc|option"
                        r"|envvar|program|term)\}`([^`]*)`")
_RST_ROLE = re.compile(r":(?P<role>meth|func|class|attr|mod|file|samp|command|kbd|abbr|"
                       r"data|exc|obj|ref|doc|option|envvar|program|term|paramref|py:\w+)"
                       r":`([^`]*)`")
# A project's own Sphinx role (scrapy's ":setting:`USER_AGENT`", ":signal:`spider_opened`"):
# the name as code; a role that says what kind of thing it names says it after the name,
# the word a reader asks with ("the `USER_AGENT` setting"), unless the text says it already.
_OTHER_ROLE = re.compile(r":(?P<role>[a-z]+(?::[a-z]+)?):`(?P<name>[^`]*)`(?P<next>\s+\w+)?")
_ROLE_KINDS = {"setting": "setting", "confval": "setting", "signal": "signal"}
_RST_LINK = re.compile(r"`([^`<]+?)\s*<[^>]+>`_+")
_MD_LINK = re.compile(r"\[([^\]]+)\]\([^)]+\)")
# an image, or a badge linked somewhere ("[![CI status](…/badge.svg)](…/actions)"): no words
_MD_IMAGE = re.compile(r"\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)|!\[[^\]]*\]\([^)]*\)")
_ISSUE_REF = re.compile(r"\s*\((?i:issue|pull request|pull|PR|see)?\s*`?#\d+`?\)"
                        r"|\s*\((?i:pull|PR|issue)s? #\d+(?:,\s*#\d+)*\)\.?"
                        r"|\s*\((?i:see) #\d+[^)]{0,40}\)\.?"
                        r"|\s*\((?:(?:#|gh-|GH-|PR #?)\d+[,\s]*)+\)|\s+\[#\d+\]"
                        r"|\s+#\d+\b(?=\.?\s*$)"
                        r"|\s*\((?=[^()]*#\d)(?:(?:#|gh-|GH-)?\d+|(?i:PRs?|pull requests?|issues?)"
                        r"|[#;,\s])+\)")
# "(by @a)" goes whole; "(#12; PR by @a)" keeps its ")" (then goes as a reference)
_BY_USER = re.compile(r"\s*\((?:by|thanks to|thanks)\s+@[\w-]+\)|\s*\b(?:by|thanks to|thanks)"
                      r"\s+@[\w-]+", re.I)
_MENTION = re.compile(r"\s*\(@[\w-]+\)")
# A credit at an entry's end goes whole, with the references it gives: "… by @a and @b in
# :gh:`12` and :gh:`13`", "… by [@a](url) in [#9](url)", even one cut after its "in" (the
# source wrapped it away): taking only "@a" and the references leaves a stray "in".
_USER = r"(?:@[\w-]+|\[@[\w-]+\]\([^)\s]*\)|[:{](?:user|ghuser)[:}]`[^`]*`)"
_NUMBERED = r"(?:[:{](?:gh|pr|pull|issue|bug|commit|ticket)[:}]`[^`]*`|#\d+|\[#?\d+\]\([^)\s]*\))"
_REF = rf"(?:{_NUMBERED}|https?://\S+)"
# towncrier's "… -- by :user:`a`." goes with its dashes.
_CREDIT = re.compile(rf"(?:,|\s+(?:--?|[–—]))?\s+(?:by|thanks to)\s+{_USER}"
                     rf"(?:(?:,\s*|,?\s+and\s+){_USER})*"
                     rf"(?:\s+in\b(?:(?:,\s*|,?\s+and\s+|\s+){_REF})*)?(?=\s*(?:[.;,)]|$))",
                     re.I)
# FastAPI's release notes (latest-changes): "… . PR [#1568](url) by [@a](url)." goes whole.
_PR_CREDIT = re.compile(rf"\.?\s+PR\s+{_NUMBERED}"
                        rf"(?:\s+by\s+{_USER}(?:(?:,\s*|,?\s+and\s+){_USER})*)?"
                        rf"(?:\s*[.;,]?\s*$|(?=:\s))")
# A list of references said as a line of its own ("*Related issues and pull requests on
# GitHub:* :issue:`1550`."), or after the word that brought it in ("added in :issue:`1033`
# and …"): gone whole, not down to a heading or an "in" that introduces nothing.
_REF_LINE = re.compile(rf"\s*\*?\b(?:related|see also)\b[^.:*]{{0,60}}:\*?"
                       rf"(?:(?:,\s*|,?\s+and\s+|\s+){_REF})+\.?", re.I)
# "Context: #3443 - following the deprecation in version 1.5.3 and #3381.": a pointer to the
# discussion, with what it says of it; gone to the sentence's end.
_CONTEXT = re.compile(rf"\s*\b(?:context|refs?|references?)\s*:\s*{_NUMBERED}(?:[^.!?]|\.\w)*"
                      rf"[.!?]?", re.I)
# A sentence that only sends the reader to a link ("See https://github.com/o/r/issues/117 for
# more information, as well as https://…"): nothing of its own, and cut it reads "as well as."
_SEE_LINK = re.compile(r"(?:^|(?<=[.!?]))\s*See (?:also )?<?https?://[^\s>]+>?"
                       r"(?:[^.!?]|\.(?=\S))*(?:[.!?]|$)", re.I)
_REF_AFTER = re.compile(rf",?\s+(?:in|by|see|via)\s+{_NUMBERED}"
                        rf"(?:(?:,\s*|,?\s+and\s+){_NUMBERED})*", re.I)
# What is still left ending in "in" or "by" lost what it named: the sentence goes.
_DANGLING = re.compile(r"(?:^|(?<=[.!?]))\s*[^.!?]*\s(?:in|by)\s*(?:[.!?]+|$)", re.I)
# An author's name after a dash at an entry's end (or before the nested points joined after
# it): "Removes antiquated `__nonzero__` methods - Nikita Sobolev".
_AUTHOR = re.compile(r"\s+[-–]\s+[A-Z][\w'-]+(?: [A-Z][\w'-]+){1,2}"
                     r"(?=\s*(?:\(\s*\))?\.?\s*$|:\s)")
# An acknowledgement is no part of a fact: "Thanks.", "Thanks for the PR.", "Thanks
# :user:`a` for reporting and :user:`b` for the PR." (after the roles are gone: "Thanks for
# reporting and for the PR."), "Thank you!", "Kudos to …".
_THANKS = re.compile(r"(?:^|(?<=[.!?)]))\s*(?:(?:many|big|special) )?(?:thanks|thank you|kudos"
                     r"|props|credit(?:s)? (?:to|goes)|(?:pull request|patch|fix)(?:es)?"
                     r" courtesy)\b[^.!?]*(?:[.!?]+|$)", re.I)


# towncrier's "`#265 <…>`_: Remove …": the entry opens with its issue.
# conventional-changelog's commit after an entry, its link gone: "… retries ([1a2b3c4](…))".
_SHA_REF = re.compile(r"\s*\((?:(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?:,\s*)?)+\)")
_LEADING_REF = re.compile(r"^\s*(?:#\d+(?:,\s*)?)+:\s+")
_STANDARD = re.compile(r"[:{](?P<kind>pep|rfc)[:}]`(?P<n>\d+)[^`]*`", re.I)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*])")


def sentences(text: str) -> list[str]:
    """`text` split where a sentence ends and the next begins (capital, code or emphasis):
    "… zoneinfo. This …" is two; "e.g. this" and "v1.2 is" are one."""
    return _SENTENCE_END.split(text)


def _without_pr_credit(text: str) -> str:
    """`text` less its "PR [#n](url) by [@a](url)": at the end the sentence keeps its period;
    before a colon ("… code base. PR [#1774](…): Typer no longer …") the credit goes whole."""
    def cut(m: re.Match[str]) -> str:
        said = m.group(0)
        return "." if m.end() == len(text) and (said.startswith(".") or said.endswith(".")) \
            else ""
    return _PR_CREDIT.sub(cut, text)


def plain(text: str) -> str:
    """RST / Markdown markup, issue and PR references, thanks to people: gone; one line."""
    referenced = bool(_RST_REF.search(text) or _MYST_REF.search(text))
    text = _STANDARD.sub(lambda m: f"{m.group('kind').upper()} {m.group('n')}", text)
    text = _CREDIT.sub("", _without_pr_credit(text))
    text = _REF_LINE.sub("", text)
    text = _CONTEXT.sub("", text)
    text = _REF_AFTER.sub("", text)
    text = _RST_REF.sub("", text)
    text = _MYST_REF.sub("", text)
    text = _MYST_PEP.sub(r"PEP \1", text)
    text = _MYST_ROLE.sub(lambda m: f"`{m.group(1).split('<')[0].strip().lstrip('~!.')}`", text)
    text = _RST_ROLE.sub(lambda m: m.group(2).split("<")[0].strip().lstrip(
        "~!" if m.group("role") in ("file", "samp", "command", "kbd", "abbr") else "~!."), text)
    text = _OTHER_ROLE.sub(_other_role, text)
    text = _RST_LINK.sub(r"\1", text)
    text = _MD_LINK.sub(r"\1", _MD_IMAGE.sub("", text))
    text = _LEADING_REF.sub("", text)
    text = _SHA_REF.sub("", text)
    text = _SEE_LINK.sub("", text).strip() or text
    text = text.replace("``", "`")
    # bold marks go, not a literal's: ``**.py`` is a glob
    text = re.sub(r"(`[^`]*`)|\*\*", lambda m: m.group(1) or "", text)
    text = _BY_USER.sub("", text)
    text = _MENTION.sub("", text)
    unreferenced = _ISSUE_REF.sub("", text)
    referenced, text = referenced or unreferenced != text, unreferenced
    if referenced:
        text = _DANGLING.sub("", text).strip() or text
    text = _AUTHOR.sub("", text)
    text = _THANKS.sub("", text).strip() or text
    # a bare link left at the end ("… release. and https://github.com/o/r/pull/246"): no words
    text = re.sub(r"(?:(?<=\.)\s*|[,;]?\s+)(?:(?:and|see|cf\.?)\s+)?<?https?://\S+?>?\.?\s*$", "",
                  text, flags=re.I).strip() or text
    text = re.sub(r"\s*\((?:see|cf\.?) [^()]*\b(?:below|above)\)", "", text, flags=re.I)
    text = " ".join(text.split()).strip(" -–").replace(".:", ":")
    text = re.sub(r"::(?=\s|$)", ":", text)  # RST's "Example::", not IPv6's `::1`
    text = re.sub(r"\s+([.,;:])(?=\s|$)", r"\1", text)
    text = re.sub(r"(?:\s+in)?\s\(\s*\)|\s*[,;]\s*(?=\.$)", "", text).strip()  # "… in ()"
    if text and text[-1] not in ".!?:`)":
        text += "."
    if re.match(r"[a-z_]\w*\.[A-Za-z_]", text):  # "scrapy.FormRequest is …": code keeps its case
        return text
    return text[:1].upper() + text[1:]


def _other_role(m: re.Match[str]) -> str:
    name = m["name"].split("<")[-1].rstrip(">").strip().lstrip("~!") if "<" in m["name"] \
        else m["name"].strip().lstrip("~!")
    kind = _ROLE_KINDS.get(m["role"])
    following = m["next"] or ""
    said = kind and following.strip().lower().rstrip("s") != kind
    return f"`{name}`" + (f" {kind}" if said else "") + following


_BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_"))


def pythons_own(name: str) -> bool:
    """`name` is Python's, not a project's: a standard module or something reached through
    one (`typing.Optional`, `os.system`), a builtin (`map`, `ImportError`) or a dunder
    (`__dict__`, `__ne__`)."""
    name = name.strip("`").removesuffix("()")
    root = name.split(".", 1)[0]
    return root in sys.stdlib_module_names or root in _BUILTINS \
        or bool(re.fullmatch(r"__\w+__", root))


def regular_file(path: Path) -> bool:
    """A regular file (not a symlink, FIFO or device): a repository may hold any of those."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def regular_dir(path: Path) -> bool:
    """A real folder, not a symlink to one (which could lead anywhere on the machine)."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


DOC_DIRS = ("docs", "doc", "documentation")
_NOT_DOCS = re.compile(r"^(?:\.|_)|^(?:tests?|testing|fixtures?|vendor(?:ed)?|third[-_]?party"
                       r"|node_modules|examples?|build|dist|venv|env)$", re.I)


def site_dirs(root: Path) -> list[str]:
    """Documentation kept outside `DOC_DIRS`: each folder (two deep at most, relative to
    `root`) holding a Sphinx site, its `conf.py` beside an `index.rst` / `index.md`
    (invoke's and paramiko's `sites/www`, `sites/docs`); not a package's `conf.py` module
    (an `__init__.py` beside it)."""
    out: list[str] = []
    for here, dirs, files in os.walk(root):  # os.walk never follows a symlinked folder
        rel = Path(here).relative_to(root)
        dirs[:] = sorted(d for d in dirs if len(rel.parts) < 2 and not _NOT_DOCS.search(d)
                         and not (not rel.parts and d in DOC_DIRS))
        if rel.parts and "conf.py" in files and ("index.rst" in files or "index.md" in files) \
                and "__init__.py" not in files and regular_file(Path(here) / "conf.py"):
            out.append(rel.as_posix())
    return out


def lines_label(path: str, first: int, last: int) -> str:
    return f"{path}:{first}" if first == last else f"{path}:{first}-{last}"


def lines_of(provenance: str) -> tuple[int, int]:
    """The first and last line of a `lines_label` ("docs/a.md:3-7": (3, 7))."""
    first, _, last = provenance.rsplit(":", 1)[1].partition("-")
    return int(first), int(last or first)


_NAME_IN = (("pyproject.toml", r"(?m)^\[(?:project|tool\.poetry)\]\s*$(?P<t>(?:\n(?!\[).*)*)",
             r"(?m)^name\s*=\s*[\"']([^\"']+)"),
            ("setup.cfg", r"(?m)^\[metadata\]\s*$(?P<t>(?:\n(?!\[).*)*)",
             r"(?m)^name\s*=\s*(\S+)"),
            ("Cargo.toml", r"(?m)^\[package\]\s*$(?P<t>(?:\n(?!\[).*)*)",
             r"(?m)^name\s*=\s*\"([^\"]+)\""),
            ("package.json", r"(?P<t>[\s\S]*)", r"^\s*\{[^{]*?\"name\"\s*:\s*\"([^\"]+)\""),
            # the `setup()` call's own name: an `Extension(name="_watchdog_fsevents")` above
            # it names a compiled module
            ("setup.py", r"\bsetup\s*\((?P<t>[\s\S]*)", r"\bname\s*=\s*[\"']([\w.-]+)[\"']"),
            ("setup.py", r"(?P<t>[\s\S]*)", r"\bname\s*=\s*[\"']([A-Za-z][\w.-]*)[\"']"))


def project_name(root: Path) -> str:
    """What the project calls itself in its packaging metadata, else its folder's name: the
    subject a changelog entry leaves out ("Drop support for Python 3.7": whose?)."""
    return packaged_name(root) or root.resolve().name


def owner_name(root: Path, path: Path) -> str:
    """Whose file `path` is: the package of the nearest folder above it, inside the project,
    with packaging metadata of its own (a monorepo's `setuptools-scm/CHANGELOG.md` is
    setuptools-scm's, not the workspace's), else the project's name."""
    folder = path.parent
    while folder != root and root in folder.parents:
        if (name := packaged_name(folder)) is not None:
            return name
        folder = folder.parent
    return project_name(root)


def packaged_name(root: Path) -> str | None:
    """The name in `root`'s own packaging metadata, if it has any."""
    for name, table, pattern in _NAME_IN:
        path = root / name
        if not regular_file(path):
            continue
        try:
            with open(path, "rb") as f:
                text = f.read(200_000).decode("utf-8", "replace")
        except OSError:
            continue
        if (t := re.search(table, text)) and (m := re.search(pattern, t.group("t"))):
            return m.group(1).strip()
    return None
