"""CLI commands for project upkeep; registered on the main group by `cli.py`.

Setting up and looking after the stores and the derived index, rather than working with
facts: init, rebuild, index, projects, status, doctor, merge-fact and the trace group. They
live apart from the fact commands so `cli.py` keeps one job (the main group, its shared
helpers and the fact verbs); each parses, makes one library call and renders.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from kenning.cli import app
from kenning.core.errors import KenningError


def register(group: click.Group) -> None:
    """Add this module's commands to `group`."""
    for command in (init, rebuild, index, projects, status, doctor, merge_fact, trace):
        group.add_command(command)


# ---- init ---------------------------------------------------------------------------------
@click.command()
@click.option("--move-facts/--no-move-facts", default=None,
              help="Move personal codebase and decision facts into the project store.")
def init(move_facts: bool | None) -> None:
    """Opt this project in: create .kenning/ (shared through git) and the merge driver."""
    from kenning.store.projectinit import init_project

    project = app.project()
    if move_facts is None and sys.stdin.isatty():
        preview = init_project(project, move_facts=None)
        if preview.movable:
            move_facts = click.confirm(
                f"Move {len(preview.movable)} personal codebase/decision facts into "
                ".kenning/facts?", default=True)
    report = init_project(project, move_facts=move_facts)
    for path in report.created:
        click.echo(f"created {path}")
    click.echo("merge driver: " + ("registered in .git/config" if report.merge_driver
                                   else "not registered (not a git repository)"))
    if report.moved:
        click.echo(f"moved {len(report.moved)} facts into .kenning/facts")
    elif report.movable:
        click.echo(f"{len(report.movable)} personal facts could move: "
                   "`kenning init --move-facts`")
    click.echo("Commit .kenning/ to share it with your team.")


# ---- index maintenance --------------------------------------------------------------------
@click.command()
def rebuild() -> None:
    """Delete the derived index and rebuild it from the fact files and local logs."""
    memory = app.open_memory()
    had_code = _has_code_index(memory)
    report = memory.rebuild()
    for problem in report.problems:
        click.echo(f"skipped {problem}", err=True)
    click.echo(f"indexed {report.added} facts, {len(report.problems)} files skipped")
    if had_code:
        click.echo("the code index starts empty: `kenning index` re-indexes the code", err=True)


def _has_code_index(memory) -> bool:
    import sqlite3

    try:
        return bool(memory.code_counts()["files"])
    except sqlite3.Error:  # a damaged index is what a rebuild is for
        return False


@click.command()
@click.argument("path", required=False, type=click.Path(file_okay=False))
@click.option("--full", is_flag=True, help="Re-index every file, changed or not.")
@click.option("--files", "files", multiple=True, metavar="FILE",
              help="Re-index just these files (repeatable); what edit events queue.")
@click.option("--background", is_flag=True,
              help="Low priority, one run at a time (a lock), stop at --time-limit.")
@click.option("--time-limit", type=float, default=None, metavar="SECONDS",
              help="Stop after this long; the rest is picked up next run.")
@click.option("--json", "as_json", is_flag=True)
def index(path, full, files, background, time_limit, as_json) -> None:
    """Index the project's source and markdown files (changed files only)."""
    from dataclasses import asdict

    from kenning.core.config import load_config
    from kenning.core.locks import LockBusy, exclusive_lock

    if path is not None:
        click.get_current_context().find_root().obj = path
    memory = app.open_memory()
    config = load_config(memory.project)
    if background:
        os.nice(10)
        time_limit = time_limit or 120.0
    bar = None

    def progress(total: int, _all: int):
        nonlocal bar
        if total < 50 or as_json or not sys.stderr.isatty():
            return None
        bar = click.progressbar(length=total, label="indexing", file=sys.stderr)
        bar.__enter__()
        return bar.update

    try:
        with exclusive_lock(memory.project.local_dir / "index.lock", wait=not background):
            report = memory.index_code(ignore=config.ignore,
                                       max_bytes=config.max_file_kb * 1024, full=full,
                                       only=files or None, time_limit=time_limit,
                                       progress=progress)
    except LockBusy:
        click.echo("another index run holds the lock; nothing to do", err=True)
        return
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    if as_json:
        click.echo(json.dumps(asdict(report)))
        return
    unchanged = report.scanned - report.indexed - report.skipped
    click.echo(f"indexed {report.indexed} files ({report.chunks} chunks), removed "
               f"{report.removed}, skipped {report.skipped} binary, generated or data files"
               + (f", {unchanged} unchanged" if unchanged > 0 else ""))
    if report.stopped_early:
        click.echo(f"stopped at the time limit; {report.remaining} files left for next run")


