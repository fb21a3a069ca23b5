"""What HEAD still holds: a proposal about code that is gone is not proposed.

A deprecation is knowledge only while the deprecated name is still there; "use X instead of
Y" only while X is. One `git ls-tree` and one `git grep` over HEAD answer for every
proposal of a run (no subprocess per proposal). Documentation files are not looked in: a
changelog or a guide mentions names long after the code dropped them. The Python floor
HEAD's packaging metadata declares (`requires-python`, Poetry's `python`, `python_requires`)
retires every "drop Python 3.x" (or PyPy 3.x) at or below it (the newest drop of the Python just
below it carries the floor: `_floor_with_history`), and every other statement
tied to a Python below that floor ("on Python 3.9+ use `collections.abc`" when HEAD requires
3.10). A development tool chosen
("uses PDM instead of Poetry") is history once HEAD shows no trace of it: no file of its own
(`pdm.lock`), no mention in the packaging, task or CI configuration. A guide sentence naming
code HEAD's code lacks (`ClassA`, `field_one`: an example's names) is not proposed. A
changelog deprecation HEAD's code still raises a warning for says "(it warns)".
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Container, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from kenning.extract.seed.changelogs import knob
from kenning.extract.seed.later import (
    chosen,
    deprecated_names,
    identifiers,
    live_names,
    soft,
    support_subject,
)
from kenning.extract.seed.model import Proposal, sentences, statement
from kenning.extract.seed.tooling import runtime_requirements, version_key
from kenning.extract.seed.trivia import BORROWED

_DOCS = ("md", "rst", "txt", "markdown", "adoc", "rdoc")
# Not code even without an extension: the histories a name outlives.
_HISTORIES = ("CHANGES*", "CHANGELOG*", "HISTORY*", "NEWS*", "RELEASE*")
_NOT_CODE = tuple(f":(exclude,glob)**/*.{ext}" for ext in _DOCS) \
    + tuple(f":(exclude,glob)**/{name}" for name in _HISTORIES)
_WARNED_LINES = 3  # a name this close to "deprecat…" in HEAD's code is still deprecated
_FILE = re.compile(r"\.(?:toml|cfg|ini|py|json|ya?ml|txt|lock|js|ts|in)$")
# The rules whose proposal names the one thing that must still exist at HEAD.
_DEFINED = ("changelog-deprecation", "commit-deprecate")
_USED = ("changelog-instead", "commit-switch", "commit-instead")
_PRESENT = {"Switched": "switch", "Migrated": "migrate", "Used": "use",
            "Replaced": "replace", "Adopted": "adopt", "Preferred": "prefer"}


def _word(name: str) -> str:
    """How HEAD's code words name `name`: its last part, an option without its dashes
    (`--fetch-missing-python` is the `"--fetch-missing-python"` of an argparse call)."""
    return name.rsplit(".", 1)[-1].lower().lstrip("-")


@dataclass(frozen=True)
class Head:
    """The tracked paths at HEAD and the code tokens (`a.b.name`) a search found there."""

    paths: frozenset[str]
    tokens: frozenset[str]
    floor: tuple[int, int] | None = None
    warned: frozenset[str] = frozenset()  # words near a deprecation warning, lower case
    tools: frozenset[str] = frozenset()  # the development tools HEAD's configuration shows
    warns: frozenset[str] = frozenset()  # words near a warning HEAD's code raises, lower case

    def _module(self, name: str) -> bool:
        parts = name.split(".")
        if len(parts) < 2:
            return False
        tail = "/".join(parts[-2:])
        return any(p.lower().endswith((f"{tail}.py", f"{tail}/__init__.py"))
                   for p in self.paths)

    def defined(self, name: str) -> bool:
        """`name` (or its last part, not reached through another object) is in the code;
        letter case aside (a changelog writes `multicommand` as readily as `MultiCommand`)."""
        name = name.lower().lstrip("-")
        last = name.rsplit(".", 1)[-1]
        return name in self.tokens or last in self.tokens or self._module(name) \
            or self.has_file(name)

    def used(self, name: str) -> bool:
        name = name.lower()
        last = name.rsplit(".", 1)[-1]
        return self.defined(name) or any(t.endswith(f".{last}") for t in self.tokens)

    def still_deprecated(self, names: set[str]) -> bool | None:
        """Half or more of `names` are still next to a deprecation in HEAD's code (one entry
        deprecating many names may have seen some removed); None: the code marks no
        deprecation at all (nothing to tell by)."""
        if not self.warned:
            return None
        still = sum(1 for n in names if _word(n) in self.warned)
        return 2 * still >= len(names)

    def has_file(self, name: str) -> bool:
        return bool(_FILE.search(name)) and any(p.rsplit("/", 1)[-1].lower() == name.lower()
                                                for p in self.paths)


# Development tools and the files only they use; a tool is also in use when HEAD's packaging,
# task or CI configuration names it.
_TOOL_FILES = {
    "pdm": ("pdm.lock", ".pdm.toml", "pdm.toml"), "poetry": ("poetry.lock", "poetry.toml"),
    "uv": ("uv.lock", "uv.toml"), "pipenv": ("pipfile", "pipfile.lock"),
    "hatch": ("hatch.toml",), "flit": (), "tox": ("tox.ini",), "nox": ("noxfile.py",),
    "black": (), "flake8": (".flake8",), "isort": (".isort.cfg",),
    "ruff": ("ruff.toml", ".ruff.toml"), "mypy": ("mypy.ini", ".mypy.ini"), "pyright": (
        "pyrightconfig.json",), "pylint": (".pylintrc", "pylintrc"), "yapf": (".style.yapf",),
    "pre-commit": (".pre-commit-config.yaml",), "travis": (".travis.yml",),
    "appveyor": ("appveyor.yml", ".appveyor.yml"), "just": ("justfile",),
    "nose": (), "setuptools-scm": (), "bumpversion": (".bumpversion.cfg",),
    "mkdocs": ("mkdocs.yml",)}
TOOLS = frozenset(_TOOL_FILES)
_CONFIG = ("pyproject.toml", "setup.cfg", "setup.py", "tox.ini", "noxfile.py", "Makefile",
           "Justfile", "justfile", ".pre-commit-config.yaml", "requirements*.txt",
           "requirements/*", ".github/workflows/*", ".readthedocs.y*ml", ".travis.yml")


def _tools_in_use(root: Path, paths: frozenset[str]) -> frozenset[str]:
    """The tools of `_TOOL_FILES` HEAD's tracked files or configuration show in use."""
    names = {p.rsplit("/", 1)[-1].lower() for p in paths}
    used = {t for t, files in _TOOL_FILES.items() if names & set(files)}
    found = subprocess.run(
        ["git", "-C", str(root), "grep", "-I", "-h", "-o", "-i", "-w", "-E", "-e",
         "|".join(re.escape(t.strip()) for t in _TOOL_FILES), "HEAD", "--", *_CONFIG],
        capture_output=True, encoding="utf-8", errors="replace")
    return frozenset(used | {t.lower() for t in found.stdout.split()})


