"""The Claude Code plugin's runtime: the dependency venv under `$CLAUDE_PLUGIN_DATA` (its
layout, stamp and install, whether it is ready) and launching the CLI through it. Stdlib
only: hooks import it.

May import: `kenning.core`.
"""
