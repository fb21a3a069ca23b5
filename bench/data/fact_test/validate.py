"""Structural checks for a fact test set. Run: python validate.py [FOLDER] (this folder by default;
fact_test2 is checked with `python ../fact_test/validate.py ../fact_test2`)."""
import collections
import pathlib
import sys

import yaml

HERE = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent)


def main() -> int:
    facts = yaml.safe_load((HERE / "facts.yaml").read_text(encoding="utf-8"))
    questions = yaml.safe_load((HERE / "questions.yaml").read_text(encoding="utf-8"))
    unrelated = yaml.safe_load((HERE / "unrelated.yaml").read_text(encoding="utf-8"))
    errors = []

    ids = [f["id"] for f in facts]
    dup = [i for i, n in collections.Counter(ids).items() if n > 1]
    if dup:
        errors.append(f"duplicate ids: {dup}")
    by_id = {f["id"]: f for f in facts}
    real = [f for f in facts if f["id"].startswith("f")]
    dist = [f for f in facts if f["id"].startswith("d")]
    if len(real) != 60 or len(dist) != 20:
        errors.append(f"expected 60 facts + 20 distractors, got {len(real)} + {len(dist)}")
    for f in facts:
        for key in ("id", "kind", "text", "tags", "source"):
            if not f.get(key):
                errors.append(f"{f.get('id')}: missing {key}")
        if f.get("kind") not in ("codebase", "decision", "interaction"):
            errors.append(f"{f['id']}: bad kind {f.get('kind')}")
    para = [d for d in dist if "paraphrase_of" in d]
    near = [d for d in dist if "distractor_of" in d]
    if len(para) != 5 or len(near) != 15:
        errors.append(f"expected 5 paraphrases + 15 near-misses, got {len(para)} + {len(near)}")
    for d in dist:
        links = [k for k in ("paraphrase_of", "distractor_of") if k in d]
        if len(links) != 1:
            errors.append(f"{d['id']}: needs exactly one of paraphrase_of/distractor_of")
            continue
        target = d[links[0]]
        if target not in by_id or not target.startswith("f"):
            errors.append(f"{d['id']}: link to unknown fact {target}")
    for f in real:
        if "paraphrase_of" in f or "distractor_of" in f:
            errors.append(f"{f['id']}: facts must not carry distractor links")

    if len(questions) != 120:
        errors.append(f"expected 120 questions, got {len(questions)}")
    per_fact = collections.Counter()
    texts = {f["text"].strip().lower() for f in facts}
    seen_q = set()
    for q in questions:
        a = q.get("answer")
        if a not in by_id or not a.startswith("f"):
            errors.append(f"question answers unknown fact: {q}")
        per_fact[a] += 1
        qt = q["q"].strip().lower()
        if qt in texts:
            errors.append(f"question equals a stored text: {q['q']}")
        if qt in seen_q:
            errors.append(f"duplicate question: {q['q']}")
        seen_q.add(qt)
    for f in real:
        if per_fact[f["id"]] != 2:
            errors.append(f"{f['id']}: has {per_fact[f['id']]} questions, expected 2")

    if len(unrelated) != 60 or not all(isinstance(u, str) and u.strip() for u in unrelated):
        errors.append(f"expected 60 non-empty unrelated strings, got {len(unrelated)}")
    if len({u.strip().lower() for u in unrelated}) != len(unrelated):
        errors.append("duplicate unrelated prompts")
    for u in unrelated:
        if u.strip().lower() in texts or u.strip().lower() in seen_q:
            errors.append(f"unrelated prompt equals a stored text or question: {u}")

    for e in errors:
        print("ERROR:", e)
    print(f"facts={len(real)} distractors={len(dist)} (paraphrase={len(para)}, near-miss={len(near)}) "
          f"questions={len(questions)} unrelated={len(unrelated)}")
    print("OK" if not errors else f"{len(errors)} error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
