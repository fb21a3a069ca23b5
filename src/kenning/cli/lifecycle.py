"""CLI commands for the lifecycle features; registered on the main group by `cli.py`.

decay, review, supersede, contradictions, consolidate, stale: each parses, makes one library
call (review, contradictions, consolidate, anchors_stale) and renders.
"""

from __future__ import annotations

import json
import sys

import click

from kenning.cli import app
from kenning.core.records import KINDS

REVIEW_ACTIONS = ("accept", "confirm", "restore", "edit", "reject", "archive", "keep",
                  "merge", "dismiss")
REVIEW_KINDS = ("contradiction", "orphaned", "drifted", "duplicate", "archived", "unconfirmed")




def _short(text: str, width: int = 90) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _dump(value: object) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=1))



def register(group: click.Group) -> None:
    """Add this module's commands to `group`."""
    for command in (decay, review, supersede, contradictions, consolidate, stale):
        group.add_command(command)


# ---- decay --------------------------------------------------------------------------------
@click.command()
@click.option("--dry-run", is_flag=True,
              help="Report from the index as it is, without bringing it up to date first.")
@click.option("--json", "as_json", is_flag=True)
def decay(dry_run: bool, as_json: bool) -> None:
    """List facts decay has archived (below 0.30) and those it will archive next week.

    Decay is computed, never written: no fact file changes. Without --dry-run the index is
    brought up to date first (new fact files, usage from the event log). A person records an
    archival, or brings a fact back, with `kenning review`.
    """
    from kenning.lifecycle.review import decay_report

    report = decay_report(app.open_memory().writer, sync=not dry_run)
    if as_json:
        def rows(views):
            return [{"id": v.row.id, "kind": v.row.kind, "confidence": v.current / 100,
                     "text": v.row.text} for v in views]

        _dump({"archived": rows(report.archived), "next_week": rows(report.next_week),
               "recorded_archived": report.recorded})
        return
    click.echo(f"archived by decay: {len(report.archived)}")
    for v in report.archived:
        click.echo(f"  {v.row.id}  {app.pct(v.current / 100)}  {_short(v.row.text)}")
    click.echo(f"archived next week unless used or confirmed: {len(report.next_week)}")
    for v in report.next_week:
        click.echo(f"  {v.row.id}  {app.pct(v.current / 100)}  {_short(v.row.text)}")
    if report.recorded:
        click.echo(f"recorded as archived by people: {report.recorded} "
                   "(`kenning list --status archived`)")
    if report.archived:
        click.echo("`kenning review` confirms, restores or records them.")


# ---- review -------------------------------------------------------------------------------
@click.command()
@click.argument("action", required=False, type=click.Choice(REVIEW_ACTIONS))
@click.argument("ids", nargs=-1, callback=app.fact_ids)
@click.option("--text", help="The corrected text (for `edit`).")
@click.option("--kind", "fact_kind", type=click.Choice(KINDS), help="New kind (for `edit`).")
@click.option("--only", "only", multiple=True, type=click.Choice(REVIEW_KINDS),
              help="Only these item kinds (repeatable).")
@click.option("--limit", "-n", default=50, show_default=True, type=click.IntRange(1, 100000))
@click.option("--json", "as_json", is_flag=True, help="Print the queue as JSON.")
def review(action, ids, text, fact_kind, only, limit, as_json) -> None:
    """Review what needs a person: contradictions, stale anchors, duplicates, decay.

    Without ACTION: the queue (interactive on a terminal, JSON otherwise). With ACTION,
    apply it: accept|confirm ID (1.00, anchors refreshed), restore ID (at least 0.90),
    edit ID --text T, reject ID (forget), archive ID (record `status: archived`),
    keep KEEP OTHER (KEEP supersedes OTHER), merge ID ID... (into the oldest),
    dismiss ID ID (not a duplicate or contradiction).
    """
    from kenning.lifecycle import review as lib

    memory = app.open_memory()
    if action:
        if not ids:
            raise click.UsageError(f"`review {action}` needs a fact id")
        outcome = lib.apply(memory.writer, action, ids, text=text, kind=fact_kind)
        if as_json:
            _dump({"action": outcome.action, "ids": list(outcome.ids),
                   "message": outcome.message})
        else:
            click.echo(outcome.message)
        return
    items = lib.queue(memory.writer, limit=limit, kinds=only or None)
    if as_json or not _is_tty():
        _dump([item.to_json() for item in items])
        return
    _interactive(memory, items)


