"""Fact retrieval: Recall@1, Recall@3 and MRR@10 of the hybrid and of each leg alone.

Sets (issue 12, "Honest data splits"):
- development: the 300 tessera facts (bench/data/retrieval_facts.yaml) with
  retrieval_questions.yaml (30) and retrieval_dev_questions.yaml (40). Both chose the model's
  training recipe, the fusion and its floor, so both are development sets now.
- development too: bench/data/fact_test/ (httpx), fact_test2/ (requests), fact_test3/
  (uvicorn), fact_test4/ (pip-tools), fact_test5/ (loguru) and fact_test6/ (black), 60 cited
  facts + 20 distractors and 120 questions each. Written blind as test sets, each run as one,
  then used for issue 17's third to seventh rounds: development now. So is fact_test7/
  (httpie): its one test run chose between two injection gates.
- test (`--test`): bench/data/fact_test8/ (cookiecutter, written blind, committed before any
  run); reported, never tuned on.

Rows per set: the hybrid through `kenning search --type fact --json` (what a user gets), the
keyword leg alone, the vector leg alone (both from `Search.fact_leg_scores`) and plain BM25
(bench/reference_bm25.py: FTS5 porter, OR of the question's terms).
Usage: python bench/retrieval.py [--embedder bundled|fake] [--test] [--misses]

Code retrieval lives in bench/code_retrieval.py, with its corpora built by
bench/code_corpus.py.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import yaml

DATA = Path(__file__).parent / "data"
SYSTEMS = ("hybrid", "keyword leg", "vector leg", "plain BM25")
DEV_SETS = ("retrieval_questions.yaml", "retrieval_dev_questions.yaml")
# httpx, requests, uvicorn, pip-tools, loguru, black: development since issue 17's third to
# seventh round
CITED_DEV_SETS = ("fact_test", "fact_test2", "fact_test3", "fact_test4", "fact_test5",
                  "fact_test6", "fact_test7")
TEST_SETS: tuple[str, ...] = ("fact_test8",)  # cookiecutter, written blind (SPLITS.md)
FOLDER_SETS = (*CITED_DEV_SETS, *TEST_SETS)


def load_dataset(questions: str = "retrieval_questions.yaml") -> tuple[list[dict], list[dict]]:
    """The facts and one question set: a development set over the tessera facts, or the
    cited sets in their own folders (`fact_test` ... `fact_test6`), as (facts,
    [{q, answers}])."""
    if questions in FOLDER_SETS:
        facts = yaml.safe_load((DATA / questions / "facts.yaml").read_text(encoding="utf-8"))
        asked = yaml.safe_load((DATA / questions / "questions.yaml").read_text(encoding="utf-8"))
        # A paraphrase states its fact's claim: it answers that fact's questions too.
        also: dict[str, list[str]] = {}
        for item in facts:
            if item.get("paraphrase_of"):
                also.setdefault(item["paraphrase_of"], []).append(item["id"])
        return facts, [{"q": a["q"], "answers": [a["answer"], *also.get(a["answer"], [])]}
                       for a in asked]
    facts = yaml.safe_load((DATA / "retrieval_facts.yaml").read_text(encoding="utf-8"))
    asked = yaml.safe_load((DATA / questions).read_text(encoding="utf-8"))
    return facts, [{"q": a["q"], "answers": [a["answer"]]} for a in asked]


def seed_project(root: Path, facts: list[dict]) -> dict[str, str]:
    """Write the facts as fact files; returns dataset id -> fact id."""
    from kenning.core.paths import current_project
    from kenning.store.facts import FactStore

    store = FactStore(current_project(root))
    mapping = {}
    for item in facts:
        fact = store.create(item["text"], item.get("kind", "codebase"), origin="transcript",
                            tags=tuple(item.get("tags", ())), rationale=item.get("rationale"))
        mapping[item["id"]] = fact.id
    return mapping


def scores(rankings: list[list[str]], answers: list[list[str]]) -> dict[str, float]:
    """R@1, R@3 and MRR@10 of ranked ids against each question's acceptable ids."""
    r1 = r3 = mrr = 0.0
    for ranked, ok in zip(rankings, answers, strict=True):
        ranks = [ranked.index(a) for a in ok if a in ranked[:10]]
        if ranks:
            best = min(ranks)
            r1 += best == 0
            r3 += best < 3
            mrr += 1 / (best + 1)
    n = len(answers) or 1
    return {"R@1": round(r1 / n, 3), "R@3": round(r3 / n, 3), "MRR@10": round(mrr / n, 3)}


