"""The code and docs index: changed files only, one transaction per group of files.

A re-index with nothing changed compares (mtime, size) per file and imports neither the
chunker (tree_sitter) nor the embedder (numpy + tokenizers). A new embedder, or a new recipe
for the text embedded per chunk (EMBED_RECIPE), re-embeds every stored chunk once.

Chunk text is scrubbed of secrets before it is stored, searched or embedded: a key committed
to the repository would otherwise come back in every snippet, in `--json` output and in the
context hooks inject. In an index made before scrubbing (REDACTION_VERSION), the files whose
stored chunks hold a secret are re-indexed once.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from kenning.core.redact import find_secrets, redact
from kenning.core.textutil import identifier_terms
from kenning.index.chunktypes import chunk_type, identifier_words, name_words, spelled_out
from kenning.index.db import get_meta, set_meta, transaction
from kenning.index.scan import FileStat, generated_reason, read_text

if TYPE_CHECKING:
    import numpy as np

    from kenning.index.embed import Embedder

EMBED_CHARS = 600
# Bump when embed_chunks changes what a vector means: indexes made before are re-embedded.
EMBED_RECIPE = "5"  # 3: bodies cut at 600 characters; 4: names' abbreviations spelled out;
# 5: names' numeric types and byte orders spelled out (`get_u16_le`)
# Bump when chunking changes what a file's chunks are: every file is re-chunked once.
CHUNK_RECIPE = "5"  # 2: every method its own chunk, a class a header (with short members);
# 3: a name's abbreviated parts spelled out among its search terms (`rev` -> reverse);
# 4: a method of Rust's `impl Trait for Type` is kind "trait impl"; 5: a name's numeric
# types and byte orders among its search terms (`get_u16_le` -> unsigned 16 bit integer)
# Bump when chunk scrubbing changes: files of older indexes with a secret left are redone once.
REDACTION_VERSION = "1"
_REEMBED_BATCH = 512
GROUP_FILES = 64  # files per embedding call and transaction
GROUP_CHUNKS = 320
# Changed files of at least this many bytes in all are read and chunked in a forked process
# (Linux, a single-threaded caller) while this one loads the model, embeds and writes.
FORK_MIN_BYTES = 32_000
EMBED_CACHE_SIZE = 20_000  # distinct texts' vectors kept during one run (~20 MB)
DOC_LANGS = {"markdown", "rst", "txt", "text", "adoc"}


@dataclass
class IndexReport:
    scanned: int = 0
    indexed: int = 0
    removed: int = 0
    skipped: int = 0  # binaries, generated and data files, unreadable files
    chunks: int = 0
    reembedded: int = 0  # chunks of unchanged files given vectors from a new embedder/recipe
    stopped_early: bool = False
    remaining: int = 0
    errors: list[str] = field(default_factory=list)


def plan(
    conn: sqlite3.Connection, files: list[FileStat], full: bool = False,
    also: Collection[str] = (),
) -> tuple[list[FileStat], list[str]]:
    """Files whose stat changed (or all with `full`, plus those in `also`), and indexed paths
    no longer present."""
    known = {r[0]: (r[1], r[2]) for r in conn.execute("SELECT path, size, mtime_ns FROM files")}
    present = {f.path for f in files}
    changed = [f for f in files
               if full or f.path in also or known.get(f.path) != (f.size, f.mtime_ns)]
    removed = [p for p in known if p not in present]
    return changed, removed


def needs_rescrub(conn: sqlite3.Connection) -> bool:
    """The stored chunks were scrubbed by an older REDACTION_VERSION (or never)."""
    return get_meta(conn, "code_redaction") != REDACTION_VERSION


def unscrubbed_paths(conn: sqlite3.Connection) -> set[str]:
    """Files whose stored chunks still hold a secret (rows an older kenning wrote).

    Scanning the stored text once costs far less than re-chunking and re-embedding every file.
    """
    return {path for path, text in conn.execute("SELECT path, text FROM chunks")
            if find_secrets(text)}


def chunks_stale(conn: sqlite3.Connection) -> bool:
    """Stored chunks were cut by an older CHUNK_RECIPE (an index with rows only)."""
    if get_meta(conn, "code_chunk_recipe") == CHUNK_RECIPE:
        return False
    return conn.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is not None


def mark_chunked(conn: sqlite3.Connection) -> None:
    """Record that every stored chunk was cut by this CHUNK_RECIPE (after a full run)."""
    if get_meta(conn, "code_chunk_recipe") != CHUNK_RECIPE:
        set_meta(conn, "code_chunk_recipe", CHUNK_RECIPE)


def mark_scrubbed(conn: sqlite3.Connection) -> None:
    """Record that every stored chunk has been through this version's scrubbing."""
    set_meta(conn, "code_redaction", REDACTION_VERSION)


