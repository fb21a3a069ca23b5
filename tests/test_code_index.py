"""The code and docs index on a real git repository: incremental, honest about what it skips."""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import git
from kenning.core.paths import current_project

PY = '''"""Billing helpers."""


class InvoiceBuilder:
    """Builds invoices."""

    def add_line(self, amount):
        return amount


def retry_backoff(attempt):
    return 2 ** attempt
'''
MD = "# Guide\n\nHow to deploy.\n\n## Rollback\n\nRun `make rollback`.\n"


def db_rows(project: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(current_project(project).index_path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def make_repo(repo: Path) -> None:
    (repo / "src").mkdir()
    (repo / "src" / "billing.py").write_text(PY, encoding="utf-8")
    (repo / "docs.md").write_text(MD, encoding="utf-8")
    (repo / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0binary")
    (repo / ".gitignore").write_text("secret.env\n", encoding="utf-8")
    (repo / "secret.env").write_text("TOKEN=x\n", encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "code")


def test_index_covers_git_files_and_skips_ignored_and_binary(kenning, repo):
    make_repo(repo)
    result = kenning("index", "--json")
    assert result.code == 0, result.err
    paths = {r[0] for r in db_rows(repo, "SELECT path FROM files")}
    assert paths == {"src/billing.py", "docs.md", ".gitignore", "README.md"}
    symbols = {r[0] for r in db_rows(repo, "SELECT qualname FROM symbols")}
    assert {"InvoiceBuilder", "InvoiceBuilder.add_line", "retry_backoff"} <= symbols
    kinds = dict(db_rows(repo, "SELECT path, kind FROM files"))
    assert kinds["docs.md"] == "doc" and kinds["src/billing.py"] == "code"


def test_reindex_with_nothing_changed_loads_no_model_or_grammar(kenning, repo):
    make_repo(repo)
    assert kenning("index").code == 0
    probe = (
        "import sys\nfrom kenning.cli import main\n"
        "try:\n    main(['index', '--json'])\nexcept SystemExit:\n    pass\n"
        "print([m for m in ('tree_sitter', 'model2vec', 'tokenizers') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=repo, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert json.loads(out[0])["indexed"] == 0
    assert out[-1] == "[]"


def test_deleted_and_renamed_files_leave_no_rows(kenning, repo):
    make_repo(repo)
    kenning("index")
    git(repo, "mv", "src/billing.py", "src/invoices.py")
    (repo / "docs.md").unlink()
    kenning("index")
    for table in ("files", "chunks", "symbols"):
        paths = {r[0] for r in db_rows(repo, f"SELECT DISTINCT path FROM {table}")}
        assert "src/billing.py" not in paths and "docs.md" not in paths, table
    assert ("src/invoices.py",) in db_rows(repo, "SELECT path FROM files")
    assert db_rows(repo, "SELECT count(*) FROM chunk_vectors WHERE chunk_id NOT IN "
                         "(SELECT id FROM chunks)") == [(0,)]


def test_single_file_reindex_picks_up_an_edit(kenning, repo):
    make_repo(repo)
    kenning("index")
    (repo / "src" / "billing.py").write_text(PY + "\n\ndef refund_invoice():\n    pass\n",
                                             encoding="utf-8")
    result = json.loads(kenning("index", "--files", "src/billing.py", "--json").out)
    assert result["indexed"] == 1
    assert ("refund_invoice",) in db_rows(repo, "SELECT qualname FROM symbols")


def test_status_and_projects_report_the_index(kenning, repo):
    make_repo(repo)
    kenning("index")
    status = json.loads(kenning("status", "--json").out)
    assert status["indexed files"] == 4 and status["symbols"] >= 3
    assert status["index age"] == "just now"
    listed = json.loads(kenning("projects", "--json").out)
    assert [p["root"] for p in listed] == [str(repo)]


def test_outside_git_the_walk_honours_gitignore(kenning, isolated):
    (isolated / "keep.py").write_text("def kept():\n    pass\n", encoding="utf-8")
    (isolated / "build").mkdir()
    (isolated / "build" / "gen.py").write_text("x = 1\n", encoding="utf-8")
    (isolated / ".gitignore").write_text("build/\n", encoding="utf-8")
    kenning("index")
    paths = {r[0] for r in db_rows(isolated, "SELECT path FROM files")}
    assert "keep.py" in paths and "build/gen.py" not in paths


def test_one_search_ranks_facts_code_and_docs_with_anchored_facts(kenning, repo):
    make_repo(repo)
    kenning("index")
    fact = json.loads(kenning("add", "retry_backoff doubles the wait on every attempt",
                              "--about", "src/billing.py:retry_backoff", "--json").out)["id"]
    hits = json.loads(kenning("search", "retry backoff", "--json").out)
    types = {h["type"] for h in hits}
    assert {"fact", "code"} <= types
    code = next(h for h in hits if h["type"] == "code")
    assert code["path"] == "src/billing.py" and code["symbol"] == "retry_backoff"
    assert code["start_line"] <= code["end_line"]
    assert code["anchored_facts"] == [fact]
    assert set(code) >= {"type", "path", "start_line", "end_line", "symbol", "score",
                         "snippet", "why"}


def test_search_filters_by_type_language_and_path(kenning, repo):
    make_repo(repo)
    kenning("index")
    docs = json.loads(kenning("search", "rollback deploy", "--type", "doc", "--json").out)
    assert docs and all(h["type"] == "doc" for h in docs)
    assert docs[0]["symbol"] == "Guide > Rollback"
    code = json.loads(kenning("search", "invoice", "--lang", "python", "--json").out)
    assert code and all(h["path"].endswith(".py") for h in code)
    assert json.loads(kenning("search", "invoice", "--path", "docs/*", "--json").out) == []


def test_all_projects_search_spans_registered_projects(kenning, repo, tmp_path):
    make_repo(repo)
    kenning("index")
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.md").write_text("# Kubernetes\n\nWe deploy with helm charts.\n", "utf-8")
    kenning("-C", str(other), "index")
    hits = json.loads(kenning("search", "helm charts", "--all-projects", "--json").out)
    assert hits[0]["path"] == f"{other}/notes.md"


def test_background_catch_up_reindexes_queued_edits_and_empties_the_queue(repo):
    from kenning.core.config import load_config
    from kenning.hooks.catchup import reindex
    from kenning.memory import Memory

    make_repo(repo)
    project = current_project(repo)
    memory = Memory(project, "fake")
    memory.index_code()
    (repo / "src" / "billing.py").write_text(PY + "\ndef void_invoice():\n    pass\n", "utf-8")
    queue = project.local_dir / "reindex-queue.jsonl"
    queue.parent.mkdir(parents=True, exist_ok=True)
    queue.write_text('{"path": "src/billing.py"}\n', encoding="utf-8")
    reindex(memory, load_config(project))
    memory.close()
    assert ("void_invoice",) in db_rows(repo, "SELECT qualname FROM symbols")
    assert queue.read_text(encoding="utf-8") == ""


def test_files_used_together_in_three_sessions_lift_each_other(repo):
    from kenning.memory import Memory
    from kenning.store import eventlog

    for name in ("alpha", "beta", "gamma", "delta"):
        (repo / f"{name}.py").write_text(f"def {name}_parser():\n    return 'parser'\n", "utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "parsers")
    project = current_project(repo)
    memory = Memory(project, "fake")
    memory.index_code()
    before = [h.path for h in memory.search("parser", types=("code",), record=None)]
    seed, last = before[0], before[-1]
    for session in ("s1", "s2", "s3"):
        eventlog.append(project.events_path, {"type": "read", "paths": [seed, last],
                                              "session": session, "outcome": "ok"})
    for session, other in (("s4", before[1]), ("s5", before[2]), ("s6", before[1])):
        eventlog.append(project.events_path, {"type": "read", "paths": [other],
                                              "session": session, "outcome": "ok"})
    after = memory.search("parser", types=("code",), record=None)
    paths = [h.path for h in after]
    assert paths[0] == seed
    assert paths.index(last) < before.index(last)  # a small lift: relevance still leads
    assert "cluster peer" in after[paths.index(last)].why
    memory.close()


def test_identifiers_are_spelled_out_as_words_for_the_embedder():
    from kenning.index.chunktypes import identifier_words

    assert identifier_words("sortedLastIndex(array)") == "sorted last index(array)"
    assert identifier_words("def get_default(self):") == "def get default(self):"
    assert identifier_words("HTTPServer.__init__ _") == "http server.init _"


def test_a_chunk_vector_gives_its_name_and_its_body_equal_shares():
    import numpy as np

    from kenning.index.code import embed_chunks
    from kenning.index.embed import load_embedder

    embedder = load_embedder("fake-256")
    both, body_only = embed_chunks(embedder, [("retry_backoff", "x = 1"), ("", "x = 1")])
    name, body = embedder.encode(["retry backoff", "x = 1"])
    assert np.allclose(both, (name + body) / np.linalg.norm(name + body), atol=1e-6)
    assert np.allclose(body_only, body, atol=1e-6)  # no symbol: the body alone


def test_a_new_embed_recipe_reembeds_unchanged_files_once(repo):
    from kenning.index.code import EMBED_RECIPE
    from kenning.index.db import get_meta, set_meta
    from kenning.memory import Memory

    make_repo(repo)
    memory = Memory(current_project(repo), "fake")
    memory.index_code()
    conn = memory.index.conn
    chunks = conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
    before = dict(conn.execute("SELECT chunk_id, vec FROM chunk_vectors"))
    set_meta(conn, "code_embed_recipe", "0")  # an index made by an older kenning
    conn.execute("UPDATE chunk_vectors SET vec = zeroblob(length(vec))")
    generation = get_meta(conn, "code_generation")
    report = memory.index_code()
    assert (report.indexed, report.reembedded) == (0, chunks)
    assert dict(conn.execute("SELECT chunk_id, vec FROM chunk_vectors")) == before
    assert get_meta(conn, "code_embed_recipe") == EMBED_RECIPE
    assert get_meta(conn, "code_generation") != generation  # searchers reload the matrix
    assert memory.index_code().reembedded == 0
    memory.close()


def _index_rows(repo: Path) -> list[list[tuple]]:
    return [db_rows(repo, sql) for sql in (
        "SELECT path, start_line, end_line, kind, symbol, lang, doc, text, terms FROM chunks "
        "ORDER BY id", "SELECT chunk_id, vec FROM chunk_vectors ORDER BY chunk_id",
        "SELECT name, qualname, kind, path, start_line, end_line, body_hash FROM symbols "
        "ORDER BY id", "SELECT path, target FROM imports ORDER BY rowid",
        "SELECT path, lang, kind, size, hash FROM files ORDER BY path")]


def _many_files(repo: Path) -> None:
    """Enough files for several groups (GROUP_FILES), one with a secret to scrub."""
    for n in range(70):
        (repo / f"mod{n}.py").write_text(PY.replace("InvoiceBuilder", f"Builder{n}"), "utf-8")
    (repo / "keys.py").write_text('API_KEY = "sk-ant-REDACTEDREDACTEDREDACTEDREDACTED"\n',
                                  "utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "many")


def test_files_chunked_in_a_forked_process_give_the_same_index_as_in_a_thread(repo,
                                                                               monkeypatch):
    import os
    import shutil

    import kenning.index.code as code
    from kenning.memory import Memory

    make_repo(repo)
    _many_files(repo)
    project = current_project(repo)
    forks = []
    real_fork = os.fork

    def counted_fork() -> int:
        forks.append(1)
        return real_fork()

    monkeypatch.setattr(code.os, "fork", counted_fork)
    indexes = []
    for fork in (False, True):
        monkeypatch.setattr(code, "_may_fork", lambda changed, fork=fork: fork)
        shutil.rmtree(project.index_path.parent, ignore_errors=True)
        memory = Memory(project, "fake")
        report = memory.index_code()
        memory.close()
        assert report.indexed == 75 and report.skipped == 1  # logo.png
        indexes.append(_index_rows(repo))
    assert forks == [1]
    assert indexes[0] == indexes[1]
    assert "[REDACTED:anthropic_key]" in str(indexes[1][0])
    with pytest.raises(ChildProcessError):  # the chunking process was reaped
        os.waitpid(-1, os.WNOHANG)


def test_an_error_in_the_forked_chunker_is_raised_and_a_deadline_stops_it(repo, monkeypatch):
    import os

    import kenning.index.code as code
    from kenning.memory import Memory

    _many_files(repo)
    monkeypatch.setattr(code, "_may_fork", lambda changed: True)

    def failing(text: str):
        if 'API_KEY' in text:
            raise ValueError("scanner broke")
        return []

    monkeypatch.setattr(code, "find_secrets", failing)
    memory = Memory(current_project(repo), "fake")
    with pytest.raises(ValueError, match="scanner broke"):
        memory.index_code()
    monkeypatch.setattr(code, "find_secrets", lambda text: [])
    report = memory.index_code(time_limit=1e-9)
    memory.close()
    assert report.stopped_early and report.remaining > 0
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_only_a_single_threaded_linux_process_with_enough_to_chunk_forks():
    import threading

    from kenning.index.code import FORK_MIN_BYTES, _may_fork
    from kenning.index.scan import FileStat

    big = [FileStat("a.py", FORK_MIN_BYTES, 0)]
    small = [FileStat("a.py", FORK_MIN_BYTES - 1, 0)]
    alone = sys.platform == "linux" and threading.active_count() == 1 \
        and "tokenizers" not in sys.modules
    assert _may_fork(big) is alone
    assert _may_fork(small) is False
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert _may_fork(big) is False
    finally:
        stop.set()
        other.join()


def test_ignore_globs_compiled_once_match_as_fnmatch_per_pattern_does():
    import fnmatch

    from kenning.core.config import DEFAULT_IGNORES
    from kenning.index.scan import matches_any

    def one_by_one(path: str, patterns: tuple[str, ...]) -> bool:
        name = path.rsplit("/", 1)[-1]
        return any(
            (p.endswith("/**") and (path.startswith(p[:-3] + "/") or f"/{p[:-3]}/" in f"/{path}"))
            or fnmatch.fnmatch(path, p) or ("/" not in p and fnmatch.fnmatch(name, p))
            for p in patterns)

    paths = [f"{d}{n}" for d in ("", "src/", "a/node_modules/b/", "dist/", "x/dist/", "docs/")
             for n in ("a.min.js", "b.py", "c.lock", "package-lock.json", "d.map", "e.md")]
    for patterns in (DEFAULT_IGNORES, ("*.py",), ("src/**", "docs/*.md"), ("[ab]*.py", "*.js"),
                     ()):
        got = {p for p in paths if matches_any(p, patterns)}
        assert got == {p for p in paths if one_by_one(p, patterns)}, patterns
    assert matches_any("x/dist/a.py", DEFAULT_IGNORES) is True  # a dist/ folder anywhere
    assert matches_any("src/b.py", DEFAULT_IGNORES) is False
    assert matches_any("a/node_modules/b/b.py", DEFAULT_IGNORES) is True
