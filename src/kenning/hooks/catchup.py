"""The detached catch-up SessionStart spawns: sync the index, refresh the anchors map and
the saved-session summary, then extract sessions still marked as needing it.

Runs with the plugin's dependencies (never in the foreground); one at a time per project.
"""

from __future__ import annotations

import os

LOCK_NAME = "catchup.lock"
INDEX_TIME_LIMIT = 60.0
NICE = 10  # background work yields to the session (SessionStart starts it at this niceness)


def refresh_summary(project) -> None:
    """Cache the latest saved session's summary where SessionStart (stdlib) can read it."""
    from kenning.store.sessions import cache_latest_summary

    cache_latest_summary(project)


def map_is_stale(memory) -> bool:
    """Whether the anchors map is missing or older than the index (written since by another
    process: a usage count, an older kenning). Rebuilding it costs a 10,000-fact project
    about a second of CPU, taken from the session that just started."""
    from kenning.lifecycle.anchors import DIR_NAME

    try:
        built = os.stat(memory.project.local_dir / DIR_NAME).st_mtime_ns
    except OSError:
        return True
    index = str(memory.project.index_path)
    newest = 0
    for path in (index, index + "-wal"):
        try:
            info = os.stat(path)
        except OSError:
            continue
        if info.st_size:  # an empty log is opened by every reader and holds nothing
            newest = max(newest, info.st_mtime_ns)
    return newest > built


def reindex(memory, config) -> None:
    """Re-index changed files (edits PostToolUse queued among them): time-limited, one run
    per project; the queue is emptied once a run has covered everything."""
    from kenning.core.locks import LockBusy, exclusive_lock

    if not memory.index.is_writable():
        return  # a newer kenning's index is read-only: expected, not an error to log
    from kenning.store import editqueue

    local_dir = memory.project.local_dir
    try:
        with exclusive_lock(memory.project.local_dir / "index.lock", wait=False):
            report = memory.index_code(ignore=config.ignore,
                                       max_bytes=config.max_file_kb * 1024,
                                       time_limit=INDEX_TIME_LIMIT)
            if not report.stopped_early:
                editqueue.clear(local_dir)
    except LockBusy:
        return


def main(argv: list[str]) -> None:
    from kenning.core.errorlog import log_error
    from kenning.core.locks import FileLock
    from kenning.hooks.extract_runner import run as extract

    root, session = argv[0], (argv[1] if len(argv) > 1 else "")
    from kenning.core.paths import current_project

    project = current_project(root)
    local_dir = str(project.local_dir)
    lock = FileLock(os.path.join(local_dir, LOCK_NAME))
    if not lock.acquire(wait=False):
        return
    try:
        if os.getpriority(os.PRIO_PROCESS, 0) < NICE:  # started by hand, or by the install
            os.setpriority(os.PRIO_PROCESS, 0, NICE)
    except (OSError, AttributeError):
        pass
    try:
        from kenning.core.config import load_config
        from kenning.memory import Memory

        config = load_config(project)
        memory = Memory(project, embedder_name=config.embedder)
        try:
            memory.sync()  # refreshes the anchors map when it changed something
            if map_is_stale(memory):
                memory.refresh_anchor_map()
            reindex(memory, config)
        finally:
            memory.close()
        refresh_summary(project)
        from kenning.hooks.session_start import warm

        warm(str(project.root))  # the next SessionStart reads its counts from a cache
        if project.initialised and (project.root / ".git").exists():
            # A teammate's fresh clone, or a plugin update that moved the code: the merge
            # driver's script and .git/config entry follow without anyone running `init`.
            from kenning.store.projectinit import register_merge_driver

            register_merge_driver(project.root)
    except Exception as exc:  # noqa: BLE001 - a background job reports to the error log
        log_error("catch-up", exc, local_dir)
    finally:
        lock.release()
    extract(local_dir, skip=session or None)
