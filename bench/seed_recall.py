"""`kenning seed` recall on a labelled project, and whether its questions find the seeded fact.

Not a gated row. A labelled set (`data/seed_labels/<project>/labels.yaml`: the project, its
commit, and facts with their source and a question each) is run against a git copy of that
project at that commit (`--repo`: a work tree or a bare git dir; it is cloned into a temporary
folder, which is all that is written):

1. `kenning seed --accept --json` in the copy, with a fresh store;
2. a labelled fact counts as found when a seeded fact comes from the same place: its
   provenance's file and lines overlap the label's source (`file#L98-L102`), or it is the
   same commit. Place is a proxy for meaning (a changelog line says one thing); every pair is
   printed so a reader can overrule it;
3. for each found fact, `kenning search --type fact --json QUESTION`: R@1 is the share whose
   first hit is a seeded fact matched to that label.

    .venv/bin/python bench/seed_recall.py --repo /path/to/starlette [--labels DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
DEFAULT_LABELS = HERE / "data" / "seed_labels" / "starlette"
_SOURCE = re.compile(r"^(?P<path>[^#]+)#L(?P<a>\d+)(?:-L(?P<b>\d+))?$")
_PROV = re.compile(r"^(?P<path>.+):(?P<a>\d+)(?:-(?P<b>\d+))?$")


def kenning() -> str:
    return str(Path(sys.executable).with_name("kenning"))


def same_place(label_source: str, provenance: str) -> bool:
    """The label's source and a proposal's provenance point at the same lines or commit."""
    if label_source.startswith("commit ") or provenance.startswith("commit "):
        a, b = label_source.removeprefix("commit ").strip(), \
            provenance.removeprefix("commit ").strip()
        return label_source.startswith("commit ") and provenance.startswith("commit ") \
            and (a.startswith(b) or b.startswith(a))
    s, p = _SOURCE.match(label_source.strip()), _PROV.match(provenance.strip())
    if not s or not p or s["path"] != p["path"]:
        return False
    s_a, s_b = int(s["a"]), int(s["b"] or s["a"])
    p_a, p_b = int(p["a"]), int(p["b"] or p["a"])
    return p_a <= s_b and s_a <= p_b


def copy_at(repo: Path, commit: str, into: Path) -> Path:
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(repo), str(into)], check=True)
    subprocess.run(["git", "-C", str(into), "checkout", "-q", commit], check=True)
    return into


class Seeded:
    """A copy of a labelled project at its commit, seeded with `kenning seed --accept` into a
    fresh store in `tmp`; `items` are the seeded facts that name their source."""

    def __init__(self, repo: Path, commit: str, tmp: Path, command: str | None = None) -> None:
        self.command = command or kenning()
        self.root = copy_at(repo, commit, tmp / "project")
        self.env = {**os.environ, "KENNING_HOME": str(tmp / "home"),
                    "CLAUDE_PROJECT_DIR": str(self.root), "KENNING_DISABLE_BACKGROUND": "1"}
        self.env.pop("KENNING_NOW", None)
        seeded = subprocess.run([self.command, "seed", "--accept", "--json"], cwd=self.root,
                                env=self.env, capture_output=True, text=True, check=True)
        self.items = [i for i in json.loads(seeded.stdout)["items"]
                      if i["action"] in ("added", "known") and i.get("provenance")]

    def first_hit(self, question: str) -> dict | None:
        """`kenning search --type fact`'s first hit for `question`, or None."""
        found = subprocess.run([self.command, "search", "--type", "fact", "--json", "-n", "1",
                                question], cwd=self.root, env=self.env, capture_output=True,
                               text=True, check=True)
        hits = json.loads(found.stdout or "[]")
        return hits[0] if hits else None


def run(repo: Path, labels_dir: Path) -> dict:
    labels = yaml.safe_load((labels_dir / "labels.yaml").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="seed-recall-") as tmp:
        copy = Seeded(repo, labels["commit"], Path(tmp))
        items = copy.items
        rows = []
        for fact in labels["facts"]:
            matched = [i for i in items if same_place(fact["source"], i["provenance"])]
            first = copy.first_hit(fact["question"]) if matched else None
            at_1 = bool(first) and first.get("id") in {i["fact_id"] for i in matched}
            rows.append({"id": fact["id"], "source": fact["source"],
                         "found": [i["text"] for i in matched], "r_at_1": at_1,
                         "first_hit": first.get("snippet") if first else None})
    n = len(rows)
    found_n = sum(1 for r in rows if r["found"])
    return {"project": labels["project"], "commit": labels["commit"], "labels": n,
            "proposed": len(items), "found": found_n,
            "recall": round(found_n / n, 3) if n else 0.0,
            "r_at_1": round(sum(r["r_at_1"] for r in rows) / found_n, 3) if found_n else 0.0,
            "rows": rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, required=True,
                        help="a git work tree or bare git dir of the labelled project")
    parser.add_argument("--labels", type=Path, default=DEFAULT_LABELS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.repo, args.labels)
    if args.json:
        print(json.dumps(result, indent=1, ensure_ascii=False))
        return 0
    for r in result["rows"]:
        mark = ("R@1" if r["r_at_1"] else "found") if r["found"] else "-"
        print(f"{r['id']:<4} {mark:<6} {r['source']}")
        for text in r["found"]:
            print(f"       seeded: {text[:150]}")
        if r["found"] and not r["r_at_1"]:
            print(f"       #1 was: {str(r['first_hit'])[:150]}")
    print(f"{result['project']} @ {result['commit'][:12]}: {result['proposed']} seeded, "
          f"{result['found']}/{result['labels']} labelled facts found "
          f"(recall {result['recall']:.2f}), R@1 {result['r_at_1']:.2f} of those found")
    return 0


if __name__ == "__main__":
    sys.exit(main())
