"""The stdio MCP server: search, add, forget, code search, sessions, seed proposals.

Stdlib only (no MCP SDK at run time): `protocol` reads the JSON-RPC lines, checks a call's
arguments against its tool's inputSchema in `mcp.spec` (the one tool list) and renders the
reply as the SDK's server did. Each tool takes the open `Memory` and its checked arguments,
makes one `Memory` call and returns plain data; a `ToolError` is the tool error the caller
reads. The memory (index connection, embedder) is opened once, before the first request is
read. Plugin users see the tools as `mcp__plugin_kenning_kenning__<tool>`.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable
from typing import Any, BinaryIO

from kenning.core.errors import KenningError
from kenning.core.ids import canonical
from kenning.core.records import KINDS
from kenning.extract import sessions
from kenning.mcp import protocol
from kenning.mcp.spec import SPEC
from kenning.store.facts import parse_about
from kenning.store.sessions import cache_latest_summary

HIT_TYPES = ("fact", "code", "doc", "config", "all")


class ToolError(Exception):
    """What the caller did wrong or what failed, said so it knows what to send next."""


def open_memory(cwd: str | None = None):
    from kenning.core.config import load_config
    from kenning.core.paths import current_project
    from kenning.memory import Memory

    project = current_project(cwd)
    return Memory(project, embedder_name=load_config(project).embedder)


def warm(memory: Any) -> None:
    try:
        memory.sync()
        memory.embedder()  # warm: the first search should not pay for the model loads
        memory.code_embedder()
    except Exception as exc:  # noqa: BLE001 - serve anyway; each tool reports its errors
        print(f"kenning: index not ready ({type(exc).__name__}: {exc})", file=sys.stderr)


def _choice(value: str | None, allowed: tuple[str, ...], field: str) -> str | None:
    if value is None or value == "":
        return None
    if value not in allowed:
        raise ToolError(f"{field} must be one of: {', '.join(allowed)} (got {value!r})")
    return value


def _check_query(query: str, limit: int) -> None:
    if not query.strip():
        raise ToolError("query is empty; send a few words or an identifier to look for")
    if not 1 <= limit <= 50:
        raise ToolError("limit must be between 1 and 50")


def fact_json(fact) -> dict[str, Any]:
    return {"id": fact.id, "kind": fact.kind, "text": fact.text,
            "confidence": fact.confidence / 100, "status": fact.status,
            "about": [a.file + (f":{a.symbol}" if a.symbol else "") for a in fact.about]}


# ---- the tools (names, descriptions and arguments: mcp.spec) ----------------------------------
def knowledge_search(memory: Any, query: str, type: str, kind: str | None, limit: int,
                     include_archived: bool) -> dict[str, Any]:
    """Search the project's memory: facts, code, docs or config."""
    hit_type = _choice(type, HIT_TYPES, "type") or "fact"
    fact_kind = _choice(kind, KINDS, "kind")
    _check_query(query, limit)
    types = ("fact", "code", "doc", "config") if hit_type == "all" else (hit_type,)
    try:
        hits = memory.search(query, types=types, limit=limit,
                             kinds=[fact_kind] if fact_kind else None,
                             include_archived=include_archived, record="mcp")
    except KenningError as exc:
        raise ToolError(str(exc)) from exc
    return {"hits": [h.to_json() for h in hits]}


def knowledge_add(memory: Any, text: str, kind: str, about: list[str] | None,
                  rationale: str | None, tags: list[str] | None, topic: str | None,
                  supersedes: str | None) -> dict[str, Any]:
    """Remember one durable fact: the new id, or the existing fact it re-confirmed, and what
    it superseded or contradicted."""
    fact_kind = _choice(kind, KINDS, "kind")
    if fact_kind is None:
        raise ToolError(f"kind is required: one of {', '.join(KINDS)}")
    try:
        anchors = [parse_about(spec) for spec in about or ()]
        result = memory.add(text, fact_kind, origin="agent", about=anchors,
                            tags=tags or (), topic=topic, rationale=rationale,
                            supersedes=str(canonical(supersedes)) if supersedes else None)
    except KenningError as exc:
        raise ToolError(str(exc)) from exc
    _refresh(memory)
    return _added(memory, result)


def knowledge_forget(memory: Any, id: str) -> dict[str, Any]:
    """Forget one fact by its id (a tombstone kept in git)."""
    try:
        fact = memory.forget(str(canonical(id.strip())))
    except KenningError as exc:
        raise ToolError(f"{exc} (knowledge_search returns fact ids)") from exc
    _refresh(memory)
    return {"id": fact.id, "status": fact.status}


def code_search(memory: Any, query: str, path_glob: str | None, language: str | None,
                limit: int) -> dict[str, Any]:
    """Code hits (source, not prose or config), each with the facts anchored to it."""
    _check_query(query, limit)
    try:
        hits = memory.search(query, types=("code",), limit=limit, path_glob=path_glob,
                             lang=language, record="mcp")
    except KenningError as exc:
        raise ToolError(str(exc)) from exc
    return {"hits": [h.to_json() for h in hits]}


