"""A search that cannot run is an error, not an empty result (and not a knowledge gap)."""

from __future__ import annotations

import pytest

from kenning.core.errors import KenningError
from kenning.core.paths import current_project
from kenning.memory import Memory


@pytest.fixture
def memory(repo):
    memory = Memory(current_project(repo), "fake")
    memory.add("Retries back off exponentially in src/http/retry.py.", "codebase")
    memory.sync()
    yield memory
    memory.close()


def test_a_broken_fact_index_is_an_error_not_a_knowledge_gap(memory):
    memory.index.conn.execute("DROP TABLE facts_fts")
    with pytest.raises(KenningError, match="kenning rebuild"):
        memory.search("retries backoff", types=("fact",))
    events = memory.project.events_path
    assert not events.exists() or '"gap"' not in events.read_text(encoding="utf-8")


def test_a_broken_chunk_index_is_an_error(memory):
    memory.index.conn.execute("DROP TABLE chunks_fts")
    with pytest.raises(KenningError):
        memory.search("retries backoff", types=("code",))


def test_a_query_fts5_cannot_parse_is_no_match(memory):
    assert memory.index.fact_scores('"unterminated', 5) == []
    assert memory.index.fact_scores("AND OR", 5) == []
