"""`kenning seed`: propose facts from commits, changelogs, docs and agent instruction files.

Parses, calls `extract.seed.run.seed` (and Claude Code's auto-memory importer, the one
source that lives in insight), renders.
"""

from __future__ import annotations

import json

import click

from kenning.cli import app

SOURCE_CHOICES = ("commits", "changelog", "docs", "agents", "claude-memory")


def register(group: click.Group) -> None:
    group.add_command(seed)


@click.command()
@click.option("--accept", is_flag=True,
              help="Add every proposal as an active fact at 0.70 (then `kenning review`).")
@click.option("--dry-run", is_flag=True, help="Print the proposals; write nothing.")
@click.option("--source", "sources", multiple=True, type=click.Choice(SOURCE_CHOICES),
              help="Only these sources (repeatable; default: all).")
@click.option("--full", is_flag=True, help="Read all history and files again, not only "
              "what changed since the last run.")
@click.option("--json", "as_json", is_flag=True)
def seed(accept: bool, dry_run: bool, sources: tuple[str, ...], full: bool,
         as_json: bool) -> None:
    """Propose facts from what the project already wrote down (commits, changelogs, ADRs,
    CONTRIBUTING, CLAUDE.md/AGENTS.md), each with its file and lines or commit."""
    from kenning.extract.seed.run import SOURCES
    from kenning.extract.seed.run import seed as run

    memory = app.open_memory()
    chosen = sources or SOURCE_CHOICES
    report = run(memory, accept=accept, dry_run=dry_run, full=full,
                 sources=[s for s in chosen if s in SOURCES])
    imported = _claude_memory(memory, accept and not dry_run) \
        if "claude-memory" in chosen else []
    if accept and not dry_run:
        app.synced(memory)
    if as_json:
        click.echo(json.dumps({
            "dry_run": dry_run, "accept": accept, "commits_read": report.commits_read,
            "files_read": report.files_read,
            "items": [i.to_json() for i in report.items] + imported},
            ensure_ascii=False, indent=1))
        return
    for item in report.items:
        p = item.proposal
        click.echo(f"{item.action:<9} {p.source:<9} {p.text}")
        click.echo(f"{'':<19} from {p.provenance}" + (f"; why: {p.rationale}"
                                                       if p.rationale else ""))
    for item in imported:
        click.echo(f"{item['action']:<9} {'claude-memory':<9} {item['text']}")
    waiting = report.count("proposed") + report.count("pending")
    click.echo(f"read {report.commits_read} commits and {len(report.files_read)} files; "
               f"{report.count('proposed')} new proposals, {waiting} waiting, "
               f"{report.count('added')} added, {report.count('known')} already known"
               + (f", {report.count('withdrawn')} withdrawn (reverted)"
                  if report.count("withdrawn") else ""))
    if report.count("added") and not memory.project.initialised:
        click.echo("note: this project is not opted in (`kenning init`), so the facts went to "
                   "your personal store; `kenning init` offers to move them into .kenning/")
    if waiting and not dry_run:
        click.echo("`kenning seed --accept` adds them at 0.70; `kenning review` then "
                   "confirms or rejects each")


def _claude_memory(memory, write: bool) -> list[dict]:
    """Claude Code's auto-memory notes, through the existing importer (none: no folder)."""
    from kenning.insight.transfer import claude_memory_dir, import_claude_memory

    if not claude_memory_dir(memory.project.root).is_dir():
        return []
    result = import_claude_memory(memory, dry_run=not write)
    return [{"source": "claude-memory", "action": i.action, "text": i.text,
             "provenance": i.path, "fact_id": i.fact_id} for i in result.items
            if i.action in ("added", "would-add")]
