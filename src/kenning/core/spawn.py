"""Detached background processes (an install, a catch-up, an extraction). Stdlib only.

Hooks start these on their hot path, so a POSIX system starts them with `os.posix_spawn`
(a vfork and exec, in a new session): importing `subprocess` alone costs a hook a quarter of
a bare interpreter's start. Elsewhere (Windows, or a platform without setsid) `subprocess`.
"""

from __future__ import annotations

import os


def plugin_src() -> str:
    """The `src/` folder this code runs from (the plugin's, never an installed copy)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def spawn_detached(argv: list[str], log_path: str | None = None, cwd: str | None = None,
                   env: dict | None = None, nice: int = 0) -> bool:
    """Start a process that outlives the hook and the session; never raises.

    stdin is /dev/null, stdout and stderr go to `log_path` (appended) or /dev/null. `nice`
    lowers the child's priority from its first instruction, so background work never takes
    the CPU from the hook that started it or from the session.
    `KENNING_DISABLE_BACKGROUND=1` turns every spawn off (benchmarks, debugging).
    """
    if os.environ.get("KENNING_DISABLE_BACKGROUND") == "1":
        return False
    try:
        child_env = dict(os.environ if env is None else env)
        src = plugin_src()
        child_env["PYTHONPATH"] = src + (os.pathsep + child_env["PYTHONPATH"]
                                         if child_env.get("PYTHONPATH") else "")
        if log_path:
            os.makedirs(os.path.dirname(log_path), exist_ok=True)
        if hasattr(os, "posix_spawn") and hasattr(os, "POSIX_SPAWN_OPEN"):
            try:
                pid = _posix_spawn(argv, log_path, cwd, child_env)
            except (NotImplementedError, OSError):
                pid = _popen(argv, log_path, cwd, child_env)
        else:
            pid = _popen(argv, log_path, cwd, child_env)
        if nice and hasattr(os, "setpriority"):
            try:
                os.setpriority(os.PRIO_PROCESS, pid, min(19, os.getpriority(
                    os.PRIO_PROCESS, 0) + nice))
            except OSError:
                pass  # it ended already, or the platform refuses: it still runs
        return True
    except Exception:  # noqa: BLE001 - a failed spawn must never break the session
        return False


def _posix_spawn(argv: list[str], log_path: str | None, cwd: str | None, env: dict) -> int:
    """posix_spawnp in a new session with stdio redirected; inherited descriptors beyond
    stdio (ones a parent left inheritable) are closed, as subprocess's close_fds would. The
    child starts in `cwd`: a hook has one thread, so it steps there for the spawn."""
    out = log_path or os.devnull
    actions: list[tuple] = [
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, out, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600),
        (os.POSIX_SPAWN_DUP2, 1, 2),
    ]
    actions.extend((os.POSIX_SPAWN_CLOSE, fd) for fd in _inherited_fds())
    here = os.getcwd() if cwd else None
    if cwd:
        os.chdir(cwd)
    try:
        return os.posix_spawnp(argv[0], argv, env, file_actions=actions, setsid=True)
    finally:
        if here:
            os.chdir(here)


def _inherited_fds() -> list[int]:
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        fds = []
        for name in names:
            fd = int(name)
            try:
                if fd > 2 and os.get_inheritable(fd):
                    fds.append(fd)
            except OSError:
                continue  # the listing's own descriptor, closed by now
        return fds
    return []


def _popen(argv: list[str], log_path: str | None, cwd: str | None, env: dict) -> int:
    import subprocess

    out = subprocess.DEVNULL
    handle = None
    if log_path:
        handle = open(log_path, "ab")  # noqa: SIM115 - handed to the child
        out = handle
    kwargs: dict = {}
    if os.name == "nt":
        kwargs["creationflags"] = 0x00000008 | 0x00000200  # DETACHED | NEW_PROCESS_GROUP
    else:
        kwargs["start_new_session"] = True
    try:
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                cwd=cwd, env=env, close_fds=True, **kwargs).pid
    finally:
        if handle is not None:
            handle.close()