def _tool_gone(p: Proposal, head: Head) -> bool:
    """"Uses PDM instead of Poetry" when HEAD shows no PDM (a `uv.lock`, a Justfile)."""
    if p.rule not in _USED:
        return False
    pick = chosen(re.sub(r"^\w+", lambda m: _PRESENT.get(m.group(0), m.group(0)), _subject(p)))
    return pick in _TOOL_FILES and pick not in head.tools


# Linters and formatters a guide may still require after the project moved on (to ruff, most
# often): a rule naming one HEAD's configuration shows nowhere is stale.
_CHECKERS = ("black", "flake8", "isort", "pylint", "yapf")
_CHECKER = re.compile(r"(?<![\w.-])(" + "|".join(_CHECKERS) + r")(?![\w-])", re.I)


def _checker_gone(p: Proposal, head: Head) -> bool:
    """A guide's, a checklist's or an agent file's rule naming a linter or formatter HEAD no
    longer configures ("All pull requests must pass flake8 checks." where only ruff is set
    up): the rule is what the project did, not what it does."""
    if p.source not in ("docs", "agents"):
        return False
    return any(m.group(1).lower() not in head.tools for m in _CHECKER.finditer(_subject(p)))


def _subject(p: Proposal) -> str:
    """The proposal's own words: after "Changed in 1.2 (CHANGES.md): ", before "(commit …"."""
    text = p.text.split(": ", 1)[1] if p.source == "changelog" else p.text
    text = text.split(f" ({BORROWED} ")[0]  # what an earlier deprecation said to use instead
    return re.sub(r"\bhttps?://\S+", "", text.split(" (commit ")[0])  # a link names no code


def _old_choice(p: Proposal) -> bool:
    """A changelog's "use X instead of Y" from a release past the window (`Proposal.old` on
    anything but a deprecation)."""
    return p.old and p.source == "changelog" and p.rule != "changelog-deprecation"


def _checked(p: Proposal) -> str | None:
    """The name that must still be in HEAD's code for `p` to hold, if it names one."""
    text = _subject(p)
    if p.rule == "changelog-knob":
        return knob(text)  # the environment variable HEAD's code must still name
    if p.rule in _DEFINED:
        names = identifiers(text)
        return names[0].removesuffix("()") if names else None
    if p.rule in _USED or _old_choice(p):
        pick = chosen(re.sub(r"^\w+", lambda m: _PRESENT.get(m.group(0), m.group(0)), text))
        code = {n.lower(): n for n in identifiers(text)}
        if p.old and pick and pick not in code and re.fullmatch(r"[a-z_][\w.-]{2,}", pick) \
                and pick not in _NOT_A_NAME:
            return pick  # an old "uses cPickle instead of pickle": HEAD must still use it
        return code.get(pick or "")
    return None


