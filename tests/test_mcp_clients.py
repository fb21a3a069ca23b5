"""kenning's MCP server as other MCP clients start it (Codex CLI, Gemini CLI, Cursor): a
command in the client's config, the project as the working directory, no Claude Code
variables. Driven by the MCP Python SDK's own stdio client; the README's snippets are the
configuration these tests run."""

from __future__ import annotations

import json
import os
import re
import sys
import tomllib
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
CLAUDE_VARS = ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")


def other_client_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in CLAUDE_VARS}


def drive(params: StdioServerParameters) -> tuple[set[str], dict, dict]:
    async def go():
        async with Client(params) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            added = await client.call_tool("knowledge_add", {
                "text": "Invoices are numbered per tenant, never globally.", "kind": "decision"})
            found = await client.call_tool("knowledge_search", {"query": "invoice numbering"})
        return names, json.loads(added.content[0].text), json.loads(found.content[0].text)
    return anyio.run(go)


def readme_block(lang: str, marker: str) -> str:
    blocks = [b for b in re.findall(rf"```{lang}\n(.*?)\n```", README, re.S) if marker in b]
    assert blocks, f"no {lang} block with {marker} in the README"
    return blocks[0]


def test_the_readme_codex_entry_starts_the_server_in_the_project(isolated, monkeypatch):
    config = tomllib.loads(readme_block("toml", "[mcp_servers.kenning]"))["mcp_servers"]
    entry = config["kenning"]
    assert entry["command"].endswith("/hooks/run") and entry["args"] == ["mcp"]
    monkeypatch.delenv("CLAUDE_PROJECT_DIR")
    params = StdioServerParameters(command=str(REPO / "hooks" / "run"), args=entry["args"],
                                   env=other_client_env(), cwd=str(isolated))
    names, added, found = drive(params)
    assert {"knowledge_search", "knowledge_add", "knowledge_forget", "code_search"} <= names
    assert added["created"] is True
    assert [h["id"] for h in found["hits"]][:1] == [added["id"]]
    from kenning.core.paths import current_project

    assert (current_project(isolated).personal_facts_dir / f"{added['id']}.yaml").exists()


def test_the_readme_gemini_and_cursor_entries_run_from_a_venv(isolated, monkeypatch):
    gemini = json.loads(readme_block("json", '"cwd"'))["mcpServers"]["kenning"]
    cursor = json.loads(readme_block("json", "workspaceFolder"))["mcpServers"]["kenning"]
    assert gemini["args"] == ["-m", "kenning.mcp.server"] and gemini["command"].endswith(
        "/bin/python")
    assert cursor["env"] == {"CLAUDE_PROJECT_DIR": "${workspaceFolder}"}
    monkeypatch.delenv("CLAUDE_PROJECT_DIR")
    elsewhere = isolated.parent / "elsewhere"
    elsewhere.mkdir()
    # Cursor's form: the project named by the variable, the process started anywhere.
    params = StdioServerParameters(
        command=sys.executable, args=gemini["args"], cwd=str(elsewhere),
        env={**other_client_env(), "CLAUDE_PROJECT_DIR": str(isolated)})
    names, added, _ = drive(params)
    assert "knowledge_add" in names and added["created"] is True
    from kenning.core.paths import current_project

    assert (current_project(isolated).personal_facts_dir / f"{added['id']}.yaml").exists()
