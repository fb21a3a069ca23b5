"""Run the seed sources: cursors, redaction, deduplication, the pending queue, `--accept`.

State lives in one local file (`<local dir>/seed/state.json`, never in git): the commit
HEAD last read, a content hash per file read, the keys of every proposal already made (a
proposal rejected once is not proposed again) and the pending proposals. A run reads only
commits after the saved HEAD (when it is still an ancestor) and files whose hash changed.

Nothing reaches the fact store without `accept`: then each pending proposal is added
through `Memory.add` (origin `import`, confidence 0.70, tags `seed` and its source, the
provenance as evidence), where it waits in `kenning review` as unconfirmed until a person
confirms or rejects it. A dry run reads the state and writes nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kenning.core.atomic import write_atomic
from kenning.core.errors import FileProblemError
from kenning.core.private import strip_private
from kenning.core.redact import redact
from kenning.core.safeio import read_bytes
from kenning.extract.seed import (
    advice,
    agents,
    changelogs,
    commits,
    configwhy,
    contributing,
    current,
    documents,
    fragments,
    guides,
    later,
    releasefiles,
    security,
    standalone,
    tooling,
)
from kenning.extract.seed.model import (
    Proposal,
    lines_of,
    owner_name,
    project_name,
    statement,
)

if TYPE_CHECKING:
    from kenning.lifecycle.writes import FactWriter

SOURCES = ("commits", "changelog", "docs", "agents")
_RANK = ("changelog", "docs", "agents", "commits")  # the better provenance first
MAX_FILE_BYTES = 2_000_000
Reader = Callable[[str, str], list[Proposal]]
STATE_FORMAT = 1
MAX_SEEN = 20_000


@dataclass(frozen=True)
class Item:
    proposal: Proposal
    action: str  # proposed | pending | added | known | would-add | withdrawn
    fact_id: str | None = None

    def to_json(self) -> dict:
        return {**self.proposal.to_json(), "action": self.action, "fact_id": self.fact_id}


@dataclass
class SeedReport:
    dry_run: bool
    accept: bool
    commits_read: int = 0
    files_read: list[str] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)

    def count(self, action: str) -> int:
        return sum(1 for item in self.items if item.action == action)


def state_file(memory: FactWriter) -> Path:
    return memory.project.local_dir / "seed" / "state.json"


def load_state(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("format") == STATE_FORMAT else {}


def file_sources(root: Path) -> list[tuple[str, Path, Reader]]:
    """(source, file, reader of its text) for every file a seed reads in this project."""
    out: list[tuple[str, Path, Reader]] = []
    own = project_name(root)
    logs = changelogs.changelog_files(root)
    name = own if logs else None
    tagged = commits.tag_dates(root) if logs else {}
    for log in logs:  # every changelog's releases date the others' window (HISTORY + CHANGES)
        try:
            tagged.update(changelogs.release_dates(
                read_bytes(log, MAX_FILE_BYTES).decode("utf-8", "replace")))
        except (FileProblemError, OSError):
            continue
    if len(logs) >= releasefiles.MIN_FILES and all(releasefiles.version_of(p) for p in logs):
        # one file per release: read as one changelog, each file given what came from it
        shared = releasefiles.reader(
            logs, root, lambda p: read_bytes(p, MAX_FILE_BYTES).decode("utf-8", "replace"),
            changelogs.proposals, name, tagged)
        out += [("changelog", p, shared) for p in logs]
    else:
        owners = {p: owner_name(root, p) for p in logs}  # a monorepo's package's own log
        out += [("changelog", p, lambda text, rel, owner=owners[p]:
                 changelogs.proposals(text, rel, owner, tagged)) for p in logs]
    folder = fragments.fragment_folder(root)
    news = fragments.fragment_files(folder) if folder else []
    name = name or (own if news else None)
    out += [("changelog", p, lambda text, rel: changelogs.fragment_proposals(
        text, rel, fragments.section_of(Path(rel)) or "", name, tagged)) for p in news]
    out += [("docs", p, _adr) for p in documents.adr_files(root)]
    out += [("docs", p, lambda text, rel: [_named(found, own) for found in (
        documents.rule_proposals(text, rel, "docs") + documents.contributing_steps(text, rel))])
        for p in documents.design_files(root)]
    out += [("agents", p, _agent_file)
            for p in documents.agent_files(root)]
    tools = ((tooling.pyproject_file, tooling.pyproject_proposals),
             (tooling.ini_files, tooling.ini_proposals),
             (tooling.script_files, tooling.script_proposals),
             (tooling.makefile_files, tooling.makefile_proposals),
             (tooling.pr_template_files, tooling.pr_template_proposals),
             (configwhy.config_files, configwhy.proposals))
    for files, reader in tools:
        out += [("docs", p, lambda text, rel, r=reader: r(text, rel, own)) for p in files(root)]
    out += [("docs", p, lambda text, rel: contributing.proposals(text, rel, own, root))
            for p in contributing.contributing_files(root)]
    out += [("docs", p, lambda text, rel: guides.proposals(text, rel, own))
            for p in guides.guide_files(root)]
    out += [("docs", p, lambda text, rel: security.proposals(text, rel, own))
            for p in security.security_files(root)]
    return out


def _named(p: Proposal, project: str) -> Proposal:
    """A guide's rule said with the project it is of: "tornado (CONTRIBUTING.md): We use
    `black` …", not "CONTRIBUTING.md: We use `black` …" (a blind judge: which project's?)."""
    rel = p.provenance.rsplit(":", 1)[0]
    if not project or not p.text.startswith(f"{rel}: "):
        return p
    return replace(p, text=f"{project} ({rel}): {p.text[len(rel) + 2:]}")


