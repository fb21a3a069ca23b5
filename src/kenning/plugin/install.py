"""Building the plugin's venv: one locked install at a time, then the catch-up that waited
for it. Runs detached (`runtime.ensure_started`), never in the foreground. Stdlib only.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

from kenning.core.locks import FileLock
from kenning.plugin.layout import data_dir, lock_path, log_path, venv_bin, venv_dir, venv_python
from kenning.plugin.stamp import read_stamp, requirements, wanted_stamp, write_stamp

Runner = Callable[[list[str]], int]
PIP_OPTIONS = ["--quiet", "--disable-pip-version-check", "--no-compile"]
_CATCHUP_RUNNER = ("import sys; sys.path.insert(0, sys.argv.pop(1)); "
                   "from kenning.hooks.catchup import main; main(sys.argv[1:])")


def run(argv: list[str]) -> int:
    import subprocess

    return subprocess.run(argv, stdin=subprocess.DEVNULL).returncode


def install_then_catch_up(src: str, project: str, session: str,
                          report: Callable[[str, BaseException], None]) -> None:
    """Install; once ready, run the catch-up for `project`. `report(where, error)` logs a
    failed install (the error log, handed in by the entry point)."""
    started = time.monotonic()
    result = install()
    if result == "busy":
        # SessionStart and the MCP server both start one when a session opens on a missing
        # venv; the one that lost the lock has nothing to say (the other logs the install).
        return
    print(f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} install {result} after "
          f"{time.monotonic() - started:.1f} s", flush=True)
    if result == "failed":
        report("plugin install",
               RuntimeError(f"pip failed; see {log_path(data_dir() or '')}"))
    data = data_dir()
    if result == "ready" and project and data:
        run([venv_python(data), "-I", "-c", _CATCHUP_RUNNER, src, project, session])


def install(data: str | None = None, root: str | None = None, python: str | None = None,
            runner: Runner = run) -> str:
    """Create or refresh the venv under the lock; 'busy' if another process is installing."""
    data = data or data_dir()
    if not data:
        return "unmanaged"
    lock = FileLock(lock_path(data))
    if not lock.acquire(wait=False):
        return "busy"
    try:
        os.utime(lock.path)  # its mtime tells callers when this install started
        python = python or sys.executable
        want = wanted_stamp(root)
        if read_stamp(data) == want and os.path.exists(venv_python(data)):
            return "ready"
        venv = venv_dir(data)
        import shutil

        tool = "uv" if shutil.which("uv") else "pip"
        print(f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} installing kenning's "
              f"dependencies into {venv} with {tool} (Python {python})", flush=True)
        if fill(venv, python, requirements(root), runner) != 0:
            return "failed"
        write_stamp(data, want)
        return "ready"
    finally:
        lock.release()


def fill(venv: str, python: str, requirements: list[str], runner: Runner) -> int:
    """A fresh venv holding the dependencies and nothing else: no pip, no setuptools (kenning
    never installs at run time; a stale venv is rebuilt, not upgraded), no bytecode compiled
    ahead (half of pip's time; Python compiles what is imported, once). With `uv` on PATH, uv
    makes and fills it; else a venv without pip, filled by a pip from outside it (the one
    bundled with `ensurepip`, or the interpreter's own), and only without either, `ensurepip`."""
    import shutil

    shutil.rmtree(venv, ignore_errors=True)  # stale or interrupted: start clean
    target = venv_bin(venv, "python")
    uv = shutil.which("uv")
    if uv:
        code = runner([uv, "venv", "--quiet", "--python", python, venv])
        code = code or runner([uv, "pip", "install", "--quiet", "--python", target,
                               *requirements])
        if not code:
            runner([uv, "pip", "uninstall", "--quiet", "--python", target, "pip"])
        return code
    pip = outside_pip(python)
    if pip:
        code = runner([python, "-m", "venv", "--without-pip", venv])
        code = code or runner([*pip, "--python", target, "install", *PIP_OPTIONS,
                               *requirements])
    else:
        code = runner([python, "-m", "venv", venv])
        code = code or runner([target, "-m", "pip", "install", *PIP_OPTIONS, *requirements])
    if code:
        return code
    # sqlite-utils depends on pip (for its own `install` command, which kenning never uses).
    # Removing it only saves space: its outcome never fails the install.
    import glob

    if glob.glob(os.path.join(venv, "lib", "python*", "site-packages", "pip")) or \
            os.path.isdir(os.path.join(venv, "Lib", "site-packages", "pip")):
        runner([target, "-m", "pip", "uninstall", "--quiet", "--yes", "pip", "setuptools"])
    return 0


def outside_pip(python: str) -> list[str] | None:
    """How to run a pip that can fill another interpreter's venv (`pip --python`)."""
    if os.path.realpath(python) != os.path.realpath(sys.executable):
        return None
    import glob
    import importlib.util

    try:
        import ensurepip

        wheels = glob.glob(os.path.join(os.path.dirname(ensurepip.__file__), "_bundled",
                                        "pip-*.whl"))
    except ImportError:
        wheels = []
    if wheels:
        return [python, os.path.join(sorted(wheels)[-1], "pip")]
    if importlib.util.find_spec("pip") is not None:
        return [python, "-m", "pip"]
    return None
