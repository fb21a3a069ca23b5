"""The plugin's Python runtime: a venv of dependencies under CLAUDE_PLUGIN_DATA.

The code always runs from the plugin's `src/`; the venv holds dependencies only, so a plugin
update never runs stale code. The venv carries a stamp of (requirements, plugin version,
Python version); when it is missing or differs, SessionStart starts one detached, locked
install (two sessions starting at once install once). A checkout with its own `.venv`
(`./install.sh`) is a developer's runtime and is never managed. Stdlib only.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Callable

STAMP_NAME = ".kenning-stamp"
LOCK_NAME = "install.lock"
LOG_NAME = "install.log"


def plugin_root() -> str:
    explicit = os.environ.get("CLAUDE_PLUGIN_ROOT")
    if explicit and os.path.isdir(os.path.join(explicit, "src", "kenning")):
        return explicit
    here = os.path.abspath(__file__)  # <root>/src/kenning/plugin/runtime.py
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(here))))


def data_dir() -> str | None:
    """The plugin's data folder: Claude Code names it to hooks and the MCP server; SessionStart
    exports it to the Bash tool as KENNING_PLUGIN_DATA; a user's shell finds it beside the
    marketplace install this code runs from."""
    for name in ("CLAUDE_PLUGIN_DATA", "KENNING_PLUGIN_DATA"):
        if os.environ.get(name):
            return os.environ[name]
    return installed_data_dir(plugin_root())


def installed_data_dir(root: str) -> str | None:
    """`<config>/plugins/cache/<marketplace>/<plugin>/<version>` keeps its data in
    `<config>/plugins/data/<plugin>-<marketplace>` (names with other characters than
    letters, digits, `_` and `-` get `-`), when that folder exists."""
    parts = os.path.normpath(root).split(os.sep)
    if len(parts) < 6 or parts[-5:-3] != ["plugins", "cache"]:
        return None
    market, plugin = (re.sub(r"[^A-Za-z0-9_-]", "-", p) for p in parts[-3:-1])
    path = os.path.join(os.sep.join(parts[:-4]), "data", f"{plugin}-{market}")
    return path if os.path.isdir(path) else None


def _bin(venv: str, name: str) -> str:
    if os.name == "nt":
        return os.path.join(venv, "Scripts", name + ".exe")
    return os.path.join(venv, "bin", name)


def venv_dir(data: str) -> str:
    return os.path.join(data, "venv")


def venv_python(data: str) -> str:
    return _bin(venv_dir(data), "python")


def dev_python(root: str | None = None) -> str | None:
    """The checkout's own `.venv` python, if this plugin is a developer's checkout."""
    candidate = _bin(os.path.join(root or plugin_root(), ".venv"), "python")
    return candidate if os.path.exists(candidate) else None


def requirements(root: str | None = None) -> list[str]:
    import tomllib

    with open(os.path.join(root or plugin_root(), "pyproject.toml"), "rb") as handle:
        project = tomllib.load(handle).get("project", {})
    return [str(d) for d in project.get("dependencies", [])]


def plugin_version(root: str | None = None) -> str:
    try:
        with open(os.path.join(root or plugin_root(), ".claude-plugin", "plugin.json"),
                  encoding="utf-8") as handle:
            return str(json.load(handle).get("version", "0"))
    except (OSError, ValueError):
        return "0"


def wanted_stamp(root: str | None = None, python_version: tuple[int, int] | None = None) -> str:
    """What the venv's stamp must say: the plugin version, the Python it was made with, and
    a checksum of pyproject.toml (its dependencies), cheap enough for every SessionStart."""
    import zlib

    major, minor = python_version or sys.version_info[:2]
    try:
        with open(os.path.join(root or plugin_root(), "pyproject.toml"), "rb") as handle:
            source = f"{zlib.crc32(handle.read()):08x}"
    except OSError:
        source = "none"
    return json.dumps({"pyproject": source, "plugin": plugin_version(root),
                       "python": f"{major}.{minor}"}, sort_keys=True)


def read_stamp(data: str) -> str | None:
    try:
        with open(os.path.join(venv_dir(data), STAMP_NAME), encoding="utf-8") as handle:
            return handle.read()
    except OSError:
        return None


def _try_lock(path: str):
    """An open descriptor holding an exclusive lock, or None when someone else holds it."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        import fcntl
    except ImportError:  # Windows: an exclusive create stands in for the lock
        os.close(fd)
        try:
            return os.open(path + ".held", os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
        except FileExistsError:
            return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _unlock(path: str, fd: int) -> None:
    os.close(fd)
    if os.name == "nt":
        try:
            os.unlink(path + ".held")
        except OSError:
            pass


def installing(data: str) -> bool:
    path = os.path.join(data, LOCK_NAME)
    if not os.path.exists(path):
        return False
    fd = _try_lock(path)
    if fd is None:
        return True
    _unlock(path, fd)
    return False


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
    version = _stamp_python(stamp)
    return "ready" if stamp == wanted_stamp(root, version) else "stale"


def _stamp_python(stamp: str) -> tuple[int, int] | None:
    try:
        major, minor = json.loads(stamp)["python"].split(".")
        return int(major), int(minor)
    except (ValueError, KeyError, AttributeError):
        return None


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
    from kenning.hooks.base import spawn_detached

    src = os.path.join(root or plugin_root(), "src")
    return spawn_detached(
        [sys.executable, "-I", "-c", _RUNNER, src, project or "", session or ""],
        log_path=os.path.join(data, LOG_NAME))


_RUNNER = ("import sys; sys.path.insert(0, sys.argv[1]); "
           "from kenning.plugin.runtime import install_then_catch_up; "
           "install_then_catch_up(*sys.argv[1:])")
_CATCHUP_RUNNER = ("import sys; sys.path.insert(0, sys.argv.pop(1)); "
                   "from kenning.hooks.catchup import main; main(sys.argv[1:])")


def install_then_catch_up(src: str, project: str, session: str) -> None:
    started = time.monotonic()
    result = install()
    print(f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} install {result} after "
          f"{time.monotonic() - started:.1f} s", flush=True)
    if result == "failed":
        from kenning.core.errorlog import log_error

        log_error("plugin install",
                  RuntimeError(f"pip failed; see {os.path.join(data_dir() or '', LOG_NAME)}"))
    data = data_dir()
    if result == "ready" and project and data:
        _run([venv_python(data), "-I", "-c", _CATCHUP_RUNNER, src, project, session])