def _agent_file(text: str, rel: str) -> list[Proposal]:
    """Every instruction of an agent file with its section (`agents`), and the explicit rules
    the phrasing rules find outside those items (a rule said in a paragraph)."""
    items = agents.proposals(text, rel)
    spans = [lines_of(p.provenance) for p in items]
    said = items + [p for p in documents.rule_proposals(text, rel, "agents")
                    if not any(a <= lines_of(p.provenance)[0] <= b for a, b in spans)]
    return sorted(said, key=lambda p: lines_of(p.provenance))  # in the file's order


def _adr(text: str, rel: str) -> list[Proposal]:
    found = documents.adr_proposal(text, rel)
    return [found] if found else []


def scan(root: Path, state: dict[str, Any], sources: Iterable[str] = SOURCES,
         full: bool = False, reverted: list[commits.Reverts] | None = None,
         ) -> tuple[list[Proposal], dict[str, Any], int, list[str]]:
    """New proposals since `state`'s cursors, the cursors after this read, commits and files
    read (and what the commits read revert, into `reverted`). Pure apart from reading the
    repository."""
    wanted = set(sources)
    cursors: dict[str, Any] = {"head": state.get("head"), "files": dict(state.get("files", {}))}
    found: list[Proposal] = []
    read_commits = 0
    if "commits" in wanted:
        head = commits.head(root)
        since = None if full else state.get("head")
        if since and not commits.is_ancestor(root, since):
            since = None  # history was rewritten: read it all again (seen keys stop repeats)
        if head and head != since:
            log = commits.read_log(root, since)
            read_commits = len(log)
            if reverted is not None:
                reverted.append(commits.reverts(log))
            found += commits.configured(
                root, commits.proposals(log, bool(changelogs.changelog_files(root))))
        cursors["head"] = head
    files_read: list[str] = []
    for source, path, reader in file_sources(root):
        if source not in wanted:
            continue
        rel = path.relative_to(root).as_posix()
        try:  # regular files only, capped: a repository is someone else's
            data = read_bytes(path, MAX_FILE_BYTES)
        except (FileProblemError, OSError):
            continue
        digest = hashlib.sha256(data).hexdigest()
        # Against the state before this run: a file two readers read (a contributing guide's
        # rules and its commands) is new to both.
        if not full and state.get("files", {}).get(rel) == digest:
            continue
        if rel not in files_read:
            files_read.append(rel)
        found += reader(data.decode("utf-8", "replace"), rel)
        cursors["files"][rel] = digest
    found = _said_once(_knobs_once(_pages_once(_one_a_line(found))))
    found = advice.project_specific(standalone.reads_alone(found), project_name(root))
    return current.still_true(root, _unlogged(found, root)), cursors, read_commits, files_read