def evaluate(embedder: str = "bundled", questions_file: str = "retrieval_questions.yaml",
             misses: bool = False) -> dict:
    """Each system's scores on one set; `misses` adds the hybrid's misses (development only)."""
    from kenning.cli import main
    from kenning.core.paths import current_project
    from kenning.memory import Memory

    sys.path.insert(0, str(Path(__file__).parent))
    import reference_bm25

    facts, questions = load_dataset(questions_file)
    ranked: dict[str, list[list[str]]] = {name: [] for name in SYSTEMS}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        os.environ["KENNING_HOME"] = str(Path(tmp) / "home")
        os.environ["KENNING_EMBEDDER"] = embedder
        mapping = seed_project(root, facts)
        back = {fact_id: key for key, fact_id in mapping.items()}
        memory = Memory(current_project(root), embedder)
        memory.sync()
        plain = reference_bm25.create(":memory:")
        reference_bm25.index_texts(plain, [(f["id"], f["text"]) for f in facts])
        for item in questions:
            # "--": a question may begin with a dash ("--reload-include ...").
            out = _run(main, ["-C", str(root), "search", "--type", "fact", "--json", "-n", "10",
                              "--", item["q"]])
            ranked["hybrid"].append([back[h["id"]] for h in json.loads(out)])
            keyword, semantic = memory.searcher.fact_leg_scores(item["q"])
            ranked["keyword leg"].append([back[i] for i, _ in keyword[:10]])
            ranked["vector leg"].append([back[i] for i, _ in semantic[:10]])
            ranked["plain BM25"].append(reference_bm25.search(plain, item["q"]))
        memory.close()
        plain.close()
    answers = [item["answers"] for item in questions]
    result: dict = {name: scores(ranked[name], answers) for name in SYSTEMS}
    result["questions"] = len(questions)
    if misses:
        result["misses"] = [(item["q"], item["answers"][0], got[:3])
                            for item, got in zip(questions, ranked["hybrid"], strict=True)
                            if got[:1] != item["answers"][:1] and not
                            set(got[:1]) & set(item["answers"])]
    return result


def _run(main, argv: list[str]) -> str:
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        try:
            main(argv)
        except SystemExit as exc:
            if exc.code:
                raise
    return buffer.getvalue()


def table(results: dict[str, dict]) -> str:
    """A markdown table: one row per (set, system)."""
    lines = ["| set | system | R@1 | R@3 | MRR@10 |", "|---|---|---|---|---|"]
    for name, result in results.items():
        for system in SYSTEMS:
            row = result[system]
            lines.append(f"| {name} ({result['questions']}) | {system} | {row['R@1']:.3f} | "
                         f"{row['R@3']:.3f} | {row['MRR@10']:.3f} |")
    return "\n".join(lines)


def run(check: bool) -> list[dict]:
    """Development sets only: the blind test set is run by hand (`--test`) for the one number
    a closing note reports, never on every CI run where it would invite tuning."""
    rows = []
    for name in DEV_SETS:
        result = evaluate("bundled", name)
        label = "test" if name in TEST_SETS else "development"
        hybrid = result["hybrid"]
        legs_ok = all(hybrid[m] >= result[leg][m] for leg in ("keyword leg", "vector leg")
                      for m in ("R@1", "MRR@10"))
        rows.append({"name": f"fact retrieval, {label} {name} ({result['questions']}), "
                             f"hybrid R@1", "value": hybrid["R@1"], "budget": None,
                     "unit": "ratio", "ok": legs_ok, "higher_is_better": True, "gate": False})
        for system in SYSTEMS[1:]:
            rows.append({"name": f"  ... {system} R@1", "value": result[system]["R@1"],
                         "budget": None, "unit": "ratio", "ok": True})
        rows.append({"name": "  ... hybrid MRR@10", "value": hybrid["MRR@10"], "budget": None,
                     "unit": "ratio", "ok": True})
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--embedder", default="bundled")
    parser.add_argument("--test", action="store_true",
                        help="also the blind test set (for the closing note only)")
    parser.add_argument("--misses", action="store_true",
                        help="list the hybrid's misses on the development sets")
    args = parser.parse_args()
    results = {name: evaluate(args.embedder, name, misses=args.misses)
               for name in (*DEV_SETS, *CITED_DEV_SETS)}
    if args.test:
        for name in TEST_SETS:
            results[name] = evaluate(args.embedder, name)
    print(table(results))
    if args.misses:
        print(json.dumps({n: r.get("misses") for n, r in results.items()}, indent=1))
    sys.exit(0)
