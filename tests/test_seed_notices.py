"""`kenning seed`: the Python floor said with the release that set it, and a changelog's notices
to those who build on the project (what they must now do, what no longer happens)."""

from __future__ import annotations

import json

from conftest import git


def seed_json(kenning, *args: str) -> dict:
    result = kenning("seed", "--json", *args)
    assert result.code == 0, result.err
    return json.loads(result.out)


def proposed(out: dict) -> list[dict]:
    return [i for i in out["items"] if i["action"] == "proposed"]


def test_the_python_floor_is_said_with_the_release_that_set_it(kenning, repo):
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "demo"\nversion = "2.1.0"\nrequires-python = ">=3.10"\n',
        encoding="utf-8")
    (repo / "CHANGES.md").write_text(
        "## 2.1.0\n\n### Removed\n\n- Python 3.8 and 3.9 support.\n\n"
        "## 1.4.0\n\n- Dropped support for Python 3.7.\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "release")
    items = proposed(seed_json(kenning, "--dry-run"))
    floor = [i for i in items if "Python" in i["text"]]
    # one fact: the floor, where it came from; not the floor alone, nor 1.4.0's older drop
    assert [(i["text"], i["provenance"]) for i in floor] == [
        ("Removed in demo 2.1.0 (CHANGES.md): Python 3.8 and 3.9 support. demo supports "
         "Python >=3.10 (`requires-python` in pyproject.toml).", "CHANGES.md:5")]


def test_the_floor_stands_alone_when_no_entry_dropped_the_python_below_it(kenning, repo):
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "demo"\nversion = "2.1.0"\nrequires-python = ">=3.10"\n',
        encoding="utf-8")
    (repo / "CHANGES.md").write_text(
        "## 2.1.0\n\n- Dropped support for Python 3.8.\n- Dropped support for PyPy 3.9.\n",
        encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "release")
    floor = [i["text"] for i in proposed(seed_json(kenning, "--dry-run")) if "Python" in i["text"]]
    assert floor == ['demo (pyproject.toml): Supports Python >=3.10 (`requires-python = '
                     '">=3.10"`).']
