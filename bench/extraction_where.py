"""Where the labelled facts kenning misses live: each gold fact's evidence line, by category.

Issue 16 round 10. For every gold fact of every labelled session, the transcript line that
evidences it (the cited uuid whose text holds the labeller's quote, else the first cited one;
a queued message, which has no uuid, by its quote) is put in one of the categories of issue
16's table, and the importance of the facts no extracted fact matched (score.py's `missed`)
is summed by category and project.

Usage: python bench/extraction_where.py DIR [--et2 TRANSCRIPTS] [--test TRANSCRIPTS]
  DIR holds score.py's `--json` results (`<label>.json`), as `bench/extraction.py --out DIR`
  and score.py on each file leave them; prints the category x project table (Markdown) and
  writes DIR/where.json (one row per gold fact: project, id, importance, found, category,
  finer place). The dev split always; et2 and test when their session folders are given.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

import extraction as X

_TRACKER = re.compile(r"\b(?:bd (?:show|list|ready)|gh (?:issue|pr) view|jira|linear|glab issue)\b")
_DOC = re.compile(r"(?:\.md|\.mdx|\.rst|\.txt|\.adoc)$|CLAUDE|AGENTS|SKILL", re.I)
_FAILED = re.compile(r"(?i)exit code [1-9]|\bFAIL")
_EDITS = ("Write", "Edit", "MultiEdit", "NotebookEdit")
_REQUIREMENTS = "tool output carrying requirements (a doc, CLAUDE.md, skill or issue read)"
# Finer place -> the row of issue 16's table it belongs to.
CATEGORIES = (
    ("tool output: doc", _REQUIREMENTS),
    ("tool output: issue", _REQUIREMENTS),
    ("failed command", "a failed command + the passing variant"),
    ("agent prose: diagnosis", "the agent's diagnosis after a failure"),
    ("user prompt", "user prompts (typed, queued, approved plans, plan replies, answers)"),
    ("command run", "the workflow: commands the agent ran"),
    ("file written", "a file the agent wrote or edited"),
    ("compaction summary", "compaction summaries"),
    ("agent final report", "the agent's final report of a task"),
    ("agent prose", "other: the agent's prose mid-task"),
    ("tool output: other", "other: tool output (source read, Bash, git log, subagent report)"),
    ("", "other (subagent brief, plan written, meta lines)"),
)
# Label folders of one repository are one column.
REPOSITORY = {"lws-a": "local-web-services", "lws-b": "local-web-services",
              "et2-a": "git-sync", "et2-b": "git-sync", "et2-c": "entireio-skills",
              "et3-a": "planetfall", "et3-b": "planetfall"}


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^a-z0-9 ]", " ", text.lower())).strip()


def _text(content) -> str:
    if isinstance(content, str):
        return content
    out = []
    for b in content or []:
        if not isinstance(b, dict):
            continue
        if b.get("type") == "text":
            out.append(b.get("text", ""))
        elif b.get("type") == "tool_result":
            out.append(_text(b.get("content")))
        elif b.get("type") == "tool_use":
            out.append(json.dumps(b.get("input")))
        elif b.get("type") == "thinking":
            out.append(b.get("thinking", ""))
    return "\n".join(out)


def _lines(main: Path) -> list[dict]:
    """Every JSON line of a session: its main file, then its subagents' files."""
    from kenning.extract.transcript import subagent_transcripts

    out = []
    for path in [main, *subagent_transcripts(main)]:
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            obj["_main"] = path == main
            out.append(obj)
    return out


def _content(obj: dict):
    return (obj.get("message") or {}).get("content")


def _blocks(obj: dict, kind: str) -> list[dict]:
    content = _content(obj)
    return [b for b in content if isinstance(b, dict) and b.get("type") == kind] \
        if isinstance(content, list) else []


def _prompt(obj: dict) -> bool:
    """A line the user typed (not a tool result, a meta line or a summary)."""
    if obj.get("type") != "user" or obj.get("isMeta") or obj.get("isCompactSummary"):
        return False
    content = _content(obj)
    if isinstance(content, str):
        return not content.startswith(("<local-command", "<command-"))
    return bool(_blocks(obj, "text")) and not _blocks(obj, "tool_result")


