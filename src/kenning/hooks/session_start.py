"""SessionStart (startup|resume|clear|compact): the project's memory at a glance.

The block holds the most useful facts (confidence × relevance to the branch and to recently
touched files), hot files of the last 30 days, the latest saved session's summary, how many
fact files are not yet committed, how many facts decayed into review, and the full MCP tool
names; it asks Claude Code to watch the fact files and the hot files (FileChanged). Then it
spawns the detached catch-up (or the runtime install). Stdlib only; the
generic list does not count as use (docs/design.md, "Confidence and decay").
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta

from kenning.core import clock, fastjson
from kenning.core.spawn import spawn_detached
from kenning.hooks import context
from kenning.hooks.base import Ctx, read_json, write_json
from kenning.hooks.state import SessionState
from kenning.store import injectlog
from kenning.store.events import hot_files

HOT_DAYS = 30
HOT_FILES = 8
SHOWN = 40
RESET_SOURCES = ("compact", "clear")
GENERIC_BRANCH_WORDS = {"main", "master", "develop", "dev", "trunk", "feature", "fix", "bugfix"}
CACHE_NAME = "session-start.json"
CATCHUP_NICE = 10  # the catch-up yields the CPU to the session (catchup.NICE)


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


class Row:
    """A fact SessionStart may list: its current confidence, the files it is anchored to and
    the branch words it holds (`shared`)."""

    __slots__ = ("id", "kind", "text", "current", "files", "shared")

    def __init__(self, fact_id: str, kind: str, text: str, current: int, files: list[str],
                 shared: list[str]):
        self.id, self.kind, self.text, self.current = fact_id, kind, text, current
        self.files, self.shared = set(files), shared

    def cached(self) -> list:
        return [self.id, self.kind, self.text, self.current, sorted(self.files), self.shared]


def rank_facts(rows: list[Row], branch_terms: set[str], hot: set[str]
               ) -> list[tuple[float, Row, str]]:
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
        touched = sorted(row.files & hot)
        if touched:
            relevance += 1.0
            reasons.append(f"about recently touched {touched[0]}")
        if branch_terms and row.shared:
            relevance += 0.5 * len(row.shared) / len(branch_terms)
            reasons.append("branch terms " + ", ".join(row.shared[:3]))
        if row.files and not relevance:
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
    hot_paths = [path for path, _ in hot]
    rows, branch_terms, active, decayed = _candidates(ctx, now, hot_paths, branch)
    ranked = rank_facts(rows, branch_terms, set(hot_paths))
    facts = [(row.id, context.fact_line(row.id, row.kind, row.current, row.text, why))
             for _, row, why in ranked[:SHOWN]]

    name = os.path.basename(ctx.root) or ctx.root
    intro = (f"kenning project memory for {name}" + (f" (branch {branch})" if branch else "")
             + f": {active - decayed} active facts"
             + ("; the most useful follow (kind, confidence, id; why)." if facts else "."))
    text, ids = _inject(ctx, source, intro, facts, _tail(ctx, hot, decayed))
    export_for_bash()
    spawn_background(ctx)
    # hooks.inject.output's shape (without the json package that module imports), and the
    # files Claude Code should watch for FileChanged (hooks/file_changed.py)
    out: dict = {"hookEventName": "SessionStart"}
    if text:
        injectlog.record(ctx.local_dir, session=ctx.session, event="SessionStart", facts=ids,
                         chars=len(text), detail=source)
        out["additionalContext"] = text
    watch = watch_paths(ctx, hot_paths)
    if watch:
        out["watchPaths"] = watch
    return fastjson.dumps({"hookSpecificOutput": out}) if len(out) > 1 else None


def watch_paths(ctx: Ctx, hot_paths: list[str]) -> list[str]:
    """What FileChanged should report: the project's fact files (a `git pull` brings a
    teammate's) and the hot files (edited in an editor, by a formatter, by a Bash command:
    changes PostToolUse never sees). Absolute; a handful, never the whole tree."""
    paths = [os.path.join(ctx.root, ".kenning", "facts")] if ctx.initialised else []
    for rel in hot_paths:
        full = os.path.join(ctx.root, rel)
        if os.path.isfile(full):
            paths.append(full)
    return paths


def _candidates(ctx: Ctx, now: datetime, hot_paths: list[str], branch: str | None
                ) -> tuple[list[Row], set[str], int, int]:
    """(rows worth ranking, branch terms, active facts, decayed facts): from the index and
    the anchors map, or, in a fresh clone whose index is not built yet, from the fact files."""
    found = _from_index(ctx, now, branch)
    if found is not None and found[2]:
        rows, terms, active, decayed = found
        return _with_hot(ctx, now, rows, hot_paths), terms, active, decayed
    if not ctx.initialised:
        return [], set(), 0, 0
    # A fresh clone: the fact files are there, the index is not built yet.
    from kenning.hooks.factfiles import active_facts
    from kenning.lifecycle.confidence import ARCHIVE_BELOW

    terms = _branch_terms(branch)
    facts = active_facts(os.path.join(ctx.root, ".kenning", "facts"), now)
    rows = [_row(fact, terms) for fact in facts]
    return rows, terms, len(facts), sum(1 for f in facts if f.current < ARCHIVE_BELOW)


def _branch_terms(branch: str | None) -> set[str]:
    if not branch:
        return set()
    from kenning.core.textutil import query_terms

    return set(query_terms(branch.replace("/", " "))) - GENERIC_BRANCH_WORDS


def _row(fact: factdb.Candidate, terms: set[str]) -> Row:  # noqa: F821
    """A row of the index or of a fact file, its anchored files and branch words read."""
    try:
        files = [a[0] for a in fastjson.loads(fact.about or "[]") if a]
    except (ValueError, TypeError, IndexError):
        files = []
    shared: list[str] = []
    if terms:
        from kenning.core.textutil import query_terms

        shared = sorted(set(query_terms(f"{fact.text} {fact.tags or ''}")) & terms)
    return Row(fact.id, fact.kind, fact.text, fact.current, files, shared)


def _index_key(ctx: Ctx, branch: str | None, now: datetime) -> list | None:
    """What the index part depends on: the index and its write-ahead log as they are on disk,
    the branch, and the day (decay moves in whole weeks; a day late is no harm)."""
    key: list = [branch, now.strftime("%Y-%m-%d")]
    for path in (ctx.index_path, ctx.index_path + "-wal"):
        try:
            info = os.stat(path)
        except OSError:
            if path == ctx.index_path:
                return None
            info = None
        # an empty log holds nothing (readers open and remove it): the file alone counts
        key.append([info.st_ino, info.st_size, info.st_mtime_ns]
                   if info and info.st_size else None)
    return key


def _from_index(ctx: Ctx, now: datetime, branch: str | None
                ) -> tuple[list[Row], set[str], int, int] | None:
    """(rows, branch terms, active, decayed) from the index, None without one.

    Counting and ranking 10,000 facts costs SessionStart as much as starting Python, and the
    answer changes only when the index does: it is kept in `local/session-start.json` with
    what it depends on (`_index_key`). Kept: the unanchored facts that can make the list and
    the anchored ones the branch names (hot files' facts come from the anchors map)."""
    key = _index_key(ctx, branch, now)
    if key is None:
        return None
    cache_path = ctx.local(CACHE_NAME)
    cached = read_json(cache_path)
    if isinstance(cached, dict) and cached.get("key") == key:
        try:
            return ([Row(*r) for r in cached["rows"]], set(cached["terms"]),
                    int(cached["active"]), int(cached["decayed"]))
        except (KeyError, TypeError, ValueError):
            pass
    from kenning.hooks import factdb

    conn = factdb.connect(ctx.index_path)
    if conn is None:
        return None
    terms = _branch_terms(branch)
    try:
        found, active, decayed = factdb.session_candidates(conn, now, [], sorted(terms))
    finally:
        conn.close()
    rows = [_row(fact, terms) for fact in found]
    unanchored = [r for _, r, _ in rank_facts([r for r in rows if not r.files], terms, set())]
    rows = unanchored[:SHOWN] + [r for r in rows if r.files and r.shared]
    if _index_key(ctx, branch, now) == key:  # nothing wrote to the index meanwhile
        write_json(cache_path, {"key": key, "rows": [r.cached() for r in rows],
                                "terms": sorted(terms), "active": active,
                                "decayed": decayed}, durable=False)
    return rows, terms, active, decayed


def warm(root: str) -> None:
    """Compute and keep the index part for the next SessionStart (the catch-up calls this
    after its sync, the extraction runner after extracting), so that start reads its cache."""
    ctx = Ctx({"cwd": root}, "session-start")
    _from_index(ctx, clock.now(), git_branch(ctx.root))


def _with_hot(ctx: Ctx, now: datetime, rows: list[Row], hot_paths: list[str]) -> list[Row]:
    """`rows` and the facts anchored to the hot files, from the anchors map (one small file
    per path; the index would be scanned once per path)."""
    if not hot_paths:
        return rows
    from kenning.lifecycle import anchors
    from kenning.lifecycle.confidence import current_confidence

    by_id = {row.id: row for row in rows}
    for path in hot_paths:
        for entry in anchors.lookup(ctx.local_dir, path):
            fact_id = entry.get("id")
            if not fact_id:
                continue
            row = by_id.get(fact_id)
            if row is None:
                current = current_confidence(
                    int(entry.get("confidence") or 0),
                    _time(entry.get("confirmed")) or now, _time(entry.get("last_used")), now)
                row = by_id[fact_id] = Row(fact_id, str(entry.get("kind") or ""),
                                           str(entry.get("text") or ""), current, [], [])
            row.files.add(path)
    return list(by_id.values())


def _time(value: object) -> datetime | None:
    """An index timestamp (ISO, `Z` or an offset; naive means UTC), None when absent or bad."""
    if not isinstance(value, str) or not value:
        return None
    from datetime import UTC

    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


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


def spawn_background(ctx: Ctx) -> None:
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
        log_path=ctx.local("catchup.log"), cwd=ctx.root, nice=CATCHUP_NICE)
