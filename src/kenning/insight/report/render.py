"""The report as one HTML file: inline CSS and SVG, no script, nothing fetched.

A Content-Security-Policy meta tag forbids every request (`default-src 'none'`), so even a
stray URL in a fact's text cannot make the browser reach out.
"""

from __future__ import annotations

from html import escape

from kenning.insight.analytics import CLASSES
from kenning.insight.report import charts
from kenning.insight.report.data import BUCKETS, ReportData, Section

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


def _h2(key: str) -> str:
    title = dict(SECTIONS)[key]
    return f'<section id="{key}"><h2>{escape(title)}</h2>'


def _empty(text: str) -> str:
    return f'<p class="empty">{escape(text)}</p>'


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
    out = [_h2("facts")]
    rows = [(kind, counts) for kind, counts in data.by_kind.items()]
    if not any(sum(c) for _, c in rows):
        out.append(_empty("No facts yet. `kenning add` or a Claude Code session adds some."))
    else:
        colours = ("#bab0ac", "#e15759", "#f28e2b", "#4e79a7", "#59a14f")
        out.append(charts.stacked_bars(rows, BUCKETS, label="facts by kind and confidence",
                                       colours=colours))
    statuses = ", ".join(f"{k} {v}" for k, v in sorted(data.statuses.items()))
    if statuses:
        out.append(f'<p class="muted">By status: {escape(statuses)}. Confidence is the value '
                   "now, after decay (−0.05 per unused week; below 0.30 counts as archived)."
                   "</p>")
    return "".join(out) + "</section>"


def _decay(data: ReportData) -> str:
    out = [_h2("decay")]
    if not data.decaying:
        out.append(_empty("No active facts to decay."))
        return "".join(out) + "</section>"
    out.append('<p class="muted">Active facts nobody has used or confirmed lately, in the '
               "order they will count as archived. Using or confirming one resets its clock."
               "</p>")
    if any(count for _, count in data.decay_weeks):
        out.append(charts.columns(data.decay_weeks, label="facts archived per coming week"))
    else:
        out.append('<p class="muted">None archives in the next 12 weeks.</p>')
    out.append("<table><tr><th>archives on</th><th class=num>now</th><th>kind</th>"
               "<th>fact</th><th>id</th></tr>")
    for d in data.decaying:
        out.append(f"<tr><td>{d.archived_at:%Y-%m-%d}</td><td class=num>{d.current / 100:.2f}"
                   f"</td><td>{escape(d.kind)}</td><td>{escape(d.text)}</td>"
                   f"<td><code>{escape(d.id)}</code></td></tr>")
    out.append("</table>")
    return "".join(out) + "</section>"


def _findings(title: str, section: Section) -> str:
    out = [f"<h3>{escape(title)}</h3>"]
    if not section.available or not section.items:
        out.append(_empty(section.note or "Nothing to show."))
        return "".join(out)
    out.append("<ul>")
    for item in section.items:
        detail = f' <span class="muted">({escape(item.detail)})</span>' if item.detail else ""
        ids = " ".join(f"<code>{escape(i)}</code>" for i in item.ids)
        out.append(f"<li>{escape(item.title)}{detail} {ids}</li>")
    out.append("</ul>")
    return "".join(out)


def _problems(data: ReportData) -> str:
    return (_h2("problems") + _findings("Contradictions", data.contradictions)
            + _findings("Stale facts", data.stale) + "</section>")


def _badge(cls: str) -> str:
    colour = charts.CLASS_COLOURS.get(cls, "#ccc")
    return f'<span class="cls" style="background:{colour}">{escape(cls)}</span>'


def _hot(data: ReportData) -> str:
    out = [_h2("hot")]
    if not data.hot:
        out.append(_empty("No churn in this window (or no git history): nothing is hot."))
        return "".join(out) + "</section>"
    out.append('<p class="muted">Change frequency weighted by size: commits × current lines.'
               "</p>")
    out.append(charts.bars([(h.path, h.score) for h in data.hot[:10]], label="hotspot score"))
    classes = {r.path: r.cls for r in data.crossover}
    out.append("<table><tr><th>file</th><th class=num>commits</th><th class=num>lines changed"
               "</th><th class=num>lines</th><th class=num>reads</th><th>class</th></tr>")
    for h in data.hot:
        out.append(f"<tr><td><code>{escape(h.path)}</code></td><td class=num>{h.commits}</td>"
                   f"<td class=num>{h.lines_changed}</td><td class=num>{h.loc}</td>"
                   f"<td class=num>{h.reads}</td><td>{_badge(classes.get(h.path, ''))}</td></tr>")
    out.append("</table>")
    return "".join(out) + "</section>"