def remove_file(conn: sqlite3.Connection, path: str) -> None:
    ids = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE path = ?", (path,))]
    conn.executemany("DELETE FROM chunk_vectors WHERE chunk_id = ?", [(i,) for i in ids])
    conn.execute("DELETE FROM chunks WHERE path = ?", (path,))
    conn.execute("DELETE FROM symbols WHERE path = ?", (path,))
    conn.execute("DELETE FROM imports WHERE path = ?", (path,))
    conn.execute("DELETE FROM files WHERE path = ?", (path,))


def index_files(
    conn: sqlite3.Connection,
    root: Path,
    changed: Iterable[FileStat],
    removed: Iterable[str],
    embedder_name: str,
    embedder_factory: Callable[[], Embedder],
    *,
    deadline: float | None = None,
    progress: Callable[[int], None] | None = None,
    rechunk: Collection[str] = (),
) -> IndexReport:
    """Index `changed` files and drop `removed` ones; stops cleanly at `deadline`.

    A file whose content hash is unchanged keeps its rows, unless its path is in `rechunk`
    (rows written before scrubbing that still hold a secret).
    """
    report = IndexReport()
    for path in removed:
        with transaction(conn):
            remove_file(conn, path)
        report.removed += 1
    changed = list(changed)
    stale = _vectors_stale(conn, embedder_name)
    if not changed and not stale:
        return report
    from kenning.index.chunking import chunk_file, language_for

    stored = dict(conn.execute("SELECT path, hash FROM files").fetchall())
    plans = _groups(stored, root, changed, rechunk, chunk_file, language_for)
    # Files are read, chunked and scanned for secrets one group ahead of the group being
    # embedded and written: in a forked process when there is enough to do (tree-sitter's
    # parse and the Python passes over each chunk hold the GIL, so a thread barely overlaps
    # them), else in a thread. The child starts before the model loads.
    groups = _ForkedPlans(plans) if _may_fork(changed) else _ThreadedPlans(plans)
    try:
        embedder = embedder_factory()
        cache: dict = {}
        if stale:
            report.reembedded = reembed(conn, embedder, skip={f.path for f in changed})
            set_meta(conn, "code_embedder", embedder_name)
            set_meta(conn, "code_embed_recipe", EMBED_RECIPE)
        done = _embed_and_write(conn, groups, embedder, cache, report, stored, deadline,
                                progress)
        if report.stopped_early:
            report.remaining = len(changed) - done
    finally:
        groups.close()
    set_meta(conn, "code_embedder", embedder_name)
    set_meta(conn, "code_embed_recipe", EMBED_RECIPE)
    set_meta(conn, "code_indexed_at", int(time.time()))
    return report


_T = TypeVar("_T")


