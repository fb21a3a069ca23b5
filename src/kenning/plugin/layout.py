"""Where the plugin's code, data folder and venv are (docs/architecture.md). Stdlib only.

The code always runs from the plugin's `src/`; the venv under the plugin's data folder holds
dependencies only. A checkout with its own `.venv` (`./install.sh`) is a developer's runtime.
"""

from __future__ import annotations

import os

STAMP_NAME = ".kenning-stamp"
LOCK_NAME = "install.lock"
LOG_NAME = "install.log"


def plugin_root() -> str:
    explicit = os.environ.get("CLAUDE_PLUGIN_ROOT")
    if explicit and os.path.isdir(os.path.join(explicit, "src", "kenning")):
        return explicit
    here = os.path.abspath(__file__)  # <root>/src/kenning/plugin/layout.py
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
    import re

    market, plugin = (re.sub(r"[^A-Za-z0-9_-]", "-", p) for p in parts[-3:-1])
    path = os.path.join(os.sep.join(parts[:-4]), "data", f"{plugin}-{market}")
    return path if os.path.isdir(path) else None


def venv_bin(venv: str, name: str) -> str:
    if os.name == "nt":
        return os.path.join(venv, "Scripts", name + ".exe")
    return os.path.join(venv, "bin", name)


def venv_dir(data: str) -> str:
    return os.path.join(data, "venv")


def venv_python(data: str) -> str:
    return venv_bin(venv_dir(data), "python")


def dev_python(root: str | None = None) -> str | None:
    """The checkout's own `.venv` python, if this plugin is a developer's checkout."""
    candidate = venv_bin(os.path.join(root or plugin_root(), ".venv"), "python")
    return candidate if os.path.exists(candidate) else None


def lock_path(data: str) -> str:
    return os.path.join(data, LOCK_NAME)


def log_path(data: str) -> str:
    return os.path.join(data, LOG_NAME)