def _evidence(gold: dict, lines: list[dict]) -> tuple[dict | None, bool]:
    """(the evidence line, True when it is a queued message)."""
    quote = _norm(gold.get("evidence_quote", ""))[:60]
    for obj in lines:
        if not quote:
            break
        queued = (obj.get("type") == "queue-operation" and obj.get("operation") == "enqueue"
                  and quote in _norm(str(obj.get("content"))))
        attached = obj.get("attachment") or {}
        if queued or (attached.get("type") == "queued_command"
                      and quote in _norm(json.dumps(attached))):
            return obj, True
    by_uuid = {obj.get("uuid"): obj for obj in lines if obj.get("uuid")}
    cited = [by_uuid[u] for u in gold.get("evidence_uuids", []) if u in by_uuid]
    for obj in cited:
        said = _text(_content(obj)) + json.dumps(obj.get("attachment") or "") \
            + json.dumps(obj.get("toolUseResult") or "")
        if quote and quote in _norm(said):
            return obj, False
    if cited:
        return cited[0], False
    return next((obj for obj in lines if quote and quote in _norm(_text(_content(obj)))),
                None), False


def _tool_result(block: dict, uses: dict) -> tuple[str, str]:
    name, data = uses.get(block.get("tool_use_id"), ("?", {}))
    output = _text(block.get("content"))
    if name == "Bash":
        command = str(data.get("command", ""))
        if _TRACKER.search(command):
            return "tool output: issue tracker", command[:60]
        if block.get("is_error") or _FAILED.search(output[:300]):
            return "failed command + fix", command[:60]
        if re.search(r"\b(?:cat|head|less|sed -n)\b.*\.(?:md|rst|txt)\b", command):
            return "tool output: doc read", command[:60]
        if re.search(r"\bgit (?:log|show)\b", command):
            return "tool output: other (git log/show)", command[:60]
        return "tool output: other (Bash)", command[:60]
    if name == "Read":
        path = str(data.get("file_path", ""))
        if _DOC.search(path):
            return "tool output: doc / CLAUDE.md read", path.rsplit("/", 1)[-1]
        return "tool output: other (source read)", path.rsplit("/", 1)[-1]
    if name == "Skill":
        return "tool output: doc / CLAUDE.md read", "skill"
    if name in ("Grep", "Glob"):
        return "tool output: other (source read)", name
    if name == "AskUserQuestion":
        return "user prompt (answer)", ""
    if name == "ExitPlanMode":
        return "user prompt (plan reply)", ""
    if name in ("Task", "Agent"):
        return "tool output: other (subagent report)", ""
    if name in _EDITS:
        return "file written/edited", str(data.get("file_path", ""))
    if block.get("is_error"):
        return "failed command + fix", name
    return f"tool output: other ({name})", ""


def _prose(obj: dict, lines: list[dict]) -> str:
    """The agent's text: its final report when no tool call follows before the user speaks,
    a diagnosis when a failure came just before it, else a mid-task finding."""
    if not obj["_main"]:
        return "agent prose: subagent"
    main = [o for o in lines if o["_main"]]
    at = next(i for i, o in enumerate(main) if o is obj)
    for later in main[at + 1:]:
        if _prompt(later):
            break
        if later.get("type") == "assistant" and _blocks(later, "tool_use"):
            failed = any(b.get("is_error") or _FAILED.search(_text(b.get("content"))[:500])
                         for before in main[max(0, at - 6):at] if before.get("type") == "user"
                         for b in _blocks(before, "tool_result"))
            return "agent prose: diagnosis after a failure" if failed \
                else "agent prose: mid-task finding"
    return "agent final report"


