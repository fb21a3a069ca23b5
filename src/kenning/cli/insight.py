"""CLI commands for the insight features; registered on the main group by `cli.py`.

git-sync, analyze, graph, report, export, import: each parses, makes one library call
(gitlog, analytics, graph, report, transfer) and renders.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from kenning.cli import app
from kenning.core.errors import KenningError

DAYS_HELP = "Window in days for churn and reads (0: all history)."



def _ignore(memory) -> tuple[str, ...]:
    from kenning.core.config import load_config

    return load_config(memory.project).ignore


def _days(days: int) -> int | None:
    return days or None


def _dump(value: object) -> None:
    click.echo(json.dumps(_jsonable(value), ensure_ascii=False, indent=1))


def _jsonable(value: object) -> object:
    """Dataclasses (and lists and dicts of them) as plain JSON values."""
    from dataclasses import asdict, is_dataclass

    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def register(group: click.Group) -> None:
    """Add this module's commands to `group`."""
    for command in (git_sync, analyze, graph, report, export, import_cmd):
        group.add_command(command)


# ---- git-sync -----------------------------------------------------------------------------
@click.command(name="git-sync")
@click.option("--json", "as_json", is_flag=True)
def git_sync(as_json: bool) -> None:
    """Read new commits and per-file line counts from `git log` into the index."""
    from kenning.insight.gitlog import sync_git

    memory = app.open_memory()
    report = sync_git(memory.index.conn, memory.project.root)
    if as_json:
        _dump(report)
        return
    for note in report.notes:
        click.echo(note)
    if report.head:
        how = "from the start" if report.full else "since the last sync"
        click.echo(f"read {report.commits} commits ({report.file_changes} file changes) {how};"
                   f" {report.total_commits} commits in the index")


# ---- analyze ------------------------------------------------------------------------------
@click.group()
def analyze() -> None:
    """Churn, hotspots and the churn × reads crossover (syncs git history first)."""


def _signals(days: int):
    from kenning.insight.analytics import analyze as run

    memory = app.open_memory()
    signals = run(memory.fact_index, days=_days(days), ignore=_ignore(memory))
    for note in signals.notes:
        click.echo(note, err=True)
    return signals


def _ranking_options(command):
    """--days, --limit and --json, for the analyses that rank files."""
    command = click.option("--json", "as_json", is_flag=True)(command)
    command = click.option("--limit", "-n", default=20, show_default=True,
                           type=click.IntRange(0), help="Rows to show (0: all).")(command)
    return click.option("--days", default=90, show_default=True, type=click.IntRange(0),
                        help=DAYS_HELP)(command)


def _show_ranking(rows: list, as_json: bool, data: object, header: str, line) -> None:
    """A ranking of files: `data` as JSON, or `header` and `line(row)` for each row."""
    if as_json:
        _dump(data)
        return
    click.echo(header)
    app.echo_lines(rows, line, "no changes in this window")


@analyze.command()
@_ranking_options
def churn(days: int, limit: int, as_json: bool) -> None:
    """Files by number of commits that changed them."""
    from kenning.insight.analytics import churn_ranking

    signals = _signals(days)
    rows = churn_ranking(signals, limit or None)
    _show_ranking(rows, as_json, [{**_jsonable(r), "lines_changed": r.lines_changed}
                                  for r in rows],
                  f"churn over {signals.window.describe()}",
                  lambda r: (f"{r.commits:>5} commits  +{r.added:<6} -{r.deleted:<6} "
                             f"{r.authors} authors  {r.path}"))


@analyze.command()
@_ranking_options
def hotspots(days: int, limit: int, as_json: bool) -> None:
    """Files that change often and are big (commits × current lines)."""
    from kenning.insight.analytics import hotspots as rank

    signals = _signals(days)
    rows = rank(signals, limit or None)
    _show_ranking(rows, as_json, rows,
                  f"hotspots over {signals.window.describe()} (score = commits × lines)",
                  lambda h: (f"{h.score:>8}  {h.commits:>4} commits {h.loc:>6} lines "
                             f"{h.reads:>4} reads  {h.path}"))


@analyze.command()
@click.option("--days", default=90, show_default=True, type=click.IntRange(0), help=DAYS_HELP)
@click.option("--class", "classes", multiple=True,
              type=click.Choice(["BLIND", "TURBULENT", "HOT", "STABLE", "ZOMBIE", "COLD"],
                                case_sensitive=False),
              help="Only files of this class (repeatable).")
