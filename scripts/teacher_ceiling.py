"""How far a full sentence-transformer gets on kenning's two retrieval benchmarks.

kenning ships a small static (model2vec) embedder, and two of its quality targets are not met
with it: fact retrieval Recall@1 >= 0.9 on the frozen 30 questions (bench/retrieval.py) and
hybrid code search MRR@10 >= 1.4 x the reference BM25 on every codebase
(bench/code_retrieval.py). A static model is distilled from a transformer teacher, so the
teacher bounds what better distillation can reach. This script measures that bound: the
transformer alone, and fused (RRF, k=60, kenning.search.fusion.fuse) with kenning's own keyword leg,
built exactly as search builds it. The transformer stands in for the static vector leg, in
that leg's place and at its depth (top 50); no boosts. A hit is the answer fact (facts) or a
chunk in the target's file overlapping its lines (code, as code_retrieval.rank_of).

It needs the heavy distillation environment (scripts/distill_model.py) with kenning installed
into it (`/tmp/distill-venv/bin/pip install -e .`), and a sentence-transformers directory:

    HF_HUB_OFFLINE=1 /tmp/distill-venv/bin/python scripts/teacher_ceiling.py MODEL_DIR \
        [--facts-only | --code-only] [CODEBASE ...]

Measured on 2 shared CPU cores (MRR is MRR@10, as the benches compute it; the keyword leg
alone: facts test R@1 0.433, dev 0.400; code MRR@10 click 0.540, sqlite_utils 0.425,
lodash 0.356). all-MiniLM-L6-v2 (the bundled model's teacher) took 1.5 minutes,
all-mpnet-base-v2 12 minutes:

    facts, R@1 / MRR        MiniLM alone   MiniLM + kw    mpnet alone    mpnet + kw
    test (30 q)             0.700 / 0.777  0.567 / 0.686  0.733 / 0.827  0.600 / 0.719
    dev (40 q)              0.600 / 0.742  0.525 / 0.667  0.850 / 0.900  0.550 / 0.699

    code, MRR@10 (BM25)     MiniLM alone   MiniLM + kw    mpnet alone    mpnet + kw
    click (0.483)           0.616          0.668 (1.38x)  0.654          0.665 (1.38x)
    sqlite_utils (0.350)    0.623          0.551 (1.58x)  0.592          0.551 (1.58x)
    lodash (0.329)          0.548          0.499 (1.52x)  0.521          0.509 (1.55x)

Neither of two general-purpose sentence-transformers, the bundled model's 6-layer teacher and
the stronger 12-layer mpnet, reaches either target: the best fact Recall@1 on the test set is
0.733 (mpnet alone; fusing the keyword leg lowers it) against 0.9, and on click the fused
ratio is 1.38x with both (alone 1.28x and 1.35x) against 1.4x. A static model distilled from
such a teacher is bounded by it, so a closer copy of the teacher cannot meet these targets.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))
import code_corpus  # noqa: E402
import code_retrieval  # noqa: E402
import retrieval  # noqa: E402
from kenning.core.textutil import fts_or_query, query_terms  # noqa: E402
from kenning.index.code import embed_chunks  # noqa: E402
from kenning.search.code import ChunkSearcher, identifier_words, nearest  # noqa: E402
from kenning.search.fusion import LEG_DEPTH, fuse  # noqa: E402

CUTOFF = 10
DEV_QUESTIONS = BENCH / "data" / "retrieval_dev_questions.yaml"


class TransformerEmbedder:
    """kenning's Embedder protocol over a sentence-transformer; a blank text is a zero row, as
    the static model gives it (a chunk without a symbol is then its body alone)."""

    def __init__(self, model_dir: str) -> None:
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(model_dir, device="cpu")
        self.dim = self.model.get_embedding_dimension()
        self.id = f"st-{Path(model_dir).name}"

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        rows = [i for i, t in enumerate(texts) if t.strip()]
        if rows:
            out[rows] = self.model.encode([texts[i] for i in rows], normalize_embeddings=True,
                                          batch_size=32, show_progress_bar=False)
        return out


def top(ids: list, matrix: np.ndarray, qvec: np.ndarray | None) -> list:
    """The model's top LEG_DEPTH ids, ties as kenning breaks them; no cosine floor (a
    transformer's cosines sit on another scale than the static model's)."""
    if qvec is None:
        return []
    return [i for i, _ in nearest(ids, matrix, qvec, LEG_DEPTH, min_cosine=-2.0)]


def fused(keyword: list, model: list) -> list:
    return [r.key for r in fuse({"keyword": keyword, "semantic": model})]


def rank(want, ranked: list) -> int | None:
    return ranked[:CUTOFF].index(want) + 1 if want in ranked[:CUTOFF] else None


def summary(ranks: list[int | None]) -> tuple[float, float]:
    """(Recall@1, MRR@10)."""
    n = len(ranks) or 1
    return sum(r == 1 for r in ranks) / n, sum(1 / r for r in ranks if r) / n


# ---- facts -----------------------------------------------------------------------------------
def fact_rows(embedder: TransformerEmbedder) -> list[str]:
    from kenning.core.paths import current_project
    from kenning.index.reader import fts_fact_ids
    from kenning.memory import Memory

    facts, test = retrieval.load_dataset()
    dev = yaml.safe_load(DEV_QUESTIONS.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        os.environ["KENNING_HOME"] = str(Path(tmp) / "home")
        os.environ["KENNING_EMBEDDER"] = "fake"
        mapping = retrieval.seed_project(root, facts)
        memory = Memory(current_project(root), "fake")
        memory.sync()
        ids = [mapping[f["id"]] for f in facts]
        matrix = embedder.encode([" ".join([f["text"], f.get("rationale") or "",
                                            *f.get("tags", ())]) for f in facts])
        lines = []
        for label, questions in (("test", test), ("dev", dev)):
            qvecs = embedder.encode([q["q"] for q in questions])
            alone, both, keyword_only = [], [], []
            for q, qvec in zip(questions, qvecs, strict=True):
                want = mapping[q["answers"][0] if "answers" in q else q["answer"]]
                match = fts_or_query(q["q"])
                keyword = fts_fact_ids(memory.conn, match, LEG_DEPTH) if match else []
                model = top(ids, matrix, qvec)
                keyword_only.append(rank(want, keyword))
                alone.append(rank(want, model))
                both.append(rank(want, fused(keyword, model)))
            for ranker, ranks in (("keyword leg", keyword_only), ("model alone", alone),
                                  ("keyword + model (RRF)", both)):
                r1, mrr = summary(ranks)
                lines.append(f"| {label} ({len(questions)} q) | {ranker} | {r1:.3f} | "
                             f"{mrr:.3f} |")
        memory.close()
    return ["| questions | ranker | R@1 | MRR@10 |", "|---|---|---|---|", *lines]


# ---- code ------------------------------------------------------------------------------------
def code_row(name: str, embedder: TransformerEmbedder) -> list[str]:
    from kenning.core.paths import Project
    from kenning.memory import Memory

    codebase = code_corpus.build(name, code_retrieval.sources(name))
    targets = codebase.targets
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        root = tmp / "repo"
        code_corpus.write_repo(codebase, root)
        reference = code_retrieval.reference_ranker(root, tmp)
        memory = Memory(Project(root=root.resolve(), home=tmp / "home"), embedder_name="fake")
        memory.index_code()
        # Code chunks only, as search with types=("code",) filters them.
        rows = memory.conn.execute("SELECT id, path, start_line, end_line, symbol, text "
                                   "FROM chunks WHERE doc = 0 ORDER BY id").fetchall()
        spans = {f"c:{r[0]}": (r[1], r[2], r[3]) for r in rows}
        searcher = ChunkSearcher(memory.conn)
        keyword_legs = []
        for t in targets:
            match = fts_or_query(t.query)
            found = searcher.keyword(match, LEG_DEPTH) if match else []
            keyword_legs.append([k for k in (f"c:{i}" for i in found) if k in spans])
        memory.close()
        started = time.monotonic()
        matrix = embed_chunks(embedder, [(r[4] or "", r[5]) for r in rows])
        # As ChunkSearcher.query_vector, batched: a query of stopwords only has no vector.
        qvecs = embedder.encode([identifier_words(t.query) for t in targets])
        ids = list(spans)
        ref_ranks = [code_retrieval.rank_of(t, reference(t.query)) for t in targets]
    alone, both, keyword_only = [], [], []
    for t, keyword, qvec in zip(targets, keyword_legs, qvecs, strict=True):
        model = top(ids, matrix, qvec if query_terms(t.query) else None)
        for ranks, ranked in ((keyword_only, keyword), (alone, model),
                              (both, fused(keyword, model))):
            ranks.append(code_retrieval.rank_of(t, [spans[k] for k in ranked[:CUTOFF]]))
    print(f"{name}: {len(rows)} chunks, {len(targets)} queries, encoded in "
          f"{time.monotonic() - started:.0f}s", file=sys.stderr)
    ref = code_retrieval.scores(ref_ranks)["MRR@10"]
    cells = [code_retrieval.scores(r)["MRR@10"] for r in (keyword_only, alone, both)]
    ratio = cells[2] / ref if ref else float("inf")
    return [f"| {name} ({len(targets)} q) | {ref:.3f} | "
            + " | ".join(f"{c:.3f}" for c in cells) + f" | {ratio:.2f}x |"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model_dir", help="a sentence-transformers model directory")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--facts-only", action="store_true")
    only.add_argument("--code-only", action="store_true")
    parser.add_argument("codebases", nargs="*", default=list(code_retrieval.CODEBASES),
                        help=f"any of {', '.join(code_retrieval.CODEBASES)}")
    args = parser.parse_intermixed_args()
    embedder = TransformerEmbedder(args.model_dir)
    print(f"## {args.model_dir}\n")
    if not args.code_only:
        print("Fact retrieval (300 facts):\n")
        print("\n".join(fact_rows(embedder)) + "\n", flush=True)
    if not args.facts_only:
        print("Code retrieval, MRR@10 (fused / reference is the ratio checked at 1.4x):\n")
        print("| codebase | reference BM25 | keyword leg | model alone | keyword + model (RRF) "
              "| fused / reference |\n|---|---|---|---|---|---|", flush=True)
        for name in args.codebases:
            try:
                print("\n".join(code_row(name, embedder)), flush=True)
            except code_corpus.Unavailable as exc:
                print(f"| {name} | skipped: {exc} | | | | |", flush=True)


if __name__ == "__main__":
    main()
