"""Code index: a 20k-line repo from scratch vs a plain stdlib FTS5 indexer (interleaved, both
fresh processes; the fixed start-up on a 1-file repo reported apart), the same against a plain
BM25 indexer over function chunks (issue 18's review's reference, reference_functions.py),
peak RSS, and a re-index with nothing changed (which must load neither the model nor any
grammar).

The repo is a fixed copy of installed pure-Python sources (click, yaml, ...), committed into
a fresh git repository, so the workload is the same on every machine with this venv.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import Paired, interleave, interleave_medians, quiet_env, ratio_row, run_checked

TARGET_LINES = 20_000
PACKAGES = ["click", "yaml", "rapidfuzz", "sqlite_utils", "tokenizers"]  # runtime dependencies only


def build_repo(dest: Path) -> int:
    """Copy .py files from installed packages until ~20k lines; returns the line count."""
    dest.mkdir(parents=True)
    lines = 0
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            continue
        for source in sorted(Path(next(iter(spec.submodule_search_locations))).rglob("*.py")):
            count = source.read_text(encoding="utf-8", errors="replace").count("\n")
            target = dest / package / source.relative_to(source.parents[len(
                source.relative_to(Path(next(iter(spec.submodule_search_locations)))).parts) - 1])
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            lines += count
            if lines >= TARGET_LINES:
                break
        if lines >= TARGET_LINES:
            break
    _commit(dest)
    return lines


def _commit(dest: Path) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@b"}
    for cmd in (["init", "-q"], ["add", "."], ["commit", "-qm", "x"]):
        subprocess.run(["git", *cmd], cwd=dest, check=True, env=env, capture_output=True)


REFERENCE = str(Path(__file__).parent / "reference_bm25.py")
FUNCTIONS_REFERENCE = str(Path(__file__).parent / "reference_functions.py")
ROUNDS = 5  # 3 rounds once read 10.2x at load 10-14 on a lucky reference run: 5 medians steady it
NOOP_PROBE = ("import sys; from kenning.cli import main\n"
              "try:\n    main(['-C', sys.argv[1], 'index', '--json'])\nexcept SystemExit: pass\n"
              "heavy = ('tree_sitter', 'model2vec', 'tokenizers')\n"
              "print('loaded:' + ','.join(m for m in heavy if m in sys.modules))")

# Budgets. Target: indexing a repository of >= 20k lines takes <= 4x the plain stdlib FTS5
# indexer on the same files; peak RSS <= 200 MB (memory, not timing: absolute). A no-change
# re-index is a ratio to the bare interpreter the CLI starts with (`python -c pass`).
INDEX_TARGET = 4.0     # docs/design.md's target; still missed (issue 18, round 2)
FUNCTIONS_TARGET = 4.0  # issue 18: "indexing <= 4x the plain BM25 indexer" over function chunks
# The regression gate until the target is met: 5.7x at load 3.7, 7.3x with two busy loops
# beside a load of 11, 8.6x at load 11 without them (the reference then takes 0.18 s).
# Round 3 (issue 18): 5.9x, 7.1x and once 10.2x at load 10-14 (the reference then took 0.21 s
# against its usual 0.34-0.41 s); in CPU seconds kenning 0.66-0.70 s, the reference 0.10 s.
# Round 4 (forked chunker, embedding thread, lazy CLI): 5.1x with real-time priority (a
# quiet machine's stand-in), 6.8x at load 19, 6.0x with two busy loops beside load 20; not
# tightened (round 3 once read 10.2x under load, and the fork only helps with a free core).
# Against function chunks: 2.6x, 3.0x, 2.5x (round 3's code: 3.4x with real-time priority).
INDEX_BUDGET = 10.0
RSS_BUDGET_MB = 200
NOOP_BUDGET = 25.0     # 14x quiet: the ratio is to a bare interpreter of about 10 ms


def _compile_bytecode() -> None:
    """kenning's modules compiled, as installing a wheel does: an editable install under
    PYTHONDONTWRITEBYTECODE would otherwise compile them again in every timed process."""
    import compileall

    import kenning

    compileall.compile_dir(str(Path(kenning.__file__).parent), quiet=1)


def measure() -> dict:
    _compile_bytecode()
    with tempfile.TemporaryDirectory() as tmp:
        repo, tiny = Path(tmp) / "repo", Path(tmp) / "tiny"
        lines = build_repo(repo)
        _one_file_repo(tiny)
        env = quiet_env(KENNING_HOME=str(Path(tmp) / "home"), KENNING_EMBEDDER="bundled")
        full, functions = _three_way(repo, env, tmp)
        fixed = interleave(lambda n: _kenning_index(tiny, env, tmp),
                           lambda n: _reference_index(tiny, tmp, env), ROUNDS)
        _, rss = _timed_rss([sys.executable, "-m", "kenning", "-C", str(repo), "index"], env)
        loaded: list[str] = []

        def noop(n: int) -> None:
            out = run_checked([sys.executable, "-c", NOOP_PROBE, str(repo)], env=env)
            loaded.append(out.stdout.decode().strip().splitlines()[-1][len("loaded:"):])

        unchanged = interleave(noop, lambda n: run_checked([sys.executable, "-c", "pass"]),
                               ROUNDS * 3)
    return {"lines": lines, "full": full, "functions": functions, "fixed": fixed, "rss_mb": rss,
            "unchanged": unchanged, "noop_loaded": ",".join(sorted({m for x in loaded
                                                                     for m in x.split(",") if m}))}


def _three_way(repo: Path, env: dict, tmp: str) -> tuple[Paired, Paired]:
    """kenning against each reference indexer, run in turn (windows, functions, kenning)
    ROUNDS times so all three see the same load: (vs windows, vs function chunks)."""
    runs = {"windows": lambda: _reference_index(repo, tmp, env),
            "functions": lambda: _reference_index(repo, tmp, env, FUNCTIONS_REFERENCE),
            "kenning": lambda: _kenning_index(repo, env, tmp)}
    med = interleave_medians(runs, ROUNDS)
    return Paired(med["kenning"], med["windows"]), Paired(med["kenning"], med["functions"])


def _one_file_repo(dest: Path) -> None:
    dest.mkdir()
    (dest / "one.py").write_text("def one():\n    return 1\n", encoding="utf-8")
    _commit(dest)


def _kenning_index(repo: Path, env: dict, tmp: str) -> None:
    """`kenning index` from scratch: the project's derived data is removed first."""
    shutil.rmtree(Path(env["KENNING_HOME"]) / "projects", ignore_errors=True)
    out = run_checked([sys.executable, "-m", "kenning", "-C", str(repo), "index", "--json"],
                      env=env)
    files = sum(1 for _ in repo.rglob("*.py"))
    indexed = json.loads(out.stdout).get("indexed")
    if indexed != files:
        raise RuntimeError(f"kenning index indexed {indexed} of {files} files")


