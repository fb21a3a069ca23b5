"""Transcript → candidates → redaction → dedup → fact YAML: the extractor the hooks spawn.

Why it is shaped like this:
- It runs detached at PreCompact/SessionEnd and again at SessionStart's catch-up, possibly
  for the same session, so it must be idempotent: a per-session state file under the
  project's local folder keeps each transcript's cursor (only new lines are read) and the
  keys of candidates already handled (a re-read after a reset cursor re-confirms nothing).
- One extraction at a time per machine: two sessions ending together would otherwise race
  on the same facts (dedup reads the index, then writes). The hooks' wrapper holds its own
  lock (`extract.lock`) while it runs this command, so this one uses a different file.
- The transcript is written late, so the run first waits until the file stops growing.
- Writing goes through `Memory.add` only: it routes interaction facts to the personal
  store, re-confirms near-duplicates and records contradictions. Texts are redacted here
  as well, because candidates are also printed (`--dry-run`) and kept in local state.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kenning.core.atomic import write_atomic
from kenning.core.errors import KenningError
from kenning.core.paths import Project
from kenning.core.records import Source
from kenning.core.redact import redact
from kenning.extract.model import Candidate, Turn
from kenning.extract.rules import extract_candidates
from kenning.extract.transcript import (
    Cursor,
    read_transcript,
    subagent_transcripts,
    wait_until_stable,
)

if TYPE_CHECKING:
    from kenning.lifecycle.writes import FactWriter

LOCK_NAME = "extract-pipeline.lock"
STATE_DIR = "extract"
STATE_FORMAT = 1
# Bounded local state: enough to recognise a re-read of any realistic session.
MAX_SEEN = 5000
MAX_INJECTED = 500
EXCERPT_CHARS = 160
_MARKER = re.compile(r"\[REDACTED:[a-z_]+\]")


@dataclass(frozen=True)
class Outcome:
    """What happened to one candidate.

    action: 'added' | 'reconfirmed' | 'seen' (handled by an earlier run) | 'planned'
    (dry run) | 'dropped' (nothing left after redaction, or the store refused it).
    """

    candidate: Candidate
    action: str
    fact_id: str | None = None
    excerpt: str = ""
    superseded: tuple[str, ...] = ()
    contradictions: tuple[str, ...] = ()
    note: str | None = None


@dataclass
class ExtractReport:
    session: str
    transcripts: list[str]
    lines: int = 0
    turns: int = 0
    bad_lines: int = 0
    stable: bool = True
    dry_run: bool = False
    outcomes: list[Outcome] = field(default_factory=list)

    def count(self, action: str) -> int:
        return sum(1 for o in self.outcomes if o.action == action)


@dataclass
class Plan:
    """What one read of a session's transcripts found; `state` is what to save after it."""

    session: str
    transcripts: list[str]
    candidates: list[Candidate]
    excerpts: dict[str, str]
    state: dict[str, Any]
    lines: int = 0
    turns: int = 0
    bad_lines: int = 0


# --- local state ---------------------------------------------------------------------------


def lock_path(project: Project) -> Path:
    """The per-machine extraction lock (under KENNING_HOME, shared by every project)."""
    return project.home / LOCK_NAME


def state_path(project: Project, session: str) -> Path:
    return project.local_dir / STATE_DIR / f"{_safe(session)}.json"


def _safe(value: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9_-]", "_", value)[:100] or "unknown"
    if cleaned != value:  # keep distinct ids distinct after cleaning
        cleaned += "-" + hashlib.sha256(value.encode("utf-8")).hexdigest()[:8]
    return cleaned


def load_state(project: Project, session: str) -> dict[str, Any]:
    try:
        data = json.loads(state_path(project, session).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("format") == STATE_FORMAT else {}


def save_state(project: Project, session: str, state: dict[str, Any]) -> None:
    state = {**state, "format": STATE_FORMAT, "session": session}
    state["seen"] = list(state.get("seen", []))[-MAX_SEEN:]
    state["injected"] = list(state.get("injected", []))[-MAX_INJECTED:]
    write_atomic(state_path(project, session), json.dumps(state, ensure_ascii=False, indent=1))


def candidate_key(c: Candidate) -> str:
    """Same evidence line, same rule, same sentence: the same candidate."""
    norm = " ".join(re.sub(r"[^\w]+", " ", c.text.lower()).split())
    raw = f"{c.evidence}\x00{c.rule}\x00{norm}"
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:20]


