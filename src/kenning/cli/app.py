"""The main `kenning` group and the helpers every command module shares.

Command modules import from here; this module imports a command module only when that
module's command runs (or a help page lists it), by name, so the package has no cycle and
`kenning index` does not import the fact, lifecycle or insight commands. The helpers are the
only place a command finds its project, config and clock.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from kenning import __version__
from kenning.core.errors import KenningError

# The module (under kenning.cli) that defines each top-level command; a test checks this
# table against what the modules register.
COMMAND_MODULES = {
    "admin": ("doctor", "index", "init", "merge-fact", "projects", "rebuild", "status", "trace"),
    "extract": ("extract", "save", "sessions"),
    "facts": ("add", "confirm", "edit", "forget", "list", "restore", "search", "show"),
    "insight": ("analyze", "export", "git-sync", "graph", "import", "report"),
    "lifecycle": ("consolidate", "contradictions", "decay", "review", "stale", "supersede"),
    "seed": ("seed",),
}
_MODULE_OF = {name: module for module, names in COMMAND_MODULES.items() for name in names}
_loaded: set[str] = set()


class LazyGroup(click.Group):
    """A group whose commands' modules are imported on first use (click, numpy and the
    rest of a command's imports were most of a small command's start-up)."""

    def list_commands(self, ctx: click.Context | None) -> list[str]:
        return sorted({*self.commands, *_MODULE_OF})

    def get_command(self, ctx: click.Context | None, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            # An unknown name loads everything: click suggests the closest of `commands`.
            load_commands((_MODULE_OF[cmd_name],) if cmd_name in _MODULE_OF
                          else tuple(COMMAND_MODULES))
        return self.commands.get(cmd_name)


def load_commands(modules: tuple[str, ...] = tuple(COMMAND_MODULES)) -> None:
    """Import these command modules (all by default) and add their commands to `cli`."""
    for module in modules:
        if module not in _loaded:
            _loaded.add(module)
            register = getattr(importlib.import_module(f"kenning.cli.{module}"), "register",
                               None)
            if register is not None:  # `facts` adds its commands as it is imported
                register(cli)


@click.group(cls=LazyGroup)
@click.version_option(__version__, prog_name="kenning")
@click.option("-C", "--project", "project_dir", type=click.Path(file_okay=False),
              help="Run as if started in this directory (default: current directory).")
@click.pass_context
def cli(ctx: click.Context, project_dir: str | None) -> None:
    """Project memory for coding agents: facts in git, a derived search index."""
    ctx.obj = project_dir


def project():
    from kenning.core.paths import current_project

    ctx = click.get_current_context()
    directory = ctx.find_root().obj
    if directory is not None and not Path(directory).is_dir():
        raise KenningError(f"{directory} is not a readable directory")
    if directory is None:
        try:
            os.getcwd()
        except OSError as exc:
            raise KenningError("the current directory is unreadable; cd somewhere else") from exc
    return current_project(directory)


def fact_ids(_ctx, _param, value):
    """A click callback: lower-case fact ids name the same fact (see `ids.canonical`)."""
    from kenning.core.ids import canonical

    return tuple(canonical(v) for v in value) if isinstance(value, tuple) else canonical(value)


def clock():
    """The one clock (`core.clock.now`: `KENNING_NOW` pins it); a bad pin fails here, first."""
    from kenning.core import clock as core_clock

    core_clock.now()
    return core_clock.now


def open_memory():
    from kenning.core.config import load_config
    from kenning.memory import Memory

    here = project()
    config = load_config(here)
    for problem in config.problems:
        click.echo(f"warning: {problem}", err=True)
    return Memory(here, embedder_name=config.embedder, clock=clock())


def synced(memory) -> None:
    """Index a write at once: hooks read the index and anchors map, not the YAML."""
    try:
        memory.sync()
    except Exception as exc:  # noqa: BLE001 - the fact file is written; the next read syncs
        click.echo(f"note: the index will catch up on the next command ({exc})", err=True)


def pct(value: float | int) -> str:
    return f"{value:.2f}"


def add_result_json(result) -> dict:
    """What `add` and `supersede` print with --json."""
    return {"id": result.fact.id, "created": result.created, "superseded": result.superseded,
            "contradictions": result.contradictions, "notes": result.notes}


def echo_consequences(result) -> None:
    """The lines after a new fact's own: what it superseded, contradicts, and notes."""
    for old in result.superseded:
        click.echo(f"superseded {old}")
    for other in result.contradictions:
        click.echo(f"contradicts {other} (see `kenning contradictions`)")
    for note in result.notes:
        click.echo(note)


def echo_lines(rows: Sequence[Any], line: Callable[[Any], str], empty: str) -> None:
    """`line(row)` for each row, or `empty` when there are none."""
    for row in rows:
        click.echo(line(row))
    if not rows:
        click.echo(empty)
