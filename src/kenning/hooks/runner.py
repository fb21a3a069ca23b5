"""The hook runner: read the payload, call one hook module, print its output.

Fails open: whatever goes wrong, the process exits 0 with nothing on stdout, and the error
goes to the error log (`kenning.core.errorlog`). Each hook module keeps to its import list
(docs/design.md, "The hook contract"); on the way to a handler this module imports nothing
beyond `kenning.hooks.base` and the error log.
"""

from __future__ import annotations

import os
import sys

from kenning.core import fastjson as json
from kenning.core.errorlog import log_error
from kenning.hooks.base import MAX_STDIN, Ctx

# launcher argument -> module in kenning.hooks
EVENTS = {
    "session-start": "session_start",
    "user-prompt-submit": "user_prompt",
    "pre-tool-use": "pre_tool",
    "post-tool-use": "post_tool",
    "post-tool-use-failure": "post_tool",
    "stop": "stop",
    "pre-compact": "extraction",
    "session-end": "extraction",
    "file-changed": "file_changed",
}


def main(argv: list[str]) -> None:
    """`hooks/run <event>` (through `kenning.launch`): run the hook named by argv[0], then
    end the process at once."""
    run_hook(argv[0] if argv else "")
    # Nothing is left to do: the output is written and every file and connection closed.
    # Skipping the interpreter's teardown (freeing each module one by one) saves about a
    # tenth of a prompt hook's time.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def run_hook(name: str) -> None:
    ctx: Ctx | None = None
    try:
        module_name = EVENTS.get(name)
        if module_name is None:
            raise ValueError(f"unknown hook {name!r}; hooks/hooks.json and runner.EVENTS disagree")
        raw = sys.stdin.buffer.read(MAX_STDIN + 1)
        if len(raw) > MAX_STDIN:
            raise ValueError(f"hook payload over {MAX_STDIN} bytes")
        payload = json.loads(raw) if raw.strip() else None
        if not isinstance(payload, dict):
            raise ValueError("hook payload is not a JSON object")
        if os.environ.get("KENNING_DISABLE") == "1":
            return
        ctx = Ctx(payload, name)
        module = __import__(f"kenning.hooks.{module_name}", fromlist=["handle"])
        out = module.handle(ctx)
        if out:
            sys.stdout.write(out)
            sys.stdout.flush()
    except BaseException as exc:  # noqa: BLE001 - fail open, always
        if isinstance(exc, SystemExit) and not exc.code:
            return
        log_error(f"hook {name}", exc, ctx.local_dir if ctx else None)
