"""The fact verbs: add, search, show, list, edit, confirm, restore, forget."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from kenning.cli import app
from kenning.cli.app import cli, fact_ids
from kenning.core.errors import KenningError
from kenning.core.records import KINDS

if TYPE_CHECKING:
    from kenning.core.records import Fact
    from kenning.memory import Memory


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
    from kenning.store.facts import parse_about

    anchors = [parse_about(spec) for spec in about]
    memory = app.open_memory()
    result = memory.add(" ".join(text), kind, origin=origin, about=anchors, tags=tags,
                        topic=topic, rationale=rationale, supersedes=supersedes)
    app.synced(memory)
    fact = result.fact
    if as_json:
        click.echo(json.dumps(app.add_result_json(result)))
        return
    verb = "added" if result.created else "re-confirmed existing"
    where = "project" if memory.project.initialised and kind != "interaction" else "personal"
    click.echo(f"{verb} {fact.kind} fact {fact.id} ({where} store, confidence "
               f"{app.pct(fact.confidence / 100)})")
    app.echo_consequences(result)


# ---- search -------------------------------------------------------------------------------
class QueryCommand(click.Command):
    """A command whose arguments are a query: a quoted query that begins with a dash
    (`kenning search "--reload-include globs"`) is read as the query, not as an option; a
    lone unknown option still fails, and says how to search for it (`-- -x`)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        options = [p for p in self.get_params(ctx) if isinstance(p, click.Option)]
        known = {name for p in options for name in (*p.opts, *p.secondary_opts)}
        valued = {name for p in options if not p.is_flag and not p.count for name in p.opts}
        value_next = False
        for arg in args:
            if arg == "--":
                break
            if value_next or not arg.startswith("-") or arg == "-":
                value_next = False
                continue
            name = arg.split("=", 1)[0] if arg.startswith("--") else arg[:2]
            if name in known:
                value_next = name in valued and name == arg
            elif not any(c.isspace() for c in arg):
                raise click.UsageError(f"No such option: {arg} (to search for it: "
                                       f"kenning {self.name} -- {arg})", ctx)
        return super().parse_args(ctx, args)


@cli.command(cls=QueryCommand, context_settings={"ignore_unknown_options": True})
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", "-n", default=10, show_default=True, type=click.IntRange(1, 500))
@click.option("--type", "hit_type", type=click.Choice(["fact", "code", "doc", "config", "all"]),
              default="all", show_default=True,
              help="Which kind of hit to return (config: data and configuration files).")
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
    types = ("fact", "code", "doc", "config") if hit_type == "all" else (hit_type,)
    if kinds and hit_type == "all":
        types = ("fact",)  # a fact-kind filter asks for facts
    options = dict(types=types, limit=limit, kinds=kinds or None,
                   statuses=statuses or ("active",), include_archived=include_archived,
                   lang=lang, path_glob=path_glob)
    memory = None
    if all_projects:
        from kenning.core.config import load_config
        from kenning.memory import Memory
        from kenning.search.crossproject import search_all_projects

        hits = search_all_projects(" ".join(query), lambda p: Memory(p, load_config(p).embedder),
                                   **options)
    else:
        memory = app.open_memory()
        hits = memory.search(" ".join(query), **options)
    if as_json:
        click.echo(json.dumps([h.to_json() for h in hits], ensure_ascii=False, indent=1))
        return
    if not hits:
        empty = memory is not None and set(types) & {"code", "doc"} \
            and not memory.code_counts()["files"]
        click.echo("no results" + (" (the code index is empty: `kenning index` fills it)"
                                   if empty else ""))
        return
    for n, hit in enumerate(hits, 1):
        if hit.type == "fact":
            confidence = app.pct(hit.confidence or 0)
            click.echo(f"{n:>2}. [{hit.kind} {hit.id} {confidence}] {hit.snippet}")
        else:
            where = f"{hit.path}:{hit.start_line}-{hit.end_line}"
            first = hit.snippet.strip().splitlines()[0][:100] if hit.snippet.strip() else ""
            click.echo(f"{n:>2}. [{hit.type}] {where} {hit.symbol or ''}  {first}")
            if hit.anchored_facts:
                click.echo(f"    facts: {', '.join(hit.anchored_facts)}")
        click.echo(f"    why: {hit.why}")


# ---- show / list --------------------------------------------------------------------------
@cli.command()
@click.argument("fact_id", callback=fact_ids)
@click.option("--json", "as_json", is_flag=True)
def show(fact_id: str, as_json: bool) -> None:
    """Show one fact: its file, its current confidence and its history."""
    from kenning.store.factfile import render_fact

    memory = app.open_memory()
    stored = memory.store.locate(fact_id)
    view = memory.get_view(fact_id)
    if as_json:
        click.echo(json.dumps(view_to_json(view), ensure_ascii=False, indent=1))
        return
    click.echo(f"# {stored.path} ({stored.store} store)")
    click.echo(render_fact(stored.fact).rstrip())
    click.echo(f"# current confidence {app.pct(view.current / 100)}, status {view.status}, "
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
    memory = app.open_memory()
    wanted = set(statuses or ("active",))
    views = [v for v in memory.facts()
             if (show_all or v.status in wanted) and (not kinds or v.row.kind in kinds)]
    views.sort(key=lambda v: v.row.created, reverse=True)
    if as_json:
        click.echo(json.dumps([view_to_json(v) for v in views], ensure_ascii=False, indent=1))
        return
    app.echo_lines(views, _list_line, "no facts")


def _list_line(view) -> str:
    return (f"{view.row.id}  {view.row.kind:<11} {app.pct(view.current / 100)} "
            f"{view.status:<10} {view.row.text}")


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
    _change("edited", lambda memory: memory.edit(
        fact_id, text=text, kind=kind, tags=tuple(tags) if tags else None, rationale=rationale))


@cli.command()
@click.argument("fact_id", callback=fact_ids)
def confirm(fact_id: str) -> None:
    """Vouch for a fact: confidence 1.00, decay restarts."""
    _change("confirmed", lambda memory: memory.confirm(fact_id))


@cli.command()
@click.argument("fact_id", callback=fact_ids)
def restore(fact_id: str) -> None:
    """Bring back a forgotten or archived fact (confidence at least 0.90)."""
    _change("restored", lambda memory: memory.restore(fact_id))


def _change(verb: str, change: Callable[[Memory], Fact]) -> None:
    """Make one change to a fact, index it at once and say what it did."""
    memory = app.open_memory()
    fact = change(memory)
    app.synced(memory)
    click.echo(f"{verb} {fact.id} (confidence {app.pct(fact.confidence / 100)})")


@cli.command()
@click.argument("fact_id", callback=fact_ids)
@click.option("--purge", is_flag=True,
              help="Delete the file and scrub every local copy (index, WAL, logs).")
def forget(fact_id: str, purge: bool) -> None:
    """Forget a fact (a tombstone a merge cannot undo); --purge deletes it everywhere."""
    from kenning.store.purge import history_instructions

    memory = app.open_memory()
    if purge:
        cleaned = memory.purge(fact_id)
        for path in cleaned:
            click.echo(f"scrubbed {path}")
        click.echo(history_instructions(fact_id))
        return
    fact = memory.forget(fact_id)
    app.synced(memory)
    click.echo(f"forgot {fact.id} (status: forgotten; `kenning restore {fact.id}` undoes it)")

