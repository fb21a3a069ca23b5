"""Fact store at scale: rebuild 10k fact files, warm search p50/p95, cold CLI search.

Fixed, generated workload (seeded), bundled model. Every gated figure is a ratio to a
reference interleaved with it (bench/timing.py); every timed run checks that the work happened
(the rebuild indexed every fact, each search found something).
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from timing import Calibration, interleave, quiet_env, ratio_row, run_checked

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


def generate_facts(root: Path, n: int = N_FACTS, seed: int = 1,
                   extra: tuple[str, ...] = ()) -> None:
    """Write `n` fact files straight into the personal store (fast, deterministic), then one
    file for each text in `extra`."""
    from kenning.core.ids import new_ulid
    from kenning.core.paths import current_project
    from kenning.core.records import Anchor, Fact, Source
    from kenning.store.factfile import render_fact

    rng = random.Random(seed)
    directory = current_project(root).personal_facts_dir
    directory.mkdir(parents=True, exist_ok=True)
    # Recent enough that decay archives none of them: the bench measures live search.
    base = datetime.now(UTC).replace(microsecond=0) - timedelta(days=20)
    for i in range(n + len(extra)):
        area, verb, thing = rng.choice(AREAS), rng.choice(VERBS), rng.choice(THINGS)
        text = (f"The {area} module {verb} {thing} in src/{area}/{thing}_{i % 97}.py "
                f"using {area.title()}{thing.title()}Handler with limit {rng.randint(1, 500)}."
                if i < n else extra[i - n])
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


WARM_ROUNDS = 300
COLD_ROUNDS = 7
REBUILD_ROUNDS = 3


def measure() -> dict:
    from kenning.core.paths import current_project
    from kenning.memory import Memory

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        env = quiet_env(KENNING_HOME=str(Path(tmp) / "home"), KENNING_EMBEDDER="bundled")
        os.environ.update({"KENNING_HOME": env["KENNING_HOME"], "KENNING_EMBEDDER": "bundled"})
        generate_facts(root)
        project = current_project(root)
        kenning = [sys.executable, "-m", "kenning", "-C", str(root)]
        calibration = Calibration()
        block = _calibration_block(calibration)
        rebuild = interleave(lambda n: _rebuild(kenning, env, project), block, REBUILD_ROUNDS)
        reference_db = _reference_db(Path(tmp) / "reference.db", project)
        cold_facts = _cold(kenning, env, project, reference_db)
        generate_chunks(project.index_path)
        reference_db = _reference_db(Path(tmp) / "reference-all.db", project, chunks=True)
        cold_all = _cold(kenning, env, project, reference_db)

        memory = Memory(project, "bundled")
        found = len(memory.search("warm up", record=None))
        timings: list[float] = []
        references: list[float] = []

        def search(n: int) -> None:
            hits = memory.search(QUERIES[n % len(QUERIES)], limit=10)
            if not hits:
                raise RuntimeError(f"no hit for {QUERIES[n % len(QUERIES)]!r}")

        warm = interleave(search, calibration.run, WARM_ROUNDS, record=(timings, references))
        memory.close()
    return {"rebuild": rebuild, "warm": warm, "warm_p95_ms": _percentile(timings, 95) * 1000,
            "cold_facts": cold_facts, "cold_all": cold_all, "warm_found": found}


def _calibration_block(calibration: Calibration, runs: int = 40):
    def block(_n: int) -> None:
        for _ in range(runs):
            calibration.run()
    return block


def _rebuild(kenning: list[str], env: dict, project) -> None:
    result = run_checked([*kenning, "rebuild"], env=env)
    count = sqlite3.connect(project.index_path).execute(
        "SELECT count(*) FROM facts").fetchone()[0]
    if count != N_FACTS:
        raise RuntimeError(f"rebuild indexed {count} facts, not {N_FACTS}: {result.stderr[:200]}")


def _reference_db(path: Path, project, chunks: bool = False) -> Path:
    """The stdlib reference searcher's index over the same texts (bench/reference_bm25.py)."""
    import reference_bm25

    source = sqlite3.connect(project.index_path)
    texts = [(str(r[0]), r[1]) for r in source.execute("SELECT id, text FROM facts")]
    if chunks:
        texts += [(f"c{r[0]}", r[1]) for r in source.execute("SELECT id, text FROM chunks")]
    source.close()
    conn = reference_bm25.create(str(path))
    reference_bm25.index_texts(conn, texts)
    conn.close()
    return path


def _cold(kenning: list[str], env: dict, project, reference_db: Path):
    """The first search of a fresh process on an index whose caches it must build itself,
    against a fresh process of the stdlib reference searcher on the same texts."""
    reference = [sys.executable, str(Path(__file__).with_name("reference_bm25.py")), "--search",
                 str(reference_db)]

    def cold(n: int) -> None:
        for cache in project.data_dir.glob("chunk-vectors-*"):
            cache.unlink()
        out = run_checked([*kenning, "search", QUERIES[n % len(QUERIES)], "--json"], env=env)
        if not json.loads(out.stdout):
            raise RuntimeError(f"cold search found nothing for {QUERIES[n % len(QUERIES)]!r}")

    def plain(n: int) -> None:
        if not run_checked([*reference, QUERIES[n % len(QUERIES)]], env=env).stdout.strip():
            raise RuntimeError("the reference searcher found nothing")

    return interleave(cold, plain, COLD_ROUNDS)


# Budgets: ratios to a reference measured in the same run (bench/timing.py). Chosen with margin
# over what a quiet 2-core machine measures and checked with two CPU-bound processes beside it;
# the absolute figures are reported beside them and are not gated.
# Measured on a 2-core machine, quiet / with two CPU-bound processes beside the bench: rebuild
# 7.8 / 8.0, warm 1.17 / 1.03, cold 10.2 / 8.4; under heavier load (load average 9) rebuild
# reached 11.1 and cold 14.3: the rebuild embeds with the tokenizer's threads.
REBUILD_BUDGET = 14.0    # rebuild 10k facts / 40 calibration searches
WARM_BUDGET = 2.0        # warm search p50 / one calibration search
COLD_BUDGET = 20.0       # cold CLI search / a fresh stdlib reference search, 10k facts


def run(check: bool) -> list[dict]:
    m = measure()
    rebuild, warm, cold, cold_all = m["rebuild"], m["warm"], m["cold_facts"], m["cold_all"]
    return [
        ratio_row("rebuild index from 10k fact files / 40 calibration searches", rebuild,
                  REBUILD_BUDGET),
        ratio_row("search, warm, 10k facts + 100k chunks, p50 / calibration search", warm,
                  WARM_BUDGET, unit="ms"),
        {"name": "search, warm, 10k facts + 100k chunks, p95", "value": round(m["warm_p95_ms"], 2),
         "budget": None, "unit": "ms", "ok": True},
        ratio_row("search, cold CLI process, 10k facts / stdlib reference searcher", cold,
                  COLD_BUDGET, unit="ms"),
        ratio_row("search, cold CLI process, 10k facts + 100k chunks / reference searcher",
                  cold_all, None, unit="ms"),
    ]


if __name__ == "__main__":
    for row in run(check=False):
        print(row)
