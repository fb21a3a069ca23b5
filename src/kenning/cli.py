"""The `kenning` command: parse, make one library call, render. No logic lives here.

This module holds the main group, the helpers every command shares and the fact verbs (add,
search, show, list, edit, confirm, restore, forget); upkeep and feature areas register their
commands from `cli_admin`, `cli_lifecycle`, `cli_insight` and `cli_extract`.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict
from pathlib import Path

import click

from . import __version__
from .errors import KenningError
from .records import KINDS, Hit


@click.group()
@click.version_option(__version__, prog_name="kenning")
@click.option("-C", "--project", "project_dir", type=click.Path(file_okay=False),
              help="Run as if started in this directory (default: current directory).")
@click.pass_context
def cli(ctx: click.Context, project_dir: str | None) -> None:
    """Project memory for coding agents: facts in git, a derived search index."""
    ctx.obj = project_dir


def _project():
    from .paths import current_project

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
    from .ids import canonical

    return tuple(canonical(v) for v in value) if isinstance(value, tuple) else canonical(value)


def _clock():
    """`KENNING_NOW` (ISO time) pins the clock, for reproducible demos and tests."""
    from .factfile import parse_time, utc_now

    pinned = os.environ.get("KENNING_NOW")
    if not pinned:
        return utc_now
    moment = parse_time(pinned, "KENNING_NOW", "value")
    return lambda: moment


def _memory():
    from .config import load_config
    from .memory import Memory

    project = _project()
    config = load_config(project)
    for problem in config.problems:
        click.echo(f"warning: {problem}", err=True)
    return Memory(project, embedder_name=config.embedder, clock=_clock())


def _synced(memory) -> None:
    """Index a write at once: hooks read the index and anchors map, not the YAML."""
    try:
        memory.sync()
    except Exception as exc:  # noqa: BLE001 - the fact file is written; the next read syncs
        click.echo(f"note: the index will catch up on the next command ({exc})", err=True)


def _pct(value: float | int) -> str:
    return f"{value:.2f}"


# ---- add ----------------------------------------------------------------------------------
@cli.command()
@click.argument("text", nargs=-1, required=True)
@click.option("--kind", "-k", type=click.Choice(KINDS), default="codebase", show_default=True)
@click.option("--about", "-a", multiple=True, metavar="FILE[:SYMBOL]",
              help="Anchor the fact to a file or symbol (repeatable).")
@click.option("--tag", "-t", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--topic", help="Upsert key: a new fact on the same topic supersedes the old.")
@click.option("--rationale", "-r", help="Why (decisions mostly).")
@click.option("--origin", type=click.Choice(["user", "agent", "import"]), default="user",
              show_default=True, help="user: a person said it (1.00); agent: 0.70.")
@click.option("--supersedes", metavar="ID", callback=fact_ids,
              help="This fact replaces fact ID.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def add(text, kind, about, tags, topic, rationale, origin, supersedes, as_json) -> None:
    """Remember a fact."""
    from .facts import parse_about

    anchors = [parse_about(spec) for spec in about]
    memory = _memory()
    result = memory.add(" ".join(text), kind, origin=origin, about=anchors, tags=tags,
                        topic=topic, rationale=rationale, supersedes=supersedes)
    _synced(memory)
    fact = result.fact
    if as_json:
        click.echo(json.dumps(add_result_json(result)))
        return
    verb = "added" if result.created else "re-confirmed existing"
    where = "project" if memory.project.initialised and kind != "interaction" else "personal"
    click.echo(f"{verb} {fact.kind} fact {fact.id} ({where} store, confidence "
               f"{_pct(fact.confidence / 100)})")
    echo_consequences(result)


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


# ---- search -------------------------------------------------------------------------------
@cli.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", "-n", default=10, show_default=True, type=click.IntRange(1, 500))
@click.option("--type", "hit_type", type=click.Choice(["fact", "code", "doc", "all"]),
              default="all", show_default=True, help="Which kind of hit to return.")
@click.option("--kind", "kinds", type=click.Choice(KINDS), multiple=True,
              help="Fact kind filter (repeatable).")
@click.option("--status", "statuses", multiple=True,
              type=click.Choice(["active", "superseded", "forgotten", "archived"]),
              help="Fact statuses to include (default: active).")
@click.option("--include-archived", is_flag=True, help="Also facts decayed below 0.30.")
@click.option("--lang", help="Only code in this language (python, go, markdown, ...).")
@click.option("--path", "path_glob", metavar="GLOB", help="Only files matching this glob.")
@click.option("--all-projects", is_flag=True, help="Search every indexed project.")
@click.option("--json", "as_json", is_flag=True, help="Print hits as a JSON list.")
def search(query, limit, hit_type, kinds, statuses, include_archived, lang, path_glob,
           all_projects, as_json) -> None:
    """Search facts, code and docs in one ranking; every hit says why it ranked."""
    if not " ".join(query).strip():
        raise KenningError("the query is empty; give a few words or an identifier")
    types = ("fact", "code", "doc") if hit_type == "all" else (hit_type,)
    if kinds and hit_type == "all":
        types = ("fact",)  # a fact-kind filter asks for facts
    options = dict(types=types, limit=limit, kinds=kinds or None,
                   statuses=statuses or ("active",), include_archived=include_archived,
                   lang=lang, path_glob=path_glob)
    memory = None
    if all_projects:
        from .crossproject import search_all_projects

        hits = search_all_projects(" ".join(query), **options)
    else:
        memory = _memory()
        hits = memory.search(" ".join(query), **options)
    if as_json:
        click.echo(json.dumps([hit_to_json(h) for h in hits], ensure_ascii=False, indent=1))
        return
    if not hits:
        empty = memory is not None and set(types) & {"code", "doc"} \
            and not memory.code_counts()["files"]
        click.echo("no results" + (" (the code index is empty: `kenning index` fills it)"
                                   if empty else ""))
        return
    for n, hit in enumerate(hits, 1):
        if hit.type == "fact":
            click.echo(f"{n:>2}. [{hit.kind} {hit.id} {_pct(hit.confidence or 0)}] {hit.snippet}")
        else:
            where = f"{hit.path}:{hit.start_line}-{hit.end_line}"
            first = hit.snippet.strip().splitlines()[0][:100] if hit.snippet.strip() else ""
            click.echo(f"{n:>2}. [{hit.type}] {where} {hit.symbol or ''}  {first}")
            if hit.anchored_facts:
                click.echo(f"    facts: {', '.join(hit.anchored_facts)}")
        click.echo(f"    why: {hit.why}")


def hit_to_json(hit: Hit) -> dict:
    data = {k: v for k, v in asdict(hit).items() if k != "anchored_facts"}
    if hit.type == "fact":
        data.pop("anchored_facts", None)
    else:
        for key in ("id", "kind", "confidence"):
            data.pop(key, None)
        data["anchored_facts"] = list(hit.anchored_facts)
    return data


# ---- show / list --------------------------------------------------------------------------
@cli.command()
@click.argument("fact_id", callback=fact_ids)
@click.option("--json", "as_json", is_flag=True)
def show(fact_id: str, as_json: bool) -> None:
    """Show one fact: its file, its current confidence and its history."""
    from .factfile import render_fact

    memory = _memory()
    stored = memory.store.locate(fact_id)
    view = memory.get_view(fact_id)
    if as_json:
        click.echo(json.dumps(view_to_json(view), ensure_ascii=False, indent=1))
        return
    click.echo(f"# {stored.path} ({stored.store} store)")
    click.echo(render_fact(stored.fact).rstrip())
    click.echo(f"# current confidence {_pct(view.current / 100)}, status {view.status}, "
               f"last used {view.row.last_used or 'never'}")
    chain = []
    seen = {fact_id}
    successor = stored.fact.superseded_by
    while successor and successor not in seen:
        seen.add(successor)
        chain.append(successor)
        try:
            successor = memory.store.get(successor).superseded_by
        except KenningError:
            break
    if chain:
        click.echo("# superseded by: " + " -> ".join(chain))


def view_to_json(view) -> dict:
    row = view.row
    return {
        "id": row.id, "kind": row.kind, "text": row.text, "rationale": row.rationale or None,
        "tags": list(row.tags), "topic": row.topic, "status": view.status,
        "stored_status": row.status, "confidence": view.current / 100,
        "stored_confidence": row.confidence / 100, "confirmed": row.confirmed.isoformat(),
        "last_used": row.last_used.isoformat() if row.last_used else None,
        "store": row.store, "path": row.path,
        "about": [{"file": a.file, "symbol": a.symbol, "hash": a.hash} for a in row.about],
        "superseded_by": row.superseded_by,
    }


@cli.command(name="list")
@click.option("--kind", "kinds", type=click.Choice(KINDS), multiple=True)
@click.option("--status", "statuses", multiple=True,
              type=click.Choice(["active", "superseded", "forgotten", "archived"]),
              help="Statuses to list (default: active).")
@click.option("--all", "show_all", is_flag=True, help="Every status.")
@click.option("--json", "as_json", is_flag=True)
def list_cmd(kinds, statuses, show_all, as_json) -> None:
    """List facts, newest first."""
    memory = _memory()
    wanted = set(statuses or ("active",))
    views = [v for v in memory.facts()
             if (show_all or v.status in wanted) and (not kinds or v.row.kind in kinds)]
    views.sort(key=lambda v: v.row.created, reverse=True)
    if as_json:
        click.echo(json.dumps([view_to_json(v) for v in views], ensure_ascii=False, indent=1))
        return
    for v in views:
        click.echo(f"{v.row.id}  {v.row.kind:<11} {_pct(v.current / 100)} {v.status:<10} "
                   f"{v.row.text}")
    if not views:
        click.echo("no facts")


# ---- edit / confirm / forget / restore ----------------------------------------------------
@cli.command()
@click.argument("fact_id", callback=fact_ids)
@click.option("--text", help="New text.")
@click.option("--kind", type=click.Choice(KINDS))
@click.option("--tag", "tags", multiple=True, help="Replace the tags (repeatable).")
@click.option("--rationale")
def edit(fact_id, text, kind, tags, rationale) -> None:
    """Correct a fact (a person's edit sets confidence to 1.00)."""
    if text is not None and not text.strip():
        raise KenningError("--text is empty; say what the fact should say")
    memory = _memory()
    fact = memory.edit(fact_id, text=text, kind=kind, tags=tuple(tags) if tags else None,
                       rationale=rationale)
    _synced(memory)
    click.echo(f"edited {fact.id} (confidence {_pct(fact.confidence / 100)})")


@cli.command()
@click.argument("fact_id", callback=fact_ids)
def confirm(fact_id: str) -> None:
    """Vouch for a fact: confidence 1.00, decay restarts."""
    memory = _memory()
    fact = memory.confirm(fact_id)
    _synced(memory)
    click.echo(f"confirmed {fact.id} (confidence {_pct(fact.confidence / 100)})")


@cli.command()
@click.argument("fact_id", callback=fact_ids)
def restore(fact_id: str) -> None:
    """Bring back a forgotten or archived fact (confidence at least 0.90)."""
    memory = _memory()
    fact = memory.restore(fact_id)
    _synced(memory)
    click.echo(f"restored {fact.id} (confidence {_pct(fact.confidence / 100)})")


@cli.command()
@click.argument("fact_id", callback=fact_ids)
@click.option("--purge", is_flag=True,
              help="Delete the file and scrub every local copy (index, WAL, logs).")
def forget(fact_id: str, purge: bool) -> None:
    """Forget a fact (a tombstone a merge cannot undo); --purge deletes it everywhere."""
    from .purge import history_instructions

    memory = _memory()
    if purge:
        cleaned = memory.purge(fact_id)
        for path in cleaned:
            click.echo(f"scrubbed {path}")
        click.echo(history_instructions(fact_id))
        return
    fact = memory.forget(fact_id)
    _synced(memory)
    click.echo(f"forgot {fact.id} (status: forgotten; `kenning restore {fact.id}` undoes it)")


def _register_feature_commands() -> None:
    """Feature areas keep their commands in their own modules (each imports lazily)."""
    from . import cli_admin, cli_extract, cli_insight, cli_lifecycle

    for module in (cli_admin, cli_lifecycle, cli_insight, cli_extract):
        module.register(cli)


_register_feature_commands()


def main(argv: list[str] | None = None) -> None:
    """Every failure a user caused becomes one `Error: ...` line and exit status 1.

    An index found damaged mid-command (a bad page SQLite only meets when it reads it) is
    thrown away with a one-line notice and the command runs once more on a fresh index,
    rebuilt from the fact files: the index is derived, the YAML is the truth.
    """
    import sqlite3

    try:
        _main(argv)
    except sqlite3.DatabaseError as exc:
        from .index.db import is_damaged, throw_away
        from .paths import current_project

        if not is_damaged(exc):
            _fail(_unwritable_message(exc))
        path = current_project(_project_option(argv)).index_path
        throw_away(path)
        click.echo(f"kenning: the index at {path} was damaged ({exc}); rebuilding it from "
                   "the fact files (`kenning index` re-indexes code)", err=True)
        _main(argv)


def _fail(message: str) -> None:
    click.echo(f"Error: {message}", err=True)
    sys.exit(1)


def _unwritable_message(exc: BaseException) -> str:
    """A full disk or a read-only place is said as such; the index and logs stay as they are."""
    import errno

    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC or "full" in str(exc):
        return (f"the disk is full ({exc}); nothing was changed. Free some space and run the "
                "command again")
    if isinstance(exc, OSError) and exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        where = f" {exc.filename}" if exc.filename else ""
        return (f"cannot write{where} ({exc.strerror}); make it writable or point "
                "KENNING_HOME at a writable folder")
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}{f': {exc.filename}' if exc.filename else ''}"
    return f"the index cannot be used ({exc}); check the disk and permissions of KENNING_HOME"


def _project_option(argv: list[str] | None) -> str | None:
    """`-C DIR` / `--project DIR`, which come before the command."""
    args = list(sys.argv[1:] if argv is None else argv)
    for n, arg in enumerate(args):
        if arg in ("-C", "--project") and n + 1 < len(args):
            return args[n + 1]
        if arg.startswith("--project="):
            return arg.split("=", 1)[1]
        if not arg.startswith("-"):
            break
    return None


def _main(argv: list[str] | None) -> None:
    try:
        cli.main(args=argv, prog_name="kenning", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Error: aborted", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        click.echo(f"Error: {exc.format_message()}", err=True)
        sys.exit(1)
    except KenningError as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(1)
    except OSError as exc:  # a full disk, a read-only repository or KENNING_HOME
        _fail(_unwritable_message(exc))