# Words a "use X instead of Y" may start its X with that name no code ("Use the …").
_NOT_A_NAME = frozenset({"the", "a", "an", "its", "their", "our", "this", "that", "these",
                         "those", "more", "less", "new", "own", "same", "other", "only"})


# Poetry says the floor as the `python` dependency: `python = ">=3.8.0"`, `python = "^3.8"`.
_FLOOR = {"pyproject.toml": r"(?m)requires-python\s*=\s*[\"']\s*>=?\s*(\d+)\.(\d+)"
                            r"|^python\s*=\s*[\"']\s*(?:>=?|\^|~=?)\s*(\d+)\.(\d+)",
          "setup.cfg": r"python_requires\s*=\s*>=?\s*(\d+)\.(\d+)",
          # `python_requires=">=3.10"`, or a dict of setup's arguments: `"python_requires": …`
          "setup.py": r"python_requires[\"']?\s*[=:]\s*[\"']\s*>=?\s*(\d+)\.(\d+)"}
_PY_VERSION = re.compile(r"\b(?:python|py|cpython)\s*(\d)(?:\.(\d+))?\b", re.I)
_PY_BELOW = re.compile(r"\b(?:python|py|cpython)\s*<=?\s*(\d)(?:\.(\d+))?\b", re.I)
_GONE = re.compile(r"\bdrop|\bremov|\bdeprecat|\bno longer\b|\bnot supported\b|\banymore\b"
                   r"|\bend of life\b|\beol\b", re.I)


def python_floor(root: Path, paths: frozenset[str]) -> tuple[int, int] | None:
    """The lowest Python HEAD's packaging metadata accepts (`requires-python = ">=3.10"`)."""
    for name, pattern in _FLOOR.items():
        if name not in paths:
            continue
        shown = subprocess.run(["git", "-C", str(root), "show", f"HEAD:{name}"],
                               capture_output=True, encoding="utf-8", errors="replace")
        if m := re.search(pattern, shown.stdout):
            major, minor = [g for g in m.groups() if g is not None][:2]
            return int(major), int(minor)
    return None


# A bare "3.8" in a Python project's commit or changelog is a Python when a preposition or
# verb leads to it ("breaks 3.8", "on 3.8"), not a name ("Django 3.2") or a requirement
# ("Werkzeug >= 3.1").
_BARE_PY = re.compile(r"\b(?:on|under|break|breaks|broke|breaking)\s+3\.(\d{1,2})(?![\w.])",
                      re.I)


def tied_below_floor(text: str, floor: tuple[int, int] | None, bare: bool = False) -> bool:
    """`text` is said of Pythons below HEAD's floor only ("on Python 3.9+ …, on older …" when
    HEAD requires 3.10): every Python version it names is older than the floor. `bare`: a
    commit's or changelog's "breaks 3.8" names a Python too."""
    if floor is None:
        return False
    versions = [(int(a), int(b) if b else 99) for a, b in _PY_VERSION.findall(text)]
    # "in Python < 3.6": said of every Python before 3.6
    versions += [(int(a), int(b) if b else 99) for a, b in _PY_BELOW.findall(text)]
    if bare and not versions:
        versions = [(3, int(b)) for b in _BARE_PY.findall(text)]
    return bool(versions) and all(v < floor for v in versions)


_RUNS_ON = re.compile(r"\b(?:on|under|with|for)\s+(?:python|py|cpython)\s*(\d)(?:\.(\d+))?\b",
                      re.I)


def runs_below_floor(text: str, floor: tuple[int, int] | None) -> bool:
    """`text`, whatever it removes or deprecates, is about running on Pythons below HEAD's
    floor only ("a workaround for errors on Python 3.6"): a one-off fix, stale once the floor
    passed it. Only its first sentence counts ("… is deprecated. Please use `importlib.metadata`
    (for Python 3.7: …)" is not about 3.7). What it says of code the project reads
    ("pre-Python 3.7 `async` as a name") is not tied to the Python it runs on."""
    headline = sentences(text)[0]  # not an aside after it
    versions = [(int(a), int(b) if b else 99) for a, b in _RUNS_ON.findall(headline)]
    return floor is not None and bool(versions) and all(v < floor for v in versions)


# A minimum Python said outright ("requires Python 3.9 or later", "Python 3.9+", ">= 3.9").
_AT_LEAST = re.compile(r"\b(?:python|py|cpython)\s*(?:>=\s*(\d)\.(\d+)|(\d)\.(\d+)(?:\s*\+|\s+or "
                       r"(?:later|newer|higher|above|greater)\b))", re.I)


def least_below_floor(text: str, floor: tuple[int, int] | None) -> bool:
    """A release's minimum Python ("now requires Python 3.9 or later") below HEAD's floor
    (3.10): superseded by a later release's."""
    least = [(int(a or c), int(b or d)) for a, b, c, d in _AT_LEAST.findall(text)]
    return floor is not None and bool(least) and all(v < floor for v in least)


