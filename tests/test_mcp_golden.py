"""The stdio MCP server's replies stay byte-identical unless changed on purpose.

`tests/golden/mcp/replies.jsonl` holds the raw reply lines the MCP SDK's server gave
(`kenning.mcp.server` before it was rewritten on the stdlib) to one session of requests:
the handshake, the lists, good tool calls and bad ones (wrong types, missing fields, nulls,
unknown tools and methods, a line that is not JSON). The stdlib server must give the same
bytes, except where a line of the golden file records a deliberate change. To record one:
`KENNING_UPDATE_GOLDEN=1 pytest tests/test_mcp_golden.py`, then read the diff. That writes
this server's replies for every line, the SDK's wording of argument errors included: keep
the old lines but those the change is about.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

from conftest import init_repo
from test_cli_golden import NOW, Normaliser

GOLDEN = Path(__file__).parent / "golden" / "mcp" / "replies.jsonl"
UPDATE = os.environ.get("KENNING_UPDATE_GOLDEN") == "1"
HANDSHAKE = {"protocolVersion": "2025-06-18", "capabilities": {},
             "clientInfo": {"name": "golden", "version": "1"}}
NO_REPLY = "(no reply)"


def tool(name: str, arguments: dict | None = None) -> dict:
    return {"method": "tools/call",
            "params": {"name": name, **({"arguments": arguments} if arguments is not None else {})}}


# One session, in order: each entry is a request (it gets an id), a notification
# ("notify": no id) or a raw line ("raw").
SESSION: list[dict] = [
    {"method": "initialize", "params": HANDSHAKE},
    {"notify": "notifications/initialized"},
    {"method": "ping"},
    {"method": "tools/list"},
    {"method": "resources/list"},
    {"method": "resources/templates/list"},
    {"method": "prompts/list"},
    {"method": "no/such/method"},
    {"notify": "notifications/no-such-notification"},
    {"notify": "notifications/cancelled", "params": {"requestId": 99}},
    {"raw": "this is not json"},
    {"raw": "[1, 2]"},
    tool("no_such_tool", {}),
    {"method": "tools/call", "params": {}},
    {"method": "tools/call", "params": {"name": 7, "arguments": {}}},
    {"method": "tools/call", "params": {"name": "knowledge_add", "arguments": "text"}},
    # knowledge_add
    tool("knowledge_add", {"text": "Retries live in src/http/retry.py with one backoff policy.",
                           "kind": "codebase", "about": ["src/http/retry.py:RetryPolicy"],
                           "tags": ["http"], "topic": "retries", "rationale": "one policy"}),
    tool("knowledge_add", {"text": "Retries live in src/http/retry.py with one backoff policy.",
                           "kind": "codebase"}),
    tool("knowledge_add", {"text": "Payments are numbered per tenant, never globally.",
                           "kind": "decision", "about": '["src/pay.py"]', "tags": None,
                           "unknown_extra": 1}),
    tool("knowledge_add", {"text": "Café names keep their accents — “quoted” too.",
                           "kind": "interaction"}),
    tool("knowledge_add", {"text": "x y z", "kind": "opinion"}),
    tool("knowledge_add", {"text": "   ", "kind": "codebase"}),
    tool("knowledge_add", {"kind": "codebase"}),
    tool("knowledge_add", {"text": "Missing kind here."}),
    tool("knowledge_add", {}),
    tool("knowledge_add"),
    tool("knowledge_add", {"text": 12, "kind": "codebase"}),
    tool("knowledge_add", {"text": None, "kind": "codebase"}),
    tool("knowledge_add", {"text": "A null kind.", "kind": None}),
    tool("knowledge_add", {"text": "A string about.", "kind": "codebase", "about": "src/a.py"}),
    tool("knowledge_add", {"text": "An int in about.", "kind": "codebase", "about": [3]}),
    tool("knowledge_add", {"text": "A dict tags.", "kind": "codebase", "tags": {"a": 1}}),
    tool("knowledge_add", {"text": "Bad about spec.", "kind": "codebase", "about": [""]}),
    tool("knowledge_add", {"text": "Supersedes junk.", "kind": "codebase",
                           "supersedes": "not-an-id"}),
    tool("knowledge_add", {"text": 1.5, "kind": ["codebase"]}),
    # knowledge_search
    tool("knowledge_search", {"query": "retry backoff"}),
    tool("knowledge_search", {"query": "retry", "type": "all", "kind": "codebase",
                              "limit": 3, "include_archived": True}),
    tool("knowledge_search", {"query": "payments tenant", "limit": "2"}),
    tool("knowledge_search", {"query": "payments", "limit": 2.0}),
    tool("knowledge_search", {"query": "payments", "limit": 2.5}),
    tool("knowledge_search", {"query": "payments", "limit": True}),
    tool("knowledge_search", {"query": "payments", "limit": None}),
    tool("knowledge_search", {"query": "payments", "include_archived": "yes"}),
    tool("knowledge_search", {"query": "payments", "include_archived": 1}),
    tool("knowledge_search", {"query": "payments", "include_archived": "maybe"}),
    tool("knowledge_search", {"query": "payments", "type": None}),
    tool("knowledge_search", {"query": "payments", "type": ""}),
    tool("knowledge_search", {"query": "x", "type": "pictures"}),
    tool("knowledge_search", {"query": "x", "kind": "opinion"}),
    tool("knowledge_search", {"query": "x", "limit": 0}),
    tool("knowledge_search", {"query": "x", "limit": 51}),
    tool("knowledge_search", {"query": "  "}),
    tool("knowledge_search", {"query": None}),
    tool("knowledge_search", {"query": ["a"]}),
    tool("knowledge_search", {}),
    tool("knowledge_search", {"query": "nothing matches zyzzyva"}),
    tool("knowledge_search", {"query": "café accents"}),
    # code_search
    tool("code_search", {"query": "backoff attempt"}),
    tool("code_search", {"query": "backoff", "path_glob": "src/*", "language": None,
                         "limit": 5}),
    tool("code_search", {"query": ""}),
    tool("code_search", {"query": "x", "limit": -1}),
    tool("code_search", {"query": "x", "language": 3}),
    # sessions
    tool("session_save", {"summary": "  "}),
    tool("session_save", {"summary": "Moved retries into one policy; payments next.",
                          "decisions": ["Retries use one backoff policy."],
                          "pending_tasks": ["Number payments per tenant."],
                          "files_touched": ["src/http/retry.py"], "name": "retry-work"}),
    tool("session_save", {"summary": "A second session.", "decisions": "not a list"}),
    tool("session_save", {}),
    tool("session_recall", {}),
    tool("session_recall"),
    tool("session_recall", {"name": "retry-work"}),
    tool("session_recall", {"name": "no-such-session"}),
    tool("session_recall", {"name": None}),
    tool("session_recall", {"name": 5}),
    # knowledge_seed
    tool("knowledge_seed", {"limit": 0}),
    tool("knowledge_seed", {"limit": 201}),
    tool("knowledge_seed", {"limit": "ten"}),
    tool("knowledge_seed", {"limit": 5}),
    tool("knowledge_seed"),
    # knowledge_forget
    tool("knowledge_forget", {"id": "not-an-id"}),
    tool("knowledge_forget", {"id": "01JF3Z8Q6T1V3N1C2X7D9K4M5P"}),
    tool("knowledge_forget", {"id": 7}),
    tool("knowledge_forget", {}),
    {"forget_first_id": True},
    tool("knowledge_search", {"query": "retry backoff", "include_archived": True}),
    {"method": "ping"},
]


class RawPeer:
    """Writes request lines to a server's stdin and reads its reply lines as bytes."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env, cwd=cwd)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.rstrip(b"\n").decode("utf-8"))
        self.lines.put(None)

    def write(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode("utf-8") + b"\n")
        self.proc.stdin.flush()

    def next_line(self, timeout: float = 60) -> str | None:
        return self.lines.get(timeout=timeout)

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)