def _embed_and_write(conn: sqlite3.Connection, groups: Iterable[list[_FilePlan]],
                     embedder: Embedder, cache: dict, report: IndexReport,
                     stored: dict[str, str], deadline: float | None,
                     progress: Callable[[int], None] | None) -> int:
    """Each group's vectors, then its rows in one transaction; a group is embedded in a
    thread while the one before it is written (SQLite's FTS5 work and the tokenizer release
    the GIL). One embedding call per group: per call, the tokenizer's and SQLite's fixed
    costs were most of the time of a small file. Returns the number of files done; stops
    before embedding a group once `deadline` has passed."""
    from concurrent.futures import Future, ThreadPoolExecutor

    import numpy  # noqa: F401 - loaded here, not first in the thread (a memory-capped
    # process could not map its libraries there beside the thread's own arena)

    done = 0
    pending: tuple[list[_FilePlan], Future] | None = None

    def write(group: list[_FilePlan], vectors: Future) -> None:
        nonlocal done
        with transaction(conn):
            _write_group(conn, group, vectors.result(), report, stored)
        done += len(group)
        if progress:
            progress(len(group))

    pool = ThreadPoolExecutor(1, thread_name_prefix="kenning-embed")
    try:
        for group in groups:
            if deadline is not None and time.monotonic() > deadline:
                report.stopped_early = True
                break
            future = pool.submit(_group_vectors, embedder, group, cache)
            if pending is not None:
                write(*pending)
            pending = (group, future)
        if pending is not None:
            write(*pending)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return done


def _group_vectors(embedder: Embedder, group: list[_FilePlan], cache: dict
                   ) -> np.ndarray | None:
    names = [name for plan_ in group for name, _ in plan_.embed]
    bodies = [body for plan_ in group for _, body in plan_.embed]
    return _embed_words(embedder, names, bodies, cache).astype("float16") if names else None


def _may_fork(changed: list[FileStat]) -> bool:
    """Fork only where it is safe and pays: Linux (fork without exec elsewhere is not), no
    other thread (a lock it held would stay held in the child), no tokenizer used yet (its
    thread pool warns in a forked child), and enough bytes to chunk."""
    return (sys.platform == "linux" and threading.active_count() == 1
            and "tokenizers" not in sys.modules
            and sum(f.size for f in changed) >= FORK_MIN_BYTES)


class _ThreadedPlans:
    """`items`, each computed in a worker thread while the caller works on the one before."""

    def __init__(self, items: Iterator[_T]) -> None:
        self._items = items
        self._pool = None

    def __iter__(self) -> Iterator[_T]:
        from concurrent.futures import ThreadPoolExecutor

        done = object()
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="kenning-chunk")
        future = self._pool.submit(next, self._items, done)
        while (item := future.result()) is not done:
            future = self._pool.submit(next, self._items, done)
            yield item  # type: ignore[misc]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)


class _ForkedPlans:
    """`items` computed in a forked child process from now on, received in order through a
    pipe (pickled). The child never returns into the caller's code: it exits with
    `os._exit`, so no cleanup of the parent's (its SQLite connection, locks) runs twice;
    `close` stops and reaps it."""

    def __init__(self, items: Iterator[_T]) -> None:
        read_fd, write_fd = os.pipe()
        self._pid = os.fork()
        if self._pid == 0:  # the child
            os.close(read_fd)
            _serve(items, write_fd)
        os.close(write_fd)
        self._pipe = os.fdopen(read_fd, "rb")

    def __iter__(self) -> Iterator[_T]:
        import pickle

        while True:
            try:
                kind, value = pickle.load(self._pipe)
            except EOFError:
                raise RuntimeError("the chunking process ended early") from None
            if kind == "done":
                return
            if kind == "error":
                raise value
            yield value

    def close(self) -> None:
        import signal

        self._pipe.close()
        if self._pid:
            try:
                os.kill(self._pid, signal.SIGKILL)  # a no-op once it has exited
            except ProcessLookupError:
                pass
            os.waitpid(self._pid, 0)
            self._pid = 0


