"""Injection quality of the UserPromptSubmit hook: right or silent (issue 17).

Each prompt goes through the hook's own `handle` in a new session (no per-session dedup
helps it), default mode (the stdlib FTS gate) unless `--mode hybrid`. Per set:
- right: share of answerable prompts whose fact (or a paraphrase of it) was injected;
- precision: share of the facts injected for answerable prompts that were right;
- per prompt: facts injected per answerable prompt;
- unrelated: share of unrelated prompts that got anything (the bar is 5 %).

Sets (issue 12's splits):
- calibration: tests/fixtures/hooks/relevance.json (20 answerable, 20 not, 200 facts), the
  tessera development set (bench/data/retrieval_facts.yaml, the 70 questions of
  retrieval_questions.yaml and retrieval_dev_questions.yaml, and the unrelated prompts of
  bench/data/unrelated_prompts_dev.yaml), bench/data/lifecycle_test/prompts.yaml (40
  answerable, 80 unrelated, 10 off-topic, over the 200 facts of relevance.json) and the cited
  sets fact_test (httpx) and fact_test2 (requests; 120 questions, 60 unrelated prompts each).
  The gate's rules and its logistic weights (hooks.factdb) were chosen here.
  fact_test3 (uvicorn) joined them in issue 17's fourth round, fact_test4 (pip-tools) in its
  fifth, fact_test5 (loguru) in its sixth, fact_test6 (black) in its seventh, fact_test7
  (httpie) after its one test run chose between two gates, each after its one test run.
- test (`--test`): bench/data/fact_test8/ (cookiecutter, written blind, committed before any
  run); reported, never tuned on.
Usage: python bench/relevance.py [--mode fts|hybrid] [--test] [--show]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data"
RELEVANCE = ROOT / "tests" / "fixtures" / "hooks" / "relevance.json"
CALIBRATION = ("relevance.json", "tessera", "lifecycle_test prompts", "fact_test",
               "fact_test2", "fact_test3", "fact_test4", "fact_test5", "fact_test6", "fact_test7")
TEST: tuple[str, ...] = ("fact_test8",)  # cookiecutter, written blind (SPLITS.md)
BENCH_ROWS = CALIBRATION[:3]  # bench/run.py: the small sets


def load(name: str) -> tuple[list[dict], list[dict], list[str]]:
    """(facts [{id, text, kind}], answerable [{q, answers}], unrelated prompts)."""
    if name in ("relevance.json", "lifecycle_test prompts"):
        data = json.loads(RELEVANCE.read_text(encoding="utf-8"))
        facts = [{"id": f["key"], "text": f["text"], "kind": f["kind"]} for f in data["facts"]]
        if name == "relevance.json":
            return facts, [{"q": r["prompt"], "answers": [r["target"]]}
                           for r in data["relevant"]], data["irrelevant"]
        test = yaml.safe_load((DATA / "lifecycle_test" / "prompts.yaml").read_text(
            encoding="utf-8"))
        return facts, [{"q": r["prompt"], "answers": [r["target"]]} for r in test["relevant"]], \
            list(test["unrelated"]) + list(test["offtopic"])
    sys.path.insert(0, str(ROOT / "bench"))
    from retrieval import DEV_SETS, load_dataset

    if name == "tessera":
        facts, asked = load_dataset(DEV_SETS[0])
        asked += load_dataset(DEV_SETS[1])[1]
        unrelated = yaml.safe_load((DATA / "unrelated_prompts_dev.yaml").read_text(
            encoding="utf-8"))
        return facts, asked, unrelated
    facts, asked = load_dataset(name)
    unrelated = yaml.safe_load((DATA / name / "unrelated.yaml").read_text(encoding="utf-8"))
    return facts, asked, unrelated


def evaluate(name: str, mode: str = "fts", show: bool = False) -> dict:
    from kenning.core.paths import current_project
    from kenning.hooks.base import Ctx
    from kenning.hooks.user_prompt import handle
    from kenning.memory import Memory

    sys.path.insert(0, str(ROOT / "bench"))
    from retrieval import seed_project

    facts, answerable, unrelated = load(name)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        os.environ["KENNING_HOME"] = str(Path(tmp) / "home")
        os.environ["KENNING_PROMPT_SEARCH"] = mode
        os.environ.setdefault("KENNING_EMBEDDER", "bundled")
        mapping = seed_project(root, facts)
        back = {fact_id: key for key, fact_id in mapping.items()}
        memory = Memory(current_project(root), os.environ["KENNING_EMBEDDER"])
        memory.sync()
        memory.close()

        def injected(prompt: str, n: int) -> list[str]:
            out = handle(Ctx({"cwd": str(root), "session_id": f"s{n}", "prompt": prompt},
                             "user-prompt-submit"))
            if not out:
                return []
            text = json.loads(out)["hookSpecificOutput"]["additionalContext"]
            return [key for fid, key in back.items() if fid in text]

        right = given = correct = 0
        shown = []
        for n, item in enumerate(answerable):
            got = injected(item["q"], n)
            right += any(a in got for a in item["answers"])
            given += len(got)
            correct += sum(g in item["answers"] for g in got)
            if show and set(got) != set(item["answers"][:1]):
                shown.append(("answerable", item["q"], item["answers"][0], got))
        noisy = 0
        for n, prompt in enumerate(unrelated):
            got = injected(prompt, 10_000 + n)
            noisy += bool(got)
            if show and got:
                shown.append(("unrelated", prompt, None, got))
    os.environ.pop("KENNING_PROMPT_SEARCH", None)
    result = {"answerable": len(answerable), "right": round(right / len(answerable), 3),
              "precision": round(correct / given, 3) if given else 1.0,
              "per prompt": round(given / len(answerable), 2), "unrelated": len(unrelated),
              "unrelated with facts": round(noisy / len(unrelated), 3)}
    if show:
        result["shown"] = shown
    return result


def table(results: dict[str, dict]) -> str:
    lines = ["| set | answerable | right injected | precision | facts/prompt | unrelated | "
             "unrelated given facts |", "|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        lines.append(f"| {name} | {r['answerable']} | {r['right']:.3f} | {r['precision']:.3f} "
                     f"| {r['per prompt']:.2f} | {r['unrelated']} | "
                     f"{r['unrelated with facts']:.3f} |")
    return "\n".join(lines)


def run(check: bool) -> list[dict]:
    rows = []
    for name in BENCH_ROWS:
        r = evaluate(name)
        rows.append({"name": f"prompt injection, calibration {name}: right fact injected",
                     "value": r["right"], "budget": None, "unit": "ratio", "ok": True})
        rows.append({"name": "  ... precision of injected facts", "value": r["precision"],
                     "budget": None, "unit": "ratio", "ok": True})
        rows.append({"name": "  ... unrelated prompts given facts",
                     "value": r["unrelated with facts"], "budget": 0.05, "unit": "ratio",
                     "ok": r["unrelated with facts"] <= 0.05, "gate": False})
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="fts", choices=["fts", "hybrid"])
    parser.add_argument("--test", action="store_true", help="the test splits too")
    parser.add_argument("--show", action="store_true", help="list the calibration errors")
    args = parser.parse_args()
    names = (*CALIBRATION, *TEST) if args.test else CALIBRATION
    results = {n: evaluate(n, args.mode, show=args.show and n in CALIBRATION) for n in names}
    print(table(results))
    for name, r in results.items():
        for row in r.get("shown", ()):
            print(name, *row, sep=" | ")
