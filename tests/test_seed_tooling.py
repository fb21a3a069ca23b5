"""`kenning seed` on what a contributor must know from the tooling: pyproject.toml settings,
the commands `scripts/` run, the pull-request checklist; and a contributing guide outside the
root."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import git, init_repo
from kenning.extract.seed import tooling

PYPROJECT = """\
[project]
name = "widget"
requires-python = ">=3.9"

[tool.ruff]
line-length = 120

[tool.ruff.lint]
select = ["E", "F"]

[tool.mypy]
strict = true

[tool.pytest.ini_options]
addopts = "-rXs --strict-config --strict-markers"
xfail_strict = true
filterwarnings = [
    # Turn warnings that aren't filtered into exceptions
    "error",
    "ignore:old:DeprecationWarning",
]

[tool.coverage.report]
fail_under = 95
"""

TEST_SCRIPT = """\
#!/bin/sh

export PREFIX=""
if [ -d 'venv' ] ; then
    export PREFIX="venv/bin/"
fi
export SOURCE_FILES="widget tests"

set -ex

if [ -z $GITHUB_ACTIONS ]; then
    scripts/check
fi

branch_option=$(python -c 'print("--branch")')
${PREFIX}coverage run $branch_option -m pytest $@
${PREFIX}mypy $SOURCE_FILES
"""

PR_TEMPLATE = """\
<!-- Thanks for contributing!
- [ ] A commented-out item is no item.
-->
# Checklist

- [ ] I have read the contributing guide.
- [ ] I've updated the documentation accordingly.
- [ ] New public functions must be listed in `docs/api.rst` by hand.
  - [ ] and in the typing tests too, when they are generic.
- [ ] ...and used in the stub test file `typing_tests/baseline.py`.
- [x] I understand that this PR may be closed if there was no previous discussion.
- [x] I've run `make lint` on the new code, and I tried to keep it small.
"""


def texts(found) -> dict[str, str]:
    return {p.text: p.provenance for p in found}


def test_pyproject_settings_one_fact_each_with_the_project_file_value_and_line():
    found = texts(tooling.pyproject_proposals(PYPROJECT, "pyproject.toml", "widget"))
    assert found == {
        'widget (pyproject.toml): Supports Python >=3.9 (`requires-python = ">=3.9"`).':
            "pyproject.toml:3",
        "widget (pyproject.toml): pytest turns warnings into errors (`filterwarnings = error` "
        "in [tool.pytest.ini_options]; the filter after it lets some through).":
            "pyproject.toml:17",
        "widget (pyproject.toml): pytest runs with `--strict-markers` and `--strict-config` "
        "(addopts in [tool.pytest.ini_options]): an unregistered marker or an unknown config "
        "key fails the run.": "pyproject.toml:15",
        "widget (pyproject.toml): pytest treats an unexpectedly passing xfail test as a "
        "failure (`xfail_strict = true`).": "pyproject.toml:16",
        "widget (pyproject.toml): Coverage below 95% fails (`fail_under = 95` in "
        "[tool.coverage.report]).": "pyproject.toml:24",
        "widget (pyproject.toml): Lints with ruff, line length 120 ([tool.ruff]).":
            "pyproject.toml:6",
        "widget (pyproject.toml): Configures mypy in strict mode (`strict = true` in "
        "[tool.mypy]).": "pyproject.toml:12",
    }
    # Settings that are not there, or not strict, say nothing; a broken file nothing at all.
    loose = "[project]\nname = 'w'\n[tool.mypy]\nstrict = false\n[tool.pytest.ini_options]\n" \
        "filterwarnings = ['ignore::DeprecationWarning']\n"
    assert tooling.pyproject_proposals(loose, "pyproject.toml", "w") == []
    assert tooling.pyproject_proposals("[project\n", "pyproject.toml", "w") == []


PYTEST_9 = """\
[tool.pytest]
minversion = "9.0"
strict_markers = true
strict_xfail = true
filterwarnings = ["error", "ignore::DeprecationWarning:xdist"]

[tool.ruff.lint.flake8-tidy-imports]
# import it inside functions (lazy)
banned-module-level-imports = ["widget.rich_utils"]

