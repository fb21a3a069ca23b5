"""A raw MCP request whose JSON holds a lone surrogate (valid JSON, not valid Unicode) gets a
reply: the front relays it with U+FFFD in the surrogate's place instead of letting the real
server's parser drop it without a word."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from test_mcp_front import HANDSHAKE, REPO, Stdio


def test_a_tool_call_with_a_lone_surrogate_is_answered(isolated: Path) -> None:
    front = Stdio([str(REPO / "hooks" / "run"), "mcp"], dict(os.environ), isolated)
    try:
        front.request("initialize", HANDSHAKE, timeout=10)
        front.notify("notifications/initialized")
        raw = ('{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": '
               '"knowledge_add", "arguments": {"text": "Builds run on the \\ud800 runner", '
               '"kind": "codebase"}}}\n')
        answer = None
        for attempt in range(20):  # the real server starts in the background
            front.proc.stdin.write(raw.replace('"id": 7', f'"id": {100 + attempt}').encode())
            front.proc.stdin.flush()
            while True:
                message = front.lines.get(timeout=60)
                assert message is not None, "the server closed its stdout"
                if message.get("id") == 100 + attempt:
                    break
            answer = message["result"]
            if not answer.get("isError") or "starting" not in answer["content"][0]["text"]:
                break
        assert answer is not None and not answer.get("isError"), answer
        added = json.loads(answer["content"][0]["text"])
        found = front.request("tools/call", {"name": "knowledge_search",
                                             "arguments": {"query": "runner builds"}})
        assert added["id"] in found["result"]["content"][0]["text"]
    finally:
        assert front.close() == 0


def test_the_server_itself_answers_a_tool_call_with_a_lone_surrogate(isolated: Path) -> None:
    """Started directly (Gemini CLI, Cursor), with no front to clean the line first."""
    server = Stdio([sys.executable, "-m", "kenning.mcp.server"], dict(os.environ), isolated)
    try:
        server.request("initialize", HANDSHAKE)
        server.notify("notifications/initialized")
        assert server.proc.stdin is not None
        server.proc.stdin.write(
            b'{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": '
            b'"knowledge_add", "arguments": {"text": "Builds run on the \\ud800 runner", '
            b'"kind": "codebase"}}}\n')
        server.proc.stdin.flush()
        while (message := server.lines.get(timeout=60)) is not None and message.get("id") != 7:
            pass
        assert message is not None and not message["result"]["isError"], message
        added = message["result"]["structuredContent"]["id"]
        found = server.request("tools/call", {"name": "knowledge_search",
                                              "arguments": {"query": "runner builds"}})
        assert added in found["result"]["content"][0]["text"]
    finally:
        assert server.close() == 0
