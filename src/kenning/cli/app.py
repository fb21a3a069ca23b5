"""The main `kenning` group and the helpers every command module shares.

Command modules import from here; nothing here imports a command module, so the package has
no cycle. The helpers are the only place a command finds its project, config and clock.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from kenning import __version__
from kenning.core.errors import KenningError


@click.group()
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