@click.option("--json", "as_json", is_flag=True)
def crossover(days: int, classes: tuple[str, ...], as_json: bool) -> None:
    """Every file's class: BLIND, TURBULENT, HOT, STABLE, ZOMBIE or COLD."""
    from kenning.insight.analytics import class_counts
    from kenning.insight.analytics import crossover as classify

    signals = _signals(days)
    t, rows = classify(signals)
    wanted = {c.upper() for c in classes}
    shown = [r for r in rows if not wanted or r.cls in wanted]
    if as_json:
        _dump({"window": signals.window.describe(), "thresholds": t,
               "counts": class_counts(rows), "files": shown})
        return
    click.echo(f"crossover over {signals.window.describe()}: high churn >= {t.high_churn} "
               f"commits, many reads >= {t.many_reads}")
    click.echo("  ".join(f"{k} {v}" for k, v in class_counts(rows).items()))
    for r in shown:
        click.echo(f"{r.cls:<9} {r.commits:>4} commits {r.reads:>4} reads  {r.path}")


# ---- graph --------------------------------------------------------------------------------
@click.group()
def graph() -> None:
    """The knowledge graph: links, imports, tags, anchors, co-access, semantic neighbours."""


@graph.command()
@click.option("--no-semantic", is_flag=True, help="Skip semantic-neighbour edges.")
@click.option("--json", "as_json", is_flag=True)
def rebuild(no_semantic: bool, as_json: bool) -> None:
    """Recollect every edge, then Louvain communities and PageRank."""
    from kenning.insight.graph import rebuild_graph

    memory = app.open_memory()
    g = rebuild_graph(memory.fact_index, ignore=_ignore(memory), semantic=not no_semantic)
    groups = len({n.community for n in g.nodes.values()})
    if as_json:
        _dump({"nodes": len(g.nodes), "edges": g.counts, "communities": groups})
        return
    edges = ", ".join(f"{k} {v}" for k, v in g.counts.items())
    click.echo(f"{len(g.nodes)} nodes, {len(g.edges)} edges ({edges}), {groups} communities")


@graph.command()
@click.option("--limit", "-n", default=20, show_default=True, type=click.IntRange(0),
              help="Communities to show (0: all).")
@click.option("--json", "as_json", is_flag=True)
def communities(limit: int, as_json: bool) -> None:
    """Communities, largest first, with their most central members (PageRank)."""
    from kenning.insight.graph import communities as list_communities
    from kenning.insight.graph import current_graph, graph_facts

    memory = app.open_memory()
    g = current_graph(memory.fact_index, ignore=_ignore(memory))
    found = list_communities(g, graph_facts(memory.facts()))
    found = found[:limit] if limit else found
    if as_json:
        _dump(found)
        return
    for c in found:
        tags = f"  tags: {' '.join(c.tags)}" if c.tags else ""
        click.echo(f"community {c.index}: {c.files} files, {c.facts} facts{tags}")
        for m in c.members[:5]:
            click.echo(f"  {m.pagerank:.4f}  {m.id if m.type == 'file' else m.id + '  ' + m.label}")
    if not found:
        click.echo("the graph is empty: add facts, or index the code (`kenning index`)")


@graph.command()
@click.argument("target")
@click.option("--limit", "-n", default=30, show_default=True, type=click.IntRange(0))
@click.option("--json", "as_json", is_flag=True)
def neighbors(target: str, limit: int, as_json: bool) -> None:
    """What a file (PATH) or a fact (ID) is connected to, strongest first."""
    from kenning.core.ids import is_ulid
    from kenning.insight.graph import current_graph, fact_node, file_node
    from kenning.insight.graph import neighbors as edges_of

    memory = app.open_memory()
    g = current_graph(memory.fact_index, ignore=_ignore(memory))
    if is_ulid(target):
        node = fact_node(target)
    else:
        rel = memory.code.relative(target)  # the one path normaliser (root-relative POSIX)
        node = file_node(rel or target.replace("\\", "/"))
    if node not in g.nodes:
        raise KenningError(f"{target} is not in the graph (a fact id, or a project file with "
                           "at least one edge); `kenning graph rebuild` refreshes it")
    found = edges_of(g, node)
    found = found[:limit] if limit else found
    if as_json:
        _dump([{"kind": e.kind, "weight": e.weight,
                "direction": "out" if e.src == node else "in", "node": n.id,
                "label": n.label} for e, n in found])
        return
    me = g.nodes[node]
    click.echo(f"{me.id}  (community {me.community}, pagerank {me.pagerank:.4f})")
    for edge, other in found:
        arrow = "->" if edge.src == node else "<-"
        label = other.label if other.type == "fact" else ""
        click.echo(f"  {edge.kind:<9} {arrow} {other.id}  {label}".rstrip())
    if not found:
        click.echo("  no edges")


