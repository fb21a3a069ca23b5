"""Entry point behind `hooks/run`: the launcher's first argument picks what runs.

`mcp` is the stdio MCP front, `cli` the kenning CLI (through the plugin's venv), `catchup`
the detached background job SessionStart spawns; anything else is a hook event. This module
is the only one that may import both the hooks and the MCP server (docs/architecture.md).
"""

from __future__ import annotations


def main(argv: list[str]) -> None:
    if argv[:1] == ["mcp"]:
        from kenning.mcp.front import main as serve

        serve()
    elif argv[:1] == ["cli"]:
        from kenning.plugin.launch import launch_cli

        launch_cli(argv[1:])
    elif argv[:1] == ["catchup"]:
        from kenning.hooks.catchup import main as catchup

        catchup(argv[1:])
    else:
        from kenning.hooks.runner import main as run_hook

        run_hook(argv)