[tool.ruff.lint.flake8-tidy-imports.banned-api]
"rich".msg = "Use 'widget.rich_utils' instead of importing from 'rich' directly."
"shellingham.detect_shell".msg = \"\"\"\\
Use 'widget.shells.name' instead of \\
calling 'shellingham.detect_shell' directly.
\"\"\"
"os.system" = { msg = "no" }
"""


def test_pytest_9s_own_table_and_the_imports_ruff_bans_in_the_projects_words():
    found = texts(tooling.pyproject_proposals(PYTEST_9, "pyproject.toml", "widget"))
    assert found == {
        # a filter naming a module takes back only that module's warnings
        "widget (pyproject.toml): pytest turns warnings into errors (`filterwarnings = error` "
        "in [tool.pytest]; the filter after it lets some through).": "pyproject.toml:5",
        "widget (pyproject.toml): pytest fails the run on an unregistered marker "
        "(`strict_markers = true` in [tool.pytest]).": "pyproject.toml:3",
        "widget (pyproject.toml): pytest treats an unexpectedly passing xfail test as a "
        "failure (`strict_xfail = true`).": "pyproject.toml:4",
        "widget (pyproject.toml): `widget.rich_utils` may be imported only inside functions, "
        "never at module level (ruff's `banned-module-level-imports` in "
        "[tool.ruff.lint.flake8-tidy-imports]).": "pyproject.toml:9",
        "widget (pyproject.toml): Code must not use `rich` (ruff's banned-api in "
        "[tool.ruff.lint.flake8-tidy-imports.banned-api]): Use 'widget.rich_utils' instead of "
        "importing from 'rich' directly.": "pyproject.toml:12",
        "widget (pyproject.toml): Code must not use `shellingham.detect_shell` (ruff's "
        "banned-api in [tool.ruff.lint.flake8-tidy-imports.banned-api]): Use "
        "'widget.shells.name' instead of calling 'shellingham.detect_shell' directly.":
            "pyproject.toml:13",
    }  # a one-word message ("no") says nothing about why or what instead
    # pytest 9's `strict = true` is every strictness switch at once: one fact, not four.
    strict = "[tool.pytest]\nstrict = true\nstrict_xfail = true\n"
    assert [p.text for p in tooling.pyproject_proposals(strict, "pyproject.toml", "w")] == [
        "w (pyproject.toml): pytest runs in strict mode (`strict = true` in [tool.pytest]): an "
        "unknown config key, an unregistered marker, an unexpectedly passing xfail test and "
        "duplicate parametrize ids fail the run."]


MAKEFILE = """\
run := poetry run
PIP = $(run) pip

.PHONY: test
test: .develop
\t$(run) pytest tests/ -n 4 --dist=loadgroup $(ARGS)

.PHONY: fmt format
fmt format:
\t@python -m pre_commit run --all-files   # every hook
\t-ruff check --fix src

lint: fmt mypy

mypy:
\tmypy

