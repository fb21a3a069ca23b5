"""The MCP server through the SDK's in-process Client and through a real stdio subprocess."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from mcp import Client, StdioServerParameters

from kenning.core.mcpnames import MCP_TOOLS
from kenning.core.paths import current_project
from kenning.core.records import Anchor
from kenning.mcp import protocol
from kenning.mcp.server import TOOLS as TOOL_FUNCTIONS
from kenning.mcp.spec import SPEC
from kenning.store.facts import FactStore
from mcpclient import stdio_server

REPO = Path(__file__).resolve().parents[1]
TOOLS = set(MCP_TOOLS)


def call(client: Client, name: str, args: dict):
    async def go():
        return await client.call_tool(name, args)
    return go()


def payload(result) -> dict:
    assert not result.is_error, result.content[0].text
    return json.loads(result.content[0].text)


def run(coro_fn):
    return anyio.run(coro_fn)


def test_tools_are_listed_with_their_arguments(isolated):
    """Exactly the tools the hooks name to the agent (kenning.core.mcpnames), as mcp.spec
    lists them, read by the SDK's own client."""
    async def go():
        async with Client(stdio_server()) as client:
            listed = (await client.list_tools()).tools
        tools = {t.name: t for t in listed}
        assert set(tools) == TOOLS
        assert [t.name for t in listed] == [t["name"] for t in SPEC["tools"]]
        assert [t.input_schema for t in listed] == [t["inputSchema"] for t in SPEC["tools"]]
        assert [t.output_schema for t in listed] == [t["outputSchema"] for t in SPEC["tools"]]
        add = tools["knowledge_add"].input_schema
        assert set(add["required"]) == {"text", "kind"}
        assert {"about", "rationale", "tags", "topic", "supersedes"} <= set(add["properties"])
        search = tools["knowledge_search"].input_schema["properties"]
        assert {"query", "type", "kind", "limit", "include_archived"} <= set(search)
    run(go)


def test_each_tool_function_takes_exactly_its_spec_arguments():
    for tool in SPEC["tools"]:
        parameters = list(inspect.signature(TOOL_FUNCTIONS[tool["name"]]).parameters)
        assert parameters[0] == "memory"
        assert set(parameters[1:]) == set(tool["inputSchema"]["properties"]), tool["name"]
    assert set(TOOL_FUNCTIONS) == {t["name"] for t in SPEC["tools"]}