Runner = Callable[[list[str]], int]


def _run(argv: list[str]) -> int:
    import subprocess

    return subprocess.run(argv, stdin=subprocess.DEVNULL).returncode


PIP_OPTIONS = ["--quiet", "--disable-pip-version-check", "--no-compile"]


def _fill(venv: str, python: str, requirements: list[str], runner: Runner) -> int:
    """A fresh venv holding the dependencies and nothing else: no pip, no setuptools (kenning
    never installs at run time; a stale venv is rebuilt, not upgraded), no bytecode compiled
    ahead (half of pip's time; Python compiles what is imported, once). With `uv` on PATH, uv
    makes and fills it; else a venv without pip, filled by a pip from outside it (the one
    bundled with `ensurepip`, or the interpreter's own), and only without either, `ensurepip`."""
    import shutil

    shutil.rmtree(venv, ignore_errors=True)  # stale or interrupted: start clean
    target = _bin(venv, "python")
    uv = shutil.which("uv")
    if uv:
        code = runner([uv, "venv", "--quiet", "--python", python, venv])
        code = code or runner([uv, "pip", "install", "--quiet", "--python", target,
                               *requirements])
        if not code:
            runner([uv, "pip", "uninstall", "--quiet", "--python", target, "pip"])
        return code
    pip = _outside_pip(python)
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


def _outside_pip(python: str) -> list[str] | None:
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


def install(data: str | None = None, root: str | None = None, python: str | None = None,
            runner: Runner = _run) -> str:
    """Create or refresh the venv under the lock; 'busy' if another process is installing."""
    data = data or data_dir()
    if not data:
        return "unmanaged"
    lock_path = os.path.join(data, LOCK_NAME)
    fd = _try_lock(lock_path)
    if fd is None:
        return "busy"
    try:
        os.utime(lock_path)  # its mtime tells callers when this install started
        python = python or sys.executable
        want = wanted_stamp(root)
        if read_stamp(data) == want and os.path.exists(venv_python(data)):
            return "ready"
        venv = venv_dir(data)
        stamp_path = os.path.join(venv, STAMP_NAME)
        print(f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} installing kenning's "
              f"dependencies into {venv}", flush=True)
        if _fill(venv, python, requirements(root), runner) != 0:
            return "failed"
        tmp = stamp_path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(want)
        os.replace(tmp, stamp_path)
        return "ready"
    finally:
        _unlock(lock_path, fd)


def install_progress(data: str | None = None) -> str:
    """'started N s ago; progress in LOG', for messages while the install runs."""
    data = data or data_dir() or ""
    log = os.path.join(data, LOG_NAME)
    try:
        elapsed = time.time() - os.path.getmtime(os.path.join(data, LOCK_NAME))
        return f"started {int(elapsed)} s ago; progress in {log}"
    except OSError:
        return f"starting now; progress in {log}"


def launch_cli(args: list[str]) -> None:
    """`bin/kenning ARGS`: run the CLI with the runtime's interpreter, or say why not."""
    current = state()
    if current in ("missing", "stale") and ensure_started():
        current = "installing"
    if current in ("installing", "missing", "stale"):
        sys.stderr.write(f"kenning: still installing its dependencies, once, for the plugin "
                         f"({install_progress()}); try again in a minute\n")
        sys.exit(1)
    if current == "unmanaged":
        sys.stderr.write("kenning: not installed yet: start a Claude Code session with the "
                         "kenning plugin enabled (it installs itself), or run "
                         f"{os.path.join(plugin_root(), 'install.sh')}\n")
        sys.exit(1)
    python = best_python()
    os.execv(python, [python, "-I", "-c", _CLI_RUNNER, os.path.join(plugin_root(), "src"),
                      *args])


_CLI_RUNNER = ("import sys; sys.path.insert(0, sys.argv.pop(1)); sys.argv[0] = 'kenning'; "
               "from kenning.cli import main; main()")