def _is_tty() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


_KEYS = {"accept": "a", "restore": "r", "edit": "e", "reject": "x", "archive": "v",
         "keep": "k", "merge": "m", "dismiss": "d", "skip": "s"}


def _interactive(memory, items) -> None:
    from kenning.core.errors import KenningError
    from kenning.lifecycle import review as lib

    if not items:
        click.echo("nothing to review")
        return
    done = 0
    for n, item in enumerate(items, 1):
        if not lib.still_applies(memory.writer, item):
            click.echo(f"\n[{n}/{len(items)}] {item.kind}: no longer applies (an earlier "
                       "action changed one of its facts); skipped")
            continue
        click.echo(f"\n[{n}/{len(items)}] {item.kind}: {item.detail}")
        for fid, text in zip(item.ids, item.texts, strict=True):
            click.echo(f"  {fid}  {text}")
        choices = {_KEYS[a]: a for a in item.actions}
        choices["q"] = "quit"
        menu = " ".join(f"[{k}]{a[1:] if a[0] == k else ' ' + a}" for k, a in choices.items())
        key = click.prompt(menu, type=click.Choice(list(choices)), show_choices=False,
                           default="s")
        action = choices[key]
        if action == "quit":
            break
        if action == "skip":
            continue
        targets = list(item.ids)
        new_text = None
        if action == "keep" or (action in ("edit", "reject") and len(targets) > 1):
            pick = click.prompt("which one (1 or 2)", type=click.Choice(["1", "2"]))
            first = targets[int(pick) - 1]
            targets = [first] + [t for t in targets if t != first] if action == "keep" \
                else [first]
        if action == "edit":
            current = item.texts[item.ids.index(targets[0])]
            new_text = click.prompt("new text", default=current)
        try:
            click.echo(lib.apply(memory.writer, action, targets, text=new_text).message)
            done += 1
        except KenningError as exc:
            click.echo(f"Error: {exc}", err=True)
    click.echo(f"\n{done} action(s) applied")


# ---- supersede ----------------------------------------------------------------------------
@click.command()
@click.argument("old_id", callback=app.fact_ids)
@click.argument("text", nargs=-1, required=True)
@click.option("--about", "-a", multiple=True, metavar="FILE[:SYMBOL]",
              help="Anchors for the new fact (default: the old fact's).")
@click.option("--rationale", "-r", help="Why (default: the old fact's).")
@click.option("--json", "as_json", is_flag=True)
def supersede(old_id, text, about, rationale, as_json) -> None:
    """Replace fact OLD_ID with a corrected one (same kind, tags, topic; confidence 1.00)."""
    from kenning.cli.app import add_result_json, echo_consequences
    from kenning.store.facts import parse_about

    anchors = [parse_about(spec) for spec in about] if about else None
    result = app.open_memory().supersede(old_id, " ".join(text), about=anchors, rationale=rationale)
    fact = result.fact
    if as_json:
        _dump(add_result_json(result))
        return
    if result.created:
        confidence = app.pct(fact.confidence / 100)
        click.echo(f"added {fact.kind} fact {fact.id} (confidence {confidence})")
    else:
        click.echo(f"the replacement says what {fact.id} already says; re-confirmed it")
    echo_consequences(result)