def _unlogged(found: list[Proposal], root: Path) -> list[Proposal]:
    """A commit's deprecation is proposed only when the changelog never names what it
    deprecates: a changelog that does says it with its release (or left it out on purpose)."""
    if not any(p.source == "commits" and p.old for p in found):
        return found
    logged = set()
    for path in changelogs.changelog_files(root):
        try:
            text = read_bytes(path, MAX_FILE_BYTES).decode("utf-8", "replace")
        except (FileProblemError, OSError):
            continue
        logged |= {w.lower() for w in re.findall(r"\w+", text)}
    return [p for p in found if not (p.source == "commits" and p.old and any(
        n.rsplit(".", 1)[-1] in logged for n in later.deprecated_names(statement(p))))]


def _one_a_line(found: list[Proposal]) -> list[Proposal]:
    """One proposal for a line of a file two readers both read (a contributing guide's
    convention, which names its section, and the phrasing rules' reading of the same line):
    the reader made for the file over the phrasing rules (`docs-…`)."""
    first: dict[tuple[str, int], Proposal] = {}
    for p in found:
        if p.source == "commits":
            continue
        at = (p.provenance.rsplit(":", 1)[0], lines_of(p.provenance)[0])
        if at not in first or first[at].rule.startswith("docs-") \
                and not p.rule.startswith("docs-"):
            first[at] = p
    kept = {id(p) for p in first.values()}
    return [p for p in found if p.source == "commits" or id(p) in kept]


def _pages_once(found: list[Proposal]) -> list[Proposal]:
    """A sentence two pages of the docs both say is one proposal: the first page's, or the
    page that says more after it ("Lower case keys are respected only on *nix systems." on one
    page, the same and why on another)."""
    def body(p: Proposal) -> str:
        return " ".join(p.text.split("): ", 1)[-1].lower().split())

    pages = [p for p in found if p.source in ("docs", "agents")]
    said = [body(p) for p in pages]
    dropped: set[int] = set()
    for k, text in enumerate(said):
        for j, other in enumerate(said):
            if j == k or j in dropped or len(text) < 40:
                continue
            if other == text and j < k or other.startswith(text) and len(other) > len(text) \
                    and text.endswith((".", "!")):
                dropped.add(k)
                break
    gone = {id(pages[k]) for k in dropped}
    return [p for p in found if id(p) not in gone]


def _knobs_once(found: list[Proposal]) -> list[Proposal]:
    """One proposal for each environment variable the project reads: the guide's (how it is
    used now) over the changelog's, then the first found."""
    rules = ("guide-knob", "changelog-knob")
    ranked = sorted((p for p in found if p.rule in rules), key=lambda p: rules.index(p.rule))
    keep: dict[str, Proposal] = {}
    for p in ranked:
        keep.setdefault(changelogs.knob(statement(p)) or p.key, p)
    kept = {id(p) for p in keep.values()}
    return [p for p in found if p.rule not in rules or id(p) in kept]


def _stems(text: str) -> set[str]:
    from kenning.lifecycle.dedup import normalise

    same = {"drop": "remo", "dele": "remo"}  # dropped / removed / deleted support
    return {same.get(w[:4], w[:4]) for w in normalise(text).split()
            if (len(w) > 2 or w.isdigit()) and w not in ("commit", "and", "the", "for")}


