"""The venv's stamp: what it was built from (requirements, plugin version, Python version).
When the stamp is missing or differs from what this code wants, the venv is rebuilt. Stdlib.
"""

from __future__ import annotations

import os
import sys

from kenning.core import fastjson
from kenning.core.atomic import write_atomic
from kenning.plugin.layout import STAMP_NAME, plugin_root, venv_dir


def requirements(root: str | None = None) -> list[str]:
    import tomllib

    with open(os.path.join(root or plugin_root(), "pyproject.toml"), "rb") as handle:
        project = tomllib.load(handle).get("project", {})
    return [str(d) for d in project.get("dependencies", [])]


def plugin_version(root: str | None = None) -> str:
    try:
        with open(os.path.join(root or plugin_root(), ".claude-plugin", "plugin.json"),
                  encoding="utf-8") as handle:
            return str(fastjson.load(handle).get("version", "0"))
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
    return fastjson.dumps({"pyproject": source, "plugin": plugin_version(root),
                       "python": f"{major}.{minor}"}, sort_keys=True)


def stamp_path(data: str) -> str:
    return os.path.join(venv_dir(data), STAMP_NAME)


def read_stamp(data: str) -> str | None:
    try:
        with open(stamp_path(data), encoding="utf-8") as handle:
            return handle.read()
    except OSError:
        return None


def write_stamp(data: str, stamp: str) -> None:
    write_atomic(stamp_path(data), stamp)


def stamp_python(stamp: str) -> tuple[int, int] | None:
    """The Python version a stamp names, or None for a stamp this code cannot read."""
    try:
        major, minor = fastjson.loads(stamp)["python"].split(".")
        return int(major), int(minor)
    except (ValueError, KeyError, AttributeError):
        return None
