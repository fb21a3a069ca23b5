"""Fact store at scale: rebuild 10k fact files, warm search p50/p95, cold CLI search.

Fixed, generated workload (seeded), bundled model. Budgets from DESIGN §8.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

N_FACTS = 10_000
AREAS = ["billing", "auth", "deploy", "cache", "search", "queue", "email", "metrics", "api",
         "frontend", "database", "migrations", "logging", "config", "tests", "ci", "storage"]
VERBS = ["retries", "validates", "caches", "logs", "batches", "encrypts", "streams", "shards",
         "throttles", "serialises", "schedules", "rotates"]
THINGS = ["invoices", "sessions", "webhooks", "tokens", "uploads", "reports", "events",
          "payments", "users", "jobs", "queries", "emails"]
QUERIES = ["how are invoices retried", "where do we cache sessions", "webhook validation",
           "token rotation schedule", "why do we shard events", "email batching",
           "deploy configuration for storage", "which tests cover billing",
           "rate limit on the api", "database migrations order"]


def generate_facts(root: Path, n: int = N_FACTS, seed: int = 1) -> None:
    """Write `n` fact files straight into the personal store (fast, deterministic)."""
    from kenning.factfile import render_fact
    from kenning.ids import new_ulid
    from kenning.paths import current_project
    from kenning.records import Anchor, Fact, Source

    rng = random.Random(seed)
    directory = current_project(root).personal_facts_dir
    directory.mkdir(parents=True, exist_ok=True)
    # Recent enough that decay archives none of them: the bench measures live search.
    base = datetime.now(UTC).replace(microsecond=0) - timedelta(days=20)
    for i in range(n):
        area, verb, thing = rng.choice(AREAS), rng.choice(VERBS), rng.choice(THINGS)
        text = (f"The {area} module {verb} {thing} in src/{area}/{thing}_{i % 97}.py "
                f"using {area.title()}{thing.title()}Handler with limit {rng.randint(1, 500)}.")
        fact = Fact(id=new_ulid(int(base.timestamp() * 1000) + i * 1000), kind=rng.choice(
            ["codebase", "codebase", "decision", "interaction"]), text=text, created=base,
            confirmed=base, confidence=rng.choice([70, 90, 100]),
            about=(Anchor(f"src/{area}/{thing}_{i % 97}.py"),), tags=(area,),
            source=Source("transcript"))
        (directory / f"{fact.id}.yaml").write_text(render_fact(fact), encoding="utf-8")


def _percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(pct / 100 * (len(ordered) - 1))))]


def measure() -> dict[str, float]:
    from kenning.memory import Memory
    from kenning.paths import current_project

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        env = {**os.environ, "KENNING_HOME": str(Path(tmp) / "home"),
               "KENNING_EMBEDDER": "bundled"}
        env.pop("KENNING_NOW", None)
        os.environ.update({"KENNING_HOME": env["KENNING_HOME"], "KENNING_EMBEDDER": "bundled"})
        generate_facts(root)
        kenning = [sys.executable, "-m", "kenning", "-C", str(root)]
        start = time.perf_counter()
        subprocess.run([*kenning, "rebuild"], env=env, check=True, capture_output=True)
        rebuild_s = time.perf_counter() - start

        memory = Memory(current_project(root), "bundled")
        memory.search_facts("warm up", record=None)
        timings = []
        for i in range(300):
            query = QUERIES[i % len(QUERIES)]
            start = time.perf_counter()
            memory.search_facts(query, limit=10)
            timings.append((time.perf_counter() - start) * 1000)
        memory.close()

        cold = []
        for query in QUERIES[:5]:
            start = time.perf_counter()
            subprocess.run([*kenning, "search", query], env=env, check=True,
                           capture_output=True)
            cold.append(time.perf_counter() - start)
    return {
        "rebuild_s": rebuild_s,
        "warm_p50_ms": statistics.median(timings),
        "warm_p95_ms": _percentile(timings, 95),
        "cold_s": statistics.median(cold),
    }


def run(check: bool) -> list[dict]:
    m = measure()
    return [
        {"name": "rebuild index from 10k fact files", "value": round(m["rebuild_s"], 2),
         "budget": 15.0, "unit": "s", "ok": m["rebuild_s"] <= 15.0},
        {"name": "fact search, warm, 10k facts, p50", "value": round(m["warm_p50_ms"], 2),
         "budget": 10.0, "unit": "ms", "ok": m["warm_p50_ms"] <= 10.0},
        {"name": "fact search, warm, 10k facts, p95", "value": round(m["warm_p95_ms"], 2),
         "budget": None, "unit": "ms", "ok": True},
        {"name": "search, cold CLI process, 10k facts", "value": round(m["cold_s"], 3),
         "budget": 0.5, "unit": "s", "ok": m["cold_s"] <= 0.5},
    ]


if __name__ == "__main__":
    for row in run(check=False):
        print(row)
