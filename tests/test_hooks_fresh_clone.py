"""A teammate's fresh clone: the fact files are committed, the index is not built yet. The
first SessionStart reads the files itself (no YAML library on the hook path)."""

from __future__ import annotations

import shutil

from hypothesis import given, settings
from hypothesis import strategies as st

from kenning.core import clock
from kenning.core.paths import current_project
from kenning.core.records import Anchor
from kenning.hooks import factfiles
from kenning.store.factfile import render_fact
from kenning.store.facts import FactStore, scan
from kenning.store.projectinit import init_project
from test_hooks import context_of, payload, run_hook

TEXTS = [
    "Deploys go through the blue-green script; never deploy on Fridays.",
    "A long fact that wraps: " + "the retry policy doubles the wait each attempt " * 4,
    "Quotes 'single' and \"double\" and a colon: here, plus # not a comment.",
    "Line one of a multi-line fact.\nLine two after a newline.",
]


def test_a_fresh_clone_injects_its_committed_facts_in_the_first_session_start(repo):
    project = current_project(repo)
    init_project(project, move_facts=False)
    store = FactStore(project)
    for text in TEXTS:
        store.create(text, "decision", origin="user", tags=("ops",))
    store.create("retry.py holds the backoff.", "codebase", origin="user",
              about=(Anchor("src/retry.py", "backoff"),))
    shutil.rmtree(project.data_dir, ignore_errors=True)  # a clone: no index, no local files
    context = context_of(run_hook("session-start", payload("session_start", repo)),
                         "SessionStart")
    assert "5 active facts" in context
    for text in TEXTS[:3]:
        assert " ".join(text.split())[:60] in context.replace("&quot;", '"')
    assert "Line one of a multi-line fact." in context
    assert "retry.py holds the backoff" not in context  # anchored: waits for its file


def test_the_stdlib_reader_agrees_with_the_yaml_reader_on_written_files(repo):
    project = current_project(repo)
    init_project(project, move_facts=False)
    store = FactStore(project)
    for text in TEXTS:
        store.create(text, "codebase", origin="agent", tags=("a", "b"))
    facts = {s.fact.id: s.fact for s in scan(project).facts}
    rows = factfiles.active_facts(str(project.project_facts_dir), clock.now())
    assert {r.id for r in rows} == set(facts)
    for row in rows:
        fact = facts[row.id]
        assert (row.text, row.kind, row.confidence, row.tags) == (
            fact.text, fact.kind, fact.confidence, "a b")


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=300)
       .filter(lambda t: t.strip() == t and t.strip()))
def test_any_text_kenning_writes_reads_back_or_is_skipped(text):
    from datetime import UTC, datetime

    from kenning.core.records import Fact

    now = datetime(2026, 11, 29, tzinfo=UTC)
    fact = Fact(id="01JF3Z8Q6T1V3N1C2X7D9K4M5P", kind="codebase", text=text, created=now,
                confirmed=now, confidence=70)
    fields = factfiles.parse(render_fact(fact))
    assert fields is None or fields["text"] == text