@click.command()
@click.option("--json", "as_json", is_flag=True)
def projects(as_json: bool) -> None:
    """Every project kenning has indexed on this machine, with its stats."""
    from kenning.core.config import load_config
    from kenning.core.paths import kenning_home
    from kenning.memory import Memory
    from kenning.store.registry import known_projects

    rows = []
    for project in known_projects(kenning_home()):
        memory = Memory(project, load_config(project).embedder)
        try:
            counts = memory.code_counts()
            rows.append({"root": str(project.root), "facts": len(memory.facts()), **counts})
        finally:
            memory.close()
    if as_json:
        click.echo(json.dumps(rows, indent=1))
        return
    app.echo_lines(rows, _project_line, "no indexed projects yet; run `kenning index` in one")


def _project_line(row: dict) -> str:
    return (f"{row['root']}  facts {row['facts']}  files {row['files']}  "
            f"chunks {row['chunks']}  symbols {row['symbols']}")


@click.command()
@click.option("--json", "as_json", is_flag=True)
def status(as_json: bool) -> None:
    """Where the stores are, how many facts, what is not yet committed."""
    from kenning.insight.status import project_status

    info = project_status(app.open_memory().fact_index)
    if as_json:
        click.echo(json.dumps(info, indent=1))
        return
    for key, value in info.items():
        click.echo(f"{key:<22} {value}")


@click.command()
def doctor() -> None:
    """Check the installation: Python, dependencies, the bundled model, the stores."""
    from kenning.plugin.doctor import run_checks

    ok = True
    for name, passed, detail in run_checks(app.project()):
        ok &= passed
        click.echo(f"{'ok ' if passed else 'FAIL'} {name}: {detail}")
    if not ok:
        raise KenningError("some checks failed; see above")


@click.command(name="merge-fact")
@click.argument("base", type=click.Path(dir_okay=False))
@click.argument("ours", type=click.Path(dir_okay=False))
@click.argument("theirs", type=click.Path(dir_okay=False))
def merge_fact(base: str, ours: str, theirs: str) -> None:
    """Git merge driver for fact files (set up by `kenning init`)."""
    from kenning.store.merge import merge_files

    if not merge_files(Path(base), Path(ours), Path(theirs)):
        click.echo(f"kenning: conflicting edits to {ours}; resolve by hand", err=True)
        sys.exit(1)


# ---- trace (local history) ----------------------------------------------------------------
@click.group()
def trace() -> None:
    """Local history: what was injected into sessions, which files are hot."""


@trace.command(name="injections")
@click.option("--session", help="Only this Claude Code session id.")
@click.option("--limit", "-n", default=50, show_default=True, type=click.IntRange(1, 100000))
@click.option("--json", "as_json", is_flag=True)
def trace_injections(session: str | None, limit: int, as_json: bool) -> None:
    """Every context block the hooks injected (newest last)."""
    from kenning.store import injectlog

    rows = injectlog.read(str(app.project().local_dir), session=session, limit=limit)
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    for row in rows:
        click.echo(f"{row.get('ts', '?')[:19]}  {row.get('session') or '-':<36} "
                   f"{row.get('event', '?'):<16} {row.get('chars', 0):>5} chars  "
                   f"{' '.join(row.get('facts') or []) or '(no facts)'}")
    if not rows:
        click.echo("no injections logged")


@trace.command(name="hot")
@click.option("--days", default=30, show_default=True, type=click.IntRange(1, 3650))
@click.option("--limit", "-n", default=20, show_default=True, type=click.IntRange(1, 10000))
@click.option("--json", "as_json", is_flag=True)
def trace_hot(days: int, limit: int, as_json: bool) -> None:
    """Files read or edited most in the last DAYS days (from the hooks' event log)."""
    from datetime import timedelta

    from kenning.store.events import hot_files

    cutoff = (app.clock()() - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%S")
    rows = hot_files(str(app.project().events_path), cutoff, limit=limit)
    if as_json:
        click.echo(json.dumps([{"path": p, "count": n} for p, n in rows], indent=1))
        return
    for path, count in rows:
        click.echo(f"{count:>6}  {path}")
    if not rows:
        click.echo("no file events logged")
