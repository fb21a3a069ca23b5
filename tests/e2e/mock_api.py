"""A scripted mock of the Anthropic Messages API on 127.0.0.1, for driving the real CLI.

Turn N of the script answers a request whose `messages` already hold N assistant turns
(`role: "system"` entries ignored): deciding by the prompt text alone would loop forever,
since the prompt is in every request. When the script runs out, the answer is plain text
with `end_turn`. Every request body is kept for assertions (`requests`).

    script = [[tool_use("Read", {"file_path": "/p/x.py"})], [text("done")]]
    with MockAPI(script) as api:
        ... ANTHROPIC_BASE_URL=api.url ...
    api.main_requests()
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SUGGESTION_MARK = "[SUGGESTION MODE"


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_use(name: str, tool_input: dict[str, Any], tool_id: str | None = None) -> dict[str, Any]:
    return {"type": "tool_use", "name": name, "input": tool_input, "id": tool_id}


def _assistant_turns(body: dict[str, Any]) -> int:
    return sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")


def _last_user_text(body: dict[str, Any]) -> str:
    for message in reversed(body.get("messages", [])):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            return content
        return " ".join(b.get("text", "") for b in content or [] if isinstance(b, dict))
    return ""


def is_aux(body: dict[str, Any]) -> bool:
    """A request that is not a turn of the main conversation (prompt suggestions, titles)."""
    return _last_user_text(body).lstrip().startswith(SUGGESTION_MARK) or not body.get("tools")


def sse(blocks: list[dict[str, Any]], turn: int) -> bytes:
    events: list[tuple[str, dict[str, Any]]] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": f"msg_mock_{turn:04d}",
                    "type": "message",
                    "role": "assistant",
                    "model": "claude-mock",
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {"input_tokens": 10, "output_tokens": 1},
                },
            },
        )
    ]
    stop_reason = "end_turn"
    for index, block in enumerate(blocks):
        if block["type"] == "tool_use":
            stop_reason = "tool_use"
            start = {
                "type": "tool_use",
                "id": block.get("id") or f"toolu_mock_{turn}_{index}",
                "name": block["name"],
                "input": {},
            }
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        events += [
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": start},
            ),
            (
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]
    events += [
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events).encode(
        "utf-8"
    )


class MockAPI:
    def __init__(self, script: list[list[dict[str, Any]]], final_text: str = "Done.",
                 delays: dict[int, float] | None = None):
        self.script = script
        self.final_text = final_text
        self.delays = delays or {}  # turn -> seconds to think before answering it
        self.requests: list[dict[str, Any]] = []  # every POST body, in arrival order
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ---- lifecycle -----------------------------------------------------------------------
    def __enter__(self) -> MockAPI:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        api = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def _send(self, status: int, body: bytes, content_type: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:  # noqa: N802
                self._send(200, b"{}", "application/json")

            def do_HEAD(self) -> None:  # noqa: N802
                self._send(200, b"", "application/json")

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b"{}"
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                path = self.path.split("?")[0]
                if path.endswith("/count_tokens"):
                    self._send(200, b'{"input_tokens": 100}', "application/json")
                    return
                if not path.endswith("/v1/messages"):
                    self._send(200, b"{}", "application/json")
                    return
                blocks, turn = api._answer(body, path)
                if body.get("stream"):
                    self._send(200, sse(blocks, turn), "text/event-stream")
                else:
                    message = {
                        "id": f"msg_mock_{turn:04d}",
                        "type": "message",
                        "role": "assistant",
                        "model": "claude-mock",
                        "content": [
                            {**b, "id": b.get("id") or f"toolu_mock_{turn}"}
                            if b["type"] == "tool_use"
                            else b
                            for b in blocks
                        ],
                        "stop_reason": "end_turn",
                        "stop_sequence": None,
                        "usage": {"input_tokens": 10, "output_tokens": 5},
                    }
                    self._send(200, json.dumps(message).encode(), "application/json")

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    # ---- script --------------------------------------------------------------------------
    def _answer(self, body: dict[str, Any], path: str) -> tuple[list[dict[str, Any]], int]:
        turn = _assistant_turns(body)
        aux = is_aux(body)
        with self._lock:
            self.requests.append({"path": path, "aux": aux, "turn": turn, "body": body})
        if aux or turn >= len(self.script):
            return [text(self.final_text)], turn
        if turn in self.delays:
            time.sleep(self.delays[turn])
        return self.script[turn], turn

    def main_requests(self) -> list[dict[str, Any]]:
        return [r["body"] for r in self.requests if not r["aux"]]


def stream_events(stdout: str) -> list[dict[str, Any]]:
    """The JSON events of `claude -p --output-format stream-json` (other lines skipped)."""
    events = []
    for line in stdout.splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            continue
    return events


def request_text(body: dict[str, Any]) -> str:
    """Everything the model would read in one request, as one string (for assertions)."""
    return json.dumps(
        {"system": body.get("system"), "messages": body.get("messages")}, ensure_ascii=False
    )