def _said_once(found: list[Proposal]) -> list[Proposal]:
    """A commit that says what a changelog entry says is left to the changelog, which holds
    the version; so is a commit moving a runtime's supported versions the changelog moves
    (the changelog keeps only the newest such entry)."""
    entries = [_stems(p.text) for p in found if p.source == "changelog"]
    runtimes = {later.support_subject(p.text.split(": ", 1)[-1]) for p in found
                if p.source == "changelog"} - {None}
    out = []
    for p in found:
        if p.rule in ("commit-drop-support", "commit-deprecate") and re.search(r"\d", p.text) \
                and commits.runtime(p.text.split(" (commit ")[0]) in runtimes:
            continue
        # The commit's verb is left out: "switched to X" is said by "use X instead of Y"; so
        # is its reason: "use X instead of Y because Z" says what the entry says.
        said = commits.REASON.split(p.text.split(" (commit ")[0].split(" ", 1)[-1])[0]
        if p.rule == "commit-why":  # its subject says the change the entry says
            said = re.split(r":\s|\.\s", p.text, maxsplit=1)[0]
        words = _stems(said) if p.source == "commits" else None
        if words and any(words <= e for e in entries):
            continue
        out.append(p)
    return out


def _sentences(text: str) -> list[str]:
    from kenning.lifecycle.dedup import normalise

    return [normalise(s) for s in re.split(r"(?<=[.!?])\s+", text) if normalise(s)]


def _restating(p: Proposal, said: list[Proposal]) -> str | None:
    """The proposal of the same file that `p` says again in whole sentences: one says the
    other and more ("Do not push without running `make doc-spelling` first." and the same
    with its reason after it, two rules drawn from one bullet). The first said stands."""
    where = p.provenance.rsplit(":", 1)[0]
    mine = _sentences(statement(p))
    for known in said:
        if known.provenance.rsplit(":", 1)[0] != where:
            continue
        if _same_rule(statement(p), statement(known)):
            return f"new:{known.key}"
        theirs = _sentences(statement(known))
        short, long = sorted((mine, theirs), key=len)
        if not short or len(" ".join(short).split()) < _RESTATED_WORDS:
            continue
        if any(long[i:i + len(short)] == short for i in range(len(long) - len(short) + 1)):
            return f"new:{known.key}"
    return None


def _swap_told(p: Proposal, said: list[Proposal]) -> str | None:
    """The earlier proposal that names both sides of the tool swap a commit `p` says ("Uses uv
    instead of poetry" after the changelog's "The project now uses `uv` …, replacing
    `poetry`."): the swap is said once, by the better source."""
    swapped = current.swap_of(p)
    if swapped is None:
        return None
    for known in said:
        words = set(re.findall(r"[a-z0-9][\w.+-]*", statement(known).lower()))
        if swapped[0] in words and all(name in words for name in swapped[1]):
            return f"new:{known.key}"
    return None


def _deprecates(p: Proposal) -> frozenset[str]:
    """The code `p` says is deprecated (none when it says no deprecation): one deprecation said
    in the changelog and again in two guides ("`CliRunner.isolated_filesystem()` is deprecated
    and will be removed in Click 9.0.") is proposed once, from the first (the best) source."""
    return frozenset(later.deprecated_names(statement(p)))


_RESTATED_WORDS = 5  # "Use `tox`." said again inside a longer rule may mean less than it


def _same_rule(a: str, b: str) -> bool:
    """Two sentences of a file that open alike and name the same long literal say one rule
    (a summary list restating it in other words: "Do not invent your own `## What / ## Why`
    layout; …" and "Do not invent a `## What / ## Why` PR body; …"). Said of different code
    ("`verify` is now deprecated", "`cert` is now deprecated"), they are two."""
    opens = [re.findall(r"\w+", s.lower())[:_OPENING] for s in (a, b)]
    if len(opens[0]) < _OPENING or opens[0] != opens[1]:
        return False
    literals = [{x for x in re.findall(r"`([^`]+)`", s) if len(x) >= _LONG_LITERAL} for s in (a, b)]
    return bool(literals[0] & literals[1])