def test_the_server_imports_neither_the_mcp_sdk_nor_pydantic():
    code = ("import sys, kenning.mcp.server; print(sorted({m.split('.')[0] for m in sys.modules}"
            " & {'mcp', 'mcp_types', 'pydantic', 'pydantic_core', 'anyio', 'starlette'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_add_search_and_forget_round_trip(isolated):
    async def go():
        async with Client(stdio_server()) as client:
            added = payload(await client.call_tool("knowledge_add", {
                "text": "Retries live in src/http/retry.py with one backoff policy.",
                "kind": "codebase", "about": ["src/http/retry.py:RetryPolicy"],
                "tags": ["http"]}))
            assert added["created"] is True
            fact = FactStore(current_project()).get(added["id"])
            assert fact.source.origin == "agent" and fact.confidence == 70
            assert fact.about[0].file == "src/http/retry.py"
            again = payload(await client.call_tool("knowledge_add", {
                "text": "Retries live in src/http/retry.py with one backoff policy.",
                "kind": "codebase"}))
            assert again["created"] is False and again["reconfirmed"]["id"] == added["id"]
            assert again["reconfirmed"]["confidence"] == 0.9
            hits = payload(await client.call_tool("knowledge_search",
                                                  {"query": "retry backoff"}))["hits"]
            assert hits[0]["id"] == added["id"] and hits[0]["why"]
            forgotten = payload(await client.call_tool("knowledge_forget",
                                                       {"id": added["id"]}))
            assert forgotten == {"id": added["id"], "status": "forgotten"}
            assert FactStore(current_project()).get(added["id"]).status == "forgotten"
            after = payload(await client.call_tool("knowledge_search",
                                                   {"query": "retry backoff"}))["hits"]
            assert added["id"] not in [h["id"] for h in after]
    run(go)


@pytest.mark.parametrize("tool,args,hint", [
    ("knowledge_add", {"text": "x y z", "kind": "opinion"}, "kind must be one of"),
    ("knowledge_add", {"text": "   ", "kind": "codebase"}, "empty"),
    ("knowledge_search", {"query": "x", "type": "pictures"}, "type must be one of"),
    ("knowledge_search", {"query": "x", "limit": 0}, "between 1 and 50"),
    ("knowledge_search", {"query": "  "}, "query is empty"),
    ("knowledge_forget", {"id": "not-an-id"}, "26-character ULID"),
    ("knowledge_forget", {"id": "01JF3Z8Q6T1V3N1C2X7D9K4M5P"}, "no fact"),
    ("knowledge_add", {"kind": "codebase"}, "text"),
])
def test_bad_arguments_come_back_as_tool_errors_that_say_what_to_send(isolated, tool, args,
                                                                       hint):
    async def go():
        async with Client(stdio_server()) as client:
            result = await client.call_tool(tool, args)
        assert result.is_error
        assert hint in result.content[0].text
    run(go)


def test_code_search_returns_code_hits_with_their_anchored_facts(isolated):
    from kenning.memory import Memory

    (isolated / "retry.py").write_text(
        "class RetryPolicy:\n    def backoff(self, attempt):\n        return 2 ** attempt\n",
        encoding="utf-8")
    memory = Memory(current_project(), "fake")
    memory.index_code()
    fact = memory.add("Backoff doubles per attempt", "codebase", about=[Anchor("retry.py")]).fact
    memory.close()

    async def go():
        async with Client(stdio_server()) as client:
            result = payload(await client.call_tool("code_search", {"query": "backoff attempt"}))
            both = payload(await client.call_tool("knowledge_search",
                                                  {"query": "backoff", "type": "all"}))
        hit = result["hits"][0]
        assert hit["type"] == "code" and hit["path"] == "retry.py"
        assert fact.id in json.dumps(hit)
        assert {h["type"] for h in both["hits"]} == {"fact", "code"}
    run(go)


def test_stdio_server_through_the_plugin_launcher(isolated):
    params = StdioServerParameters(
        command=str(REPO / "hooks" / "run"), args=["mcp"],
        env={**os.environ, "CLAUDE_PROJECT_DIR": str(isolated)}, cwd=str(isolated))

    async def go():
        async with Client(params) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert TOOLS <= names
            added = payload(await client.call_tool("knowledge_add", {
                "text": "The stdio server writes fact files.", "kind": "codebase"}))
        path = current_project(isolated).personal_facts_dir / f"{added['id']}.yaml"
        assert path.exists() and "origin: agent" in path.read_text(encoding="utf-8")
    run(go)


def test_writes_through_mcp_reach_the_anchors_map_at_once(isolated):
    from kenning.lifecycle import anchors

    async def go():
        async with Client(stdio_server()) as client:
            added = payload(await client.call_tool("knowledge_add", {
                "text": "db.py opens the pool lazily.", "kind": "codebase",
                "about": ["src/db.py"]}))
            local = str(current_project().local_dir)
            assert [e["id"] for e in anchors.lookup(local, "src/db.py")] == [added["id"]]
            await client.call_tool("knowledge_forget", {"id": added["id"]})
            assert anchors.lookup(local, "src/db.py") == []
    run(go)


def _pydantic(kind: type, value: object) -> object:
    from pydantic import TypeAdapter, ValidationError

    try:
        return TypeAdapter(kind).validate_python(value)
    except ValidationError:
        return None


SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(),
    st.text(alphabet=" \t+-._0123456789eExXyYesnoNOtrufalFALSE", max_size=8),
    st.from_regex(r"\s?[+-]?[0-9_]{1,4}(\.[0-9]{0,2})?\s?", fullmatch=True))


@settings(max_examples=400)
@given(SCALARS)
@example("0__1_2")  # pydantic: a leading run of zeros may hold any underscores (12)
@example("1__2")  # but not the digits after it (no number)
def test_integers_and_flags_are_read_as_the_mcp_sdk_read_them(value):
    """The SDK's pydantic took "5", 5.0 and "yes"; clients may rely on that."""
    assert protocol._integer(value) == _pydantic(int, value)
    assert protocol._boolean(value) == _pydantic(bool, value)
