"""The Claude Code plugin's runtime: the dependency venv under `$CLAUDE_PLUGIN_DATA` (its
stamp, lock and install) and launching the CLI through it. Stdlib only: hooks import it.

May import: `kenning.core`.
"""
