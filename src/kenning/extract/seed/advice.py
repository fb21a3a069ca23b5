"""Any project's advice: a contribution rule that names nothing of this project is left out.

Read on the blind verdicts of issue 19 (tox, virtualenv, aiohttp, jsonschema, falcon; SPLITS.md):
a judge calls "Pull requests should be small to facilitate review.", "Do not use the issue
tracker for questions …", "Coding style is consistent with the rest of the framework." and
"Tests should contain as little information as possible …" trivial. Every project's guide could
say them, and a newcomer knows them already. What a judge kept names something of this project:
code or a path (`tox -e fix`, `docs/changelog`), a number ("100% test coverage", "a line length
of 120"), a tool ("ruff", "pytest"), a name ("WSGI and ASGI", "Falcon"). So a contribution rule
(from a contributing guide, a development page or a pull-request checklist) whose statement
holds none of these is not proposed. Instructions written for agents are left alone: a project
chose to tell its agents each of them. Pure and stdlib only.
"""

from __future__ import annotations

import re
import typing

from kenning.extract.seed.model import Proposal, pythons_own, statement
from kenning.extract.seed.tooling import TOOLS

# The rules that say what every contribution should do.
ADVICE_RULES = frozenset({"docs-preference", "contributing-convention", "pr-checklist"})
# Code, a path or file name, a flag, an issue number, a digit.
_CODE = re.compile(r"[`*#\d]|\w[./\\_]\w|(?<!\w)--?\w")
# Capitalised words every project's guide uses: no name of this project.
_GENERIC_NAMES = frozenset("""i pr prs pull request requests merge api apis ci git github gitlab
    python ok url urls readme changelog unicode""".split())
_CODE_SPAN = re.compile(r"`([^`]+)`")
_TYPING = frozenset(typing.__all__)
_WORD = re.compile(r"[A-Za-z][\w'-]*")
_SENTENCE_START = re.compile(r"(?:^|[.!?;:]\s+|\(\s*)$")
_DEV_TOOLS = frozenset(TOOLS) | {"unittest", "sphinx", "codecov", "poetry", "pdm"}


def anchored(text: str, project: str = "") -> bool:
    """The text names something of a project: code, a path, a number, a tool, a name (a
    capitalised word inside a sentence or an acronym that is not every project's)."""
    # Python's own code names nothing of a project: "Prefer f-strings instead of the
    # `str.format` method.", "Prefer concrete types over `Any`." are any Python project's.
    text = _CODE_SPAN.sub(lambda m: " " if _pythons(m.group(1)) else m.group(0), text)
    if _CODE.search(text):
        return True
    own = {w.lower() for w in _WORD.findall(project)}
    for m in _WORD.finditer(text):
        word = m.group(0)
        low = word.lower()
        if low in own or low in _DEV_TOOLS:
            return True
        if low in _GENERIC_NAMES or not word[:1].isupper():
            continue
        if word.isupper() and len(word) > 1:
            return True  # an acronym: WSGI, LLM, PEP
        if not _SENTENCE_START.search(text[:m.start()]):
            return True  # a name inside a sentence: "Falcon", "Napoleon"
    return False


def _pythons(code: str) -> bool:
    """A code span of Python's own: a builtin, a standard module's name or member, a typing
    name (`Any`, `Union`), or no name at all (`|`)."""
    code = code.strip()
    return not re.search(r"[A-Za-z]", code) or pythons_own(code) or code in _TYPING


def any_projects(p: Proposal, project: str = "") -> bool:
    """`p` is a contribution rule that names nothing of its project (see the module)."""
    return p.rule in ADVICE_RULES and not anchored(statement(p), project)


def project_specific(proposals: list[Proposal], project: str = "") -> list[Proposal]:
    """`proposals` less any project's advice."""
    return [p for p in proposals if not any_projects(p, project)]