# A support notice for a coming release: "2.14 is the last version to support Python 3.7",
# "2.15 will require Python 3.8 or newer".
_ANNOUNCED = re.compile(r"\bwill (?:now )?(?:require|drop|remove|no longer support|stop"
                        r" supporting|end support)\b|\blast (?:\w+ ){0,3}(?:versions?|releases?)"
                        r"\b[^.]{0,40}?\bsupports?\b", re.I)
_REQUIRED = re.compile(r"\brequir\w*\s+(?:python|py|cpython)\s*(\d)\.(\d+)"
                       r"|\b(?:python|py|cpython)\s*(\d)\.(\d+)(?:\s*\+|\s+or (?:later|newer"
                       r"|higher|above|greater)\b)", re.I)


def announced_reached(text: str, floor: tuple[int, int] | None) -> bool:
    """A notice of a Python support change to come that HEAD's floor has since made: what it
    drops is below the floor and what it will require is at most the floor ("the last version
    to support Python 3.7 … will require Python 3.8" when HEAD requires 3.8)."""
    if floor is None or not _ANNOUNCED.search(text):
        return False
    required = {(int(a or c), int(b or d)) for a, b, c, d in _REQUIRED.findall(text)}
    named = {(int(a), int(b)) for a, b in _PY_VERSION.findall(text) if b}
    return bool(named) and all(v <= floor if v in required else v < floor for v in named)


def below_floor(text: str, floor: tuple[int, int] | None) -> bool:
    """`text` drops (or deprecates) Python versions HEAD's floor has since moved past: after
    "drop 3.7" the floor is 3.8; when HEAD requires 3.10 that entry is history. An entry
    naming no version ("drop legacy Pythons") is said more precisely by the floor itself."""
    if floor is None:
        return False
    if not _GONE.search(text):
        return False
    if re.search(r"\b(?:legacy|old|older|ancient)\s+python(?:s|\s+versions)?\b", text, re.I) \
            and not re.search(r"\d", text):
        return True
    if support_subject(text) not in ("python", "py", "cpython"):
        return False
    versions = [(int(a), int(b) if b else 99) for a, b in _PY_VERSION.findall(text)] \
        + [(int(a), int(b)) for a, b in re.findall(r"(?<![\w.])([23])\.(\d+)(?!\w|\.\d)", text)]
    return bool(versions) and all((major, minor + 1) < floor for major, minor in versions)


# A release dropping Pythons: "Removed support for end-of-life Python 3.9", "Drops support for
# PyPy3.8 and PyPy3.9", "Dropped Python 3.7", "Python 3.7 is no longer supported".
_PY_NAME = r"(?:c?python|py|pypy)\s*-?\s*v?[23]\b"
_PY_DROPPED = re.compile(
    rf"\b(?:drop|remov|deprecat|end|stop|discontinu)\w*\s+(?:(?:official|explicit)\s+)?"
    rf"(?:support(?:ing)?\s+(?:for\s+)?|compatibility\s+(?:with\s+)?)?(?:the\s+)?"
    rf"(?:(?:now\s+)?(?:end[- ]of[- ]life|eol|legacy|old|older|unsupported)\s+)?{_PY_NAME}"
    rf"|{_PY_NAME}[\d.]*(?:(?:\s*(?:,|/|and|or)\s*)+(?:{_PY_NAME})?[\d.]+)*\s+(?:support\s+)?"
    rf"(?:is|are|has been|have been|was|were)?\s*(?:no longer supported|dropped|removed)"
    rf"|\bno longer supports?\s+{_PY_NAME}", re.I)
_ANY_PY = re.compile(r"\b(?:c?python|py|pypy)\s*-?\s*v?(\d)(?:\.(\d+))?\b", re.I)


# "Python <3.9", "Python versions less than 3.6", "Python older than 3.9": the newest dropped
# is the one just below (3.8, 3.5, 3.8).
_BELOW = re.compile(r"\b(?P<name>c?python|py)(?:\s+versions?)?\s*(?:<\s*|less than\s+"
                    r"|older than\s+|below\s+|prior to\s+)v?(?P<major>[23])\.(?P<minor>\d+)\b",
                    re.I)


def _just_below(text: str) -> str:
    """`text` with "Python <3.9" said as the newest Python it drops, "Python 3.8"."""
    return _BELOW.sub(lambda m: f"{m['name']} {m['major']}.{int(m['minor']) - 1}"
                      if int(m["minor"]) > 0 else m.group(0), text)


def pythons_dropped(text: str, floor: tuple[int, int] | None) -> bool:
    """`text` drops Pythons (or PyPys) HEAD's floor no longer accepts: the floor itself is
    the lasting fact ("Supports Python >=3.10"), a release's "Removed support for Python 3.9"
    only how it got there. A PyPy is named by the Python it implements: PyPy3.10 dropped
    under a 3.10 floor is the floor's news too. Every version it names must be at or below
    the floor (a drop above it is news the floor does not say yet)."""
    text = _just_below(text)
    if floor is None or not _PY_DROPPED.search(text):
        return False
    # "Python 3.12 is now supported." beside the drop says what was added, not dropped
    text = " ".join(s for s in re.split(r"(?<=[.;])\s+", text) if not _PY_ADDED.search(s))
    versions = [(int(a), int(b) if b else 0) for a, b in _ANY_PY.findall(text)] \
        + [(int(a), int(b)) for a, b in re.findall(r"(?<![\w.])([23])\.(\d+)(?!\w|\.\d)", text)]
    return bool(versions) and all(v <= floor for v in versions)