# ---- contradictions -----------------------------------------------------------------------
@click.command()
@click.option("--json", "as_json", is_flag=True)
def contradictions(as_json: bool) -> None:
    """Active facts that contradict each other (opposite claims, different values)."""
    from kenning.lifecycle.contradictions import find_all

    memory = app.open_memory()
    rows = {v.row.id: v.row for v in memory.facts() if v.status == "active"}
    found = find_all(list(rows.values()))
    if as_json:
        _dump([{"a": c.a, "b": c.b, "reason": c.reason, "detail": c.detail,
                "texts": [rows[c.a].text, rows[c.b].text]} for c in found])
        return
    for c in found:
        click.echo(f"{c.reason} ({c.detail})")
        click.echo(f"  {c.a}  {_short(rows[c.a].text)}")
        click.echo(f"  {c.b}  {_short(rows[c.b].text)}")
    if not found:
        click.echo("no contradictions")
    else:
        click.echo(f"{len(found)} contradiction(s); resolve with `kenning review "
                   "--only contradiction`")


# ---- consolidate --------------------------------------------------------------------------
@click.command()
@click.option("--dry-run", is_flag=True, help="Show what would merge; write nothing.")
@click.option("--json", "as_json", is_flag=True)
def consolidate(dry_run: bool, as_json: bool) -> None:
    """Merge clear near-duplicate facts into the oldest; list borderline pairs for review."""
    from kenning.lifecycle.consolidate import consolidate as run

    memory = app.open_memory()
    texts = {v.row.id: v.row.text for v in memory.facts()}
    plan = run(memory.writer, dry_run=dry_run)
    if as_json:
        _dump({"dry_run": dry_run, "considered": plan.considered,
               "merges": [{"survivor": m.survivor, "absorbed": list(m.absorbed),
                           "confidence": m.confidence / 100} for m in plan.merges],
               "borderline": [{"a": p.a, "b": p.b, "cosine": p.cosine,
                               "lexical": p.lexical, "reason": p.reason}
                              for p in plan.borderline]})
        return
    verb = "would merge" if dry_run else "merged"
    for m in plan.merges:
        click.echo(f"{verb} into {m.survivor} (confidence {app.pct(m.confidence / 100)}): "
                   f"{_short(texts.get(m.survivor, ''), 70)}")
        for fid in m.absorbed:
            click.echo(f"  {fid}  {_short(texts.get(fid, ''), 70)}")
    absorbed = sum(len(m.absorbed) for m in plan.merges)
    click.echo(f"{len(plan.merges)} group(s); {absorbed} fact(s) "
               + ("would be superseded" if dry_run else "superseded"))
    if plan.borderline:
        click.echo(f"{len(plan.borderline)} borderline pair(s) left for "
                   "`kenning review --only duplicate`")


# ---- stale --------------------------------------------------------------------------------
@click.command()
@click.option("--all", "show_all", is_flag=True, help="Also list fresh anchors.")
@click.option("--json", "as_json", is_flag=True)
def stale(show_all: bool, as_json: bool) -> None:
    """Facts whose anchored code drifted (changed) or is orphaned (gone), per the code index."""
    from kenning.lifecycle.stale import FRESH, label, stale_report

    memory = app.open_memory()
    rows = {v.row.id: v.row for v in memory.facts() if v.status == "active"}
    reports = stale_report(memory.index.conn, list(rows.values()), memory.project.root)
    if not show_all:
        reports = [r for r in reports if r.state != FRESH]
    if as_json:
        _dump([{"id": r.fact_id, "state": r.state, "text": rows[r.fact_id].text,
                "anchors": [{"file": c.anchor.file, "symbol": c.anchor.symbol,
                             "state": c.state, "note": c.note,
                             "now": label(c.current) if c.current else None}
                            for c in r.checks]} for r in reports])
        return
    if not memory.code_counts()["files"]:
        click.echo("the code is not indexed yet; run `kenning index` first")
        return
    for r in reports:
        click.echo(f"{r.state:<9} {r.fact_id}  {_short(rows[r.fact_id].text, 70)}")
        for c in r.checks:
            click.echo(f"          {label(c.anchor)}: {c.state}, {c.note}")
    if not reports:
        click.echo("all anchors fresh")
    else:
        click.echo("`kenning review accept ID` re-confirms a fact and refreshes its anchors")
