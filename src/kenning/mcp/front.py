"""The MCP server Claude Code starts: a stdlib stdio front that answers at once.

Claude Code gives a stdio server 30 s to connect; after a timeout it drops the server for the
whole session and marks it failed for 15 minutes. The real server (`kenning.mcp.server`: the
index, the model) needs the venv's packages and a second or so to open the index and warm the
model, and in a plugin's first session cannot start before its dependencies are installed. So
this front answers `initialize`, `ping` and `tools/list` itself (from `mcp.spec`, which the
real server answers with too), starts the real server as a child as soon as the runtime is
ready, and relays everything else to it unchanged. A tool called before then gets a tool error
saying what is happening and when to retry. Stdlib only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from typing import Any, BinaryIO

from kenning.mcp.protocol import (
    EMPTY_LISTS,
    HANDSHAKE_VERSIONS,
    PARSE_ERROR,
    initialize_result,
    method_not_found,
    readable,
)
from kenning.mcp.spec import SPEC
from kenning.plugin import runtime

BACKEND_WAIT_S = 25.0  # a call made while the real server starts waits this long for it
POLL_S = 0.5
_INIT_ID = "kenning-front-initialize"
_RUNNER = ("import sys; sys.path.insert(0, sys.argv[1]); "
           "from kenning.mcp.server import serve; serve()")


class Front:
    def __init__(self, out: BinaryIO):
        self.out = out
        self._write = threading.Lock()
        self.init_params: dict[str, Any] = {}
        self.backend: subprocess.Popen | None = None
        self.ready = threading.Event()
        self.settled = threading.Event()  # the real server is up, or failed to start
        self.problem: str | None = None  # why the real server is not there, once known
        self.calls: list[threading.Thread] = []

    # ---- client side -------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(json.dumps(message, separators=(",", ":")).encode("utf-8"))

    def send_raw(self, line: bytes) -> None:
        with self._write:
            self.out.write(line.rstrip(b"\n") + b"\n")
            self.out.flush()

    def reply(self, mid: Any, result: dict[str, Any]) -> None:
        self.send({"jsonrpc": "2.0", "id": mid, "result": result})

    def handle(self, message: dict[str, Any], raw: bytes) -> None:
        method, mid = message.get("method"), message.get("id")
        if method == "initialize":
            self.init_params = dict(message.get("params") or {})
            self.reply(mid, initialize_result(self.init_params))
            threading.Thread(target=self.start_backend, daemon=True).start()
        elif method == "notifications/initialized":
            return
        elif method == "ping" and mid is not None:
            self.reply(mid, {})
        elif method == "tools/list":
            self.reply(mid, {"tools": SPEC["tools"]})
        elif method == "tools/call":
            thread = threading.Thread(target=self.call, args=(mid, raw), daemon=True)
            self.calls = [t for t in self.calls if t.is_alive()] + [thread]
            thread.start()
        elif self.ready.is_set():
            self.forward(raw)
        elif method in EMPTY_LISTS and mid is not None:
            self.reply(mid, {EMPTY_LISTS[method]: []})  # the real server has none either
        elif mid is not None and method:
            self.send({"jsonrpc": "2.0", "id": mid,
                       "error": method_not_found(method)})

    def call(self, mid: Any, raw: bytes) -> None:
        if not self.ready.is_set():
            current = runtime.state()
            if current in ("installing", "missing", "stale"):
                self.tool_error(mid, still_installing())
                return
            self.settled.wait(BACKEND_WAIT_S)
        if self.ready.is_set() and self.forward(raw):
            return
        self.tool_error(mid, self.problem or (
            "kenning's search server is still starting (it loads the index and the model "
            "once per session); retry this tool call in about 10 seconds."))

    def tool_error(self, mid: Any, text: str) -> None:
        self.reply(mid, {"content": [{"type": "text", "text": text}], "isError": True})

    # ---- the real server ----------------------------------------------------------------
    def forward(self, raw: bytes) -> bool:
        backend = self.backend
        if backend is None or backend.stdin is None:
            return False
        try:
            backend.stdin.write(raw.rstrip(b"\n") + b"\n")
            backend.stdin.flush()
        except OSError:
            return False
        return True

    def start_backend(self) -> None:
        """Wait for the runtime (starting its install if needed), then start the real server
        and relay its output. Never raises: a failure becomes `problem`, told to each call."""
        try:
            current = runtime.state()
            while current in ("installing", "missing", "stale"):
                if current != "installing":
                    runtime.ensure_started(project=os.environ.get("CLAUDE_PROJECT_DIR"))
                time.sleep(POLL_S)
                current = runtime.state()
            python = runtime.best_python()
            backend = subprocess.Popen(
                [python, "-I", "-c", _RUNNER, os.path.join(runtime.plugin_root(), "src")],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=_backend_env())
            assert backend.stdin is not None and backend.stdout is not None
            params = {"protocolVersion": HANDSHAKE_VERSIONS[-1], "capabilities": {},
                      "clientInfo": {"name": "kenning-front", "version": "1"},
                      **self.init_params}
            backend.stdin.write(_line({"jsonrpc": "2.0", "id": _INIT_ID,
                                       "method": "initialize", "params": params}))
            backend.stdin.flush()
            for raw in backend.stdout:
                answer = json.loads(raw)
                if answer.get("id") == _INIT_ID:
                    if "error" in answer:
                        raise RuntimeError(f"initialize failed: {answer['error']}")
                    break
            else:
                raise RuntimeError(f"exited with code {backend.wait()} before it answered "
                                   "initialize (its stderr is in Claude Code's MCP log)")
            backend.stdin.write(_line({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            backend.stdin.flush()
            self.backend = backend
            self.ready.set()
            self.settled.set()
            for raw in backend.stdout:
                self.send_raw(raw)
            self.ready.clear()
            raise RuntimeError(f"exited with code {backend.wait()}")
        except Exception as exc:  # noqa: BLE001 - the front keeps answering
            self.ready.clear()
            self.problem = (f"kenning's search server is unavailable ({exc}); the error is in "
                            "kenning's errors.log. Start a new session to retry.")
            _log(exc)
            self.settled.set()

    def close(self) -> None:
        for thread in self.calls:
            thread.join(timeout=BACKEND_WAIT_S)
        backend = self.backend
        if backend is None:
            return
        try:
            if backend.stdin is not None:
                backend.stdin.close()
            backend.wait(timeout=3)
        except (OSError, subprocess.TimeoutExpired):
            backend.kill()


def still_installing() -> str:
    return (f"kenning is installing its dependencies, once, for this plugin "
            f"({runtime.install_progress()}; it usually takes under a minute). Retry this tool "
            "call in about 30 seconds. The project's facts are already in this session's "
            "context.")


def relayable(message: dict[str, Any], raw: bytes) -> bytes:
    """The request as the real server reads it: a lone surrogate escaped in its JSON (valid
    JSON, not valid Unicode) is relayed as U+FFFD."""
    return readable(message, raw)[1]


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n"


def _backend_env() -> dict[str, str]:
    # The launcher ran Python with -I -S; the child finds its own site-packages.
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def _log(exc: BaseException) -> None:
    from kenning.core.errorlog import log_error

    log_error("mcp server", exc)


def main() -> None:
    """`hooks/run mcp`: serve newline-delimited JSON-RPC on stdio until stdin closes."""
    front = Front(sys.stdout.buffer)
    try:
        for raw in sys.stdin.buffer:
            if not raw.strip():
                continue
            try:
                message = json.loads(raw)
            except ValueError:
                front.send({"jsonrpc": "2.0", "id": None,
                            "error": PARSE_ERROR})
                continue
            if isinstance(message, dict):
                front.handle(message, relayable(message, raw))
    finally:
        front.close()
    # Relay and call threads may still be blocked on a pipe: leave without finalizing them.
    with front._write:
        front.out.flush()
    os._exit(0)
