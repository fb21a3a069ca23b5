"""`kenning report`: one self-contained HTML file with every section, empty or not."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path

from kenning.core.paths import current_project
from kenning.insight.report import SECTIONS
from kenning.store import eventlog

TITLES = [title for _, title in SECTIONS]


class Collector(HTMLParser):
    """Tags, attributes and visible text of a page."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag in ("style", "title"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("style", "title"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


def parse(html: str) -> Collector:
    page = Collector()
    page.feed(html)
    return page


def assert_self_contained(html: str) -> None:
    page = parse(html)
    assert not [t for t, _ in page.tags if t in ("script", "iframe", "link", "object", "embed")]
    for _, attrs in page.tags:
        for key in ("src", "href", "srcset", "action", "data"):
            value = attrs.get(key)
            if value is not None:
                assert value.startswith("#"), f"{key}={value!r} leaves the file"
    assert "url(" not in html and "@import" not in html
    assert "default-src 'none'" in html


def make_report(kenning, path: Path, *args: str) -> str:
    result = kenning("report", "-o", str(path), *args)
    assert result.code == 0, result.err
    assert f"wrote {path}" in result.out
    return path.read_text(encoding="utf-8")


def test_an_empty_project_still_has_every_section(kenning, isolated, tmp_path):
    html = make_report(kenning, tmp_path / "r.html")
    assert_self_contained(html)
    text = " ".join(parse(html).text)
    for title in TITLES:
        assert title in text
    assert "No facts yet" in text
    assert "No knowledge gaps" in text
    assert "not a git repository" in text


def seed(kenning, root: Path) -> None:
    import subprocess

    from conftest import git

    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("from .db import x\n" + "y = 1\n" * 30,
                                         encoding="utf-8")
    (root / "src" / "db.py").write_text("x = 1\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "code")
    for n in range(3):
        (root / "src" / "app.py").write_text("from .db import x\n" + f"y = {n}\n" * 30,
                                             encoding="utf-8")
        subprocess.run(["git", "commit", "-qam", f"app {n}"], cwd=root, check=True)
    kenning("index")
    kenning("add", "-a", "src/db.py", "-t", "db", "Always squash commits before merging")
    kenning("add", "-t", "db", "Never squash commits before merging")
    kenning("add", "-k", "interaction", "Reply briefly <b>please</b> & skip summaries")
    kenning("add", "-a", "src/db.py:vanished_function", "The vanished function retries twice")
    events = current_project().events_path
    for query in ("zzqx kubernetes helm", "zzqx  Kubernetes helm", "release checklist"):
        eventlog.append(events, {"type": "gap", "query": query, "via": "search"})
    for n in range(4):
        eventlog.append(events, {"type": "read", "paths": ["src/db.py"], "session": f"s{n}"})


def test_a_project_with_history_fills_every_section(kenning, repo, tmp_path):
    seed(kenning, repo)
    (tmp_path / "out").mkdir()
    html = make_report(kenning, tmp_path / "out" / "report.html")
    assert_self_contained(html)
    text = " ".join(parse(html).text)
    for title in TITLES:
        assert title in text
    assert "Always squash commits before merging" in text  # a contradiction, both sides
    assert "opposite" in text
    assert "The vanished function retries twice" in text  # a stale (drifted/orphaned) fact
    assert "zzqx kubernetes helm" in text  # a knowledge gap, counted twice
    assert re.search(r"zzqx kubernetes helm\s+2", text)
    assert "src/app.py" in text  # the hot file
    assert "BLIND" in text and "STABLE" in text
    assert "<svg" in html and "</svg>" in html
    # fact text is escaped, never markup
    assert "<b>please</b>" not in html and "&lt;b&gt;please&lt;/b&gt;" in html


def test_default_location_is_the_projects_local_folder(kenning, isolated):
    result = kenning("report")
    target = current_project().local_dir / "report.html"
    assert result.code == 0 and str(target) in result.out
    assert target.exists() and oct(target.stat().st_mode & 0o777) == "0o644"


def test_open_hands_the_file_to_the_browser(kenning, isolated, tmp_path, monkeypatch):
    import webbrowser

    opened = []
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url) or True)
    make_report(kenning, tmp_path / "r.html", "--open")
    assert opened == [(tmp_path / "r.html").as_uri()]


def test_decay_order_follows_the_confidence_rules(kenning, isolated, monkeypatch, tmp_path):
    now = datetime(2026, 6, 1, tzinfo=UTC)
    monkeypatch.setenv("KENNING_NOW", (now - timedelta(weeks=7)).strftime("%Y-%m-%dT%H:%M:%SZ"))
    kenning("add", "--origin", "agent", "Old agent fact about caching")  # 0.70, 7 weeks ago
    monkeypatch.setenv("KENNING_NOW", now.strftime("%Y-%m-%dT%H:%M:%SZ"))
    kenning("add", "Fresh person fact about logging")  # 1.00 now
    html = make_report(kenning, tmp_path / "r.html")
    text = " ".join(parse(html).text)
    # 0.70 archives after 9 whole weeks: 2 weeks from now; 1.00 after 15 weeks
    old_at = (now - timedelta(weeks=7) + timedelta(weeks=9)).strftime("%Y-%m-%d")
    new_at = (now + timedelta(weeks=15)).strftime("%Y-%m-%d")
    assert text.index(old_at) < text.index(new_at)
    assert text.index("Old agent fact about caching") < text.index("Fresh person fact")