release: test
\t$(run) twine upload dist/*
"""


def test_what_the_make_targets_a_contributor_runs_run():
    found = texts(tooling.makefile_proposals(MAKEFILE, "Makefile", "widget"))
    assert found == {
        "widget (Makefile): `make test` runs `pytest tests/ -n 4 --dist=loadgroup`.":
            "Makefile:6",
        "widget (Makefile): `make fmt` (or `make format`) runs `pre-commit run --all-files`; "
        "then `ruff check --fix src`.": "Makefile:10-11",
    }  # `lint` runs nothing itself, `mypy` only the tool by its name, `release` is no check


def test_a_script_is_what_it_runs_with_its_variables_filled_in_and_its_arguments_passed_on():
    [runs] = tooling.script_proposals(TEST_SCRIPT, "scripts/test", "widget")
    assert runs.text == "widget (scripts/test): `scripts/test` runs `scripts/check`; then " \
        "`coverage run -m pytest`; then `mypy widget tests`. Arguments given to " \
        "`scripts/test` are passed on to pytest."
    assert runs.provenance == "scripts/test:12-17" and runs.kind == "interaction"
    # A coverage floor on the command line is the fact, not "runs coverage report".
    floor = "#!/bin/sh -e\n\n${PREFIX}coverage report --show-missing --fail-under=100\n"
    assert [p.text for p in tooling.script_proposals(floor, "scripts/coverage", "widget")] \
        == ["widget (scripts/coverage): Coverage below 100% fails (`coverage report "
            "--show-missing --fail-under=100`)."]
    # A program the tool list does not know is said too, so the list is whole (a blind judge
    # called sqlmodel's "runs `ruff check …`" wrong: its `ty check` lines came first).
    lint = "#!/usr/bin/env bash\nset -e\nset -x\n\nty check widget\nruff check widget\n"
    assert [p.text for p in tooling.script_proposals(lint, "scripts/lint.sh", "widget")] == [
        "widget (scripts/lint.sh): `scripts/lint.sh` runs `ty check widget`; then "
        "`ruff check widget`."]
    # A script that runs no development tool, or a Python script, is not proposed.
    assert tooling.script_proposals("#!/bin/sh\nrm -rf dist build\n", "scripts/clean",
                                    "widget") == []
    assert tooling.script_proposals("import subprocess\nsubprocess.run(['pytest'])\n",
                                    "scripts/run.py", "widget") == []


def test_checklist_items_that_stand_alone_and_are_not_any_projects_boilerplate():
    found = [p.text for p in tooling.pr_template_proposals(
        PR_TEMPLATE, ".github/pull_request_template.md", "widget")]
    assert found == [
        "widget (.github/pull_request_template.md, pull-request checklist): New public "
        "functions must be listed in `docs/api.rst` by hand.",
        "widget (.github/pull_request_template.md, pull-request checklist): Run `make lint` "
        "on the new code."]


def test_seed_reads_tooling_and_a_guide_in_github_once_per_fact(kenning, isolated: Path):
    root = init_repo(isolated)
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / "scripts").mkdir()
    (root / "scripts" / "test").write_text(TEST_SCRIPT, encoding="utf-8")
    (root / ".github").mkdir()
    (root / ".github" / "pull_request_template.md").write_text(PR_TEMPLATE, encoding="utf-8")
    # The same rule in the guide and the checklist is proposed once.
    (root / ".github" / "CONTRIBUTING.rst").write_text(
        "Contributing\n============\n\nNew public functions must be listed in "
        "`docs/api.rst` by hand.\n\nAlways run `scripts/test` before you open a pull request.\n",
        encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "Initial import")
    result = kenning("seed", "--dry-run", "--json")
    assert result.code == 0, result.err
    items = json.loads(result.out)["items"]
    proposed = [i for i in items if i["action"] == "proposed"]
    by_file = {i["provenance"].split(":")[0] for i in proposed}
    assert by_file == {"pyproject.toml", "scripts/test", ".github/pull_request_template.md",
                       ".github/CONTRIBUTING.rst"}
    assert sum("docs/api.rst" in i["text"] for i in proposed) == 1
    assert any("Always run `scripts/test`" in i["text"] for i in proposed)


def test_a_wrapped_checklist_item_is_read_whole_and_a_reference_is_never_cut() -> None:
    from kenning.extract.seed.current import least_below_floor
    from kenning.extract.seed.model import plain
    text = ("- [ ] You've updated the documentation (in `docs/`), in case of behavior changes or"
            " new\nfeatures\n- [ ] You've added a new changelog entry (in `CHANGES.rst`).\n")
    first = tooling.pr_template_proposals(text, "PR.md", "x")[0]
    assert first.text.endswith("behavior changes or new features.")
    assert first.provenance == "PR.md:1-2"
    said = plain("Fix `a()`\n  (`#1224 <https://x/pull/1224>`_; PR by @someone)")
    assert said == "Fix `a()`"  # not "(#1224; PR."
    assert plain("Remove nesting in ``A.b`` in (:pull:`1072`)") == "Remove nesting in `A.b`"
    assert least_below_floor("packaging now requires Python 3.9 or later.", (3, 10))
    assert not least_below_floor("packaging now requires Python 3.10 or later.", (3, 10))


def test_the_same_settings_in_setup_cfg_tox_ini_and_flake8_files() -> None:
    # beets' setup.cfg, invoke's .flake8 and urllib3's setup.cfg (development)
    setup_cfg = ("[tool:pytest]\naddopts =\n    -ra\n    --strict-config\nfilterwarnings =\n"
                 "    error\n    ignore::DeprecationWarning\n\n[flake8]\nmax-line-length: 99\n\n"
                 "[mypy]\nstrict = True\n")
    found = tooling.ini_proposals(setup_cfg, "setup.cfg", "tune")
    assert [(p.provenance, p.text) for p in found] == [
        ("setup.cfg:10", "tune (setup.cfg): Lints with flake8, line length 99 "
                         "(`max-line-length` in [flake8])."),
        ("setup.cfg:5", "tune (setup.cfg): pytest turns warnings other than "
                        "`DeprecationWarning` into errors (`filterwarnings = error` in "
                        "[tool:pytest])."),
        ("setup.cfg:2", "tune (setup.cfg): pytest runs with `--strict-config` (addopts in "
                        "[tool:pytest]): an unknown config key fails the run."),
        ("setup.cfg:13", "tune (setup.cfg): Configures mypy in strict mode (`strict = True` in "
                         "[mypy]).")], found
    # pytest reads `[pytest]` only in tox.ini / pytest.ini; flake8 ignoring E501 sets no length
    other = tooling.ini_proposals(setup_cfg.replace("tool:pytest", "pytest"), "setup.cfg", "t")
    assert [p.rule for p in other] == ["ini-flake8", "ini-mypy-strict"], other
    assert tooling.ini_proposals("[flake8]\nignore = E501,W503\nmax-line-length = 99\n",
                                 ".flake8", "t") == []
    assert tooling.ini_proposals("[flake8\nbroken", "tox.ini", "t") == []