def _reference_index(repo: Path, tmp: str, env: dict, script: str = REFERENCE) -> None:
    db = Path(tmp) / "reference.db"
    db.unlink(missing_ok=True)
    run_checked([sys.executable, script, str(repo), str(db)], env=env)
    if not sqlite3.connect(db).execute("SELECT count(*) FROM docs").fetchone()[0]:
        raise RuntimeError("the reference indexer indexed nothing")


def _timed_rss(cmd: list[str], env: dict) -> tuple[float, int]:
    """A fresh wrapper process, so RUSAGE_CHILDREN's peak RSS is the command's own."""
    wrapper = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
               "subprocess.run(sys.argv[1:], check=True, capture_output=True); "
               "print(time.perf_counter() - t, "
               "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)")
    out = subprocess.run([sys.executable, "-c", wrapper, *cmd], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), int(out[1])


def run(check: bool) -> list[dict]:
    m = measure()
    return [
        ratio_row(f"index {m['lines']}-line repo from scratch / stdlib FTS5 reference indexer",
                  m["full"], INDEX_BUDGET),
        {**ratio_row("  ... the same against the design's target", m["full"], INDEX_TARGET),
         "gate": False},
        {**ratio_row("  ... / plain BM25 over function chunks (the review's measure)",
                     m["functions"], FUNCTIONS_TARGET), "gate": False},
        ratio_row("  ... fixed start-up: index a 1-file repo / reference indexer", m["fixed"],
                  None),
        {"name": "index from scratch, peak RSS", "value": m["rss_mb"], "budget": RSS_BUDGET_MB,
         "unit": "MB", "ok": m["rss_mb"] <= RSS_BUDGET_MB},
        ratio_row("re-index, nothing changed (fresh process) / python -c pass", m["unchanged"],
                  NOOP_BUDGET),
        {"name": "re-index, nothing changed: model/grammar modules loaded",
         "value": m["noop_loaded"] or "none", "budget": "none", "unit": "", "ok":
         not m["noop_loaded"]},
    ]


if __name__ == "__main__":
    for row in run(check=False):
        print(row)
