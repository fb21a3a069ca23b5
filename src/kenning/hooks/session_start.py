"""SessionStart (startup|resume|clear|compact): the project's memory at a glance.

The block holds the most useful facts (confidence × relevance to the branch and to recently
touched files), hot files of the last 30 days, the latest saved session's summary, how many
fact files are not yet committed, how many facts decayed into review, and the full MCP tool
names. Then it spawns the detached catch-up (or the runtime install). Stdlib only; the
generic list does not count as use (DESIGN §3).
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta

from kenning.core import clock
from kenning.core.spawn import spawn_detached
from kenning.core.textutil import query_terms
from kenning.hooks import context, factdb
from kenning.hooks.base import Ctx, read_json, write_json
from kenning.hooks.inject import output
from kenning.hooks.state import SessionState
from kenning.store import injectlog
from kenning.store.events import hot_files

HOT_DAYS = 30
HOT_FILES = 8
RESET_SOURCES = ("compact", "clear")


def git_branch(root: str) -> str | None:
    """The checked-out branch, read from HEAD (no git process on the startup path)."""
    git = os.path.join(root, ".git")
    if os.path.isfile(git):  # a worktree or submodule: `gitdir: <path>`
        try:
            with open(git, encoding="utf-8") as handle:
                line = handle.read().strip()
        except OSError:
            return None
        if not line.startswith("gitdir:"):
            return None
        git = os.path.join(root, line[len("gitdir:"):].strip())
    try:
        with open(os.path.join(git, "HEAD"), encoding="utf-8") as handle:
            head = handle.read().strip()
    except OSError:
        return None
    prefix = "ref: refs/heads/"
    return head[len(prefix):] if head.startswith(prefix) else None


def uncommitted(ctx: Ctx) -> int | None:
    """Fact files git reports as new or changed. `git status` costs as much as the rest of
    SessionStart, so its answer is kept with what it depends on: the facts folder (an atomic
    write renames into it) and git's index (every add and commit rewrites it)."""
    if not ctx.initialised:
        return None
    facts = os.path.join(ctx.root, ".kenning", "facts")
    try:
        key = [os.stat(facts).st_mtime_ns, os.stat(git_index(ctx.root)).st_mtime_ns]
    except OSError:
        key = None
    cache_path = ctx.local("uncommitted.json")
    cached = read_json(cache_path)
    if key and isinstance(cached, dict) and cached.get("key") == key:
        return cached.get("count")
    import subprocess

    try:
        result = subprocess.run(
            ["git", "-C", ctx.root, "status", "--porcelain", "--untracked-files=all", "--",
             ".kenning/facts"], capture_output=True, text=True, timeout=2,
            stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if result.returncode != 0:
        return None
    count = sum(1 for line in result.stdout.splitlines() if line.strip())
    if key:
        write_json(cache_path, {"key": key, "count": count})
    return count


def git_index(root: str) -> str:
    git = os.path.join(root, ".git")
    if os.path.isfile(git):  # a worktree: its own index lives in its gitdir
        try:
            with open(git, encoding="utf-8") as handle:
                line = handle.read().strip()
        except OSError:
            return os.path.join(git, "index")
        if line.startswith("gitdir:"):
            git = os.path.join(root, line[len("gitdir:"):].strip())
    return os.path.join(git, "index")


def rank_facts(rows: list[factdb.Candidate], branch_terms: set[str], hot: set[str]
               ) -> list[tuple[float, factdb.Candidate, str]]:
    """(score, row, why) for facts above the floor: confidence × (1 + relevance).

    Facts anchored to files come only when their file was touched recently or the branch
    names their subject; otherwise PreToolUse brings them when the file is opened.
    """
    from kenning.lifecycle.confidence import INJECT_FLOOR

    ranked = []
    for row in rows:
        if row.current < INJECT_FLOOR:
            continue
        relevance = 0.0
        reasons = []
        try:
            files = {a[0] for a in json.loads(row.about or "[]") if a}
        except (ValueError, TypeError, IndexError):
            files = set()
        touched = sorted(files & hot)
        if touched:
            relevance += 1.0
            reasons.append(f"about recently touched {touched[0]}")
        if branch_terms:
            words = set(query_terms(f"{row.text} {row.tags or ''}"))
            shared = sorted(words & branch_terms)
            if shared:
                relevance += 0.5 * len(shared) / len(branch_terms)
                reasons.append("branch terms " + ", ".join(shared[:3]))
        if files and not relevance:
            continue  # an anchored fact waits for its file (PreToolUse) unless it is hot
        why = "; ".join(reasons) or "high confidence"
        ranked.append((row.current / 100 * (1 + relevance), row, why))
    ranked.sort(key=lambda item: (-item[0], item[1].id))
    return ranked


def handle(ctx: Ctx) -> str | None:
    if ctx.agent_id:
        return None
    source = str(ctx.payload.get("source") or "startup")
    now = clock.now()
    cutoff = (now - timedelta(days=HOT_DAYS)).strftime("%Y-%m-%dT%H:%M:%S")
    hot = hot_files(ctx.events_path, cutoff, HOT_FILES)
    branch = git_branch(ctx.root)
    branch_terms = set(query_terms(branch.replace("/", " "))) if branch else set()
    branch_terms -= {"main", "master", "develop", "dev", "trunk", "feature", "fix", "bugfix"}
    rows, active, decayed = _candidates(ctx, now, hot, branch_terms)
    ranked = rank_facts(rows, branch_terms, {path for path, _ in hot})
    facts = [(row.id, context.fact_line(row.id, row.kind, row.current, row.text, why))
             for _, row, why in ranked[:40]]

    name = os.path.basename(ctx.root) or ctx.root
    intro = (f"kenning project memory for {name}" + (f" (branch {branch})" if branch else "")
             + f": {active - decayed} active facts"
             + ("; the most useful follow (kind, confidence, id; why)." if facts else "."))
    text, ids = _inject(ctx, source, intro, facts, _tail(ctx, hot, decayed))
    export_for_bash()
    _spawn_background(ctx)
    if not text:
        return None
    injectlog.record(ctx.local_dir, session=ctx.session, event="SessionStart", facts=ids,
                     chars=len(text), detail=source)
    return output("SessionStart", text)


def _candidates(ctx: Ctx, now: datetime, hot: list[tuple[str, int]], branch_terms: set[str]
                ) -> tuple[list[factdb.Candidate], int, int]:
    """(rows worth ranking, active facts, decayed facts), from the index or, in a fresh
    clone whose index is not built yet, from the fact files."""
    rows: list[factdb.Candidate] = []
    active = decayed = 0
    conn = factdb.connect(ctx.index_path)
    if conn is not None:
        try:
            rows, active, decayed = factdb.session_candidates(
                conn, now, [path for path, _ in hot], sorted(branch_terms))
        finally:
            conn.close()
    if not active and ctx.initialised:
        # A fresh clone: the fact files are there, the index is not built yet.
        from kenning.hooks.factfiles import active_facts
        from kenning.lifecycle.confidence import ARCHIVE_BELOW

        rows = active_facts(os.path.join(ctx.root, ".kenning", "facts"), now)
        active, decayed = len(rows), sum(1 for r in rows if r.current < ARCHIVE_BELOW)
    return rows, active, decayed


def _tail(ctx: Ctx, hot: list[tuple[str, int]], decayed: int) -> list[str]:
    """The lines after the facts, in order of importance when space runs out: tools, hot
    files, the last session's summary, counts."""
    tail = []
    if hot:
        tail.append("Most read or edited files in the last 30 days: "
                    + ", ".join(f"{context.escape(p)} ({n})" for p, n in hot) + ".")
    summary = read_json(ctx.local("last-session.json"))
    if isinstance(summary, dict) and summary.get("summary"):
        label = context.escape(summary.get("name") or "latest")
        tail.append(f"Last saved session ({label}): "
                    f"{context.escape(str(summary['summary'])[:600])}")
    pending = uncommitted(ctx)
    if pending:
        tail.append(f"{pending} fact files under .kenning/facts are not yet committed.")
    if decayed:
        tail.append(f"{decayed} facts decayed below 0.30 and are listed by `kenning review`.")
    return [context.tool_names_line(), *tail]


def _inject(ctx: Ctx, source: str, intro: str, facts: list[tuple[str, str]], tail: list[str]
            ) -> tuple[str, list[str]]:
    """The block within this session's allowance, counted into the session state (a
    compaction or /clear starts the count again)."""
    with SessionState(ctx) as state:
        if source in RESET_SOURCES:
            state.clear()
            state.update({"chars": 0, "facts": [], "files": []})
        budget = context.allowance(context.SESSION_START, state["chars"])
        text, ids = context.render(intro, facts, tail, budget)
        if text:
            state["chars"] += len(text)
            state["facts"].extend(i for i in ids if i not in state["facts"])
    return text, ids


def export_for_bash() -> None:
    """Tell the Bash tool (which gets no CLAUDE_PLUGIN_DATA) where the plugin's runtime is, so
    `bin/kenning` finds it: Claude Code sources the lines SessionStart appends to
    $CLAUDE_ENV_FILE before each Bash command of the session."""
    env_file, data = os.environ.get("CLAUDE_ENV_FILE"), os.environ.get("CLAUDE_PLUGIN_DATA")
    if not env_file or not data:
        return
    quoted = "'" + data.replace("'", "'\\''") + "'"
    with open(env_file, "a", encoding="utf-8") as handle:
        handle.write(f"export KENNING_PLUGIN_DATA={quoted}\n")


def _spawn_background(ctx: Ctx) -> None:
    """The runtime install when the plugin venv is missing or stale, else the catch-up."""
    from kenning.plugin import runtime

    current = runtime.state()
    if current in ("missing", "stale"):
        runtime.ensure_started(project=ctx.root, session=ctx.session)
        return
    if current == "installing":
        return
    spawn_detached(
        [runtime.best_python(current=current), "-I", "-c",
         "import os, sys; sys.path.insert(0, os.environ['PYTHONPATH'].split(os.pathsep)[0]); "
         "from kenning.hooks.catchup import main; main(sys.argv[1:])",
         ctx.root, ctx.session or ""],
        log_path=ctx.local("catchup.log"), cwd=ctx.root)
