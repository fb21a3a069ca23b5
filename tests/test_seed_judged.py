"""`kenning seed --dry-run` on a real project judged by a reader who did not write the rules
(issue 19: "≥ 80 % judged correct, self-contained and durable"): tornadoweb/tornado at
e5300314, rebuilt from tests/fixtures/seed/tornado (its files at that commit and its release
tags with their dates).

The judged sample must be what the code proposes: when a rule changes one of the judged
proposals, this test fails, and the sample is to be drawn and judged again (blind), not edited.
"""

from __future__ import annotations

import json
import os
import subprocess
import tarfile
from pathlib import Path

from conftest import git, init_repo

DATA = Path(__file__).parent / "fixtures" / "seed" / "tornado"


def tornado_at_e5300314(root: Path) -> Path:
    init_repo(root)
    with tarfile.open(DATA / "tornado-e5300314.tar.gz") as archive:
        archive.extractall(root, filter="data")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "tornado at e5300314")
    for line in (DATA / "tags.tsv").read_text(encoding="utf-8").splitlines():
        tag, when = line.split("\t")
        env = {**os.environ, "GIT_COMMITTER_DATE": f"{when}T12:00:00+0000"}
        subprocess.run(["git", "-C", str(root), "tag", "-a", tag, "-m", tag], env=env,
                       check=True, capture_output=True)
    return root


def test_the_judged_sample_is_what_seed_proposes_and_four_in_five_are_good(kenning, isolated):
    root = tornado_at_e5300314(isolated)
    result = kenning("-C", str(root), "seed", "--dry-run", "--json")
    assert result.code == 0, result.err
    proposed = {i["text"]: i for i in json.loads(result.out)["items"]}
    judged = [json.loads(line) for line in
              (DATA / "judged.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(proposed) == 26 and len(judged) == 20
    for item in judged:
        assert item["text"] in proposed, item["text"]
        assert proposed[item["text"]]["provenance"] == item["provenance"]
        assert proposed[item["text"]]["action"] == "proposed"
    good = sum(item["verdict"] == "good" for item in judged)
    assert good / len(judged) >= 0.8, good
    assert not (root / ".kenning").exists()  # a dry run writes nothing