def run_session(project: Path, env: dict[str, str]) -> list[str]:
    """Each entry of SESSION as sent, and the server's reply line(s) to it, normalised."""
    peer = RawPeer([sys.executable, "-m", "kenning.mcp.server"], env, project)
    normalise = Normaliser(project.parent)
    first_id: str | None = None
    out: list[str] = []
    try:
        for number, entry in enumerate(SESSION, 1):
            if entry.get("forget_first_id"):
                entry = tool("knowledge_forget", {"id": first_id})
            if "raw" in entry:
                line = entry["raw"]
                sync = True
            elif "notify" in entry:
                line = json.dumps({"jsonrpc": "2.0", "method": entry["notify"],
                                   **({"params": entry["params"]} if "params" in entry else {})})
                sync = True
            else:
                line = json.dumps({"jsonrpc": "2.0", "id": number, "method": entry["method"],
                                   **({"params": entry["params"]} if "params" in entry else {})},
                                  ensure_ascii=False)
                sync = False
            peer.write(line)
            replies = []
            if sync:  # what a line without an id answers, if anything, comes before the ping's
                peer.write(json.dumps({"jsonrpc": "2.0", "id": f"sync-{number}",
                                       "method": "ping"}))
            while True:
                reply = peer.next_line()
                assert reply is not None, f"the server closed its stdout after {line}"
                message = json.loads(reply)
                if sync and message.get("id") == f"sync-{number}":
                    break
                replies.append(reply)
                if not sync and message.get("id") == number:
                    break
            if first_id is None and "knowledge_add" in line and replies:
                result = json.loads(replies[-1]).get("result", {})
                first_id = (result.get("structuredContent") or {}).get("id")
            out.append(json.dumps({"sent": normalise(line),
                                   "replies": [normalise(r) for r in replies] or [NO_REPLY]},
                                  ensure_ascii=False))
    finally:
        assert peer.close() == 0
    return out


