"""`kenning seed` on agent instruction files: every instruction, said with its section."""

from __future__ import annotations

from conftest import git, init_repo
from kenning.extract.seed import agents
from kenning.extract.seed import run as seed_run

AGENTS_MD = """\
# AGENTS.md

This file provides guidance to AI coding agents working with this repository.

## Branching

- All new features and bug fixes target `master`. A bot creates backports to the `x.y`
  release branches automatically.

## Test

- Run all: `PYTHONPATH='.' pytest --numprocesses=auto`
- Sign with `` -- by :user:`github-handle` ``.

```sh
# not a heading
- not an item
```

## PRs

- **Draft.** Use `gh pr create --draft`.
  - Every submission must be reviewed by a human before going out of draft.
  - Do not mark ready or request reviewers yourself.
- See [the guide](CONTRIBUTING.md)

**Commits**: Don't use conventional commits; match recent imperative subjects.

## Threat model

`THREAT_MODEL.md` is a living document and should be revised when:

- A CVE is filed against gadget.
- The vendored parser version is bumped.
"""


def test_each_instruction_is_said_with_its_section():
    texts = [p.text for p in agents.proposals(AGENTS_MD, "AGENTS.md")]
    assert texts == [
        "AGENTS.md (Branching): All new features and bug fixes target `master`. A bot creates"
        " backports to the `x.y` release branches automatically.",
        "AGENTS.md (Test): Run all: `PYTHONPATH='.' pytest --numprocesses=auto`",
        "AGENTS.md (PRs): Draft. Use `gh pr create --draft`. Every submission must be reviewed"
        " by a human before going out of draft. Do not mark ready or request reviewers"
        " yourself.",
        "AGENTS.md (PRs): Commits: Don't use conventional commits; match recent imperative"
        " subjects.",
        "AGENTS.md (Threat model): `THREAT_MODEL.md` is a living document and should be revised"
        " when: A CVE is filed against gadget. The vendored parser version is bumped.",
    ], texts
    # the role-bearing literal, the code block and the bare link are left out


def test_a_long_section_gives_at_most_its_share():
    page = "# AGENTS.md\n\n## Voice\n\n" + "".join(
        f"- Point number {n} about the reviewing voice here.\n" for n in range(20))
    assert len(agents.proposals(page, "AGENTS.md")) == agents.PER_SECTION


def test_seed_reads_an_agent_file_whole(tmp_path):
    root = init_repo(tmp_path / "r")
    (root / "AGENTS.md").write_text(AGENTS_MD, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "agents")
    found = seed_run.scan(root, {}, full=True)[0]
    texts = [p.text for p in found if p.source == "agents"]
    assert any(t.startswith("AGENTS.md (Branching): All new features") for t in texts), texts
    # the phrasing rules' "Every submission must be reviewed …" is inside the Draft item: once
    assert sum("Every submission must be reviewed" in t for t in texts) == 1, texts
