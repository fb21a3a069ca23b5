"""What a blind judge found wrong in `kenning seed`'s proposals on five small projects first met
(h11, respx, humanize, arrow, fabric; 20 of 31 good), each a general fault: a release guide's
checklist called a pull-request checklist, with a badge left in; a page about an old release
series; a "By default, <verb>s …" sentence whose subject is the heading; a changelog entry that
only sends the reader to a guide; a tool swap said as a past event; a lead-in whose object is
the sentence before it; a command runner (prek) not known as one. Then a second judge, on four
more (watchdog, typeguard, aiosqlite, rich-click; 17 of 32 good): a compiled extension's name
taken for the project's, bold release headings with their date not read as releases, a make
target said without the programs the tool list does not know, a file taken for a tool, and a
docs sentence about how things were before a release. And a third (filelock, platformdirs,
watchfiles, tqdm, plumbum; 25 of 35 good): "Docs:" and "CI:" over their lists not read as
sections, a make recipe run in an environment variable, "Defaults to …" under the option's
heading, a list of steps read as a lead-in, and a runner's own listing taken for a command.
And a fourth (pexpect, mistune, bleach, feedparser, pyyaml; 20 of 33 good): a warning opening
on an RST role read without its first line, "Instead, report it …" apart from what it stands
for, and a script's `--version` and process substitutions said as what it runs. And a fifth
(html5lib, croniter, colorama, xmltodict, mako; 23 of 38 good): a removal a later release
reintroduced, the code's own leftovers removed, and an agent file's list of pointers."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from conftest import commit_dated as commit
from kenning.extract.seed import (
    agents,
    changelogs,
    commits,
    contributing,
    guides,
    model,
    security,
    tooling,
)
from kenning.extract.seed import run as seed_run
from kenning.extract.seed.model import Proposal

RELEASING = """\
# Release checklist

