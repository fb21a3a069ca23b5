"""The index is derived: delete it, rebuild, and nothing a user sees changes."""

import random
from datetime import UTC, datetime, timedelta

from kenning.core.paths import current_project
from kenning.index.db import discard
from kenning.memory import Memory

TOPICS = ["billing", "auth", "deploy", "cache", "search", "queue", "email", "metrics"]


class Clock:
    def __init__(self, start: datetime):
        self.now = start

    def __call__(self) -> datetime:
        return self.now


def snapshot(memory: Memory, queries: list[str]):
    results = [[(h.id, h.score) for h in memory.search_facts(q, record=None)] for q in queries]
    confidences = {v.row.id: (v.current, v.status) for v in memory.facts()}
    return results, confidences


def test_search_and_confidence_survive_deleting_the_index(isolated):
    rng = random.Random(7)
    clock = Clock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    memory = Memory(current_project(isolated), "fake", clock=clock)
    for n in range(60):
        topic = rng.choice(TOPICS)
        memory.add(f"The {topic} service keeps setting {n} in config key {topic}_{n}",
                   rng.choice(["codebase", "decision"]), origin=rng.choice(["user", "agent"]))
    queries = [f"{t} config" for t in TOPICS] + ["service setting"]
    uses = 0
    for week in range(10):
        for _ in range(50):
            clock.now += timedelta(hours=rng.randint(1, 3))
            memory.search_facts(rng.choice(queries), limit=rng.randint(1, 4), record="search")
            uses += 1
        clock.now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC) + timedelta(weeks=week + 1)
    assert uses == 500
    clock.now += timedelta(weeks=10)  # ten idle weeks: decay must show
    before = snapshot(memory, queries)
    assert any(status == "archived" for _, status in before[1].values())
    assert len({c for c, _ in before[1].values()}) > 3
    memory.close()
    discard(memory.project.index_path)
    assert not memory.project.index_path.exists()
    rebuilt = Memory(current_project(isolated), "fake", clock=clock)
    assert snapshot(rebuilt, queries) == before
