"""Timing that holds on any machine of this kind, quiet or loaded.

A gated timing is never an absolute number: it is the median of the thing measured divided by
the median of a reference, the two run in turn (A B A B ...) in the same process tree, so both
see the same machine load at the same moments. Absolute figures are still reported beside
each ratio, for reading, never for gating.
"""

from __future__ import annotations

import os
import sqlite3
import statistics
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Paired:
    """Medians of a subject and its reference, measured interleaved."""

    subject_s: float
    reference_s: float

    @property
    def ratio(self) -> float:
        return self.subject_s / self.reference_s


def interleave(subject: Callable[[int], object], reference: Callable[[int], object],
               rounds: int, record: tuple[list[float], list[float]] | None = None,
               settle: Callable[[], object] | None = None) -> Paired:
    """Run reference then subject, `rounds` times; each call gets the round number.
    `record`, when given, receives every (subject, reference) time. `settle`, when given, runs
    untimed after each round: what the subject left running (a detached child) ends before
    the next pair is timed, so neither side of it runs beside the last round's leftovers."""
    subject_times, reference_times = record or ([], [])
    for n in range(rounds):
        reference_times.append(_timed(reference, n))
        subject_times.append(_timed(subject, n))
        if settle is not None:
            settle()
    return Paired(statistics.median(subject_times), statistics.median(reference_times))


def interleave_medians(calls: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Each call in turn, in the dict's order, `rounds` times, so all see the same load: the
    median seconds of each, by key."""
    times: dict[str, list[float]] = {key: [] for key in calls}
    for _ in range(rounds):
        for key, call in calls.items():
            start = time.perf_counter()
            call()
            times[key].append(time.perf_counter() - start)
    return {key: statistics.median(value) for key, value in times.items()}


def _timed(call: Callable[[int], object], n: int) -> float:
    start = time.perf_counter()
    call(n)
    return time.perf_counter() - start


def ratio_row(name: str, paired: Paired, budget: float | None, unit: str = "s") -> dict:
    """A bench row gated on the ratio; the absolute medians ride along as `detail`."""
    scale = 1000 if unit == "ms" else 1
    detail = (f"{paired.subject_s * scale:.{1 if scale > 1 else 2}f} vs "
              f"{paired.reference_s * scale:.{1 if scale > 1 else 2}f} {unit}")
    return {"name": name, "value": round(paired.ratio, 2), "budget": budget, "unit": "x",
            "ok": budget is None or paired.ratio <= budget, "detail": detail}


def run_checked(argv: list[str], stdin: bytes = b"", env: dict | None = None,
                cwd: str | None = None) -> subprocess.CompletedProcess[bytes]:
    """A child that must succeed: a crash would time as fast as the real work."""
    result = subprocess.run(argv, input=stdin, capture_output=True, env=env, cwd=cwd)
    if result.returncode != 0:
        raise RuntimeError(f"{argv[:4]} exited {result.returncode}: "
                           f"{result.stderr.decode(errors='replace')[:400]}")
    return result


def bare_python(python: str) -> list[str]:
    """The like-for-like baseline of a hook: the launcher runs Python with -I -S."""
    return [python, "-I", "-S", "-c", "pass"]


class Calibration:
    """A fixed in-process workload of the same kind as a warm search: one FTS5 BM25 query over
    10k short documents and a brute-force cosine over 100k x 256 float32 vectors, top 10.

    Built once (seeded); each `run()` does the same work, so its median is the machine's
    current speed for that mix of SQLite and numpy.
    """

    WORDS = ("invoice session token webhook upload report event payment user job query email "
             "retry cache shard batch rotate stream validate schedule").split()

    def __init__(self, docs: int = 10_000, vectors: int = 100_000, dim: int = 256) -> None:
        import random

        import numpy as np

        rng = random.Random(11)
        self.conn = sqlite3.connect(":memory:")
        self.conn.execute("CREATE VIRTUAL TABLE d USING fts5(text, tokenize='porter')")
        self.conn.executemany("INSERT INTO d(text) VALUES (?)", [
            (" ".join(rng.choices(self.WORDS, k=14)),) for _ in range(docs)])
        matrix = np.random.default_rng(11).standard_normal((vectors, dim)).astype(np.float32)
        matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
        self.matrix = matrix
        self.query = matrix[0]
        self._np = np

    def run(self, _n: int = 0) -> int:
        hits = self.conn.execute(
            "SELECT rowid FROM d WHERE d MATCH 'invoice OR retry' ORDER BY bm25(d) LIMIT 10"
        ).fetchall()
        scores = self.matrix @ self.query
        top = self._np.argpartition(-scores, 10)[:10]
        return len(hits) + len(top)


def quiet_env(**extra: str) -> dict[str, str]:
    """os.environ without a caller's KENNING_NOW, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if k != "KENNING_NOW"}
    env.update(extra)
    return env
