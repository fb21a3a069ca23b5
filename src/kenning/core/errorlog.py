"""The error log: where kenning records what went wrong when raising is not an option (a
hook, the MCP front, a background job). Stdlib only, and it never raises.

A record goes to the project's `local/errors.log`, or when that cannot be written to
KENNING_HOME's, then to the temp folder's (docs/design.md, "The hook contract").
"""

from __future__ import annotations

import os

from kenning.core import lines, localdir

FILE_NAME = "errors.log"


def log_error(where: str, exc: BaseException, local_dir: str | None = None) -> None:
    """Record `exc` under `where`. `local_dir` is the project's local folder; without it,
    the project is the one Claude Code started in."""
    record(where, f"{type(exc).__name__}: {exc}", local_dir)


def record(where: str, error: str, local_dir: str | None = None) -> None:
    """Record a problem described in words (a failed child process's last line)."""
    entry = {"where": where, "error": error}
    for path in _candidates(local_dir):
        try:
            lines.append_json(path, dict(entry))
            return
        except Exception:  # noqa: BLE001 - try the next place
            continue


def _candidates(local_dir: str | None) -> list[str]:
    out = []
    try:
        local_dir = local_dir or os.path.join(localdir.data_dir(localdir.started_in()), "local")
        out.append(os.path.join(local_dir, FILE_NAME))
    except Exception:  # noqa: BLE001
        pass
    try:
        out.append(os.path.join(localdir.kenning_home(), FILE_NAME))
    except Exception:  # noqa: BLE001
        pass
    try:
        import tempfile

        uid = os.getuid() if hasattr(os, "getuid") else "user"
        out.append(os.path.join(tempfile.gettempdir(), f"kenning-{uid}", FILE_NAME))
    except Exception:  # noqa: BLE001
        pass
    return out
