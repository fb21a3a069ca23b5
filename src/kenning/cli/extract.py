"""CLI commands for the extract features; registered on the main group by `cli.py`.

extract (the target of the hooks' detached spawn), save (a structured session record on
stdin) and sessions (recall). Each parses, makes one library call and renders.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict

import click

from kenning.cli import app


def register(group: click.Group) -> None:
    """Add this module's commands to `group`."""
    for command in (extract, save, sessions):
        group.add_command(command)


# ---- extract ------------------------------------------------------------------------------
def _outcome_json(outcome) -> dict:
    c = outcome.candidate
    return {
        "action": outcome.action, "fact_id": outcome.fact_id, "kind": c.kind, "text": c.text,
        "rationale": c.rationale, "about": [asdict(a) for a in c.about],
        "evidence": c.evidence or None, "excerpt": outcome.excerpt or None, "rule": c.rule,
        "session": c.session, "superseded": list(outcome.superseded),
        "contradictions": list(outcome.contradictions), "note": outcome.note,
    }


def _anchor(a) -> str:
    return a.file + (f":{a.symbol}" if a.symbol else "")


@click.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--session", metavar="ID",
              help="The Claude Code session id (default: read from the transcript).")
@click.option("--dry-run", is_flag=True,
              help="Print the candidates with their evidence; write nothing.")
@click.option("--from-start", is_flag=True,
              help="Ignore the stored cursor and read the whole transcript again.")
@click.option("--settle", type=float, default=2.0, show_default=True, metavar="SECONDS",
              help="Wait until the transcript has not changed for this long (max 30 s).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def extract(path: str, session: str | None, dry_run: bool, from_start: bool, settle: float,
            as_json: bool) -> None:
    """Extract facts from a session transcript (only lines not read before)."""
    from kenning.core.config import load_config
    from kenning.extract import pipeline

    project = app.project()
    findings = load_config(project).findings != "off"  # [extract] findings
    if dry_run:
        report = pipeline.dry_run(project, path, session, from_start=from_start,
                                  findings=findings)
    else:
        memory = app.open_memory()
        try:
            report = pipeline.extract_transcript(memory, path, session, from_start=from_start,
                                                 settle=max(0.0, settle), findings=findings)
        finally:
            memory.close()
    if as_json:
        click.echo(json.dumps({
            "session": report.session, "transcripts": report.transcripts,
            "lines": report.lines, "turns": report.turns, "bad_lines": report.bad_lines,
            "stable": report.stable, "dry_run": report.dry_run,
            "candidates": [_outcome_json(o) for o in report.outcomes],
        }, ensure_ascii=False, indent=1))
        return
    click.echo(f"session {report.session}: {report.lines} new lines, {report.turns} turns, "
               f"{len(report.transcripts)} transcript(s)"
               + ("" if report.stable else " (file still growing; read what was there)"))
    for o in report.outcomes:
        c = o.candidate
        head = f"{o.action:<11} {o.fact_id or '-':<26} [{c.kind}, {c.rule}] {c.text}"
        click.echo(head)
        if report.dry_run or o.action == "dropped":
            if c.rationale:
                click.echo(f"    rationale: {c.rationale}")
            if c.about:
                click.echo(f"    about: {', '.join(_anchor(a) for a in c.about)}")
            click.echo(f"    evidence: {c.evidence or '-'}"
                       + (f' "{o.excerpt}"' if o.excerpt else ""))
            if o.note:
                click.echo(f"    note: {o.note}")
        for other in o.contradictions:
            click.echo(f"    contradicts {other} (see `kenning review`)")
    if report.dry_run:
        click.echo(f"dry run: {report.count('planned')} candidate(s), "
                   f"{report.count('seen')} already handled; nothing written")
    else:
        click.echo(f"{report.count('added')} added, {report.count('reconfirmed')} "
                   f"re-confirmed, {report.count('seen')} already handled")


# ---- save ---------------------------------------------------------------------------------
@click.command()
@click.option("--name", help="Session name (default: from the input, else generated).")
@click.option("--session", metavar="ID", help="The Claude Code session id it came from.")
@click.option("--origin", type=click.Choice(["user", "agent"]), default="user",
              show_default=True, help="Who is saving: a person (1.00) or the agent (0.70).")
@click.option("--no-llm", is_flag=True, help="Skip the optional LLM extractor.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def save(name: str | None, session: str | None, origin: str, no_llm: bool,
         as_json: bool) -> None:
    """Save a session from YAML or JSON on stdin (summary, decisions, constraints, ...)."""
    from kenning.extract.sessions import save_result_json, save_session
    from kenning.store import sessions

    fields = sessions.parse_input(sys.stdin.read())
    if name:
        fields["name"] = name
    memory = app.open_memory()
    try:
        llm = None if no_llm else _llm(memory)
        result = save_session(memory, fields, origin=origin, session=session, llm=llm)
    finally:
        memory.close()
    record = result.record
    if as_json:
        data = {**save_result_json(result), "record": sessions.to_mapping(record)}
        click.echo(json.dumps(data, ensure_ascii=False, indent=1))
        return
    click.echo(f"saved session {record.name} (value {record.value:.2f}) to {result.path}")
    for added in result.facts:
        verb = "added" if added.created else "re-confirmed"
        click.echo(f"{verb:<12} {added.fact.id} [{added.fact.kind}] {added.fact.text}")
    if result.llm is not None:
        if result.llm.skipped:
            click.echo(f"LLM extractor skipped: {result.llm.skipped}")
        else:
            click.echo(f"LLM extractor: {len(result.llm_facts)} fact(s), "
                       f"{result.llm.tokens} tokens")
            for o in result.llm_facts:
                click.echo(f"{o.action:<12} {o.fact_id or '-'} [{o.candidate.kind}] "
                           f"{o.candidate.text}")


def _llm(memory):
    """The user's LLM extractor when `[llm]` in $KENNING_HOME/config.toml turns it on."""
    from kenning.extract.llm import configured_extractor

    return configured_extractor(memory.project, app.clock())


# ---- sessions -----------------------------------------------------------------------------
@click.command()
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the sessions as JSON.")
def sessions(name: str | None, as_json: bool) -> None:
    """Recall saved sessions: NAME, or the latest ones (within 72 h of the newest)."""
    from kenning.store.sessions import LIST_FIELDS, find_sessions, to_mapping

    problems: list[str] = []
    records = find_sessions(app.project(), name, problems)
    for problem in problems:
        click.echo(f"skipped {problem}", err=True)
    if as_json:
        click.echo(json.dumps([to_mapping(r) for r in records], ensure_ascii=False, indent=1))
        return
    if not records:
        click.echo("no saved sessions; `kenning save` or the save skill creates one")
        return
    for n, r in enumerate(records):
        if n:
            click.echo("")
        click.echo(f"# {r.name}  saved {r.saved:%Y-%m-%d %H:%M}Z  value {r.value:.2f}")
        click.echo(r.summary)
        for field in LIST_FIELDS:
            items = r.lists.get(field) or []
            if items:
                click.echo(f"{field.replace('_', ' ')}:")
            for item in items:
                click.echo(f"  - {item.text}" + (f" ({item.rationale})" if item.rationale
                                                   else ""))
