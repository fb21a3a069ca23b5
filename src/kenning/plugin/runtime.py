"""The plugin's Python runtime (DESIGN §7): is the venv of dependencies ready, which
interpreter runs kenning, and starting the install when the venv is missing or stale.

The venv carries a stamp (`stamp.py`); when it is missing or differs, SessionStart starts one
detached, locked install (`install.py`; two sessions starting at once install once). A
checkout with its own `.venv` (`./install.sh`) is a developer's runtime and is never managed.
Stdlib only: hooks import this.
"""

from __future__ import annotations

import os
import sys
import time

from kenning.core.locks import is_locked
from kenning.core.spawn import spawn_detached
from kenning.plugin.layout import (
    data_dir,
    dev_python,
    lock_path,
    log_path,
    plugin_root,
    venv_python,
)
from kenning.plugin.stamp import read_stamp, stamp_python, wanted_stamp

# Runs in a fresh interpreter: the entry point composes the installer with the hooks' error
# log, so this layer never imports the hooks.
_INSTALL_RUNNER = ("import sys; sys.path.insert(0, sys.argv[1]); "
                   "from kenning.hooks.runner import log_error; "
                   "from kenning.plugin.install import install_then_catch_up; "
                   "install_then_catch_up(*sys.argv[1:], report=log_error)")


def installing(data: str) -> bool:
    return is_locked(lock_path(data))


def state(data: str | None = None, root: str | None = None) -> str:
    """'dev' (a checkout's .venv), 'unmanaged' (no plugin data dir), 'ready', 'installing',
    'missing' or 'stale'."""
    if dev_python(root):
        return "dev"
    data = data or data_dir()
    if not data:
        return "unmanaged"
    if installing(data):
        return "installing"
    stamp = read_stamp(data)
    if stamp is None or not os.path.exists(venv_python(data)):
        return "missing"
    version = stamp_python(stamp)
    return "ready" if stamp == wanted_stamp(root, version) else "stale"


def best_python(root: str | None = None, current: str | None = None) -> str:
    """The interpreter with dependencies: the plugin venv when ready, the checkout's, else
    the current one. `current`: the state, when the caller has just read it."""
    data = data_dir()
    if data and (current or state(data, root)) == "ready":
        return venv_python(data)
    return dev_python(root) or sys.executable


def ensure_started(root: str | None = None, project: str | None = None,
                   session: str | None = None) -> bool:
    """Start the detached install when the venv is missing or stale; True if started.

    Once it is ready, the install runs the catch-up for `project` (index, extraction of
    marked sessions but `session`), the work that waited for the dependencies."""
    data = data_dir()
    if not data or state(data, root) not in ("missing", "stale"):
        return False
    src = os.path.join(root or plugin_root(), "src")
    return spawn_detached(
        [sys.executable, "-I", "-c", _INSTALL_RUNNER, src, project or "", session or ""],
        log_path=log_path(data))


def install_progress(data: str | None = None) -> str:
    """'started N s ago; progress in LOG', for messages while the install runs."""
    data = data or data_dir() or ""
    log = log_path(data)
    try:
        elapsed = time.time() - os.path.getmtime(lock_path(data))
        return f"started {int(elapsed)} s ago; progress in {log}"
    except OSError:
        return f"starting now; progress in {log}"