def _crossover(data: ReportData) -> str:
    out = [_h2("crossover")]
    t = data.thresholds
    if t is not None:
        out.append(f'<p class="muted">High churn: ≥ {t.high_churn} commits (P{t.churn_percentile}'
                   f" of changed files, at least 2). Many reads: ≥ {t.many_reads} reads "
                   f"(P{t.reads_percentile} of read files, at least 3).</p>")
    counts = [(c, data.class_counts.get(c, 0)) for c in CLASSES]
    out.append('<div class="grid"><div>')
    out.append(charts.bars(counts, label="files per crossover class", width=440,
                           colours=charts.CLASS_COLOURS))
    out.append("</div><div><table><tr><th>class</th><th>meaning</th><th class=num>files</th>"
               "</tr>")
    for cls, n in counts:
        out.append(f"<tr><td>{_badge(cls)}</td><td>{escape(CLASS_MEANING[cls])}</td>"
                   f"<td class=num>{n}</td></tr>")
    out.append("</table></div></div>")
    shown = [r for r in data.crossover if r.cls != "COLD"][:CROSSOVER_ROWS]
    if not data.crossover:
        out.append(_empty("No files found."))
    elif not shown:
        out.append(_empty("Every file is COLD: little churn and little reading in this window."))
    else:
        out.append("<table><tr><th>class</th><th>file</th><th class=num>commits</th>"
                   "<th class=num>lines changed</th><th class=num>reads</th>"
                   "<th class=num>edits</th></tr>")
        for r in shown:
            out.append(f"<tr><td>{_badge(r.cls)}</td><td><code>{escape(r.path)}</code></td>"
                       f"<td class=num>{r.commits}</td><td class=num>{r.lines_changed}</td>"
                       f"<td class=num>{r.reads}</td><td class=num>{r.edits}</td></tr>")
        out.append("</table>")
        hidden = len(data.crossover) - len(shown)
        if hidden:
            out.append(f'<p class="muted">{hidden} more files not shown (COLD, or beyond the '
                       f"first {CROSSOVER_ROWS}); <code>kenning analyze crossover</code> lists "
                       "them all.</p>")
    return "".join(out) + "</section>"


def _gaps(data: ReportData) -> str:
    out = [_h2("gaps")]
    if not data.gaps:
        out.append(_empty("No knowledge gaps: every search so far found something."))
        return "".join(out) + "</section>"
    out.append('<p class="muted">Searches that returned nothing. A repeated one is a fact '
               "worth writing down.</p><table><tr><th>query</th><th class=num>times</th>"
               "<th>last</th></tr>")
    for g in data.gaps:
        out.append(f"<tr><td>{escape(g.query)}</td><td class=num>{g.count}</td>"
                   f"<td>{escape(g.last)}</td></tr>")
    out.append("</table>")
    return "".join(out) + "</section>"


def _communities(data: ReportData) -> str:
    out = [_h2("communities")]
    if not data.communities:
        out.append(_empty("No graph yet: no facts, and no links, imports or co-access between "
                          "files."))
        return "".join(out) + "</section>"
    edges = ", ".join(f"{k} {v}" for k, v in data.edge_counts.items())
    out.append(f'<p class="muted">Louvain communities over files (circles) and facts '
               f"(squares); size is PageRank. Edges: {escape(edges)}.</p>")
    out.append('<div class="grid"><div>')
    out.append(charts.network(data.map_nodes, data.map_edges, label="knowledge graph",
                              size=480))
    out.append("</div><div><table><tr><th>#</th><th class=num>files</th><th class=num>facts"
               "</th><th>most central</th></tr>")
    for c in data.communities[:12]:
        colour = charts.PALETTE[c.index % len(charts.PALETTE)]
        members = "<br>".join(
            (f"<code>{escape(m.label)}</code>" if m.type == "file" else escape(m.label))
            for m in c.members[:4])
        tags = f'<br><span class="muted">{escape(" ".join("#" + t for t in c.tags))}</span>' \
            if c.tags else ""
        out.append(f'<tr><td><span class="cls" style="background:{colour}">{c.index}</span>'
                   f"</td><td class=num>{c.files}</td><td class=num>{c.facts}</td>"
                   f"<td>{members}{tags}</td></tr>")
    out.append("</table></div></div>")
    if len(data.communities) > 12:
        out.append(f'<p class="muted">{len(data.communities) - 12} smaller communities not '
                   "shown; <code>kenning graph communities</code> lists them.</p>")
    return "".join(out) + "</section>"