_PY_ADDED = re.compile(r"\b(?:is|are) now supported\b|\badd(?:s|ed)? (?:official )?support\b",
                       re.I)


# Where the project's own code is: not its docs, tests or examples.
_OWN_CODE = (*_NOT_CODE, ":(exclude,glob)**/test*/**", ":(exclude,glob)**/test_*.py",
             ":(exclude,glob)**/*_test.py", ":(exclude,glob)**/conftest.py",
             ":(exclude,glob)**/example*/**", ":(exclude)docs", ":(exclude)doc")


def read_head(root: Path, names: Iterable[str]) -> Head | None:
    """Paths and the occurrences of `names` at HEAD (None: not a git work tree)."""
    listed = subprocess.run(["git", "-C", str(root), "ls-tree", "-r", "--name-only", "HEAD"],
                            capture_output=True, encoding="utf-8", errors="replace")
    if listed.returncode != 0:
        return None
    lasts = sorted({n.rsplit(".", 1)[-1].lstrip("-") for n in names
                    if re.fullmatch(r"[\w.]+|--?[A-Za-z][\w-]*", n)})  # a name, an option
    tokens: set[str] = set()
    if lasts:
        pattern = r"[.[:alnum:]_]*(" + "|".join(lasts) + r")[[:alnum:]_]*"
        found = subprocess.run(
            ["git", "-C", str(root), "grep", "-I", "-h", "-o", "-i", "-E", "-e", pattern,
             "HEAD", "--", ".", *_NOT_CODE],
            capture_output=True, encoding="utf-8", errors="replace")
        tokens = {t.strip(".").lower() for t in found.stdout.split()}
    near = subprocess.run(
        ["git", "-C", str(root), "grep", "-I", "-h", "-i", "-C", str(_WARNED_LINES), "-e",
         "deprecat", "HEAD", "--", ".", *_NOT_CODE],
        capture_output=True, encoding="utf-8", errors="replace")
    warned = {w.lower() for w in re.findall(r"[A-Za-z_][\w-]*", near.stdout)}
    warned |= _in_deprecated_modules(root) | _deprecated_by_decorator(root)
    raised = subprocess.run(
        ["git", "-C", str(root), "grep", "-I", "-h", "-C", str(_WARNED_LINES), "-E", "-e",
         r"warnings\.warn\(|(Pending)?DeprecationWarning|FutureWarning", "HEAD", "--", ".",
         *_OWN_CODE], capture_output=True, encoding="utf-8", errors="replace")
    warns = {w.lower() for w in re.findall(r"[A-Za-z_][\w-]*", raised.stdout)}
    paths = frozenset(listed.stdout.splitlines())
    return Head(paths, frozenset(tokens), python_floor(root, paths), frozenset(warned),
                _tools_in_use(root, paths), frozenset(warns))


def _deprecated_by_decorator(root: Path) -> set[str]:
    """The names (lower case) a deprecation decorator marks, however many lines its message
    takes (falcon's `@falcon.util.deprecated(` + two lines of message + `def redirected(`)."""
    found = subprocess.run(
        ["git", "-C", str(root), "grep", "-I", "-h", "-A8", "-E", "-e",
         r"^[[:space:]]*@[[:alnum:]_.]*deprecat", "HEAD", "--", "*.py"],
        capture_output=True, encoding="utf-8", errors="replace")
    return {m.group(1).lower() for m in re.finditer(
        r"@[\w.]*deprecat[^\n]*\n(?:(?!\s*(?:async\s+)?(?:def|class)\b)[^\n]*\n){0,7}?"
        r"\s*(?:async\s+)?(?:def|class)\s+(\w+)", found.stdout, re.I)}


def _in_deprecated_modules(root: Path) -> set[str]:
    """The names (lower case) a Python module defines when the module itself warns at import
    that it is deprecated (`warnings.warn("… is deprecated …")` at its top level): everything
    in it is deprecated with it (`starlette.middleware.wsgi` and its `WSGIMiddleware`)."""
    found = subprocess.run(
        ["git", "-C", str(root), "grep", "-I", "-A3", "-E", "-e", r"^warnings\.warn\(", "HEAD",
         "--", "*.py"], capture_output=True, encoding="utf-8", errors="replace")
    modules = sorted({m.group(1) for m in re.finditer(r"(?m)^HEAD:([^:\n]+\.py)[-:].*deprecat",
                                                      found.stdout, re.I)})
    if not modules:
        return set()
    defined = subprocess.run(
        ["git", "-C", str(root), "grep", "-I", "-h", "-E", "-e", r"^(class|def) \w+", "HEAD",
         "--", *modules[:50]], capture_output=True, encoding="utf-8", errors="replace")
    return {m.group(1).lower() for m in re.finditer(r"(?m)^(?:class|def) (\w+)", defined.stdout)}


