"""`kenning report`: one self-contained HTML file about a project's knowledge.

No server, no CDN, no script, no network: inline CSS and SVG only, readable offline.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from kenning.insight.report.data import ReportData, gather
from kenning.insight.report.render import SECTIONS, render

if TYPE_CHECKING:
    from kenning.index.facts import FactIndex

__all__ = ["SECTIONS", "ReportData", "build_report", "gather", "render", "write_report"]


def build_report(memory: FactIndex, *, days: int | None = 90, ignore: Iterable[str] = ()) -> str:
    """The report's HTML for `memory`'s project."""
    return render(gather(memory, days=days, ignore=ignore))


def write_report(
    memory: FactIndex, output: Path, *, days: int | None = 90, ignore: Iterable[str] = ()
) -> Path:
    """Build the report and write it atomically to `output`."""
    from kenning.core.atomic import write_atomic

    html = build_report(memory, days=days, ignore=ignore)
    output.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(output, html)
    output.chmod(0o644)  # a report is for sharing; the temp file was created 0600
    return output
