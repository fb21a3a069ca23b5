"""Detached background processes (an install, a catch-up, an extraction). Stdlib only.

`subprocess` is imported only when a process is started: hooks import this module.
"""

from __future__ import annotations

import os


def plugin_src() -> str:
    """The `src/` folder this code runs from (the plugin's, never an installed copy)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def spawn_detached(argv: list[str], log_path: str | None = None, cwd: str | None = None,
                   env: dict | None = None) -> bool:
    """Start a process that outlives the hook and the session; never raises.

    `KENNING_DISABLE_BACKGROUND=1` turns every spawn off (benchmarks, debugging).
    """
    if os.environ.get("KENNING_DISABLE_BACKGROUND") == "1":
        return False
    try:
        import subprocess

        child_env = dict(os.environ if env is None else env)
        src = plugin_src()
        child_env["PYTHONPATH"] = src + (os.pathsep + child_env["PYTHONPATH"]
                                         if child_env.get("PYTHONPATH") else "")
        out = subprocess.DEVNULL
        handle = None
        if log_path:
            os.makedirs(os.path.dirname(log_path), exist_ok=True)
            handle = open(log_path, "ab")  # noqa: SIM115 - handed to the child
            out = handle
        kwargs: dict = {}
        if os.name == "nt":
            kwargs["creationflags"] = 0x00000008 | 0x00000200  # DETACHED | NEW_PROCESS_GROUP
        else:
            kwargs["start_new_session"] = True
        try:
            subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out, cwd=cwd,
                             env=child_env, close_fds=True, **kwargs)
        finally:
            if handle is not None:
                handle.close()
        return True
    except Exception:  # noqa: BLE001 - a failed spawn must never break the session
        return False