- [ ] Get `main` to the appropriate code release state.
      [GitHub Actions](https://github.com/o/widget/actions) should be
      running cleanly for all merges to `main`.
      [![GitHub Actions status](https://github.com/o/widget/workflows/Test/badge.svg)](https://github.com/o/widget/actions)

- [ ] Check the tagged GitHub Actions build has released to PyPI.
"""


def test_a_release_guides_checklist_is_the_release_checklist_without_its_badge(tmp_path):
    said = [p.text for p in contributing.proposals(RELEASING, "RELEASING.md", "widget",
                                                   tmp_path)]
    assert said == [
        "widget (RELEASING.md, release checklist): Get `main` to the appropriate code release "
        "state. GitHub Actions should be running cleanly for all merges to `main`.",
        "widget (RELEASING.md, release checklist): Check the tagged GitHub Actions build has "
        "released to PyPI."], said


def test_a_page_named_for_a_release_series_is_not_read_as_a_guide(tmp_path):
    for rel in ("docs/installing-1.x.rst", "docs/upgrading_v2.x.md", "docs/usage.rst",
                "docs/python-3.x-notes.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("Usage\n=====\n\nText.\n", encoding="utf-8")
    found = [p.relative_to(tmp_path).as_posix() for p in guides.guide_files(tmp_path)]
    assert found == ["docs/python-3.x-notes.md", "docs/usage.rst"], found


def test_a_default_sentence_whose_subject_is_the_heading_is_not_proposed():
    page = ("# User Guide\n\n## Assert all Mocked\n\n"
            "By default, asserts that all sent and captured `HTTPX` requests are routed and "
            "mocked.\n\n## Retries\n\n"
            "By default, requests to the `mock_api` router are retried three times.\n")
    found = [p.text.split("): ", 1)[1] for p in guides.proposals(page, "docs/guide.md", "w")]
    assert found == ["By default, requests to the `mock_api` router are retried three times."], \
        found


def test_a_changelog_entry_that_only_points_to_a_guide_is_not_proposed():
    text = ("Changelog\n=========\n\n1.0.0 (2025-02-01)\n------------------\n\n"
            "- [CHANGE] There are multiple breaking changes with this release, please see the "
            "migration guide for a complete overview.\n"
            "- Removed ``Widget.span_range``; please see the migration guide.\n")
    said = [p.text for p in changelogs.proposals(text, "CHANGELOG.rst", "widget")]
    assert said == ["widget 1.0.0 (CHANGELOG.rst): Removed `Widget.span_range`; please see the "
                    "migration guide."], said


def test_a_lead_in_whose_object_is_the_sentence_before_keeps_that_sentence(tmp_path):
    (tmp_path / "tox.ini").write_text("[tox]\nenv_list = py\n", encoding="utf-8")
    (tmp_path / ".pre-commit-config.yaml").write_text("repos: []\n", encoding="utf-8")
    guide = ("# Contributing\n\n## Responsibilities\n\n"
             "* The test suite needs to pass. The easy way to check is:\n\n"
             "  ```\n  pip install tox\n  tox\n  ```\n\n## Linting\n\n"
             "Linting is run on the CI using [prek](https://prek.j178.dev/), and can be run "
             "locally:\n\n```sh\nprek run --all-files  # to run on all files now\n```\n")
    said = [p.text for p in contributing.command_proposals(guide, "CONTRIBUTING.md", "widget",
                                                           tmp_path)]
    assert said == [
        "widget (CONTRIBUTING.md, Responsibilities): The test suite needs to pass. The easy "
        "way to check is: `tox`.",
        "widget (CONTRIBUTING.md, Linting): Linting is run on the CI using prek, and can be run "
        "locally: `prek run --all-files` (To run on all files now)."], said


def days_ago(n: int) -> str:
    return (datetime.now(UTC) - timedelta(days=n)).strftime("%Y-%m-%dT%H:%M:%S")


def test_a_tool_swap_is_said_as_what_head_uses(kenning, repo: Path):
    commit(repo, "Add packaging", {
        "pyproject.toml": "[build-system]\nrequires = [\"setuptools\"]\n"}, days_ago(90))
    commit(repo, "Replace setuptools with hatchling", {
        "pyproject.toml": "[build-system]\nrequires = [\"hatchling\"]\n"
                          "build-backend = \"hatchling.build\"\n"}, days_ago(60))
    result = kenning("seed", "--json", "--dry-run")
    assert result.code == 0, result.err
    said = [i["text"].split(" (commit ")[0] for i in json.loads(result.out)["items"]
            if i["action"] == "proposed" and "(commit " in i["text"]]
    assert said == ["Uses hatchling instead of setuptools"], said


def test_a_tool_swap_the_changelog_already_tells_is_said_once():
    swap = Proposal(source="commits", kind="decision", rule="commit-tool-swap",
                    text="Uses uv instead of poetry (commit 99b5da8, 2026-04-14).",
                    provenance="commit 99b5da8abcde")
    told = Proposal(source="changelog", kind="codebase", rule="changelog-change",
                    text="widget 2.13.0 (docs/changelog.rst): The project now uses `uv` for "
                         "packaging, replacing `poetry`.", provenance="docs/changelog.rst:12")
    other = Proposal(source="changelog", kind="codebase", rule="changelog-change",
                     text="widget 2.1.0 (docs/changelog.rst): `poetry` now manages local "
                          "virtual environments.", provenance="docs/changelog.rst:40")
    assert seed_run._swap_told(swap, [other]) is None
    assert seed_run._swap_told(swap, [other, told]) == f"new:{told.key}"


# A second blind judge, on watchdog, typeguard, aiosqlite and rich-click (17 of 32 good).

def test_the_project_is_named_by_its_setup_call_not_a_compiled_extension(tmp_path):
    (tmp_path / "setup.py").write_text(
        "from setuptools import Extension, setup\n\n"
        "ext = [Extension(name=\"_widget_fsevents\", sources=[\"src/fsevents.c\"])]\n\n"
        "setup(\n    name=\"widget\",\n    ext_modules=ext,\n)\n", encoding="utf-8")
    assert model.project_name(tmp_path) == "widget"


def test_a_bold_release_heading_with_its_date_starts_a_release():
    text = ("Version history\n===============\n\n**UNRELEASED**\n\n- Fixed a crash\n\n"
            "**4.0.0** (2023-04-02)\n\n- **BACKWARD INCOMPATIBLE** Removed ``CallMemo`` from "
            "the API\n")
    said = [p.text for p in changelogs.proposals(text, "docs/versionhistory.rst", "widget")]
    assert said == ["Breaking change in widget 4.0.0 (docs/versionhistory.rst): Removed "
                    "`CallMemo` from the API."], said


def test_a_make_target_says_every_program_once_it_runs_a_development_tool():
    text = ("PKG:=widget\n\nlint:\n\tpython -m flake8 $(PKG)\n\tpython -m ufmt check $(PKG)\n\n"
            "format:\n\tpython -m ufmt format $(PKG)\n")
    said = [p.text for p in tooling.makefile_proposals(text, "makefile", "widget")]
    assert said == ["widget (makefile): `make lint` runs `flake8 widget`; then "
                    "`ufmt check widget`."], said
    # `make format` runs only a program the tool list does not know: nothing to say


def test_a_file_is_no_tool_of_a_swap_and_prior_releases_are_history():
    assert commits.swap("Use build instead of setup.py") is None
    assert commits.swap("Use ruff instead of flake8") == ("ruff", ("flake8",))
    page = ("# Markup\n\nPrior to widget 1.8.0, markup was controlled by the booleans "
            "`use_rich_markup` and `use_markdown`.\n\nBy default, `RichCommand`s have a single "
            "panel for options named \"Options\".\n")
    said = [p.text for p in guides.proposals(page, "docs/markup.md", "widget")]
    assert said == ["widget docs (Markup): By default, `RichCommand`s have a single panel for "
                    "options named \"Options\"."], said


# A third blind judge, on filelock, platformdirs, watchfiles, tqdm and plumbum (25 of 35 good).

def test_a_title_with_a_colon_over_a_list_starts_a_section():
    text = ("Changelog\n=========\n\n2.0.0\n-----\n\nDeprecated:\n\n"
            "* ``Style.print_`` now emits a ``FutureWarning``; use ``.print`` instead.\n\n"
            "Docs:\n\n* Filled out older NEWS entries and added missing docs files.\n\n"
            "CI:\n\n* Test on prerelease of 3.15.\n")
    said = [p.text for p in changelogs.proposals(text, "CHANGELOG.rst", "widget")]
    assert said == ["Deprecated in widget 2.0.0 (CHANGELOG.rst): `Style.print_` now emits a "
                    "`FutureWarning`; use `.print` instead."], said


def test_a_make_recipe_run_in_an_environment_says_its_program():
    text = "test:\n\tTOX_SKIP_ENV=perf tox --skip-missing-interpreters -p all\n\ttox -e perf\n"
    said = [p.text for p in tooling.makefile_proposals(text, "Makefile", "widget")]
    assert said == ["widget (Makefile): `make test` runs `TOX_SKIP_ENV=perf tox "
                    "--skip-missing-interpreters -p all`; then `tox -e perf`."], said


def test_a_default_without_its_subject_is_said_with_the_code_its_heading_names():
    page = ("# Parameters\n\n## `use_site_for_root`\n\nDefaults to `False` for backwards "
            "compatibility.\n\n## Retries\n\nDefaults to three tries.\n")
    said = [p.text for p in guides.proposals(page, "docs/parameters.md", "widget")]
    assert said == ["widget docs (Parameters › `use_site_for_root`): `use_site_for_root` "
                    "defaults to `False` for backwards compatibility."], said


def test_a_list_of_steps_leads_in_with_the_sentence_over_it_and_a_listing_is_no_command(
        tmp_path):
    (tmp_path / "tox.ini").write_text("[tox]\nenv_list = py\n", encoding="utf-8")
    guide = ("# Contributing\n\n## Tests\n\nThe standard way to run the tests:\n\n"
             "- install `tox`\n- `cd` to the root of the `widget` directory\n"
             "- run the following command:\n\n```\ntox --skip-missing-interpreters\n```\n\n"
             "## Environments\n\nTo see all available tox environments:\n\n```\ntox list\n```\n")
    said = [p.text for p in contributing.command_proposals(guide, "CONTRIBUTING.md", "widget",
                                                           tmp_path)]
    assert said == ["widget (CONTRIBUTING.md, Tests): The standard way to run the tests: "
                    "`tox --skip-missing-interpreters`."], said


# A fourth blind judge, with the three rounds above in, on pexpect, mistune, bleach, feedparser
# and pyyaml (20 of 33 good).

def test_a_warning_opening_on_a_role_is_read_from_its_first_line():
    page = ("Sanitizing\n==========\n\n.. Warning::\n\n"
            "   :py:func:`bleach.clean` is for sanitising HTML fragments to use in an HTML\n"
            "   context--not for use in HTML attributes, CSS or JavaScript.\n")
    said = [p.text for p in guides.proposals(page, "docs/clean.rst", "widget")]
    assert said == ["widget docs (Sanitizing): bleach.clean is for sanitising HTML fragments to "
                    "use in an HTML context--not for use in HTML attributes, CSS or "
                    "JavaScript."], said


def test_where_to_report_said_with_instead_is_one_rule_with_where_not_to():
    text = ("# Security\n\nIf you discover a security vulnerability, **do not submit a public "
            "issue or patch**.\nInstead, please report it privately through the **GitHub "
            "Security** tab.\n")
    said = [p.text for p in security.proposals(text, ".github/SECURITY.md", "widget")]
    assert said == ["widget security policy (.github/SECURITY.md): If you discover a security "
                    "vulnerability, do not submit a public issue or patch. Instead, please report "
                    "it privately through the GitHub Security tab."], said


def test_a_scripts_diagnostics_and_process_substitutions_are_no_runs():
    text = ("#!/bin/bash\npip --version\nruff check widget\n"
            "diff <(sort a/RECORD) <(sort b/RECORD)\n")
    said = [p.text for p in tooling.script_proposals(text, "scripts/lint", "widget")]
    assert said == ["widget (scripts/lint): `scripts/lint` runs `ruff check widget`."], said


# A fifth blind judge, with the four rounds above in, on html5lib, croniter, colorama,
# xmltodict and mako (23 of 38 good).

def test_a_removal_a_later_release_reintroduced_under_the_same_issue_is_not_proposed():
    text = ("Changelog\n=========\n\n5.0.1 (2024-10-29)\n------------------\n\n"
            "- Community wanted: Reintroduce 7 as DayOfWeek in deviation from standard cron "
            "(#90). [kiorky]\n\n4.0.0 (2024-10-28)\n------------------\n\n"
            "- Remove DayOfWeek alias 7 to DayOfWeek 0 to stick to standard cron (#90). "
            "[kiorky]\n- Drop the ``Widget.legacy`` attribute; use ``Widget.mode`` instead (#91).\n")
    said = [p.text for p in changelogs.proposals(text, "CHANGELOG.rst", "widget")]
    assert said == ["widget 4.0.0 (CHANGELOG.rst): Drops the `Widget.legacy` attribute; use "
                    "`Widget.mode` instead."], said


def test_a_removal_of_the_codes_own_leftovers_is_no_fact():
    assert changelogs.private_removal("Removes single-use bad_length [evanpurkhiser].")
    assert changelogs.private_removal("Removes unusd call to sys.exc_info [evanpurkhiser].")
    assert not changelogs.private_removal(
        "Removes a call to `os.fsync` after each write, which made saving slow.")


def test_an_agent_files_pointers_section_gives_no_instructions():
    text = ("# AGENTS.md\n\n## 6) Project conventions\n\n"
            "- Types: optional stub package `types-xmltodict` is available for type checkers.\n\n"
            "## 9) Pointers\n\n- README: canonical API and usage.\n"
            "- Type Stubs: `types-xmltodict` on PyPI.\n")
    said = [p.text for p in agents.proposals(text, "AGENTS.md")]
    assert said == ["AGENTS.md (6) Project conventions): Types: optional stub package "
                    "`types-xmltodict` is available for type checkers."], said
