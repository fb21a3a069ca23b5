"""`bin/kenning ARGS`: run the CLI with the runtime's interpreter, or say why not. Stdlib."""

from __future__ import annotations

import os
import sys

from kenning.plugin.layout import plugin_root
from kenning.plugin.runtime import best_python, ensure_started, install_progress, state

_CLI_RUNNER = ("import sys; sys.path.insert(0, sys.argv.pop(1)); sys.argv[0] = 'kenning'; "
               "from kenning.cli import main; main()")


def launch_cli(args: list[str]) -> None:
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