def _relied_on(p: Proposal) -> set[str]:
    """The code a changelog entry or a guide's sentence relies on still being there (not what
    it says is removed or replaced). A commit's words are checked by `_checked` alone: its
    subject is terse."""
    if p.rule.startswith("guide-"):
        return {n.removesuffix("()") for n in identifiers(p.text.split("): ", 1)[-1])
                if re.fullmatch(r"[A-Za-z_]\w*(?:\.\w{2,})*", n.removesuffix("()"))}
    # a command (`pipx list`) is no name HEAD's code spells; a change of behaviour relies on
    # what its first sentence names (its reason, "to avoid a rare `SQLITE_BUSY` error", may
    # name another product's)
    said = _subject(p)
    if p.rule == "changelog-behaviour":
        said = re.split(r"(?<=[.!?])\s+(?=[A-Z`])", said)[0]
    return {n for n in live_names(said) if " " not in n} if p.source == "changelog" \
        else set()


def _holds(p: Proposal, head: Head, checked: str | None) -> bool:
    text = _subject(p)
    if p.rule == "changelog-python-floor":
        return True  # the floor itself, with the release that set it
    if below_floor(text, head.floor) or (p.source in ("changelog", "commits") and (
            least_below_floor(text, head.floor) or announced_reached(text, head.floor)
            or pythons_dropped(text, head.floor))):
        return False
    if not _GONE.search(p.text) and not re.search(r"remov|drop|deprecat", p.rule) \
            and tied_below_floor(text, head.floor, p.source in ("changelog", "commits")):
        return False  # said of Pythons HEAD no longer supports
    if p.source == "changelog" and support_subject(text) not in ("python", "py", "cpython") \
            and runs_below_floor(text, head.floor):
        return False  # "Removes patching of Click that mitigated errors on Python 3.6"
    if _tool_gone(p, head) or _checker_gone(p, head):
        return False
    deprecated = deprecated_names(text) if p.source in ("changelog", "commits") else set()
    # A soft deprecation warns about nothing: HEAD's code cannot bear it out, only its age.
    warned = head.still_deprecated(deprecated) if deprecated and not soft(text) else None
    if warned is False or (p.old and warned is not True and not _old_choice(p)):
        return False  # HEAD no longer warns about it: removed since, or never finished
    if any(not head.used(n) for n in _relied_on(p) - deprecated):
        return False  # advice about code HEAD no longer has ("override `app.json_encoder`")
    if _old_choice(p):  # an old choice holds while HEAD still uses what it chose
        return checked is not None and head.used(checked)
    if warned is None and checked is not None:
        return (head.defined if p.rule in _DEFINED else head.used)(checked)
    return True


# Where a development tool or dependency is put to use: packaging, requirements, task runners,
# CI, pre-commit, the project's scripts.
_TOOL_CONFIG = (*_CONFIG, "tox.toml", "scripts/*", "mkdocs.yml", "docs/requirements*",
                "requirements-*.txt", "*/requirements*.txt")


def tools_in_use(root: Path, names: Iterable[str]) -> frozenset[str]:
    """Those of `names` (lower case) HEAD's configuration puts to use: a requirement
    (`ruff==0.12.1`, `"pytest-cov>=4"`), a `[tool.NAME]` table, a pre-commit hook id, or a
    command (`ruff check`, `python -m pytest`, `run: nox -s tests`). A mention is not a use:
    ruff's `[tool.ruff.lint.isort]` and "# https://docs.astral.sh/ruff/rules/#isort-i" do not
    put isort to use."""
    names = sorted({n.lower() for n in names if n})
    if not names:
        return frozenset()
    found = subprocess.run(
        ["git", "-C", str(root), "grep", "-I", "-h", "-i", "-F", *[f"-e{n}" for n in names],
         "HEAD", "--", *_TOOL_CONFIG], capture_output=True, encoding="utf-8", errors="replace")
    lines = found.stdout.lower().splitlines()
    listed = subprocess.run(["git", "-C", str(root), "ls-tree", "-r", "--name-only", "HEAD"],
                            capture_output=True, encoding="utf-8", errors="replace")
    files = {p.rsplit("/", 1)[-1].lower() for p in listed.stdout.splitlines()}
    # a tool whose own file HEAD holds is in use (`noxfile.py`, `tox.ini`)
    used = {n for n in names if set(_TOOL_FILES.get(n, ())) & files}
    for name in names:
        n = re.escape(name)
        use = re.compile(
            rf"^\s*(?:-\s+)?(?:run:\s*|\$\{{?prefix\}}?|[\w/.-]*bin/|(?:uv|pdm|poetry|hatch) run\s+"
            rf"|uvx\s+|pipx run\s+|python[\d.]*\s+-m\s+|exec\s+)?{n}(?:\s|$|[<>=!~;:\[@,\]\"'])"
            rf"|[\"']{n}\s*(?:[<>=!~;\[\"']|$)|^\s*\[tool\.{n}\]|\bid:\s*{n}\b"
            rf"|(?:&&|;|\|\|)\s*{n}\s")
        if any(use.search(line) for line in lines):
            used.add(name)
    return frozenset(used)


