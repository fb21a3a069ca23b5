"""Commit messages: decisions and their reasons, support dropped, merged pull-request titles.

`git log` is read once with a format string (no per-commit subprocess): 5,000 commits are a
few megabytes and well under a second to parse. Kept, each with its commit and date:
- a decision with its reason: "switch to X because Y", "use X instead of Y so that Z", a
  revert that says why; the reason must be said (because, since <clause>, so that, due to,
  to avoid, in order to): a bare "switched to print-based cog API" is not proposed, nor a
  reason that is a symptom ("don't use `hash` to avoid attrs warning", "since that breaks
  3.8"): a fix for one warning or breakage records an edit, not a lasting decision;
- support dropped ("drop support for nodejs 8") and a named deprecation, whose object says
  what they are about;
- merged pull-request titles go through the same rules (the title is the PR's decision);
- a swap of one development tool or dependency for another, reason or not ("Use ruff instead
  of flake8, autoflake and isort", "Replace black with ruff formatter", "Switch from tox to
  nox"): proposed only when the commit changed the project's configuration (`configured`)
  and HEAD's configuration still names what it chose and none of what it replaced
  (`current`), whatever its age: HEAD bears it out, so the window does not apply.
When the project has a changelog, a commit that deprecates or removes something is not
proposed: the changelog is the record of deprecations and removals (with their release),
and a commit's one is a context-free event, often said twice ("deprecate the CLI" twice).
Dropped: bots and dependency bumps, merges of branches, fix-ups, any commit a later one
reverts (`Revert "<subject>"`): a decision taken back is not knowledge; and any a later one
overtook (`later`): a newer commit moving the same runtime's version, or replacing what
this one chose. A subject too long to quote whole is not proposed.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from kenning.extract.seed.later import chosen, identifiers, replaced, support_subject
from kenning.extract.seed.model import Proposal, plain, pythons_own

FIELD = "\x1f"
RECORD = "\x1e"
FORMAT = f"%H{FIELD}%at{FIELD}%an{FIELD}%P{FIELD}%B{RECORD}"
MAX_TEXT = 300

_BOT = re.compile(r"\[bot\]|dependabot|renovate|pre-commit-ci|github-actions", re.I)
_SKIP = re.compile(r"^(?:bump|update (?:dev )?dependenc|\[pre-commit|merge (?:branch|remote"
                   r"|tag)|wip\b|fixup!|squash!|release\b|prepare release|version \d"
                   r"|typo|fix typo|update (?:changelog|readme|docs?)|changelog)", re.I)
_MERGE_PR = re.compile(r"^Merge pull request #\d+ from \S+", re.I)
_REVERT = re.compile(r'^Revert "(?P<subject>.+)"\s*$')
_REVERTS_SHA = re.compile(r"This reverts commit (?P<sha>[0-9a-f]{7,40})")
_VERB_SUPPORT = re.compile(r"^\w+ (?:support (?:for |of )?)?", re.I)
_PR_SUFFIX = re.compile(r"\s*\((?:#|GH-)\d+\)\s*$")

# A decision verb with its object, at the start of a subject or a sentence.
_SWITCH = re.compile(r"^(?:switch(?:ed|es)?|migrat(?:e|ed|es)) (?:from \S+(?:"
                     r" \S+)? )?to (?P<obj>\S.{2,})", re.I)
_DROP = re.compile(r"^(?:drop(?:s|ped)?|remove[sd]?|end(?:s|ed)?) support (?:for|of) "
                   r"(?P<obj>\S.{1,})", re.I)
_INSTEAD = re.compile(r"^(?:use[sd]?|prefer(?:s|red)?|replace[sd]?|adopt(?:s|ed)?) \S.*"
                      r"\b(?:instead of|rather than|over|with)\b \S", re.I)
_DEPRECATE = re.compile(r"^deprecat(?:e|es|ed) (?P<obj>\S.{2,})", re.I)
# "Don't default to outputting ANSI just because Console.record=True" names a trigger it
# stops, a fix, not a reason.
REASON = re.compile(r"(?<!just )(?<!only )(?<!merely )(?<!simply )"
                    r"\b(?:because|since (?!\d|v\d|version|then|the (?:last|previous|first))"
                     r"|so that|due to|to avoid|in order to|as it (?:is|was)|otherwise)\b", re.I)
# Code quoted in a subject marks a line-level change ("use 'del d[k]' instead of d.pop(k)").
_QUOTED = re.compile(r"[\[\]()]|(?<!\w)'[^']+'(?!\w)|\"[^\"]+\"")
# What a reader can find: code (`x`, a.b, x_y, f()), a camelCase or ALLCAPS name, a version.
_CONCRETE = re.compile(r"[`_./()]|[a-z][A-Z]|\b[A-Z]{2,}\b|\d")
# A reason that is a symptom (a warning, an error, a breakage) marks a one-off fix; a lasting
# decision gives a reason about the project ("since the docs build needs it").
_SYMPTOM = re.compile(r"\b(?:warn\w*|errors?|fail\w*|break\w*|broke|crash\w*|bugs?|flaky|flakiness"
                      r"|exceptions?)\b", re.I)
_INSTEAD_OF = re.compile(r"\b(?:instead of|rather than|over)\b", re.I)
_VAGUE = re.compile(r"^(?:it|this|that|these|those|them|some|stuff|things|code|everything)\b",
                    re.I)
_PAST = {"switch": "Switched", "switches": "Switched", "migrate": "Migrated",
         "migrates": "Migrated", "move": "Moved", "moves": "Moved", "drop": "Dropped",
         "drops": "Dropped", "remove": "Removed", "removes": "Removed", "end": "Ended",
         "ends": "Ended", "use": "Used", "uses": "Used", "prefer": "Preferred",
         "replace": "Replaced", "replaces": "Replaced", "adopt": "Adopted",
         "deprecate": "Deprecated", "deprecates": "Deprecated", "revert": "Reverted"}


# A swap of one tool for another: what it chose (x) and what it replaced (y).
_SWAPS = (
    re.compile(r"^(?:use[sd]?|prefer(?:s|red)?|adopt(?:s|ed)?)\s+(?P<x>.+?)\s+(?:instead of"
               r"|rather than|over|in place of)\s+(?P<y>.+)$", re.I),
    re.compile(r"^(?:switch(?:ed|es)?|migrat(?:e|ed|es)|move[sd]?) to\s+(?P<x>.+?)\s+(?:instead"
               r" of|rather than|from)\s+(?P<y>.+)$", re.I),
    re.compile(r"^(?:switch(?:ed|es)?|migrat(?:e|ed|es)|move[sd]?)\s+from\s+(?P<y>.+?)\s+to\s+"
               r"(?P<x>.+)$", re.I),
    re.compile(r"^replace[sd]?\s+(?P<y>.+?)\s+(?:with|by)\s+(?P<x>.+)$", re.I))
_IN_CI = re.compile(r"\b(?:in|on|for) (?:the )?(?:CI|GHA|GitHub Actions|workflows?|actions)\b")
_NOT_TOOL = frozenset("""the a an our its their own custom old new native builtin built-in
    internal local default explicit more less all some other same this that these those it
    them one two multiple single git main master trunk develop http https""".split())
_FILE_NAME = re.compile(r"\.(?:py|cfg|toml|txt|ini|ya?ml|json|lock|md|rst|sh)$")
# git: every project's, never swapped out; a branch ("Use main branch instead of master") is
# no tool
_TOOL_NAME = re.compile(r"[a-z][a-z0-9]*(?:[._+-][a-z0-9]+)*")
# The files a development tool or dependency is configured in (what a tool swap changes).
CONFIG_FILE = re.compile(r"(?:^|/)(?:pyproject\.toml|setup\.cfg|setup\.py|tox\.ini|tox\.toml"
                         r"|noxfile\.py|Makefile|[Jj]ustfile|requirements[^/]*\.(?:txt|in)"
                         r"|\.pre-commit-config\.ya?ml|\.travis\.yml|\.readthedocs\.ya?ml"
                         r"|mkdocs\.ya?ml|\.flake8|environment\.ya?ml|Pipfile|package\.json)$"
                         r"|^(?:\.github/workflows|requirements|scripts|docs/requirements)/")


def swap(subject: str) -> tuple[str, tuple[str, ...]] | None:
    """What a tool swap chose and what it replaced, lower case ("Replace black with ruff
    formatter": ("ruff", ("black",))), or None when the subject names no tools: each side a
    name of one or two words ("the RTD Sphinx theme" is no tool's name)."""
    if _IN_CI.search(subject):
        return None  # "Replaced `setup.py` invocations with `build` in CI": a CI job's detail
    found = _tool_swap(subject)
    return found[2:] if found else None


def _swap_now(subject: str) -> str | None:
    """A tool swap said as what the project uses at HEAD ("Replaced setuptools with
    hatchling": "Uses hatchling instead of setuptools"), or None when it is no tool swap."""
    found = _tool_swap(subject)
    return f"Uses {found[0]} instead of {found[1]}" if found else None


def _tool_swap(subject: str) -> tuple[str, str, str, tuple[str, ...]] | None:
    """The first swap pattern that reads tool names on both sides: each side as written, then
    the chosen name and the replaced names, lower case, each read from its side cut before a
    clause that follows it ("… to ruff for linting" names "ruff")."""
    for pattern in _SWAPS:
        m = pattern.match(subject.strip().rstrip("."))
        if m is None:
            continue
        x, y = (re.split(r"\s+(?:for|to|in|as|on|across|throughout|when|because|so|since)\s+",
                         side, maxsplit=1)[0] for side in (m["x"], m["y"]))
        chosen, replaced = _names(x), _names(y)
        if len(chosen) == 1 and replaced and chosen[0] not in replaced:
            return m["x"].strip(), m["y"].strip(), chosen[0], tuple(replaced)
    return None


def _names(part: str) -> list[str]:
    """The tool names of "flake8, autoflake and isort" (each item of one or two words; the
    first word of "ruff formatter"), or none when an item is no name."""
    out = []
    for item in re.split(r"\s*(?:,|/|&|\band\b|\bor\b)\s*", part.strip()):
        words = item.strip("`'\" ").split()
        if not words:
            continue
        if re.fullmatch(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+", words[0].strip("`'\"")):
            return []  # FORCE_COLOR: an environment variable, no tool
        name = words[0].strip("`'\"").lower()
        if len(words) > 2 or name in _NOT_TOOL or not _TOOL_NAME.fullmatch(name) \
                or len(name) < 2 or _FILE_NAME.search(name):
            return []  # "Use build instead of setup.py": a file is no tool
        out.append(name)
    return out


def configured(root: Path, found: list[Proposal]) -> list[Proposal]:
    """`found` less the tool swaps whose commit changed no configuration file (a swap in the
    code, "use quote instead of quote_plus", is no tool's): one `git log` for them all."""
    shas = [p.provenance.removeprefix("commit ") for p in found if p.rule == "commit-tool-swap"]
    if not shas:
        return found
    shown = subprocess.run(["git", "-C", str(root), "log", "--no-walk=unsorted", "-m",
                            "--first-parent", "--name-only", f"--format={RECORD}%H", *shas],
                           capture_output=True, encoding="utf-8", errors="replace")
    touched = set()
    for record in shown.stdout.split(RECORD):
        sha, *files = record.strip().splitlines() or [""]
        if any(CONFIG_FILE.search(f.strip()) for f in files if f.strip()):
            touched.add(sha[:12])
    return [p for p in found if p.rule != "commit-tool-swap"
            or p.provenance.removeprefix("commit ")[:12] in touched]


@dataclass(frozen=True)
class Commit:
    sha: str
    when: datetime
    author: str
    merge: bool
    subject: str
    body: str


def read_log(root: Path, since: str | None = None) -> list[Commit]:
    """Every commit reachable from HEAD (after `since` when it is an ancestor), newest first."""
    rng = [f"{since}..HEAD"] if since else ["HEAD"]
    result = subprocess.run(["git", "-C", str(root), "log", f"--format={FORMAT}", *rng],
                            capture_output=True, encoding="utf-8", errors="replace")
    if result.returncode != 0:
        return []
    return parse_log(result.stdout)


def parse_log(raw: str) -> list[Commit]:
    out: list[Commit] = []
    for record in raw.split(RECORD):
        record = record.strip("\n")
        if not record:
            continue
        parts = record.split(FIELD, 4)
        if len(parts) != 5:
            continue
        sha, stamp, author, parents, message = parts
        subject, _, body = message.strip().partition("\n")
        out.append(Commit(sha, datetime.fromtimestamp(int(stamp or 0), UTC), author,
                          len(parents.split()) > 1, subject.strip(), body.strip()))
    return out


def head(root: Path) -> str | None:
    result = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", "-q", "HEAD"],
                            capture_output=True, encoding="utf-8", errors="replace")
    return result.stdout.strip() or None if result.returncode == 0 else None


def tag_dates(root: Path) -> dict[str, date]:
    """The date of each release tag, by the version it names ("v1.2.0", "release-1.2.0",
    "name-1.2.0" → "1.2.0"): what dates a changelog that does not date its releases."""
    result = subprocess.run(["git", "-C", str(root), "for-each-ref", "--format=%(refname:short)"
                             "%09%(creatordate:short)", "refs/tags"],
                            capture_output=True, encoding="utf-8", errors="replace")
    out: dict[str, date] = {}
    for line in result.stdout.splitlines():
        name, _, when = line.partition("\t")
        m = re.search(r"(\d+(?:\.\d+){1,3}(?:[-.]?(?:a|b|rc|alpha|beta|dev|post)\.?\d*)?)$",
                      name)
        if m and re.fullmatch(r"\d{4}-\d\d-\d\d", when):
            out.setdefault(m.group(1), date.fromisoformat(when))
    return out


def is_ancestor(root: Path, sha: str) -> bool:
    result = subprocess.run(["git", "-C", str(root), "merge-base", "--is-ancestor", sha, "HEAD"],
                            capture_output=True)
    return result.returncode == 0


def _sentences(text: str) -> list[str]:
    text = " ".join(line.strip(" *-\t") for line in text.splitlines()
                    if line.strip() and not re.match(r"^\s*(?:Signed-off-by|Co-authored-by"
                                                     r"|Reviewed-by|Change-Id|This reverts)",
                                                     line, re.I))
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z`])", text) if s.strip()]


def _past(text: str) -> str:
    first, _, rest = text.partition(" ")
    word = _PAST.get(first.lower())
    return f"{word} {rest}" if word else text[:1].upper() + text[1:]


def _decision(subject: str) -> str | None:
    """The rule a subject line fires as a decision on its own, or None."""
    for name, pattern in (("switch", _SWITCH), ("drop-support", _DROP),
                          ("deprecate", _DEPRECATE), ("instead", _INSTEAD)):
        m = pattern.match(subject)
        obj = (m.groupdict().get("obj") or "a named thing") if m else ""
        named = len(obj.split()) >= 2 or re.search(r"[_.`A-Z0-9]", obj)
        if name == "deprecate":  # "deprecate old callback style" names nothing one can find
            named = re.search(r"[_.`()0-9]|[a-z][A-Z]|\b[A-Z]{2,}\b|\bsupport for\b", obj)
        if m and not _VAGUE.match(obj) and named:
            return name
    return None


_TAKES_AWAY = re.compile(r"^(?:deprecated|removed|dropped|deleted|ended support)\b", re.I)


def takes_away(p: Proposal) -> bool:
    """The commit proposal deprecates or removes something."""
    return p.rule in ("commit-deprecate", "commit-drop-support") or bool(
        _TAKES_AWAY.match(p.text))


def proposals(commits: list[Commit], has_changelog: bool = False) -> list[Proposal]:
    """Every commit a rule keeps; with `has_changelog`, none that deprecates or removes."""
    reverted_subjects = {m.group("subject") for c in commits if (m := _REVERT.match(c.subject))}
    reverted_shas = {m.group("sha")[:7] for c in commits
                     if (m := _REVERTS_SHA.search(c.body))}
    seen: set[str] = set()
    out: list[Proposal] = []
    # A decision is news while recent: four years before the newest commit read, like a
    # changelog's removals (an incremental run reads only new commits, all recent).
    cutoff = max((c.when for c in commits), default=None)
    cutoff = cutoff - timedelta(days=4 * 365) if cutoff else None
    for k, c in enumerate(commits):
        if _BOT.search(c.author) or c.sha[:7] in reverted_shas:
            continue
        subject = c.subject
        if _MERGE_PR.match(subject):
            subject = (c.body.splitlines() or [""])[0].strip()
            body = "\n".join(c.body.splitlines()[1:])
        elif c.merge and not _PR_SUFFIX.search(subject):
            # a merge commit titled by its pull request ("Remove logging import sideeffect
            # (#6755)", GitHub's "pull request title and description" message) is read as a
            # squashed one; any other merge says only what was merged
            continue
        else:
            body = c.body
        subject = _PR_SUFFIX.sub("", subject).strip().rstrip(".")
        if not subject or _SKIP.match(subject) or subject in reverted_subjects:
            continue
        revert = _REVERT.match(subject)
        found = _proposal(c, subject, body, revert is not None)
        if found is None and not (cutoff and c.when < cutoff):
            found = why(c, subject, body)
        if found is not None and cutoff and c.when < cutoff and found.rule != "commit-tool-swap":
            continue
        if found is None or subject.lower() in seen or _overtaken(found, subject, commits[:k]) \
                or _pythons_way(subject):
            continue
        # a removal told with how the code now behaves and why ("Remove logging import
        # sideeffect: Logging is no longer … This allows library users to …") is a decision
        if has_changelog and takes_away(found) and found.rule != "commit-why":
            if found.rule != "commit-deprecate":
                continue
            # The changelog may not say it: proposed only while HEAD's code still warns.
            found = replace(found, old=True)
        seen.add(subject.lower())
        out.append(found)
    return out


_ABOUT_PYTHON = re.compile(r"\b(?:since|in|on|as of) (?:py(?:thon)? ?3|py3k?)\b", re.I)


def _pythons_way(subject: str) -> bool:
    """A commit whose code is all Python's own and whose reason is Python's ("Don't define
    __ne__ methods, they're implicit since Py3"): how the language works, not a decision."""
    names = identifiers(subject)
    return bool(names) and all(pythons_own(n) for n in names) \
        and bool(_ABOUT_PYTHON.search(subject))


@dataclass(frozen=True)
class Reverts:
    """What the commits read take back: commits by SHA prefix, and subjects."""

    shas: frozenset[str]
    subjects: frozenset[str]

    def withdraw(self, p: Proposal) -> bool:
        """`p` (a proposal from an earlier run) is a commit one of these reverts."""
        if p.source != "commits":
            return False
        sha = p.provenance.removeprefix("commit ").strip()
        said = p.text.split(" (commit ")[0].rstrip(".").lower()
        return any(sha.startswith(r) or r.startswith(sha) for r in self.shas) or any(
            plain(_past(_PR_SUFFIX.sub("", s).strip().rstrip("."))).rstrip(".").lower()
            == said for s in self.subjects)


def reverts(commits: list[Commit]) -> Reverts:
    return Reverts(frozenset(m.group("sha") for c in commits
                             if (m := _REVERTS_SHA.search(c.body))),
                   frozenset(m.group("subject") for c in commits
                             if (m := _REVERT.match(c.subject))))


def _runtime_mentioned(name: str, subject: str) -> bool:
    """`subject` names a version of runtime `name` ("Update nodejs version to 18")."""
    return bool(re.search(rf"(?<![\w-]){re.escape(name)}(?:\.?js)?(?:\s+(?:version|to|from"
                          rf"|v))*\s*v?\d", subject, re.I))


def runtime(subject: str) -> str | None:
    """The runtime a "drop support for nodejs 8" / "deprecate Python 2.7" subject is about."""
    return support_subject("support " + _VERB_SUPPORT.sub("", subject))


def _overtaken(found: Proposal, subject: str, newer: list[Commit]) -> bool:
    """A newer commit moved the same runtime's version again, or replaced what this one chose
    (the log is newest first)."""
    if found.rule in ("commit-drop-support", "commit-deprecate") and re.search(r"\d", subject):
        name = runtime(subject)
        if name is None:  # "drop support for PyPy": no version to be overtaken
            return False
        return not name or any(_runtime_mentioned(name, c.subject) for c in newer)
    pick = chosen(subject) if found.rule in ("commit-switch", "commit-instead",
                                              "commit-reason", "commit-tool-swap") else None
    return bool(pick) and any(pick in replaced(c.subject) for c in newer)


def _proposal(c: Commit, subject: str, body: str, revert: bool) -> Proposal | None:
    sentences = _sentences(body)
    reason = next((s for s in sentences[:4] if REASON.search(s) and len(s) < 300), None)
    if REASON.search(subject):
        if _QUOTED.search(subject):
            return None  # a line-level change ("use 'del d[k]' instead of d.pop(k) because …")
        rule, text, reason = "reason", subject, None
    elif revert:
        if reason is None:
            return None
        rule, text = "revert", subject
    else:
        rule = _decision(subject)
        if reason is None and swap(subject) is not None and not _QUOTED.search(subject):
            rule = "tool-swap"  # with no reason said: HEAD must bear it out (`current`)
        if rule is None:
            return None
        text = subject
        if rule == "instead" and (reason is None or len(subject.split()) < 6
                                  or _QUOTED.search(subject)
                                  or not re.search(r"[A-Za-z]{2}", chosen(subject) or "")
                                  or not _CONCRETE.search(_INSTEAD_OF.split(subject)[0])):
            return None  # "use rstrip instead of strip" needs its why to mean anything; "use
            # changelog date instead of build date" names nothing one can find
        if rule == "switch" and reason is None:
            return None  # "switched to print-based cog API": to what end, and where?
    if rule == "reason" and not (_decision(subject) or re.match(
            r"^(?:don'?t|never|always|avoid|stop|no longer|keep)\b", subject, re.I)):
        return None
    if rule == "reason" and _SYMPTOM.search(REASON.split(subject, 1)[-1]):
        return None  # "don't use `hash` to avoid attrs warning": a fix for one symptom, not a rule
    date = c.when.strftime("%Y-%m-%d")
    text = plain(_past(text))
    if rule == "tool-swap":  # still so at HEAD (`current`): "Uses ruff instead of flake8"
        text = plain(_swap_now(subject) or text)
    statement = f"{text[:-1] if text.endswith('.') else text} (commit {c.sha[:7]}, {date})."
    if len(statement) > MAX_TEXT:
        return None  # the whole subject or nothing: a cut one says less than nothing
    return Proposal(source="commits", kind="decision", text=statement,
                    provenance=f"commit {c.sha[:12]}", rule=f"commit-{rule}",
                    rationale=plain(reason) if reason else None)


# A decision told in a commit's body: a sentence saying how the code now behaves ("Actor
# restrictions are now implemented as SQL filters using INTERSECT rather than as deny/allow
# permission rules.") and, right after it, why that is the way ("This ensures restrictions act
# as hard limits that cannot be overridden …"). Not from a fix, an addition or a refactor (its
# subject says which, after a scope too: "Plugins/web: fix …"), nor a reason about the code's
# own tidiness ("simpler", "faster").
_NOW = re.compile(r"\b(?:now|instead of|rather than|regardless of|no longer|always|never)\b",
                  re.I)
_THIS_ENSURES = re.compile(r"^(?:This|That) (?:ensures|means|makes|keeps|guarantees|lets"
                           r"|allows|avoids|prevents|way)\b")
_NOT_DECISION = re.compile(r"^(?:[\w/.-]+(?:\([\w-]+\))?!?:\s*)?(?:fix|add|handle|simplif|refactor"
                           r"|clean|tidy|improve|moderni[sz]|tweak|update|bump|document|docs?\b"
                           r"|tests?\b|revert|merge|initial|implement(?:ed|s)? (?:a |an |the )?"
                           r"(?:basic|initial)|wip)", re.I)
_TIDINESS = re.compile(r"\b(?:simpler|cleaner|efficient|faster|performance|readab\w+"
                       r"|maintainab\w+|workarounds?|us to)\b", re.I)
# A commit scoped to how the code is typed, tested, linted or documented ("Typing: make
# `dbcore.db.Results` a Sequence"): its reason is about the code's insides, not a decision.
_PLUMBING = re.compile(r"^(?:typing|types?|type hints?|mypy|pyright|tests?|docs?|ci|lint|style"
                       r"|chore|refactor)\s*(?:\([\w-]+\))?:", re.I)
# A sentence about what the one before it names ("Applies this to `execute-sql`, …").
_LEANS = re.compile(r"^(?:\w+\s+)?(?:this|it|these|those|they|them|that)\b", re.I)
MAX_WHY = 450


def _paragraph_sentences(body: str) -> list[str]:
    """The body's sentences, a paragraph's last line ending one ("Implement X to prevent Y"
    over a blank line is a title, not the start of the next sentence)."""
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n", body):
        out += _sentences(paragraph)
    return out


def why(c: Commit, subject: str, body: str) -> Proposal | None:
    """A decision whose reason is in the body (see `_THIS_ENSURES`), said as the subject, the
    sentence saying the change and the reason: "New `PermissionSQL.restriction_sql` mechanism
    …: Actor restrictions are now … rather than …. This ensures …"."""
    if _NOT_DECISION.match(subject) or _QUOTED.search(subject) or _PLUMBING.match(subject):
        return None
    sentences = _paragraph_sentences(body)
    pairs = list(zip(sentences, sentences[1:], strict=False))
    if sentences and _NOW.search(subject):  # the subject says the change, the body opens on why
        pairs.insert(0, (subject, sentences[0]))
    for said, reason in pairs:
        if not _NOW.search(said) or not _THIS_ENSURES.match(reason) or _TIDINESS.search(reason) \
                or _SYMPTOM.search(reason) or said.endswith(":") or len(said.split()) < 6 \
                or _LEANS.match(said) or said[:1].islower():
            continue  # a sentence in lower case goes on from the subject ("Used X for y" +
            # "generation, instead of a simple set()."): cut, it does not read alone
        date = c.when.strftime("%Y-%m-%d")
        text = plain(f"{_past(subject)}: {said} {reason}" if said != subject
                     else f"{_past(subject)}. {reason}")
        statement = f"{text[:-1] if text.endswith('.') else text} (commit {c.sha[:7]}, {date})."
        if len(statement) > MAX_WHY:
            return None
        return Proposal(source="commits", kind="decision", text=statement,
                        provenance=f"commit {c.sha[:12]}", rule="commit-why",
                        rationale=plain(reason))
    return None