def classify(gold: dict, lines: list[dict]) -> tuple[str, str]:
    """(finer place, detail) of a gold fact's evidence line."""
    obj, queued = _evidence(gold, lines)
    if queued:
        return "user prompt (queued)", ""
    if obj is None:
        return "other (evidence not found)", ""
    kind = obj.get("type")
    if kind == "user":
        if obj.get("isCompactSummary"):
            return "compaction summary", ""
        uses = {b["id"]: (b.get("name"), b.get("input") or {})
                for o in lines if o.get("type") == "assistant" for b in _blocks(o, "tool_use")}
        results = _blocks(obj, "tool_result")
        if results:
            return _tool_result(results[0], uses)
        said = _text(_content(obj))
        if obj.get("isMeta"):
            return ("tool output: doc / CLAUDE.md read", "skill") \
                if "Base directory for this skill" in said else ("other (meta)", "")
        if "Implement the following plan" in said:
            return "user prompt (approved plan)", ""
        return "user prompt", ""
    if kind == "assistant":
        for b in _blocks(obj, "tool_use"):
            name, data = b.get("name"), b.get("input") or {}
            if name in _EDITS:
                return "file written/edited", str(data.get("file_path", ""))
            if name == "Bash":
                return "command run (workflow)", str(data.get("command", ""))[:60]
            return {"Task": "other (subagent brief)", "Agent": "other (subagent brief)",
                    "ExitPlanMode": "other (plan written)"}.get(name, f"other ({name})"), ""
        if _blocks(obj, "thinking") and not _blocks(obj, "text"):
            return "agent prose: thinking", ""
        return _prose(obj, lines), ""
    return f"other ({kind})", ""


def category(place: str) -> str:
    return next(row for prefix, row in CATEGORIES if place.startswith(prefix))


def where(results: Path, folders: dict[str, Path | None]) -> list[dict]:
    """A row per gold fact of each split in `folders` (split -> its session files' folder,
    None for the dev split's own)."""
    rows = []
    for split, folder in folders.items():
        if folder is not None:
            X.TEST_TRANSCRIPTS[0] = folder
        for project in X.SPLITS[split]:
            scored = results / f"{project}.json"
            if not scored.is_file():
                continue
            missed = set(json.loads(scored.read_text(encoding="utf-8"))["missed"])
            sessions = dict(X.labelled_sessions(project))
            cache: dict[str, list[dict]] = {}
            for gold in X._load(project, "gold.jsonl"):
                session = gold["session"]
                if session not in sessions:
                    continue
                if session not in cache:
                    cache[session] = _lines(sessions[session])
                place, detail = classify(gold, cache[session])
                rows.append({"split": split, "project": project, "id": gold["id"],
                             "importance": gold["importance"], "found": gold["id"] not in missed,
                             "place": place, "category": category(place), "detail": detail})
    return rows


def table(rows: list[dict]) -> str:
    projects: list[str] = []
    for r in rows:
        name = REPOSITORY.get(r["project"], r["project"].split("__")[-1])
        if name not in projects:
            projects.append(name)
    missed: dict[tuple[str, str], int] = defaultdict(int)
    weight: dict[str, int] = defaultdict(int)
    for r in rows:
        name = REPOSITORY.get(r["project"], r["project"].split("__")[-1])
        weight[name] += r["importance"]
        if not r["found"]:
            missed[(r["category"], name)] += r["importance"]
    total = sum(missed.values())
    out = ["| where it lives | " + " | ".join(projects) + " | all | share |",
           "|---" * (len(projects) + 3) + "|"]
    ordered = list(dict.fromkeys(row for _, row in CATEGORIES))
    for row in ordered:
        n = sum(missed[(row, p)] for p in projects)
        if n:
            out.append(f"| {row} | " + " | ".join(str(missed[(row, p)] or ".")
                                                   for p in projects)
                       + f" | {n} | {100 * n / max(1, total):.0f} % |")
    out.append("| **missed, all places** | " + " | ".join(
        str(sum(missed[(row, p)] for row in ordered)) for p in projects) + f" | {total} | |")
    out.append("| labelled weight | " + " | ".join(str(weight[p]) for p in projects)
               + f" | {sum(weight.values())} | |")
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("--et2", type=Path, help="the folder of et2's session files")
    parser.add_argument("--test", type=Path, help="the folder of the test split's session files")
    args = parser.parse_args()
    folders: dict[str, Path | None] = {"dev": None}
    folders.update({split: path for split, path in (("et2", args.et2), ("test", args.test))
                    if path is not None})
    rows = where(args.results, folders)
    (args.results / "where.json").write_text(json.dumps(rows, indent=0), encoding="utf-8")
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