# --- reading -------------------------------------------------------------------------------


def _excerpts(turns: list[Turn]) -> dict[str, str]:
    """uuid -> a short, redacted, one-line quote of the user's words or the tool output."""
    out: dict[str, str] = {}
    for t in turns:
        if t.role == "user":
            text = t.text
        elif t.role == "tool_result":
            text = "\n".join(output for _, output, _ in t.tool_results)
        else:
            continue
        one_line = " ".join(redact(text[: EXCERPT_CHARS * 4]).split())
        out[t.uuid] = one_line[:EXCERPT_CHARS] + ("…" if len(one_line) > EXCERPT_CHARS else "")
    return out


def plan(
    project: Project,
    path: str | os.PathLike[str],
    session: str | None = None,
    *,
    from_start: bool = False,
    subagents: bool = True,
    findings: bool = True,
) -> Plan:
    """Read what is new in the session's transcript (and its subagents'); write nothing.
    `findings` keeps the agent's durable findings (`[extract] findings`)."""
    main = Path(path).resolve()
    if not main.is_file():
        raise KenningError(f"no transcript at {path}; pass the session's .jsonl file")
    files = [main, *(subagent_transcripts(main) if subagents else [])]
    session = session or _session_from_file(main)
    state = {} if from_start else load_state(project, session)
    cursors: dict[str, dict[str, Any]] = dict(state.get("cursors", {}))
    injected: list[str] = list(state.get("injected", []))
    result = Plan(session=session, transcripts=[str(f) for f in files], candidates=[],
                  excerpts={}, state={})
    reads = []
    for file in files:
        saved = cursors.get(str(file)) or {}
        cursor = Cursor(int(saved.get("offset", 0)), saved.get("last_uuid"))
        transcript = read_transcript(file, cursor)
        reads.append((file, transcript))
        # Injected facts repeat across files and runs: a later run must still know them.
        for text in transcript.injected_texts:
            text = redact(text)
            if text not in injected:
                injected.append(text)
    for file, transcript in reads:
        result.lines += transcript.lines
        result.bad_lines += transcript.bad_lines
        result.turns += len(transcript.turns)
        found = extract_candidates(transcript.turns, injected, root=project.root,
                                   findings=findings)
        result.candidates.extend(found)
        wanted = {c.evidence for c in found}
        result.excerpts.update(
            (k, v) for k, v in _excerpts([t for t in transcript.turns if t.uuid in wanted]).items()
        )
        cursors[str(file)] = {"offset": transcript.cursor.offset,
                              "last_uuid": transcript.cursor.last_uuid}
    result.state = {"cursors": cursors, "injected": injected,
                    "seen": list(state.get("seen", []))}
    return result


def _session_from_file(path: Path) -> str:
    """The transcript's own session id (its first line that has one), else its file name."""
    try:
        with path.open("rb") as handle:
            for _, raw in zip(range(200), handle, strict=False):
                m = re.search(rb'"sessionId"\s*:\s*"([^"]{1,200})"', raw)
                if m:
                    return m.group(1).decode("utf-8", "replace")
    except OSError:
        pass
    return path.stem


# --- writing -------------------------------------------------------------------------------


def redact_candidate(c: Candidate) -> Candidate | None:
    """The candidate with its secrets replaced; None when nothing worth keeping is left."""
    text = " ".join(redact(c.text).split())
    rationale = " ".join(redact(c.rationale).split()) if c.rationale else None
    if len(_MARKER.sub(" ", text).split()) < 3:
        return None
    return replace(c, text=text, rationale=rationale or None)


def _scrubbed(c: Candidate) -> Candidate:
    return replace(c, text=redact(c.text), rationale=redact(c.rationale) if c.rationale else None)