def _serve(items: Iterator[object], fd: int) -> None:
    """The forked child: send each item, then "done" (or the error that stopped it); exit."""
    import pickle

    status = 1
    try:
        with os.fdopen(fd, "wb") as out:
            try:
                for item in items:
                    pickle.dump(("item", item), out, pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # noqa: BLE001 - raised again in the parent
                try:
                    message = pickle.dumps(("error", exc))
                except Exception:  # noqa: BLE001 - an exception that cannot be pickled
                    message = pickle.dumps(("error", RuntimeError(f"chunking failed: {exc!r}")))
                out.write(message)
            else:
                pickle.dump(("done", None), out)
        status = 0
    finally:
        os._exit(status)


def _write_group(conn: sqlite3.Connection, group: list[_FilePlan], vectors: np.ndarray | None,
                 report: IndexReport, stored: dict[str, str]) -> None:
    """One group's files into the index (inside the caller's transaction); `vectors` holds
    the group's chunk vectors in order; `stored` maps the paths indexed before to hashes."""
    offset = 0
    next_id = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM chunks").fetchone()[0]
    for plan_ in group:
        report.scanned += 1
        if not plan_.kept:
            if plan_.stat.path in stored:
                remove_file(conn, plan_.stat.path)
            report.skipped += 1
        elif plan_.result is None:
            conn.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE path = ?",
                         (plan_.stat.size, plan_.stat.mtime_ns, plan_.stat.path))
        else:
            count = len(plan_.chunks)
            if plan_.stat.path in stored:
                remove_file(conn, plan_.stat.path)
            _write_file(conn, plan_, vectors[offset:offset + count]
                        if vectors is not None else None, next_id)
            offset += count
            next_id += count
            report.indexed += 1
            report.chunks += count


def _vectors_stale(conn: sqlite3.Connection, embedder_name: str) -> bool:
    """Stored chunk vectors come from another model or another embed_chunks recipe."""
    if (get_meta(conn, "code_embedder"), get_meta(conn, "code_embed_recipe")) == \
            (embedder_name, EMBED_RECIPE):
        return False
    return conn.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is not None