def session_save(memory: Any, summary: str, decisions: list[str] | None,
                 constraints: list[str] | None, assumptions: list[str] | None,
                 blockers: list[str] | None, pending_tasks: list[str] | None,
                 files_touched: list[str] | None, name: str | None) -> dict[str, Any]:
    """Save this session (`kenning.extract.sessions` does the work)."""
    if not summary.strip():
        raise ToolError("summary is empty; send 2-4 sentences on the goal and its state")
    try:
        saved = sessions.save_for_tool(
            memory, summary=summary, decisions=decisions or [],
            constraints=constraints or [], assumptions=assumptions or [],
            blockers=blockers or [], pending_tasks=pending_tasks or [],
            files_touched=files_touched or [], name=name)
    except KenningError as exc:
        raise ToolError(str(exc)) from exc
    cache_latest_summary(memory.project)
    return saved


def session_recall(memory: Any, name: str | None) -> dict[str, Any]:
    """The named saved session, or the latest ones."""
    try:
        found = sessions.recall_for_tool(memory, name=name)
    except KenningError as exc:
        raise ToolError(str(exc)) from exc
    return {"sessions": found}


def knowledge_seed(memory: Any, limit: int) -> dict[str, Any]:
    """Facts the project's own history proposes. Read-only: `kenning seed --accept` is the
    person's call."""
    from kenning.extract.seed.run import seed

    if not 1 <= limit <= 200:
        raise ToolError("limit must be 1-200")
    try:
        report = seed(memory, dry_run=True)
    except KenningError as exc:
        raise ToolError(str(exc)) from exc
    waiting = [i.to_json() for i in report.items if i.action in ("proposed", "pending")]
    return {"proposals": waiting[:limit], "total": len(waiting)}


TOOLS: dict[str, Callable[..., dict[str, Any]]] = {
    f.__name__: f for f in (knowledge_search, knowledge_add, knowledge_forget, code_search,
                            session_save, session_recall, knowledge_seed)}


def _added(memory: Any, result: Any) -> dict[str, Any]:
    reply: dict[str, Any] = {"id": result.fact.id, "created": result.created}
    if not result.created:
        reply["reconfirmed"] = fact_json(result.fact)
    if result.superseded:
        reply["superseded"] = result.superseded
    if result.contradictions:
        reply["contradictions"] = [_describe(memory, i) for i in result.contradictions]
    return reply


def _refresh(memory: Any) -> None:
    """Index the write now, so the hooks (which read the index and the anchors map) see it."""
    try:
        memory.sync()
    except Exception as exc:  # noqa: BLE001 - the fact file is written; the index catches up
        print(f"kenning: index sync after a write failed: {exc}", file=sys.stderr)


def _describe(memory: Any, fact_id: str) -> dict[str, Any]:
    try:
        return fact_json(memory.store.get(fact_id))
    except KenningError:
        return {"id": fact_id}


# ---- serving --------------------------------------------------------------------------------
def call_tool(memory: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """One tools/call's result: the tool's data, or a tool error saying what went wrong."""
    tool = TOOLS.get(name)
    if tool is None:
        return protocol.tool_error(f"Unknown tool: {name}")
    try:
        values = protocol.check_arguments(protocol.TOOL_SCHEMAS[name], arguments)
        return protocol.tool_result(tool(memory, **values))
    except (ToolError, protocol.ArgumentError) as exc:
        return protocol.tool_error(f"Error executing tool {name}: {exc}")
    except Exception:  # noqa: BLE001 - a crash: its text stays on stderr, as the SDK did
        traceback.print_exc(file=sys.stderr)
        return protocol.tool_error(f"Error executing tool {name}")


def answer(memory: Any, message: dict[str, Any]) -> dict[str, Any] | None:
    """The reply to one JSON-RPC message (None for a notification or a response)."""
    method, mid = message.get("method"), message.get("id")
    if "id" not in message or not isinstance(method, str):
        return None
    params = message.get("params")
    params = params if isinstance(params, dict) else {}
    if method == "initialize":
        result: dict[str, Any] = protocol.initialize_result(params)
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": SPEC["tools"]}
    elif method in protocol.EMPTY_LISTS:
        result = {protocol.EMPTY_LISTS[method]: []}
    elif method == "tools/call":
        name, arguments = params.get("name"), params.get("arguments")
        if not isinstance(name, str) or not isinstance(arguments, dict | None):
            return {"jsonrpc": "2.0", "id": mid, "error": protocol.INVALID_PARAMS}
        result = call_tool(memory, name, arguments or {})
    else:
        return {"jsonrpc": "2.0", "id": mid,
                "error": protocol.method_not_found(method)}
    return {"jsonrpc": "2.0", "id": mid, "result": result}


def serve_lines(memory: Any, lines: BinaryIO, out: BinaryIO) -> None:
    """Answer each request line in order until the input ends."""
    for raw in lines:
        if not raw.strip():
            continue
        try:
            message = json.loads(raw)
        except ValueError:
            reply: dict[str, Any] | None = {"jsonrpc": "2.0", "id": None,
                                            "error": protocol.PARSE_ERROR}
        else:
            if not isinstance(message, dict):
                continue
            message, _ = protocol.readable(message, raw)
            reply = answer(memory, message)
        if reply is not None:
            out.write(protocol.line(reply))
            out.flush()


def serve() -> None:
    """Serve MCP on stdio: open the memory, sync it and warm the model, then answer."""
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the protocol stream
    memory = open_memory()
    try:
        warm(memory)
        serve_lines(memory, sys.stdin.buffer, out)
    finally:
        memory.close()


if __name__ == "__main__":
    serve()