def persist(
    memory: FactWriter,
    candidates: list[Candidate],
    *,
    origin: str = "transcript",
    session: str | None = None,
    seen: list[str] | None = None,
    excerpts: dict[str, str] | None = None,
) -> list[Outcome]:
    """Redact, then `Memory.add` each candidate (a duplicate re-confirms); `seen` keys are
    skipped and the new ones appended to it."""
    from kenning.lifecycle.writes import AddResult

    done = set(seen or ())
    outcomes: list[Outcome] = []
    for raw in candidates:
        excerpt = (excerpts or {}).get(raw.evidence, "")
        key = candidate_key(raw)
        c = redact_candidate(raw)
        if c is None:
            outcomes.append(Outcome(_scrubbed(raw), "dropped", excerpt=excerpt,
                                    note="nothing left after redaction"))
            continue
        if key in done:
            outcomes.append(Outcome(c, "seen", excerpt=excerpt))
            continue
        source = Source(origin=origin, session=c.session or session,
                        evidence=c.evidence or None, rule=c.rule)
        try:
            result: AddResult = memory.add(c.text, c.kind, origin=origin, about=c.about,
                                           rationale=c.rationale, source=source)
        except KenningError as exc:
            outcomes.append(Outcome(c, "dropped", excerpt=excerpt, note=str(exc)))
            continue
        done.add(key)
        if seen is not None:
            seen.append(key)
        outcomes.append(Outcome(
            c, "added" if result.created else "reconfirmed", fact_id=result.fact.id,
            excerpt=excerpt, superseded=tuple(result.superseded),
            contradictions=tuple(result.contradictions),
        ))
    return outcomes


@contextlib.contextmanager
def machine_lock(project: Project, wait: float) -> Iterator[None]:
    """Hold the machine-wide extraction lock, waiting up to `wait` seconds for it."""
    from kenning.core.locks import LockBusy, exclusive_lock

    deadline = time.monotonic() + wait
    while True:
        try:
            with exclusive_lock(lock_path(project), wait=False):
                yield
            return
        except LockBusy:
            if time.monotonic() >= deadline:
                raise KenningError(
                    f"another extraction holds {lock_path(project)}; try again when it "
                    "finishes"
                ) from None
            time.sleep(0.2)


def extract_transcript(
    memory: FactWriter,
    path: str | os.PathLike[str],
    session: str | None = None,
    *,
    from_start: bool = False,
    settle: float = 2.0,
    settle_timeout: float = 30.0,
    lock_wait: float = 300.0,
    findings: bool = True,
) -> ExtractReport:
    """Extract what is new in one session's transcript into the project's memory.

    Waits until the file stops growing (`settle` quiet seconds, at most `settle_timeout`),
    takes the machine's extraction lock, reads from the stored cursor, writes facts through
    `Memory.add`, then stores the new cursor. Running it twice adds nothing the second time.
    """
    project = memory.project
    if not Path(path).is_file():
        raise KenningError(f"no transcript at {path}; pass the session's .jsonl file")
    stable = True
    if settle > 0 or settle_timeout > 0:
        stable = wait_until_stable(path, quiet_seconds=settle, timeout=settle_timeout)
    with machine_lock(project, lock_wait):
        found = plan(project, path, session, from_start=from_start, findings=findings)
        if from_start:  # a fresh cursor, but what was already handled stays handled
            found.state["seen"] = list(load_state(project, found.session).get("seen", []))
        seen: list[str] = found.state["seen"]
        outcomes = persist(memory, found.candidates, session=found.session, seen=seen,
                           excerpts=found.excerpts)
        save_state(project, found.session, found.state)
        if any(o.fact_id for o in outcomes):
            from kenning.lifecycle.consolidate import after_extraction

            memory.fact_index.sync()  # the hooks read the index and the anchors map, not the YAML
            after_extraction(memory)  # merges clear duplicates once a project has > 50 facts
    return ExtractReport(
        session=found.session, transcripts=found.transcripts, lines=found.lines,
        turns=found.turns, bad_lines=found.bad_lines, stable=stable, outcomes=outcomes,
    )


def dry_run(
    project: Project, path: str | os.PathLike[str], session: str | None = None,
    *, from_start: bool = False, findings: bool = True,
) -> ExtractReport:
    """What `extract_transcript` would consider, redacted; touches no file, index or lock."""
    found = plan(project, path, session, from_start=from_start, findings=findings)
    seen = set(load_state(project, found.session).get("seen", ()))
    outcomes = []
    for raw in found.candidates:
        excerpt = found.excerpts.get(raw.evidence, "")
        c = redact_candidate(raw)
        if c is None:
            outcomes.append(Outcome(_scrubbed(raw), "dropped", excerpt=excerpt,
                                    note="nothing left after redaction"))
        else:
            outcomes.append(Outcome(c, "seen" if candidate_key(raw) in seen else "planned",
                                    excerpt=excerpt))
    return ExtractReport(
        session=found.session, transcripts=found.transcripts, lines=found.lines,
        turns=found.turns, bad_lines=found.bad_lines, dry_run=True, outcomes=outcomes,
    )