def test_the_stdio_server_replies_as_the_sdk_server_did(tmp_path: Path) -> None:
    project = init_repo(tmp_path / "project")
    (project / "src" / "http").mkdir(parents=True)
    (project / "src" / "http" / "retry.py").write_text(
        "class RetryPolicy:\n    def backoff(self, attempt):\n        return 2 ** attempt\n",
        encoding="utf-8")
    (project / "CONTRIBUTING.md").write_text(
        "# Contributing\n\n## Conventions\n\nAlways run `make lint` before you push.\n",
        encoding="utf-8")
    env = {**os.environ, "KENNING_HOME": str(tmp_path / "home"),
           "CLAUDE_PROJECT_DIR": str(project), "KENNING_EMBEDDER": "fake", "KENNING_NOW": NOW}
    lines = run_session(project, env)
    text = "\n".join(lines) + "\n"
    if UPDATE:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
        return
    assert GOLDEN.exists(), "no golden replies; record them with KENNING_UPDATE_GOLDEN=1"
    expected = GOLDEN.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(expected)
    for got, want in zip(lines, expected, strict=True):
        check(json.loads(got), json.loads(want))


def check(got: dict, want: dict) -> None:
    """`got` is `want`, but for the two deliberate changes from the SDK's server: a line that
    is not JSON gets a parse error (the SDK said nothing), and arguments that do not fit the
    inputSchema get one line naming the fields (the SDK gave pydantic's report)."""
    assert got["sent"] == want["sent"]
    if want["replies"] == [NO_REPLY] and not want["sent"].startswith(("{", "[")):
        assert [json.loads(r) for r in got["replies"]] == [
            {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}]
        return
    if NO_REPLY in want["replies"]:
        assert got["replies"] == want["replies"], got["sent"]
        return
    assert len(got["replies"]) == len(want["replies"]), got["sent"]
    for mine, theirs in zip(got["replies"], want["replies"], strict=True):
        mine_json, theirs_json = json.loads(mine), json.loads(theirs)
        text = theirs_json.get("result", {}).get("content", [{}])[0].get("text", "")
        if "validation error" not in text:
            assert mine_json == theirs_json, got["sent"]
            continue
        prefix, _, report = text.partition(": ")
        fields = [f.split(".")[0] for f in report.splitlines()[1:] if not f.startswith(" ")]
        mine_text = mine_json["result"]["content"][0]["text"]
        assert mine_json["result"]["isError"] is True
        assert mine_text.startswith(prefix + ": ") and "\n" not in mine_text, mine_text
        assert all(field in mine_text for field in fields), (mine_text, fields)
        assert "validation error" not in mine_text