_OPENING = 3  # "Do not invent"
_LONG_LITERAL = 12  # a long literal is one rule's own, not a tool both mention (`make`)


def _redacted(p: Proposal) -> Proposal:
    return replace(p, text=" ".join(redact(strip_private(p.text)).split()),
                   rationale=" ".join(redact(strip_private(p.rationale)).split())
                   if p.rationale else None)


@dataclass(frozen=True)
class _Known:
    id: str
    text: str


def seed(memory: FactWriter, *, accept: bool = False, dry_run: bool = False,
         sources: Iterable[str] = SOURCES, full: bool = False) -> SeedReport:
    """Propose facts from the project's history and documents (see the module docstring)."""
    from kenning.core.records import Source
    from kenning.lifecycle.dedup import find_duplicate

    state = load_state(state_file(memory))
    seen = list(state.get("seen", []))
    seen_set = set(seen)
    pending = [Proposal.from_json(p) for p in state.get("pending", [])]
    reverted: list[commits.Reverts] = []
    found, cursors, n_commits, files = scan(memory.project.root, state, sources, full,
                                            reverted)
    report = SeedReport(dry_run=dry_run, accept=accept, commits_read=n_commits,
                        files_read=files)
    # A commit reverted since the run that proposed it is taken back, not left waiting.
    taken_back = [p for p in pending if any(r.withdraw(p) for r in reverted)]
    report.items += [Item(p, "withdrawn") for p in taken_back]
    pending = [p for p in pending if p not in taken_back]
    pool = [_Known(v.row.id, v.row.text) for v in memory.fact_index.views()]
    # Proposals are compared by what they say, without where from: a version, a commit's
    # date or a file name are numbers and words two sources never share.
    said = [_Known(f"new:{p.key}", statement(p)) for p in pending]
    queue: list[tuple[Proposal, bool]] = [(p, False) for p in pending]
    keys = {p.key for p in pending}
    # What is deprecated: who said it first.
    deprecations = {d: f"new:{p.key}" for p in reversed(pending) if (d := _deprecates(p))}
    # Said twice (a commit and the changelog entry for it, a rule in CONTRIBUTING and in
    # AGENTS.md): proposed once, from the better source, the one read first here.
    for raw in sorted(found, key=lambda f: _RANK.index(f.source)):
        p = _redacted(raw)
        if p.key in seen_set or p.key in keys or not p.text:
            continue
        keys.add(p.key)
        duplicate = find_duplicate(p.text, pool) or find_duplicate(statement(p), said) \
            or _restating(p, [q for q, _ in queue]) or deprecations.get(_deprecates(p)) \
            or _swap_told(p, [q for q, _ in queue])
        seen.append(p.key)
        if duplicate is not None:
            report.items.append(Item(p, "known", duplicate))
            continue
        queue.append((p, True))
        said.append(_Known(f"new:{p.key}", statement(p)))
        if _deprecates(p):
            deprecations.setdefault(_deprecates(p), f"new:{p.key}")
    still_pending: list[Proposal] = []
    for p, new in queue:
        if accept and not dry_run:
            result = memory.add(p.text, p.kind, origin="import", rationale=p.rationale,
                                tags=("seed", p.source),
                                source=Source(origin="import", evidence=p.provenance,
                                              rule=f"seed:{p.rule}"))
            report.items.append(Item(p, "added" if result.created else "known",
                                     result.fact.id))
        else:
            report.items.append(Item(p, ("would-add" if accept else "proposed") if new
                                     else "pending"))
            still_pending.append(p)
    if not dry_run:
        write_atomic(state_file(memory), json.dumps({
            "format": STATE_FORMAT, **cursors, "seen": seen[-MAX_SEEN:],
            "pending": [p.to_json() for p in still_pending]}, ensure_ascii=False, indent=1))
    return report
