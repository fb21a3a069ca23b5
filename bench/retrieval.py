"""Fact retrieval on the frozen eval set: Recall@1 and MRR through `kenning search`.

The 300 facts and 30 paraphrased questions in bench/data were written and committed before
any ranking was tuned; 40 development questions over other facts (written later, in
bench/data/retrieval_dev_questions.yaml) are for trying ideas without touching them.
Usage: python bench/retrieval.py [--embedder bundled|fake] [--dev]

Code retrieval (CodeSearchNet style: doc comments as queries over three real codebases,
against the frozen reference BM25) lives in bench/code_retrieval.py, with its corpora built
by bench/code_corpus.py.
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


def load_dataset(questions: str = "retrieval_questions.yaml") -> tuple[list[dict], list[dict]]:
    """The facts and one question set: the frozen test set, or the development set
    (retrieval_dev_questions.yaml, 40 questions written later over other facts, for trying
    ideas without touching the test set)."""
    facts = yaml.safe_load((DATA / "retrieval_facts.yaml").read_text(encoding="utf-8"))
    asked = yaml.safe_load((DATA / questions).read_text(encoding="utf-8"))
    return facts, asked


def seed_project(root: Path, facts: list[dict]) -> dict[str, str]:
    """Write the facts as fact files; returns dataset id -> fact id."""
    from kenning.facts import FactStore
    from kenning.paths import current_project

    store = FactStore(current_project(root))
    mapping = {}
    for item in facts:
        fact = store.create(item["text"], item["kind"], origin="transcript",
                            tags=tuple(item.get("tags", ())), rationale=item.get("rationale"))
        mapping[item["id"]] = fact.id
    return mapping


def evaluate(embedder: str = "bundled",
             questions_file: str = "retrieval_questions.yaml") -> dict[str, float]:
    from kenning.cli import main

    facts, questions = load_dataset(questions_file)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        os.environ["KENNING_HOME"] = str(Path(tmp) / "home")
        os.environ["KENNING_EMBEDDER"] = embedder
        mapping = seed_project(root, facts)
        hits_at_1 = 0
        reciprocal = 0.0
        misses = []
        for item in questions:
            out = _run(main, ["-C", str(root), "search", item["q"], "--json", "-n", "10"])
            ranked = [h["id"] for h in json.loads(out)]
            want = mapping[item["answer"]]
            if ranked[:1] == [want]:
                hits_at_1 += 1
            else:
                misses.append(item["q"])
            if want in ranked:
                reciprocal += 1 / (ranked.index(want) + 1)
    n = len(questions)
    return {"recall_at_1": hits_at_1 / n, "mrr": reciprocal / n, "questions": n,
            "misses": misses}


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


def run(check: bool) -> list[dict]:
    result = evaluate("bundled")
    dev = evaluate("bundled", "retrieval_dev_questions.yaml")
    return [{"name": "fact retrieval Recall@1 (30 paraphrased questions)",
             "value": result["recall_at_1"], "budget": 0.9, "unit": "ratio",
             "ok": result["recall_at_1"] >= 0.9, "higher_is_better": True,
             "gate": False},  # issue 2 target, not yet met: see the closing note
            {"name": "fact retrieval MRR", "value": round(result["mrr"], 3), "budget": None,
             "unit": "ratio", "ok": True},
            {"name": "  ... development questions (40), Recall@1", "value": dev["recall_at_1"],
             "budget": None, "unit": "ratio", "ok": True},
            {"name": "  ... development questions (40), MRR", "value": round(dev["mrr"], 3),
             "budget": None, "unit": "ratio", "ok": True}]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--embedder", default="bundled")
    parser.add_argument("--dev", action="store_true",
                        help="the development questions instead of the frozen test set")
    args = parser.parse_args()
    chosen = "retrieval_dev_questions.yaml" if args.dev else "retrieval_questions.yaml"
    print(json.dumps(evaluate(args.embedder, chosen), indent=1))
    sys.exit(0)