def _swap_holds(said: tuple[str, tuple[str, ...]] | None, in_use: frozenset[str]) -> bool:
    """A tool swap (what it chose, what it replaced) holds while HEAD uses what it chose and
    none of what it replaced."""
    if said is None:
        return False
    pick, gone = said
    return pick in in_use and not any(g in in_use for g in gone)


def _library_swap(said: tuple[str, tuple[str, ...]] | None, shipped: Container[str]) -> bool:
    """The swap chose a library the project's users install with it ("Uses platformdirs
    instead of appdirs", "Moved from toml to tomli"): the code's own business, which HEAD's
    imports show, not a development tool a contributor works with (unless what it replaced was
    one: anyio's pytest plugin in place of pytest-asyncio). Judged trivial or stale by
    every blind reader that met one (SPLITS.md, issue 19)."""
    if said is None:
        return False
    pick, gone = said
    return pick.replace("_", "-") in shipped and not any(
        g.startswith("pytest") or g in TOOLS for g in gone)  # anyio for pytest-asyncio: a tool


# What says which versions of a dependency the project works with: "depends on pytest 7.0 or
# newer", "Updated minimum supported pytest version to v8.2.0", "Drops compatibility with
# pytest 6.1", "Deprecates use of pytest v6".
_VERSION_TALK = re.compile(r"\b(?:minimum|requires?|required|depends?|dependency|supports?"
                           r"|supported|compatib\w*|drops?|dropped|deprecat\w*|newer|older"
                           r"|at least)\b|>=", re.I)


def floor_passed(p: Proposal, floors: dict[str, tuple[int, ...]]) -> bool:
    """A changelog entry or commit about the versions of a dependency whose every version it
    names is below the least one HEAD's requirements allow (`pytest>=8.4`): history the
    requirement has overtaken. Judged stale by a blind reader (pytest-asyncio's "Pytest-asyncio
    now depends on pytest 7.0 or newer"; SPLITS.md, issue 19)."""
    if p.source not in ("changelog", "commits"):
        return False
    text = _subject(p)
    if not _VERSION_TALK.search(text):
        return False
    named = False
    for name, floor in floors.items():
        said = re.finditer(rf"(?<![\w.-]){re.escape(name)}(?:\s+versions?)?(?:\s+to)?"
                           rf"\s*(?:v|>=\s*|==\s*|\s)(\d+(?:\.\d+)*)", text, re.I)
        for m in said:
            named = True
            if version_key(m.group(1)) >= floor:
                return False
    return named


def swap_of(p: Proposal) -> tuple[str, tuple[str, ...]] | None:
    """The tool swap a commit proposal says (its text is "Uses X instead of Y (commit …)"):
    what it chose and what it replaced, lower case; None for any other proposal."""
    if p.rule not in ("commit-tool-swap", "commit-switch"):
        return None
    from kenning.extract.seed.commits import swap

    return swap(re.sub(r"^(?:Uses|Prefers|Used)\b", "Use", _subject(p)))


def _swaps_once(found: list[Proposal]) -> list[Proposal]:
    """One choice of a tool said by several commits once: a swap whose tool another commit
    chose in place of more ("Replaced flake8 by ruff" beside "Migrated from isort/Black/Flake8
    to Ruff …"), or of the same, said by a newer commit (the log is newest first), is left
    out: the wider one says it."""
    swaps = [(k, s) for k, p in enumerate(found) if (s := swap_of(p))]
    dropped = {k for k, (pick, gone) in swaps
               if any(k2 != k and pick2 == pick and (set(gone2) > set(gone)
                                                     or set(gone2) == set(gone) and k2 < k)
                      for k2, (pick2, gone2) in swaps)}
    return [p for k, p in enumerate(found) if k not in dropped]


def still_true(root: Path, found: list[Proposal]) -> list[Proposal]:
    """`found` less what HEAD no longer bears out: a deprecation HEAD's code no longer warns
    about, a name the text relies on that HEAD lacks, a Python floor HEAD has passed, a tool
    swap whose tool HEAD no longer uses."""
    shipped = runtime_requirements(root)  # names and the least version each may be
    swaps = [p for p in found if p.rule == "commit-tool-swap"]
    if swaps:
        said = {p.key: swap_of(p) for p in swaps}
        in_use = tools_in_use(root, {n for s in said.values() if s for n in (s[0], *s[1])})
        found = [p for p in found if p.rule != "commit-tool-swap"
                 or (_swap_holds(said[p.key], in_use) and not _library_swap(said[p.key], shipped))]
    found = _swaps_once(found)
    floors = {name: floor for name, floor in shipped.items() if floor}
    if floors:
        found = [p for p in found if not floor_passed(p, floors)]
    names = {p.key: n for p in found if (n := _checked(p))}
    relied = {n for p in found for n in _relied_on(p)}
    head = read_head(root, [*names.values(), *relied])
    if head is None:
        return found
    found = _floor_with_history(found, head.floor)
    return [_warning(p, head) for p in found if _holds(p, head, names.get(p.key))]