def embed_chunks(embedder: Embedder, items: list[tuple[str, str]],
                 cache: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """One unit vector per (symbol, text): the name and the head of the body count equally.

    Pooled together, a long body's tokens drown the few of its name (`write_dl`), which says
    most about what the code does; pooled apart and added, each gets half the vector. A chunk
    without a symbol (module-level code) is its body alone. Identifiers are spelled out as
    words (see `identifier_words`); long bodies are cut, as pooling cost is linear in tokens.
    """
    pairs = [embed_words(symbol, text) for symbol, text in items]
    return _embed_words(embedder, [n for n, _ in pairs], [b for _, b in pairs], cache)


def embed_words(symbol: str, text: str) -> tuple[str, str]:
    """What `embed_chunks` embeds for a chunk: its name's words and its body's head, spelled
    out (computed with the chunk, where files are chunked)."""
    return name_words(symbol), identifier_words(text[:EMBED_CHARS])


def _embed_words(embedder: Embedder, names: list[str], bodies: list[str],
                 cache: dict[str, np.ndarray] | None = None) -> np.ndarray:
    import numpy as np

    cache = {} if cache is None else cache
    # Each distinct text is embedded once per run: names repeat (`__init__`, `new`), and so
    # do licence headers and copied code.
    todo = list(dict.fromkeys(t for t in names + bodies if t not in cache))
    if todo:
        if len(cache) + len(todo) > EMBED_CACHE_SIZE:
            cache.clear()
        cache.update(zip(todo, embedder.encode(todo), strict=True))
    summed = np.array([cache[n] for n in names]) + np.array([cache[b] for b in bodies])
    norms = np.linalg.norm(summed, axis=1, keepdims=True)
    return np.divide(summed, norms, out=np.zeros_like(summed), where=norms > 0)


def reembed(conn: sqlite3.Connection, embedder: Embedder, skip: set[str]) -> int:
    """New vectors for every stored chunk outside `skip` (files about to be re-indexed)."""
    with transaction(conn):
        conn.execute("DELETE FROM chunk_vectors")
        ids = [r[0] for r in conn.execute("SELECT id, path FROM chunks ORDER BY id")
               if r[1] not in skip]
        for start in range(0, len(ids), _REEMBED_BATCH):
            batch = ids[start:start + _REEMBED_BATCH]
            marks = ",".join("?" * len(batch))
            rows = conn.execute(f"SELECT id, symbol, text FROM chunks WHERE id IN ({marks}) "
                                "ORDER BY id", batch).fetchall()
            vectors = embed_chunks(embedder, [(r[1] or "", r[2]) for r in rows])
            conn.executemany("INSERT INTO chunk_vectors(chunk_id, vec) VALUES (?, ?)",
                             [(r[0], vectors[n].astype("float16").tobytes())
                              for n, r in enumerate(rows)])
    return len(ids)


@dataclass
class _FilePlan:
    """One changed file, read and (if its content changed) chunked, before its transaction;
    all a file's rows need but its vectors, so it can be made in another process."""

    stat: FileStat
    kept: bool  # False: a binary, generated or data file, kept out
    digest: str = ""
    lang: str = "text"
    result: object | None = None  # ChunkResult; None when kept: content unchanged
    chunks: list[tuple[object, str]] = field(default_factory=list)  # (chunk, scrubbed text)
    terms: list[str] = field(default_factory=list)  # each chunk's extra search terms
    embed: list[tuple[str, str]] = field(default_factory=list)  # see `embed_words`


def _groups(stored: dict[str, str], root: Path, pending: list[FileStat],
            rechunk: Collection[str], chunk_file, language_for) -> Iterator[list[_FilePlan]]:
    """Plans for the files in turn, in groups of up to GROUP_FILES files or GROUP_CHUNKS
    chunks; `stored` maps indexed paths to their content hashes."""
    group: list[_FilePlan] = []
    chunks = 0
    for stat in pending:
        if group and (len(group) >= GROUP_FILES or chunks >= GROUP_CHUNKS):
            yield group
            group, chunks = [], 0
        text = read_text(root / stat.path)
        if text is None or generated_reason(stat.path, text):
            group.append(_FilePlan(stat, False))  # kept out: its rows, if any, are removed
            continue
        digest = hashlib.sha1(text.encode("utf-8")).hexdigest()
        if stored.get(stat.path) == digest and stat.path not in rechunk:
            group.append(_FilePlan(stat, True, digest))
            continue
        result = chunk_file(stat.path, text)
        # One scan of the whole file; only files with a secret pay per-chunk redaction.
        scrub = bool(find_secrets(text))
        plan_ = _FilePlan(stat, True, digest, language_for(stat.path) or "text", result,
                          [(c, redact(c.text) if scrub else c.text) for c in result.chunks])
        for chunk, scrubbed in plan_.chunks:
            symbol = chunk.symbol or ""
            plan_.terms.append(" ".join(identifier_terms(f"{symbol} {chunk.path} {scrubbed}")
                                        + spelled_out(symbol)))
            plan_.embed.append(embed_words(symbol, scrubbed))
        chunks += len(plan_.chunks)
        group.append(plan_)
    if group:
        yield group


def _write_file(conn, plan_: _FilePlan, vectors, first_id: int) -> None:
    """A file's rows: its chunks (already scrubbed, numbered from `first_id`), their vectors,
    symbols and imports (its old rows are already gone)."""
    stat, lang, result = plan_.stat, plan_.lang, plan_.result
    is_doc = 1 if lang in DOC_LANGS else 0
    kind = chunk_type(result.chunks[0].lang if result.chunks else lang, bool(is_doc))
    conn.execute(
        "INSERT INTO files(path, lang, kind, size, mtime_ns, hash, indexed_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (stat.path, lang, kind, stat.size, stat.mtime_ns, plan_.digest, int(time.time())),
    )
    conn.executemany(
        "INSERT INTO chunks(id, path, start_line, end_line, kind, symbol, lang, doc, text, "
        "terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(first_id + n, chunk.path, chunk.start_line, chunk.end_line, chunk.kind,
          chunk.symbol or "", chunk.lang, is_doc, text, terms)
         for n, ((chunk, text), terms) in enumerate(zip(plan_.chunks, plan_.terms,
                                                        strict=True))])
    if plan_.chunks:
        conn.executemany("INSERT INTO chunk_vectors(chunk_id, vec) VALUES (?, ?)",
                         [(first_id + n, vectors[n].tobytes())
                          for n in range(len(plan_.chunks))])
    conn.executemany(
        "INSERT INTO symbols(name, qualname, kind, path, start_line, end_line, body_hash) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(s.name, s.qualname, s.kind, s.path, s.start_line, s.end_line, s.body_hash)
         for s in result.symbols],
    )
    conn.executemany("INSERT INTO imports(path, target) VALUES (?, ?)",
                     [(stat.path, target) for target in result.imports])
