"""Small inline SVG charts (no script, no fonts to fetch): pure functions returning markup."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac")
CLASS_COLOURS = {"BLIND": "#e15759", "TURBULENT": "#f28e2b", "HOT": "#edc948",
                 "STABLE": "#59a14f", "ZOMBIE": "#b07aa1", "COLD": "#76b7b2"}


def _svg(width: int, height: int, body: list[str], label: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" role="img" aria-label="{escape(label)}">'
            + "".join(body) + "</svg>")


def _text(x: float, y: float, value: str, anchor: str = "start", size: int = 12,
          cls: str = "") -> str:
    extra = f' class="{cls}"' if cls else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{extra}>'
            f"{escape(value)}</text>")


def bars(items: Sequence[tuple[str, float]], *, label: str, width: int = 520,
         colours: Mapping[str, str] | None = None, unit: str = "") -> str:
    """Horizontal bars, one per (name, value)."""
    if not items:
        return ""
    row = 22
    left = min(240, 14 + 8 * max(len(name) for name, _ in items))
    height = row * len(items) + 8
    top = max((v for _, v in items), default=0) or 1
    body = []
    for n, (name, value) in enumerate(items):
        y = 4 + n * row
        span = (width - left - 60) * (value / top)
        colour = (colours or {}).get(name, PALETTE[n % len(PALETTE)] if colours else PALETTE[0])
        body.append(_text(left - 6, y + 14, _clip(name, 34), "end"))
        body.append(f'<rect x="{left}" y="{y + 3}" width="{max(span, 1):.1f}" height="{row - 8}"'
                     f' fill="{colour}" rx="2"><title>{escape(name)}: {value:g}{unit}</title>'
                     f"</rect>")
        body.append(_text(left + span + 6, y + 14, f"{value:g}{unit}"))
    return _svg(width, height, body, label)


def stacked_bars(rows: Sequence[tuple[str, Sequence[float]]], series: Sequence[str], *,
                 label: str, colours: Sequence[str] = PALETTE, width: int = 560) -> str:
    """One horizontal bar per row, split into `series`; a legend underneath."""
    if not rows:
        return ""
    row = 26
    left = 110
    total_max = max((sum(vals) for _, vals in rows), default=0) or 1
    body = []
    for n, (name, values) in enumerate(rows):
        y = 4 + n * row
        x = float(left)
        body.append(_text(left - 8, y + 16, name, "end"))
        for s, value in enumerate(values):
            if not value:
                continue
            span = (width - left - 50) * value / total_max
            body.append(f'<rect x="{x:.1f}" y="{y + 3}" width="{span:.1f}" height="{row - 8}" '
                        f'fill="{colours[s % len(colours)]}"><title>{escape(name)}, '
                        f"{escape(series[s])}: {value:g}</title></rect>")
            x += span
        body.append(_text(x + 6, y + 16, f"{sum(values):g}"))
    legend_y = 8 + len(rows) * row
    x = float(left)
    for s, name in enumerate(series):
        body.append(f'<rect x="{x:.1f}" y="{legend_y}" width="10" height="10" '
                    f'fill="{colours[s % len(colours)]}"/>')
        body.append(_text(x + 14, legend_y + 9, name, size=11))
        x += 22 + 7 * len(name)
    return _svg(width, legend_y + 18, body, label)


def columns(items: Sequence[tuple[str, float]], *, label: str, width: int = 520,
            height: int = 140, colour: str = PALETTE[0]) -> str:
    """Vertical columns with their labels below (e.g. facts archived per week)."""
    if not items:
        return ""
    top = max((v for _, v in items), default=0) or 1
    slot = (width - 20) / len(items)
    base = height - 20
    body = [f'<line x1="10" y1="{base}" x2="{width - 10}" y2="{base}" stroke="#999"/>']
    for n, (name, value) in enumerate(items):
        h = (base - 18) * value / top
        x = 10 + n * slot + slot * 0.15
        body.append(f'<rect x="{x:.1f}" y="{base - h:.1f}" width="{slot * 0.7:.1f}" '
                    f'height="{h:.1f}" fill="{colour}"><title>{escape(name)}: {value:g}</title>'
                    f"</rect>")
        if value:
            body.append(_text(x + slot * 0.35, base - h - 4, f"{value:g}", "middle", 10))
        body.append(_text(x + slot * 0.35, base + 14, name, "middle", 10))
    return _svg(width, height, body, label)


def network(nodes: Sequence[tuple[str, float, float, int, float, str]],
            edges: Sequence[tuple[str, str]], *, label: str, size: int = 560) -> str:
    """A node-link picture: nodes (id, x, y, community, importance, title) in [-1, 1]²."""
    if not nodes:
        return ""
    pad = 24
    scale = (size - 2 * pad) / 2
    where = {n[0]: (pad + (n[1] + 1) * scale, pad + (n[2] + 1) * scale) for n in nodes}
    top = max(n[4] for n in nodes) or 1
    body = []
    for a, b in edges:
        if a in where and b in where:
            (x1, y1), (x2, y2) = where[a], where[b]
            body.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                        f'stroke="#bbb" stroke-width="0.7"/>')
    for node_id, _, _, community, importance, title in nodes:
        x, y = where[node_id]
        radius = 3 + 7 * math.sqrt(importance / top)
        colour = PALETTE[community % len(PALETTE)] if community >= 0 else "#999"
        shape = "rect" if node_id.startswith("fact:") else "circle"
        if shape == "circle":
            body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="{colour}" '
                        f'stroke="#fff" stroke-width="1"><title>{escape(title)}</title></circle>')
        else:
            body.append(f'<rect x="{x - radius:.1f}" y="{y - radius:.1f}" width="{2 * radius:.1f}"'
                        f' height="{2 * radius:.1f}" fill="{colour}" stroke="#fff" '
                        f'stroke-width="1"><title>{escape(title)}</title></rect>')
    return _svg(size, size, body, label)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else "…" + text[-(width - 1):]
