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


N_CHUNKS = 100_000
# Code vocabulary is Zipfian: language keywords are everywhere, domain words are not. The
# domain words the queries use sit at ranks 300-400 of a 5,000-word vocabulary, which gives
# them the 1-3 % document frequency such words have in a real million-line codebase.
KEYWORDS = ("self return none true false if else for in def class import from value data "
            "result name item key list dict get set").split()
DOMAIN = ("config load save retry cache token user invoice payment queue worker job schedule "
          "render template request response header session commit rollback migrate index "
          "search query filter sort page limit offset stream buffer flush close open email "
          "webhook upload report event deploy storage billing rate api database test validate "
          "rotate batch shard").split()


def _vocabulary(size: int = 5000) -> list[str]:
    syllables = ["ka", "lo", "mi", "ren", "tor", "vex", "qui", "sal", "dun", "pho", "zer", "bli"]
    rng = random.Random(3)
    made: set[str] = set()
    while len(made) < size - len(KEYWORDS) - len(DOMAIN):
        made.add("".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))))
    filler = sorted(made)
    rng.shuffle(filler)
    head = 300 - len(KEYWORDS)
    return list(KEYWORDS) + filler[:head] + list(DOMAIN) + filler[head:]


def generate_chunks(index_path: Path, n: int = N_CHUNKS, seed: int = 2) -> None:
    """Insert `n` synthetic code chunks (text, FTS terms, float16 vectors) into the index.

    Indexing a million-line repo would take minutes; search speed only needs the rows.
    """
    import sqlite3

    import numpy as np

    rng = random.Random(seed)
    vocab = _vocabulary()
    weights = [1 / (rank + 1) ** 1.1 for rank in range(len(vocab))]
    vectors = np.random.default_rng(seed).standard_normal((n, 256)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors = vectors.astype(np.float16)
    conn = sqlite3.connect(index_path)
    with conn:
        for i in range(n):
            name = "_".join(rng.choices(vocab, weights, k=2))
            body = " ".join(rng.choices(vocab, weights, k=60))
            cur = conn.execute(
                "INSERT INTO chunks(path, start_line, end_line, kind, symbol, lang, doc, text, "
                "terms) VALUES (?, ?, ?, 'function', ?, 'python', 0, ?, ?)",
                (f"src/mod{i % 2000}.py", 1 + i % 50, 20 + i % 50, name,
                 f"def {name}():\n    {body}", name.replace("_", " ")))
            conn.execute("INSERT INTO chunk_vectors(chunk_id, vec) VALUES (?, ?)",
                         (cur.lastrowid, vectors[i].tobytes()))
        conn.execute("INSERT INTO meta(key, value) VALUES ('code_embedder', 'bundled') "
                     "ON CONFLICT(key) DO UPDATE SET value = excluded.value")
    conn.close()


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
        cold_facts = _cold_searches(kenning, env)
        generate_chunks(current_project(root).index_path)

        memory = Memory(current_project(root), "bundled")
        memory.search("warm up", record=None)
        timings = []
        for i in range(300):
            query = QUERIES[i % len(QUERIES)]
            start = time.perf_counter()
            memory.search(query, limit=10)
            timings.append((time.perf_counter() - start) * 1000)
        memory.close()

        cold_all = _cold_searches(kenning, env)
    return {
        "rebuild_s": rebuild_s,
        "warm_p50_ms": statistics.median(timings),
        "warm_p95_ms": _percentile(timings, 95),
        "cold_s": cold_facts,
        "cold_all_s": cold_all,
    }


def _cold_searches(kenning: list[str], env: dict) -> float:
    """Median wall time of a fresh `kenning search` process (the first run warms the disk)."""
    subprocess.run([*kenning, "search", "warm the page cache"], env=env, check=True,
                   capture_output=True)
    cold = []
    for query in QUERIES[:5]:
        start = time.perf_counter()
        subprocess.run([*kenning, "search", query], env=env, check=True, capture_output=True)
        cold.append(time.perf_counter() - start)
    return statistics.median(cold)


def run(check: bool) -> list[dict]:
    m = measure()
    return [
        {"name": "rebuild index from 10k fact files", "value": round(m["rebuild_s"], 2),
         "budget": 15.0, "unit": "s", "ok": m["rebuild_s"] <= 15.0},
        {"name": "search, warm, 10k facts + 100k chunks, p50", "value": round(m["warm_p50_ms"], 2),
         "budget": 10.0, "unit": "ms", "ok": m["warm_p50_ms"] <= 10.0},
        {"name": "search, warm, 10k facts + 100k chunks, p95", "value": round(m["warm_p95_ms"], 2),
         "budget": None, "unit": "ms", "ok": True},
        {"name": "search, cold CLI process, 10k facts", "value": round(m["cold_s"], 3),
         "budget": 0.5, "unit": "s", "ok": m["cold_s"] <= 0.5},
        {"name": "search, cold CLI process, 10k facts + 100k chunks",
         "value": round(m["cold_all_s"], 3), "budget": None, "unit": "s", "ok": True},
    ]


if __name__ == "__main__":
    for row in run(check=False):
        print(row)
