"""`kenning seed` proposes a setting its configuration explains in a comment: the reason beside
the choice, said with the project, the file and the section."""

from __future__ import annotations

import json

from conftest import git
from kenning.extract.seed import configwhy

PYPROJECT = """\
[build-system]
requires = [
    # setuptools >= 67.0 required for Python 3.12+ support
    # Don't bump too early to give distributors time to update
    # their setuptools version.
    "setuptools >= 67.0",
]

[tool.coverage.run]
# sysmon, default on 3.14, is too slow: https://github.com/nedbat/coveragepy/issues/2172
core = "ctrace"
# branch = true
parallel = true

[tool.ruff.lint]
ignore = [
    "D203",  # `D203` and `D211` are incompatible
    "PLR5501",  # Use `elif` instead of `else` then `if`
    "PT",  # We use unittest, so pytest's style rules do not apply
    # Ones we want to ignore
    "E501",
]

[tool.doc8]
ignore = [
  "D001", # one sentence per line, so max length doesn't make sense
]

[tool.mypy]
# The below flags are equivalent to --strict as of mypy 1.20.
check_untyped_defs = true
# TODO: turn on
warn_unreachable = false
"""

SETUP_CFG = """\
[tool:pytest]
# 2-minute per-test timeout so a hung test surfaces by name instead of taking
# down the whole job.
timeout = 120
asyncio_mode = auto  # the pytest-asyncio mode
"""


def test_settings_with_a_reason_in_their_comment_and_nothing_else():
    found = [(p.provenance, p.text) for p in configwhy.proposals(PYPROJECT, "pyproject.toml",
                                                                  "demo")]
    assert found == [
        ("pyproject.toml:6", "demo (pyproject.toml, [build-system]): `requires` includes "
         "\"setuptools >= 67.0\": Setuptools >= 67.0 required for Python 3.12+ support. Don't "
         "bump too early to give distributors time to update their setuptools version."),
        ("pyproject.toml:11", "demo (pyproject.toml, [tool.coverage.run]): `core = \"ctrace\"`: "
         "Sysmon, default on 3.14, is too slow."),
        ("pyproject.toml:19", "demo (pyproject.toml, [tool.ruff.lint]): `ignore` includes "
         "\"PT\": We use unittest, so pytest's style rules do not apply."),
        ("pyproject.toml:26", "demo (pyproject.toml, [tool.doc8]): `ignore` includes \"D001\": "
         "One sentence per line, so max length doesn't make sense.")]
    # Not proposed: a linter code whose comment is the rule's own description or gives no
    # reason outright, a comment heading a group or pointing below, a to-do, a setting
    # commented out.


def test_a_seed_run_reads_the_configuration_files_at_the_root(kenning, repo):
    (repo / "pyproject.toml").write_text('[project]\nname = "demo"\n', encoding="utf-8")
    (repo / "setup.cfg").write_text(SETUP_CFG, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "config")
    result = kenning("seed", "--json", "--dry-run")
    assert result.code == 0, result.err
    said = [(i["provenance"], i["text"]) for i in json.loads(result.out)["items"]
            if i["rule"] == "config-why"]
    assert said == [("setup.cfg:4", "demo (setup.cfg, [tool:pytest]): `timeout = 120`: 2-minute "
                     "per-test timeout so a hung test surfaces by name instead of taking down "
                     "the whole job.")]
