"""Saving a session: write its file (`kenning.store.sessions`) and turn its decisions,
constraints and assumptions into facts through `Memory.add`, so they are searched,
deduplicated and decay like any other; optionally, facts an LLM finds in it too.

Also the MCP tools' calls (`session_save`, `session_recall`), which take and return plain data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kenning.core.errors import KenningError
from kenning.core.records import Anchor, Source
from kenning.extract.model import Candidate
from kenning.store.sessions import (
    FACT_FIELDS,
    Item,
    SavedSession,
    find_sessions,
    llm_input,
    render,
    session_path,
    to_mapping,
    validate,
    write_session,
)

if TYPE_CHECKING:
    from kenning.extract.llm import LLMResult
    from kenning.lifecycle.writes import AddResult, FactWriter


@dataclass
class SaveResult:
    record: SavedSession
    path: Path
    facts: list[AddResult] = field(default_factory=list)
    llm: LLMResult | None = None
    llm_facts: list[Any] = field(default_factory=list)  # pipeline Outcomes


def _anchors(text: str, files: Iterable[Item]) -> tuple[Anchor, ...]:
    """The touched files this sentence names (only those: anchoring every fact to every
    touched file would attach it to code it says nothing about)."""
    from kenning.store.facts import parse_about

    out = []
    for f in files:
        if f.text and f.text in text:
            try:
                out.append(parse_about(f.text))
            except KenningError:
                continue
    return tuple(out)


def save_session(
    memory: FactWriter,
    fields: Mapping[str, Any],
    *,
    origin: str = "agent",
    session: str | None = None,
    llm: Callable[[str], LLMResult] | None = None,
) -> SaveResult:
    """Write `<sessions_dir>/<name>.yaml` and turn its decisions, constraints and
    assumptions into facts. A name saved again is updated in place.

    `llm`, when given, is called once with the redacted record's words; the facts it
    returns go through the same redaction and dedup as the rules' (origin 'transcript',
    rule 'llm').
    """
    now = memory.clock()
    record = validate(fields, now, session)
    render(record)  # too large: refused before any fact is added
    result = SaveResult(record=record, path=session_path(memory.project, record))
    files = record.lists.get("files_touched", [])
    source = Source(origin=origin, session=record.session, rule="session-save")
    for list_name, kind, tag in FACT_FIELDS:
        for item in record.lists.get(list_name, []):
            added = memory.add(item.text, kind, origin=origin, rationale=item.rationale,
                               tags=(tag,) if tag else (), about=_anchors(item.text, files),
                               source=source)
            result.facts.append(added)
            if added.fact.id not in record.facts:
                record.facts.append(added.fact.id)
    write_session(memory.project, record)
    if llm is not None:
        from kenning.extract.pipeline import persist

        result.llm = llm(llm_input(record))
        # The model's facts name repo-relative paths, like the rules' (issue 16, 5).
        wanted = _relative_paths(result.llm.candidates, memory.project.root)
        if wanted:
            result.llm_facts = persist(memory, wanted, session=record.session)
            new_ids = [o.fact_id for o in result.llm_facts if o.fact_id]
            record.facts.extend(i for i in new_ids if i not in record.facts)
            write_session(memory.project, record)
    if record.facts:
        memory.fact_index.sync()  # the hooks read the index and the anchors map, not the YAML
    return result


def _relative_paths(candidates: Iterable[Candidate], root: Any) -> list[Candidate]:
    """Paths under the project made repo-relative; a fact naming another folder of this
    machine is left out (issue 16: no absolute path of the user's machine in a fact)."""
    from kenning.extract.rules import machine_paths_out

    out = []
    for c in candidates:
        text = machine_paths_out(c.text, str(root) if root else None)
        if text is not None:
            out.append(replace(c, text=text) if text != c.text else c)
    return out


def save_for_tool(
    memory: FactWriter,
    *,
    summary: str,
    decisions: Iterable[Any] = (),
    constraints: Iterable[Any] = (),
    assumptions: Iterable[Any] = (),
    blockers: Iterable[Any] = (),
    pending_tasks: Iterable[Any] = (),
    files_touched: Iterable[Any] = (),
    name: str | None = None,
) -> dict[str, Any]:
    """The MCP `session_save` tool's call (the agent saving: origin 'agent'); plain data back.

    An entry point's adapter, so it reads the user's `[llm]` config like one.
    """
    from kenning.extract.llm import configured_extractor

    fields: dict[str, Any] = {
        "summary": summary, "decisions": list(decisions), "constraints": list(constraints),
        "assumptions": list(assumptions), "blockers": list(blockers),
        "pending_tasks": list(pending_tasks), "files_touched": list(files_touched),
    }
    if name:
        fields["name"] = name
    result = save_session(memory, fields, origin="agent",
                          llm=configured_extractor(memory.project, memory.clock))
    return save_result_json(result)


def recall_for_tool(memory: FactWriter, name: str | None = None) -> list[dict[str, Any]]:
    """The MCP `session_recall` tool's call: the records as plain data."""
    return [to_mapping(r) for r in find_sessions(memory.project, name or None)]


def save_result_json(result: SaveResult) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": result.record.name, "path": str(result.path), "value": result.record.value,
        "facts": [{"id": a.fact.id, "kind": a.fact.kind, "text": a.fact.text,
                   "confidence": a.fact.confidence / 100, "created": a.created,
                   "contradictions": list(a.contradictions)} for a in result.facts],
    }
    if result.llm is not None:
        data["llm"] = {"skipped": result.llm.skipped, "tokens": result.llm.tokens,
                       "facts": [{"id": o.fact_id, "action": o.action, "text": o.candidate.text}
                                 for o in result.llm_facts if o.fact_id]}
    return data