def _floor_with_history(found: list[Proposal], floor: tuple[int, int] | None
                        ) -> list[Proposal]:
    """The Python floor said with the release that set it: the newest changelog entry that
    drops the Python just below HEAD's floor ("Dropped support for Python 3.9." under
    `requires-python = ">=3.10"`) carries the floor ("… scrapy supports Python >=3.10
    (`requires-python` in pyproject.toml)."), in place of the floor said alone. Every other
    entry dropping Pythons at or below the floor is history (`pythons_dropped`). The reader
    asking which Pythons to use learns both the floor and since when."""
    said = next((p for p in found if p.rule == "pyproject-requires-python"), None)
    if floor is None or said is None:
        return found
    below = (floor[0], floor[1] - 1)
    setting = [p for p in found if p.source == "changelog"
               and pythons_dropped(_with_verb(p), floor) and below in _cpythons(_subject(p))]
    if not setting:
        return found
    # of the newest release's (a highlight "Dropped support for Python 3.9 and PyPy 3.10" over
    # its section's own entry "Dropped support for Python 3.9."), the one that says least
    release = setting[0].text.split(" (", 1)[0]
    setting = min((p for p in setting if p.text.split(" (", 1)[0] == release),
                  key=lambda p: len(p.text))
    name = said.text.partition(" (")[0]
    floor_said = statement(said)  # "Supports Python >=3.10 (`requires-python = …`)."
    spec = re.sub(r"\s*\(`([^`=]+?)\s*=.*$", "", floor_said)  # "Supports Python >=3.10"
    where = said.provenance.rsplit(":", 1)[0]
    text = f"{setting.text.rstrip()} {name} {spec[0].lower()}{spec[1:]} " \
           f"(`{'requires-python' if 'requires-python' in floor_said else 'python'}` " \
           f"in {where})."
    merged = replace(setting, text=text, rule="changelog-python-floor", old=False)
    return [merged if p is setting else p for p in found if p is not said]


def _with_verb(p: Proposal) -> str:
    """A changelog entry's words with the verb its section gave it: "Removed in structlog
    26.1.0 (CHANGELOG.md): Python 3.8 and 3.9 support." says "Removed Python 3.8 and 3.9
    support."."""
    verb = re.match(r"(Removed|Deprecated) in ", p.text)
    return f"{verb.group(1)} {_subject(p)}" if verb else _subject(p)


def _cpythons(text: str) -> set[tuple[int, int]]:
    """The CPython versions `text` names ("Python 3.9", "Drop 3.8"); a PyPy is not one."""
    plain = re.sub(r"\bpypy\s*-?\s*v?[\d.]+", "", _just_below(text), flags=re.I)
    named = re.findall(r"\b(?:c?python|py)\s*-?\s*v?([23])\.(\d+)", plain, re.I) \
        + re.findall(r"(?<![\w.])([23])\.(\d+)(?!\w|\.\d)", plain)
    return {(int(a), int(b)) for a, b in named}


def _warning(p: Proposal, head: Head) -> Proposal:
    """A changelog's deprecation HEAD's code still raises a warning for says so: "Deprecates
    `on_startup` and `on_shutdown` events (it warns)." is what a user meets, a
    `DeprecationWarning`, and what they ask about ("now that the old hooks warn")."""
    if p.rule != "changelog-deprecation" or re.search(r"\bwarn", p.text, re.I):
        return p
    names = deprecated_names(_subject(p))
    if not names or not all(_word(n) in head.warns for n in names):
        return p
    lead, sep, said = p.text.partition("): ")
    m = re.search(r"\bdeprecat\w*", said, re.I)
    if m is None or said[m.end():m.end() + 1] == ")":
        return p  # "(which is deprecated)": an aside
    after = re.match(r"\s*(?:[.,;:]|$|(?:and|in|since|as|pending|for|from|now|with|by)\b)",
                     said[m.end():])
    if m.group(0).lower() == "deprecated" and after:  # "is deprecated (it warns) and …"
        at = m.end()
    else:  # "Deprecates `x` events (it warns).", "is now a deprecated alias (it warns)."
        stop = re.search(r"\.(?=\s+[A-Z`*]|\s*$)", said[m.end():])
        at = m.end() + stop.start() if stop else len(said)
    said = f"{said[:at]} (it warns){said[at:]}"
    return replace(p, text=f"{lead}{sep}{said}")