def _output(path: str) -> Path:
    """A file the user named: its folder must exist (a typo never creates folders)."""
    target = Path(path)
    if not target.parent.is_dir():
        raise KenningError(f"{target.parent} is not an existing folder; create it first or "
                           "choose another --output")
    return target


# ---- report -------------------------------------------------------------------------------
@click.command()
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Where to write the HTML (default: the project's local folder).")
@click.option("--open", "open_it", is_flag=True, help="Open it in the default browser.")
@click.option("--days", default=90, show_default=True, type=click.IntRange(0), help=DAYS_HELP)
def report(output: str | None, open_it: bool, days: int) -> None:
    """Write one self-contained HTML report (no server, no network)."""
    from kenning.insight.report import write_report

    memory = app.open_memory()
    target = _output(output) if output else memory.project.local_dir / "report.html"
    written = write_report(memory.fact_index, target.resolve(), days=_days(days),
                           ignore=_ignore(memory))
    click.echo(f"wrote {written}")
    if open_it:
        import webbrowser

        webbrowser.open(written.as_uri())


# ---- export / import ----------------------------------------------------------------------
@click.command()
@click.option("--format", "fmt", type=click.Choice(["json", "csv", "md"]), default="json",
              show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write to this file instead of standard output.")
@click.option("--status", "statuses", multiple=True,
              type=click.Choice(["active", "superseded", "forgotten", "archived"]),
              help="Statuses to export (default: active).")
@click.option("--all", "every", is_flag=True, help="Every status.")
@click.option("--agents-md", "agents_md", is_flag=False, flag_value="AGENTS.md", default=None,
              metavar="[PATH]", help="Write the most useful active facts into a regenerable "
              "block of AGENTS.md (or PATH, e.g. CLAUDE.md; relative to the project root).")
def export(fmt: str, output: str | None, statuses: tuple[str, ...], every: bool,
           agents_md: str | None) -> None:
    """Export facts as JSON, CSV or Markdown, or into AGENTS.md (--agents-md)."""
    from kenning.insight.transfer import export as render
    from kenning.insight.transfer import select

    memory = app.open_memory()
    if agents_md:
        from kenning.insight.agents_md import write_agents_md

        done = write_agents_md(_output(str(memory.project.root / agents_md)), memory.facts())
        click.echo(f"wrote {done.facts} facts ({done.bytes} bytes) to {done.path}", err=True)
        return
    chosen = select(memory.facts(), None if every else (statuses or ("active",)))
    text = render(chosen, fmt, title=f"{memory.project.root.name}: kenning facts")
    if output:
        from kenning.core.atomic import write_atomic

        write_atomic(_output(output), text)
        click.echo(f"wrote {len(chosen)} facts to {output}", err=True)
    else:
        click.echo(text, nl=False)


@click.command(name="import")
@click.argument("path", required=False, type=click.Path(exists=True))
@click.option("--dry-run", is_flag=True, help="Show what would be imported; write nothing.")
@click.option("--json", "as_json", is_flag=True)
def import_cmd(path: str | None, dry_run: bool, as_json: bool) -> None:
    """Import Claude Code auto-memory notes (default: this project's memory folder)."""
    from kenning.insight.transfer import import_claude_memory

    memory = app.open_memory()
    result = import_claude_memory(memory.writer, Path(path) if path else None, dry_run=dry_run)
    if as_json:
        _dump({"source": str(result.source), "dry_run": dry_run, "items": result.items})
        return
    for item in result.items:
        name = Path(item.path).name
        if item.action in ("added", "would-add"):
            click.echo(f"{item.action:<9} {item.kind:<11} {name}: {item.text}")
        elif item.action == "duplicate":
            click.echo(f"{'known':<9} {item.kind:<11} {name} (fact {item.fact_id})")
        else:
            click.echo(f"{'skipped':<9} {'':<11} {name}: {item.reason}")
    verb = "would add" if dry_run else "added"
    count = result.count("would-add" if dry_run else "added")
    click.echo(f"{verb} {count} facts from {result.source}; {result.count('duplicate')} already "
               f"known, {result.count('skipped')} skipped")
