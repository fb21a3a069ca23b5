"""The report as one HTML file: inline CSS and SVG, no script, nothing fetched.

A Content-Security-Policy meta tag forbids every request (`default-src 'none'`), so even a
stray URL in a fact's text cannot make the browser reach out.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING

from kenning.insight.analytics import CLASSES
from kenning.insight.report import charts
from kenning.insight.report.data import BUCKETS, ReportData, Section

if TYPE_CHECKING:
    from kenning.insight.graph import Community

SECTIONS = (
    ("facts", "Facts by kind and confidence"),
    ("decay", "What decays next"),
    ("problems", "Contradictions and stale facts"),
    ("hot", "Hot files"),
    ("crossover", "Crossover: churn and attention"),
    ("gaps", "Knowledge gaps"),
    ("communities", "Communities"),
)
CLASS_MEANING = {
    "BLIND": "high churn, never read",
    "TURBULENT": "high churn, read a little",
    "HOT": "high churn, read a lot",
    "STABLE": "low churn, read a lot",
    "ZOMBIE": "no churn, still read",
    "COLD": "low churn, rarely read",
}
CROSSOVER_ROWS = 60
CSS = """
:root { --fg:#1d232a; --muted:#5f6b76; --line:#dde3e8; --bg:#fff; --card:#f6f8fa; }
@media (prefers-color-scheme: dark) {
  :root { --fg:#e6e9ec; --muted:#9aa5b1; --line:#2f3740; --bg:#15191d; --card:#1d2329; }
  svg text { fill:#e6e9ec; }
}
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       color: var(--fg); background: var(--bg); margin: 0 auto; max-width: 1040px;
       padding: 24px 28px 60px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 36px 0 10px; padding-top: 8px; border-top: 1px solid var(--line); }
.muted, .note { color: var(--muted); }
nav a { margin-right: 12px; color: inherit; }
.tiles { display: flex; flex-wrap: wrap; gap: 10px; margin: 14px 0; }
.tile { background: var(--card); border-radius: 6px; padding: 8px 14px; min-width: 110px; }
.tile b { display: block; font-size: 20px; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 13px; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line);
         vertical-align: top; }
th { font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
.cls { display: inline-block; padding: 0 6px; border-radius: 3px; font-size: 11px;
       font-weight: 600; color: #111; }
.empty { background: var(--card); padding: 10px 14px; border-radius: 6px; }
.grid { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; }
@media (max-width: 800px) { .grid { grid-template-columns: 1fr; } }
svg { max-width: 100%; height: auto; }
"""


def render(data: ReportData) -> str:
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>kenning report: {escape(data.project)}</title>",
        f"<style>{CSS}</style></head><body>",
        _header(data),
        _facts(data), _decay(data), _problems(data), _hot(data), _crossover(data),
        _gaps(data), _communities(data),
        '<p class="muted">Made by <code>kenning report</code>. Everything above comes from '
        "this project's fact files, its git history and the local event log.</p>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _section(key: str, *parts: str) -> str:
    """One section: its heading, then `parts`."""
    title = dict(SECTIONS)[key]
    return f'<section id="{key}"><h2>{escape(title)}</h2>' + "".join(parts) + "</section>"


def _empty(text: str) -> str:
    return f'<p class="empty">{escape(text)}</p>'


def _muted(html: str) -> str:
    return f'<p class="muted">{html}</p>'


def _table(head: str, rows: Iterable[str]) -> str:
    """A table: `head` is the header cells, each row its cells (all HTML)."""
    return f"<table><tr>{head}</tr>" + "".join(f"<tr>{row}</tr>" for row in rows) + "</table>"


def _badge(cls: str) -> str:
    colour = charts.CLASS_COLOURS.get(cls, "#ccc")
    return f'<span class="cls" style="background:{colour}">{escape(cls)}</span>'


def _header(data: ReportData) -> str:
    active = data.statuses.get("active", 0)
    nav = "".join(f'<a href="#{k}">{escape(t)}</a>' for k, t in SECTIONS)
    tiles = [
        ("facts", data.facts_total), ("active", active),
        ("archived", data.statuses.get("archived", 0)),
        ("files", len(data.crossover)), ("communities", len(data.communities)),
        ("knowledge gaps", len(data.gaps)),
    ]
    notes = "".join(f'<p class="note">{escape(n)}</p>' for n in data.notes)
    return (
        f"<header><h1>Project knowledge: {escape(data.project)}</h1>"
        f'<div class="muted"><code>{escape(data.root)}</code> · generated '
        f"{data.generated:%Y-%m-%d %H:%M} UTC · churn and reads over {escape(data.window)}</div>"
        f'<div class="tiles">'
        + "".join(f'<div class="tile"><b>{v}</b>{escape(k)}</div>' for k, v in tiles)
        + f"</div><nav>{nav}</nav>{notes}</header>"
    )


def _facts(data: ReportData) -> str:
    rows = [(kind, counts) for kind, counts in data.by_kind.items()]
    if not any(sum(c) for _, c in rows):
        chart = _empty("No facts yet. `kenning add` or a Claude Code session adds some.")
    else:
        colours = ("#bab0ac", "#e15759", "#f28e2b", "#4e79a7", "#59a14f")
        chart = charts.stacked_bars(rows, BUCKETS, label="facts by kind and confidence",
                                    colours=colours)
    statuses = ", ".join(f"{k} {v}" for k, v in sorted(data.statuses.items()))
    note = _muted(f"By status: {escape(statuses)}. Confidence is the value now, after decay "
                  "(−0.05 per unused week; below 0.30 counts as archived).") if statuses else ""
    return _section("facts", chart, note)


def _decay(data: ReportData) -> str:
    if not data.decaying:
        return _section("decay", _empty("No active facts to decay."))
    if any(count for _, count in data.decay_weeks):
        chart = charts.columns(data.decay_weeks, label="facts archived per coming week")
    else:
        chart = _muted("None archives in the next 12 weeks.")
    rows = (f"<td>{d.archived_at:%Y-%m-%d}</td><td class=num>{d.current / 100:.2f}</td>"
            f"<td>{escape(d.kind)}</td><td>{escape(d.text)}</td>"
            f"<td><code>{escape(d.id)}</code></td>" for d in data.decaying)
    return _section(
        "decay",
        _muted("Active facts nobody has used or confirmed lately, in the order they will count "
               "as archived. Using or confirming one resets its clock."),
        chart,
        _table("<th>archives on</th><th class=num>now</th><th>kind</th><th>fact</th>"
               "<th>id</th>", rows),
    )


def _findings(title: str, section: Section) -> str:
    heading = f"<h3>{escape(title)}</h3>"
    if not section.available or not section.items:
        return heading + _empty(section.note or "Nothing to show.")
    items = []
    for item in section.items:
        detail = f' <span class="muted">({escape(item.detail)})</span>' if item.detail else ""
        ids = " ".join(f"<code>{escape(i)}</code>" for i in item.ids)
        items.append(f"<li>{escape(item.title)}{detail} {ids}</li>")
    return heading + "<ul>" + "".join(items) + "</ul>"


def _problems(data: ReportData) -> str:
    return _section("problems", _findings("Contradictions", data.contradictions),
                    _findings("Stale facts", data.stale))


def _hot(data: ReportData) -> str:
    if not data.hot:
        return _section("hot", _empty("No churn in this window (or no git history): nothing "
                                      "is hot."))
    classes = {r.path: r.cls for r in data.crossover}
    rows = (f"<td><code>{escape(h.path)}</code></td><td class=num>{h.commits}</td>"
            f"<td class=num>{h.lines_changed}</td><td class=num>{h.loc}</td>"
            f"<td class=num>{h.reads}</td><td>{_badge(classes.get(h.path, ''))}</td>"
            for h in data.hot)
    return _section(
        "hot",
        _muted("Change frequency weighted by size: commits × current lines."),
        charts.bars([(h.path, h.score) for h in data.hot[:10]], label="hotspot score"),
        _table("<th>file</th><th class=num>commits</th><th class=num>lines changed</th>"
               "<th class=num>lines</th><th class=num>reads</th><th>class</th>", rows),
    )


def _crossover(data: ReportData) -> str:
    t = data.thresholds
    intro = "" if t is None else _muted(
        f"High churn: ≥ {t.high_churn} commits (P{t.churn_percentile} of changed files, at "
        f"least 2). Many reads: ≥ {t.many_reads} reads (P{t.reads_percentile} of read files, "
        "at least 3).")
    counts = [(c, data.class_counts.get(c, 0)) for c in CLASSES]
    legend = _table("<th>class</th><th>meaning</th><th class=num>files</th>",
                    (f"<td>{_badge(cls)}</td><td>{escape(CLASS_MEANING[cls])}</td>"
                     f"<td class=num>{n}</td>" for cls, n in counts))
    chart = charts.bars(counts, label="files per crossover class", width=440,
                        colours=charts.CLASS_COLOURS)
    return _section("crossover", intro, f'<div class="grid"><div>{chart}</div><div>{legend}'
                    "</div></div>", _crossover_files(data))


def _crossover_files(data: ReportData) -> str:
    shown = [r for r in data.crossover if r.cls != "COLD"][:CROSSOVER_ROWS]
    if not data.crossover:
        return _empty("No files found.")
    if not shown:
        return _empty("Every file is COLD: little churn and little reading in this window.")
    rows = (f"<td>{_badge(r.cls)}</td><td><code>{escape(r.path)}</code></td>"
            f"<td class=num>{r.commits}</td><td class=num>{r.lines_changed}</td>"
            f"<td class=num>{r.reads}</td><td class=num>{r.edits}</td>" for r in shown)
    table = _table("<th>class</th><th>file</th><th class=num>commits</th><th class=num>lines "
                   "changed</th><th class=num>reads</th><th class=num>edits</th>", rows)
    hidden = len(data.crossover) - len(shown)
    if not hidden:
        return table
    return table + _muted(f"{hidden} more files not shown (COLD, or beyond the first "
                          f"{CROSSOVER_ROWS}); <code>kenning analyze crossover</code> lists "
                          "them all.")


def _gaps(data: ReportData) -> str:
    if not data.gaps:
        return _section("gaps", _empty("No knowledge gaps: every search so far found "
                                       "something."))
    rows = (f"<td>{escape(g.query)}</td><td class=num>{g.count}</td><td>{escape(g.last)}</td>"
            for g in data.gaps)
    return _section(
        "gaps",
        _muted("Searches that returned nothing. A repeated one is a fact worth writing down."),
        _table("<th>query</th><th class=num>times</th><th>last</th>", rows),
    )


def _communities(data: ReportData) -> str:
    if not data.communities:
        return _section("communities", _empty("No graph yet: no facts, and no links, imports "
                                              "or co-access between files."))
    edges = ", ".join(f"{k} {v}" for k, v in data.edge_counts.items())
    chart = charts.network(data.map_nodes, data.map_edges, label="knowledge graph", size=480)
    table = _table("<th>#</th><th class=num>files</th><th class=num>facts</th>"
                   "<th>most central</th>", map(_community_row, data.communities[:12]))
    more = len(data.communities) - 12
    return _section(
        "communities",
        _muted("Louvain communities over files (circles) and facts (squares); size is "
               f"PageRank. Edges: {escape(edges)}."),
        f'<div class="grid"><div>{chart}</div><div>{table}</div></div>',
        _muted(f"{more} smaller communities not shown; <code>kenning graph communities</code> "
               "lists them.") if more > 0 else "",
    )


def _community_row(c: Community) -> str:
    colour = charts.PALETTE[c.index % len(charts.PALETTE)]
    members = "<br>".join(
        (f"<code>{escape(m.label)}</code>" if m.type == "file" else escape(m.label))
        for m in c.members[:4])
    tags = f'<br><span class="muted">{escape(" ".join("#" + t for t in c.tags))}</span>' \
        if c.tags else ""
    return (f'<td><span class="cls" style="background:{colour}">{c.index}</span></td>'
            f"<td class=num>{c.files}</td><td class=num>{c.facts}</td><td>{members}{tags}</td>")
