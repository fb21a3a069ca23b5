"""Entry point behind `hooks/run`: read the payload, call one hook module, print its output.

Fails open: whatever goes wrong, the process exits 0 with nothing on stdout, and the error
goes to the project's local error log (or, when that cannot be written, KENNING_HOME's, then
the temp folder's). Each hook module keeps to the import list DESIGN §7 gives it; this module
imports nothing beyond `kenning.hooks.base` on the way to a handler.
"""

from __future__ import annotations

import json
import os
import sys

from kenning.hooks.base import MAX_STDIN, Ctx, append_line, kenning_home

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
}


def main(argv: list[str]) -> None:
    if argv[:1] == ["mcp"]:
        from kenning.mcp.front import main as serve

        serve()
        return
    if argv[:1] == ["cli"]:
        from kenning.plugin.launch import launch_cli

        launch_cli(argv[1:])
        return
    if argv[:1] == ["catchup"]:
        from kenning.hooks.catchup import main as catchup

        catchup(argv[1:])
        return
    run_hook(argv[0] if argv else "")


def run_hook(name: str) -> None:
    ctx: Ctx | None = None
    try:
        module_name = EVENTS.get(name)
        if module_name is None:
            raise ValueError(f"unknown hook {name!r}; hooks/hooks.json and hookrunner disagree")
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
        log_error(ctx, f"hook {name}", exc)


def log_error(ctx: Ctx | None, where: str, exc: BaseException) -> None:
    """Never raises: tries the project's log, then KENNING_HOME's, then the temp folder's."""
    record = {"where": where, "error": f"{type(exc).__name__}: {exc}"}
    candidates = []
    try:
        # Without a payload, the project is the one Claude Code started in.
        candidates.append((ctx or Ctx({}, "")).local("errors.log"))
    except Exception:  # noqa: BLE001
        pass
    try:
        candidates.append(os.path.join(kenning_home(), "errors.log"))
    except Exception:  # noqa: BLE001
        pass
    try:
        import tempfile

        uid = os.getuid() if hasattr(os, "getuid") else "user"
        candidates.append(os.path.join(tempfile.gettempdir(), f"kenning-{uid}", "errors.log"))
    except Exception:  # noqa: BLE001
        pass
    for path in candidates:
        try:
            append_line(path, dict(record))
            return
        except Exception:  # noqa: BLE001
            continue
