"""The stdio front Claude Code starts (`hooks/run mcp`): it answers the handshake and the tool
list at once, whatever state the plugin's runtime is in, says "still installing" to a tool
call made during the install, and relays to the real server once the venv is ready."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import plugin_copy, ready_venv
from kenning.core.locks import FileLock
from kenning.mcp.spec import SPEC
from kenning.plugin import runtime
from kenning.plugin.layout import LOCK_NAME

REPO = Path(__file__).resolve().parents[1]
HANDSHAKE = {"protocolVersion": "2025-11-25", "capabilities": {},
             "clientInfo": {"name": "test", "version": "1"}}


class Stdio:
    """A line-oriented JSON-RPC peer over a subprocess's stdin/stdout."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=env, cwd=cwd)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(json.loads(raw))
        self.lines.put(None)

    def notify(self, method: str, params: dict | None = None) -> None:
        self._write({"jsonrpc": "2.0", "method": method, **({"params": params} if params else {})})

    def request(self, method: str, params: dict | None = None, timeout: float = 60) -> dict:
        self.next_id += 1
        self._write({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                     "params": params or {}})
        while True:
            message = self.lines.get(timeout=timeout)
            assert message is not None, "the server closed its stdout"
            if message.get("id") == self.next_id:
                return message

    def _write(self, message: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)


def live_spec(isolated: Path) -> dict:
    """What the real server (`kenning.mcp.server`) answers to initialize and tools/list."""
    server = Stdio([sys.executable, "-m", "kenning.mcp.server"], dict(os.environ), isolated)
    init = server.request("initialize", HANDSHAKE)["result"]
    server.notify("notifications/initialized")
    tools = server.request("tools/list")["result"]["tools"]
    server.close()
    return {"capabilities": init["capabilities"], "instructions": init["instructions"],
            "serverInfo": init["serverInfo"], "tools": tools}


def test_the_front_answers_exactly_what_the_real_server_would(isolated):
    live = live_spec(isolated)
    from kenning.mcp.front import EMPTY_LISTS

    server = Stdio([sys.executable, "-m", "kenning.mcp.server"], dict(os.environ), isolated)
    server.request("initialize", HANDSHAKE)
    server.notify("notifications/initialized")
    for method, key in EMPTY_LISTS.items():
        assert server.request(method)["result"][key] == [], method
    server.close()
    assert live == SPEC, ("src/kenning/mcp/spec.py is out of date; SPEC = "
                          + json.dumps(live, indent=1))


def test_the_front_speaks_the_handshake_versions_of_the_installed_sdk():
    from mcp_types import version

    from kenning.mcp.front import HANDSHAKE_VERSIONS

    assert HANDSHAKE_VERSIONS == version.HANDSHAKE_PROTOCOL_VERSIONS


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return plugin_copy(tmp_path, monkeypatch)


def test_a_tool_called_during_the_install_says_so_and_works_once_the_venv_is_ready(
        isolated, plugin, tmp_path):
    data = tmp_path / "data"
    lock = FileLock(data / LOCK_NAME)  # an install is running
    assert lock.acquire(wait=False) and runtime.state(str(data), str(plugin)) == "installing"
    front = Stdio([str(plugin / "hooks" / "run"), "mcp"], dict(os.environ), isolated)
    try:
        init = front.request("initialize", HANDSHAKE, timeout=10)["result"]
        assert init["serverInfo"]["name"] == "kenning"
        assert init["protocolVersion"] == "2025-11-25"
        front.notify("notifications/initialized")
        names = [t["name"] for t in front.request("tools/list", timeout=10)["result"]["tools"]]
        assert "knowledge_add" in names and "knowledge_search" in names
        assert front.request("prompts/list", timeout=10)["result"] == {"prompts": []}
        # an unknown method gets the real server's own error, not a wording of the front's
        assert front.request("no/such/method", timeout=10)["error"] == {
            "code": -32601, "message": "Method not found", "data": "no/such/method"}
        args = {"name": "knowledge_add",
                "arguments": {"text": "The front relays tool calls.", "kind": "codebase"}}
        early = front.request("tools/call", args, timeout=10)["result"]
        assert early["isError"] is True
        assert "installing its dependencies" in early["content"][0]["text"]
        assert "Retry this tool call" in early["content"][0]["text"]
        # the install finishes: a venv whose python has the dependencies, and its stamp
        ready_venv(data, plugin)
        lock.release()
        later = {}
        for _ in range(20):  # as the model would: retry until the server has started
            later = front.request("tools/call", args)["result"]
            if not later.get("isError"):
                break
        assert not later.get("isError"), later
        added = json.loads(later["content"][0]["text"])
        assert added["created"] is True
        found = front.request("tools/call", {"name": "knowledge_search",
                                             "arguments": {"query": "front relays"}})["result"]
        assert added["id"] in found["content"][0]["text"]
        assert front.request("ping")["result"] == {}
    finally:
        lock.release()
        assert front.close() == 0


def test_a_server_that_cannot_start_answers_with_the_reason_and_logs_it(isolated, tmp_path):
    # An interpreter without the dependencies: the real server dies at import.
    bare = tmp_path / "bare-python"
    bare.write_text(f"#!/bin/sh\nexec {sys.executable} -S \"$@\"\n", encoding="utf-8")
    bare.chmod(0o755)
    env = {**os.environ, "KENNING_PYTHON": str(bare), "CLAUDE_PLUGIN_DATA": ""}
    code = ("import sys; sys.path.insert(0, sys.argv[1]); "
            "from kenning.plugin import runtime; "
            "runtime.best_python = lambda root=None: sys.argv[2]; "
            "from kenning.mcp.front import main; main()")
    front = Stdio([sys.executable, "-I", "-S", "-c", code, str(REPO / "src"), str(bare)],
                  env, isolated)
    front.request("initialize", HANDSHAKE, timeout=10)
    result = front.request("tools/call", {"name": "knowledge_search",
                                          "arguments": {"query": "x"}})["result"]
    assert result["isError"] is True
    assert "unavailable" in result["content"][0]["text"]
    assert front.close() == 0
    logs = list((isolated.parent / "kenning-home").rglob("errors.log"))
    assert logs and "mcp server" in logs[0].read_text(encoding="utf-8")
