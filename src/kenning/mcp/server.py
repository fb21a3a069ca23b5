"""The stdio MCP server (`mcp>=2` MCPServer): search, add, forget, code search, sessions,
seed proposals.

Each tool parses its arguments, makes one `Memory` call and renders plain data. The memory
(index connection, embedder) is opened once in the lifespan. Tools are `async` so they run
on the event loop's thread, the one that opened the SQLite connection.
Plugin users see the tools as `mcp__plugin_kenning_kenning__<tool>`.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from kenning import __version__
from kenning.core.errors import KenningError
from kenning.core.ids import canonical
from kenning.core.records import KINDS
from kenning.extract import sessions
from kenning.store.facts import parse_about
from kenning.store.sessions import cache_latest_summary

HIT_TYPES = ("fact", "code", "doc", "config", "all")


@dataclass
class State:
    memory: Any  # kenning.memory.Memory


def open_memory(cwd: str | None = None):
    from kenning.core.config import load_config
    from kenning.core.paths import current_project
    from kenning.memory import Memory

    project = current_project(cwd)
    return Memory(project, embedder_name=load_config(project).embedder)


@asynccontextmanager
async def lifespan(_: MCPServer) -> AsyncIterator[State]:
    memory = open_memory()
    try:
        try:
            memory.sync()
            memory.embedder()  # warm: the first search should not pay for the model load
        except Exception as exc:  # noqa: BLE001 - serve anyway; each tool reports its errors
            print(f"kenning: index not ready ({type(exc).__name__}: {exc})", file=sys.stderr)
        yield State(memory)
    finally:
        memory.close()


def _memory(ctx: Context) -> Any:
    return ctx.request_context.lifespan_context.memory


def _choice(value: str | None, allowed: tuple[str, ...], field: str) -> str | None:
    if value is None or value == "":
        return None
    if value not in allowed:
        raise ToolError(f"{field} must be one of: {', '.join(allowed)} (got {value!r})")
    return value


def fact_json(fact) -> dict[str, Any]:
    return {"id": fact.id, "kind": fact.kind, "text": fact.text,
            "confidence": fact.confidence / 100, "status": fact.status,
            "about": [a.file + (f":{a.symbol}" if a.symbol else "") for a in fact.about]}


def _code_hits(memory: Any, query: str, limit: int, path_glob: str | None,
               language: str | None) -> list[dict[str, Any]]:
    """Code hits (source, not prose or config) from the code index, each with the facts
    anchored to it."""
    hits = memory.search(query, types=("code",), limit=limit, path_glob=path_glob,
                         lang=language, record="mcp")
    return [h.to_json() for h in hits]


def _check_query(query: str, limit: int) -> None:
    if not query.strip():
        raise ToolError("query is empty; send a few words or an identifier to look for")
    if not 1 <= limit <= 50:
        raise ToolError("limit must be between 1 and 50")


def build_server() -> MCPServer:
    server = MCPServer(
        "kenning", version=__version__,
        instructions=("Project memory kept in git: facts about this codebase, its decisions "
                      "and the user's preferences. knowledge_search before guessing; "
                      "knowledge_add for a durable fact learned in this session."),
        lifespan=lifespan,
    )
    _register_search(server)
    _register_writes(server)
    _register_code(server)
    _register_sessions(server)
    _register_seed(server)
    return server


def _register_search(server: MCPServer) -> None:
    """knowledge_search: facts, code, docs or config."""

    @server.tool()
    async def knowledge_search(query: str, ctx: Context, type: str = "fact",
                               kind: str | None = None, limit: int = 10,
                               include_archived: bool = False) -> dict[str, Any]:
        """Search the project's memory. type: fact | code | doc | config | all (hit type);
        kind: codebase | interaction | decision (fact kind); limit 1-50."""
        hit_type = _choice(type, HIT_TYPES, "type") or "fact"
        fact_kind = _choice(kind, KINDS, "kind")
        _check_query(query, limit)
        memory = _memory(ctx)
        types = ("fact", "code", "doc", "config") if hit_type == "all" else (hit_type,)
        try:
            hits = memory.search(query, types=types, limit=limit,
                                 kinds=[fact_kind] if fact_kind else None,
                                 include_archived=include_archived, record="mcp")
        except KenningError as exc:
            raise ToolError(str(exc)) from exc
        return {"hits": [h.to_json() for h in hits]}


def _register_writes(server: MCPServer) -> None:
    """knowledge_add and knowledge_forget."""

    @server.tool()
    async def knowledge_add(text: str, kind: str, ctx: Context, about: list[str] | None = None,
                            rationale: str | None = None, tags: list[str] | None = None,
                            topic: str | None = None, supersedes: str | None = None
                            ) -> dict[str, Any]:
        """Remember one durable fact (one self-contained sentence). kind: codebase |
        interaction | decision. about: files or file:Symbol it concerns. topic: an upsert
        key (a new fact on the same topic supersedes the old). Returns the new id, or the
        existing fact it re-confirmed, and any contradiction."""
        fact_kind = _choice(kind, KINDS, "kind")
        if fact_kind is None:
            raise ToolError(f"kind is required: one of {', '.join(KINDS)}")
        memory = _memory(ctx)
        try:
            anchors = [parse_about(spec) for spec in about or ()]
            result = memory.add(text, fact_kind, origin="agent", about=anchors,
                                tags=tags or (), topic=topic, rationale=rationale,
                                supersedes=str(canonical(supersedes)) if supersedes else None)
        except KenningError as exc:
            raise ToolError(str(exc)) from exc
        _refresh(memory)
        return _added(memory, result)

    @server.tool()
    async def knowledge_forget(id: str, ctx: Context) -> dict[str, Any]:
        """Forget one fact by its id (a tombstone: kept in git so a merge cannot bring it
        back; `kenning restore ID` undoes it)."""
        memory = _memory(ctx)
        try:
            fact = memory.forget(str(canonical(id.strip())))
        except KenningError as exc:
            raise ToolError(f"{exc} (knowledge_search returns fact ids)") from exc
        _refresh(memory)
        return {"id": fact.id, "status": fact.status}


def _register_code(server: MCPServer) -> None:
    """code_search."""

    @server.tool()
    async def code_search(query: str, ctx: Context, path_glob: str | None = None,
                          language: str | None = None, limit: int = 10) -> dict[str, Any]:
        """Search the project's source code (for prose use knowledge_search type=doc); each
        hit carries the facts anchored to it."""
        _check_query(query, limit)
        try:
            hits = _code_hits(_memory(ctx), query, limit, path_glob, language)
        except KenningError as exc:
            raise ToolError(str(exc)) from exc
        return {"hits": hits}


def _added(memory: Any, result: Any) -> dict[str, Any]:
    """knowledge_add's reply: the id, and what the add re-confirmed, superseded or
    contradicted."""
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


def _register_sessions(server: MCPServer) -> None:
    """session_save and session_recall (`kenning.extract.sessions` does the work)."""

    @server.tool()
    async def session_save(summary: str, ctx: Context, decisions: list[str] | None = None,
                           constraints: list[str] | None = None,
                           assumptions: list[str] | None = None,
                           blockers: list[str] | None = None,
                           pending_tasks: list[str] | None = None,
                           files_touched: list[str] | None = None,
                           name: str | None = None) -> dict[str, Any]:
        """Save this session: a summary plus decisions, constraints, assumptions, blockers,
        pending tasks and files touched (one sentence each). Decisions, constraints and
        assumptions also become facts. Returns the saved session's name."""
        if not summary.strip():
            raise ToolError("summary is empty; send 2-4 sentences on the goal and its state")
        memory = _memory(ctx)
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

    @server.tool()
    async def session_recall(ctx: Context, name: str | None = None) -> dict[str, Any]:
        """The named saved session, or the latest ones (within 72 h of the newest)."""
        try:
            found = sessions.recall_for_tool(_memory(ctx), name=name)
        except KenningError as exc:
            raise ToolError(str(exc)) from exc
        return {"sessions": found}


def _register_seed(server: MCPServer) -> None:
    """knowledge_seed: read-only; `kenning seed --accept` is the person's call."""

    @server.tool()
    async def knowledge_seed(ctx: Context, limit: int = 50) -> dict[str, Any]:
        """Facts the project's own history proposes (commit decisions, changelog breaking
        changes and deprecations, ADRs, CONTRIBUTING and agent-file rules), each with its
        provenance. Read-only: nothing is stored; `kenning seed --accept` adds them."""
        from kenning.extract.seed.run import seed

        if not 1 <= limit <= 200:
            raise ToolError("limit must be 1-200")
        try:
            report = seed(_memory(ctx), dry_run=True)
        except KenningError as exc:
            raise ToolError(str(exc)) from exc
        waiting = [i.to_json() for i in report.items if i.action in ("proposed", "pending")]
        return {"proposals": waiting[:limit], "total": len(waiting)}


def serve() -> None:
    build_server().run("stdio")


if __name__ == "__main__":
    serve()
