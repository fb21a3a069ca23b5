"""`kenning seed` on a contributing guide's commands and conventions, a commit that swaps one
development tool for another, and a guide's defaults by section."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import commit_dated as commit
from conftest import git, init_repo
from kenning.extract.seed import (
    advice,
    changelogs,
    commits,
    contributing,
    current,
    documents,
    guides,
    tooling,
)
from kenning.extract.seed import run as seed_run
from kenning.extract.seed.model import Proposal

GUIDE_MD = """\
# Contributing

## Reporting Bugs

Contributions should generally start out with a discussion.
Possible bugs may be raised as a "Potential Issue" discussion.

The pull request should include tests.

New code should ideally come with a regression test for each bug it fixes.

Pull request descriptions should be as clear as possible.

New features should branch off here.

## Development

Then clone your fork with the following command:

```shell
$ git clone https://github.com/YOU/widget
```

You can now install the project and its dependencies using:

```shell
$ cd widget
$ scripts/install
```

## Testing and Linting

To run the tests, use:

```shell
$ scripts/test
collected 12 items
```

For example, to run a single test file:

```console
(.venv)$ scripts/test tests/test_app.py
```

Run lints and tests with the following commands:

```console
$ tox -e lint # Linting
$ tox -e py # Unit tests
```

Or via nox:

```shell
$ nox -s tests
```

To build the old docs, use:

```shell
$ scripts/old-docs
```

To run the benchmarks:

```shell
$ make bench
```
"""

GUIDE_RST = """\
Contributing
============

Running tests
~~~~~~~~~~~~~

To run all tests: ::

    $ pytest

`pytest`_ will discover the tests automatically, so all you have to do is:

.. code-block:: console

    $ python -m pytest
    ...
    29204 passed

To build the docs in "watch" mode:

    $ tox -e watch-docs
"""


def project(tmp_path: Path) -> Path:
    root = tmp_path / "widget"
    (root / "scripts").mkdir(parents=True)
    for name in ("install", "test"):
        (root / "scripts" / name).write_text("#!/bin/sh\npytest\n", encoding="utf-8")
    (root / "tox.ini").write_text("[tox]\nenv_list = py, lint\n\n[testenv:lint]\n"
                                  "commands = ruff check\n", encoding="utf-8")
    (root / "Makefile").write_text("test:\n\tpytest\n", encoding="utf-8")
    return root


def test_a_lead_in_and_its_command_block_are_one_fact_when_head_bears_the_commands_out(
        tmp_path):
    root = project(tmp_path)
    said = [p.text for p in contributing.command_proposals(
        GUIDE_MD, "docs/contributing.md", "widget", root)]
    assert said == [
        "widget (docs/contributing.md, Development): Install the project and its "
        "dependencies: `scripts/install`.",
        "widget (docs/contributing.md, Testing and Linting): To run the tests: `scripts/test`.",
        "widget (docs/contributing.md, Testing and Linting): To run a single test file: "
        "`scripts/test tests/test_app.py`.",
        "widget (docs/contributing.md, Testing and Linting): Run lints and tests: "
        "`tox -e lint` (Linting); `tox -e py` (Unit tests)."], said
    # git and cd are any project's; "Or via nox" leans on the block above (and there is no
    # noxfile); `scripts/old-docs` and the make target `bench` are gone at HEAD


def test_rst_literal_blocks_and_code_block_directives_give_their_commands(tmp_path):
    root = project(tmp_path)
    (root / "tox.ini").write_text("[tox]\nenv_list = py\n\n[testenv:watch-docs]\n",
                                  encoding="utf-8")
    said = [p.text for p in contributing.command_proposals(
        GUIDE_RST, "CONTRIBUTING.rst", "widget", root)]
    assert said == [
        "widget (CONTRIBUTING.rst, Running tests): To run all tests: `pytest`.",
        "widget (CONTRIBUTING.rst, Running tests): `pytest` will discover the tests "
        "automatically, so all you have to do is: `python -m pytest`.",
        "widget (CONTRIBUTING.rst, Running tests): To build the docs in \"watch\" mode: "
        "`tox -e watch-docs`."], said


def test_a_contributing_convention_is_said_with_the_next_sentence_when_it_reads_alone():
    said = [p.text for p in contributing.convention_proposals(
        GUIDE_MD, "docs/contributing.md", "widget")]
    assert said == [
        "widget (docs/contributing.md, Reporting Bugs): Contributions should generally start "
        "out with a discussion. Possible bugs may be raised as a \"Potential Issue\" "
        "discussion."], said
    # "The pull request should include tests.", hedged "ideally" and "as clear as possible"
    # are any project's; "… branch off here" points elsewhere


def test_contributing_guides_are_found_at_the_root_in_github_and_under_docs(tmp_path):
    root = tmp_path / "p"
    for rel in ("contributing.md", "HACKING.rst", ".github/CONTRIBUTING.md",
                "docs/development/getting-started.rst", "docs/about/contributing.md",
                "docs/usage.md", "docs/development.txt.bak"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x\n", encoding="utf-8")
    found = sorted(p.relative_to(root).as_posix()
                   for p in contributing.contributing_files(root))
    assert found == [".github/CONTRIBUTING.md", "HACKING.rst", "contributing.md",
                     "docs/about/contributing.md", "docs/development/getting-started.rst"]


def test_a_guide_read_by_two_readers_gives_both_on_a_first_incremental_run(repo, kenning):
    (repo / "scripts").mkdir()
    (repo / "scripts" / "test").write_text("#!/bin/sh\npytest\n", encoding="utf-8")
    (repo / "CONTRIBUTING.md").write_text(
        "# Contributing\n\n## Testing\n\nNever push directly to the `main` branch.\n\n"
        "To run the tests, use:\n\n```shell\n$ scripts/test\n```\n", encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "guide")
    items = json.loads(kenning("seed", "--dry-run", "--json").out)["items"]
    rules = {i["rule"] for i in items if i["provenance"].startswith("CONTRIBUTING.md")}
    assert "contributing-command" in rules and len(rules) == 2, items


def test_a_tool_swap_is_proposed_while_head_uses_what_it_chose_and_none_of_what_it_replaced(
        tmp_path):
    root = init_repo(tmp_path / "r")
    commit(root, "Switch from tox to nox (#3)", {"noxfile.py": "import nox\n",
                                                "tox.ini": ""}, "2015-01-01T00:00:00")
    (root / "tox.ini").unlink()
    commit(root, "Use quote instead of quote_plus (#4)", {"widget/url.py": "x = 1\n"},
           "2022-01-01T00:00:00")
    commit(root, "Use ruff instead of flake8, autoflake and isort (#5)", {
        "pyproject.toml": "[tool.ruff]\nline-length = 99\n\n[tool.ruff.lint.isort]\n"
                          "known-first-party = [\"widget\"]\n"}, "2023-04-05T00:00:00")
    commit(root, "Replace black with ruff formatter (#6)", {
        "requirements.txt": "ruff==0.12\nblack==25.1\n"}, "2023-11-08T00:00:00")
    commit(root, "Use cryptography instead of pyOpenSSL (#7)", {
        "requirements.txt": "ruff==0.12\nblack==25.1\npyopenssl\n"}, "2024-01-01T00:00:00")
    found = commits.configured(root, commits.proposals(commits.read_log(root)))
    kept = current.still_true(root, found)
    assert [p.text.split(" (commit ")[0] for p in kept] == [
        "Uses ruff instead of flake8, autoflake and isort", "Uses nox instead of tox"], kept
    # quote_plus: a swap in the code, no configuration changed; black is still a requirement;
    # cryptography is not one, and pyOpenSSL still is; tox to nox is older than the window,
    # and HEAD bears it out


def test_a_swap_names_tools_only():
    assert commits.swap("Replace black with ruff formatter") == ("ruff", ("black",))
    assert commits.swap("Replaced flake8, bugbear, and isort with ruff") == (
        "ruff", ("flake8", "bugbear", "isort"))
    assert commits.swap("Switch to pytest from nosetests") == ("pytest", ("nosetests",))
    assert commits.swap("Switched from the RTD Sphinx theme to a built-in theme") is None
    assert commits.swap("Use tox from make test") is None
    assert commits.swap("Use pylons-sphinx-themes instead of git submodule") is None


def test_a_page_has_one_default_a_section_and_a_default_to_be_set_is_none():
    page = ("Middleware\n==========\n\nSessions\n--------\n\n"
            "- `max_age`: Session expiry time in seconds. Defaults to 2 weeks.\n"
            "- `path`: The path set for the cookie. Defaults to `\"/\"`.\n\n"
            "GZip\n----\n\n"
            "- `minimum_size`: Do not GZip small responses. Defaults to `500`.\n\n"
            "Watch\n-----\n\n"
            "Allows a custom default to be set without passing the `-w` option.\n")
    said = [p.text.split("docs (", 1)[1] for p in guides.proposals(
        page, "docs/middleware.rst", "widget")]
    assert said == [
        "Middleware › Sessions): `max_age`: Session expiry time in seconds. Defaults to 2 weeks.",
        "Middleware › GZip): `minimum_size`: Do not GZip small responses. Defaults to `500`."], \
        said


def test_a_command_said_inside_a_sentence_is_said_with_what_it_is_for(tmp_path):
    root = project(tmp_path)
    guide = ("Contributing\n============\n\n"
             "To build the documentation, run ``tox -e lint`` which will generate a directory "
             "named ``build``. To run the checks in parallel, invoke tox with ``tox -e py -p``.\n\n"
             "Run `make test` to run the tests. Run `make bench` to run the benchmarks.\n\n"
             "3. Run `make test` to check the import.\n")
    said = [p.text for p in contributing.inline_proposals(guide, "CONTRIBUTING.rst", "widget",
                                                          root)]
    assert said == ["widget (CONTRIBUTING.rst): To build the documentation: `tox -e lint`.",
                    "widget (CONTRIBUTING.rst): To run the checks in parallel: `tox -e py -p`.",
                    "widget (CONTRIBUTING.rst): To run the tests: `make test`."], said
    # `make bench`: no such target at HEAD; a numbered step is `documents`' to read


def test_a_swap_to_a_library_the_users_install_is_no_development_decision(tmp_path):
    root = init_repo(tmp_path / "r")
    pyproject = ('[project]\nname = "widget"\ndependencies = ["platformdirs>=4", "tomli"]\n'
                 '[project.optional-dependencies]\ntest = ["anyio", "pytest"]\n'
                 '[tool.ruff]\nline-length = 99\n')
    commit(root, "Use platformdirs instead of appdirs (#1)", {"pyproject.toml": pyproject},
           "2024-01-01T00:00:00")
    commit(root, "Use anyio instead of pytest-asyncio (#2)",
           {"pyproject.toml": pyproject + "# anyio\n"}, "2024-02-01T00:00:00")
    commit(root, "Use main branch instead of master (#3)",
           {"pyproject.toml": pyproject + "# main\n"}, "2024-03-01T00:00:00")
    commit(root, "Use ruff instead of flake8 (#4)",
           {"pyproject.toml": pyproject + "# ruff\n"}, "2024-04-01T00:00:00")
    found = commits.configured(root, commits.proposals(commits.read_log(root)))
    kept = [p.text.split(" (commit ")[0] for p in current.still_true(root, found)]
    # platformdirs ships to users: the code's own business. anyio is a test dependency here and
    # replaced a pytest plugin; a branch is no tool.
    assert kept == ["Uses ruff instead of flake8", "Uses anyio instead of pytest-asyncio"], kept


def test_runtime_requirements_leave_development_extras_out(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\ndependencies = ["Platform_Dirs>=4; python_version>\'3.8\'"]\n'
        '[project.optional-dependencies]\nspeedups = ["brotli"]\ndocs = ["sphinx"]\n'
        'test-extra = ["pytest"]\n', encoding="utf-8")
    (tmp_path / "setup.cfg").write_text(
        "[options]\ninstall_requires =\n    attrs>=21\n[options.extras_require]\n"
        "dev =\n    ruff\nsocks =\n    python-socks\n", encoding="utf-8")
    required = tooling.runtime_requirements(tmp_path)
    assert set(required) == {"platform-dirs", "brotli", "attrs", "python-socks"}
    assert required["platform-dirs"] == (4,) and required["brotli"] == ()


def test_contribution_advice_that_names_nothing_of_the_project_is_left_out():
    def rule(text: str, name: str = "docs-preference") -> Proposal:
        return Proposal(source="docs", kind="interaction", text=f"CONTRIBUTING.md: {text}",
                        provenance="CONTRIBUTING.md:3", rule=name)

    generic = ["Pull Requests should be small to facilitate review.",
               "Do not use the issue tracker for questions, it's reserved for bugs.",
               "Don't hesitate to improve our docs.",
               "Prefer f-strings instead of the `str.format` method.",
               "Use `Union` / `|` for nullable parameters."]
    specific = ["Pull requests must maintain 100% test coverage of all code branches.",
                "Run the linter to address style issues (`tox -e fix`).",
                "Applied changes to both WSGI and ASGI code paths.",
                "We use ruff to format and lint the codebase.",
                "Each PR that modifies the functionality of Falcon should include a fragment.",
                "New widget plugins should never import from the Widget core.",
                "Never call `lib.conn.execute` directly; go through a transaction."]
    kept = advice.project_specific(
        [rule(t) for t in generic + specific] + [rule(generic[0], "pr-checklist"),
                                                rule(generic[1], "contributing-convention")],
        "falcon")
    assert [p.text.split(": ", 1)[1] for p in kept] == specific
    # Instructions for agents are the project's choice, whatever they name.
    agents = Proposal(source="agents", kind="interaction", text=f"AGENTS.md: {generic[0]}",
                      provenance="AGENTS.md:1", rule="agents-preference")
    assert advice.project_specific([agents]) == [agents]


def test_seed_leaves_any_projects_advice_out_of_a_guide(tmp_path):
    root = init_repo(tmp_path / "r")
    (root / "CONTRIBUTING.md").write_text(
        "# Contributing\n\nWe use towncrier to manage our release notes.\n\n"
        "Pull requests should be small to facilitate review.\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "guide")
    texts = [p.text for p in seed_run.scan(root, {}, full=True)[0]]
    assert any("towncrier" in t for t in texts), texts
    assert not any("small to facilitate" in t for t in texts), texts


def test_a_dependency_floor_head_has_raised_past_is_history(tmp_path):
    root = init_repo(tmp_path / "r")
    (root / "pyproject.toml").write_text(
        '[project]\nname = "widget"\ndependencies = ["pytest>=8.4,<10", "Werkzeug>=3.1.0"]\n',
        encoding="utf-8")
    (root / "CHANGELOG.md").write_text(
        "# Changelog\n\n## 2.0.0 (2026-05-01)\n\n"
        "- **Breaking:** Requires pytest >= 8.4.\n"
        "- **Breaking:** Updated minimum Werkzeug version to 3.1.\n\n"
        "## 1.4.0 (2025-05-01)\n\n"
        "- **Breaking:** Updated minimum supported pytest version to v8.2.0.\n"
        "- **Breaking:** Drops compatibility with pytest 6.1, widget now depends on pytest 7.0"
        " or newer.\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "release")
    texts = [p.text for p in seed_run.scan(root, {}, full=True)[0]]
    assert any("pytest >= 8.4" in t for t in texts), texts
    assert any("Werkzeug version to 3.1" in t for t in texts), texts  # 3.1 is 3.1.0
    assert not any("v8.2.0" in t or "pytest 7.0" in t for t in texts), texts


def test_a_packages_changelog_in_a_monorepo_is_said_with_the_packages_name(tmp_path):
    root = init_repo(tmp_path / "r")
    (root / "pyproject.toml").write_text('[project]\nname = "workspace"\n', encoding="utf-8")
    (root / "gadget").mkdir()
    (root / "gadget" / "pyproject.toml").write_text('[project]\nname = "gadget"\n',
                                                    encoding="utf-8")
    (root / "gadget" / "CHANGELOG.md").write_text(
        "# Changelog\n\n## 2.0.0 (2026-05-01)\n\n### Removed\n\n"
        "- Removed support for the `legacy_mode` setting; use `mode` instead.\n"
        "- Removes pytest-trio and flaky from the test dependencies.\n", encoding="utf-8")
    (root / "gadget" / "gadget.py").write_text("def run(mode='fast'):\n    return mode\n",
                                               encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "release")
    texts = [p.text for p in seed_run.scan(root, {}, full=True)[0]]
    assert any(t.startswith("Removed in gadget 2.0.0 (gadget/CHANGELOG.md)") for t in texts), texts
    assert not any("workspace" in t for t in texts), texts
    assert not any("test dependencies" in t for t in texts), texts  # its own plumbing


def test_a_release_two_majors_behind_and_two_years_old_is_history():
    log = ("# Changelog\n\n## 10.2.0 (2026-06-24)\n\n### Fixed\n\n- Fix a crash.\n\n"
           "## 9.0.0 (2025-05-01)\n\n### Breaking\n\n"
           "- Renamed gadget.helpers to gadget.tools and drop support for egg-info.\n\n"
           "## 8.0.0 (2023-09-01)\n\n### Breaking\n\n"
           "- Renamed gadget.hacks to gadget.fallbacks and drop support for pip-egg-info.\n")
    texts = [p.text for p in changelogs.proposals(log, "CHANGELOG.md", "gadget", {})]
    assert any("gadget.tools" in t for t in texts), texts  # one major behind
    assert not any("gadget.fallbacks" in t for t in texts), texts  # two behind, 2.8 years old
    fast = log.replace("2023-09-01", "2025-09-01").replace("2025-05-01", "2025-12-01")
    texts = [p.text for p in changelogs.proposals(fast, "CHANGELOG.md", "gadget", {})]
    assert any("gadget.fallbacks" in t for t in texts), texts  # majors shipped fast: still news


def test_a_swap_inside_ci_or_of_an_environment_variable_is_no_tool_swap():
    assert commits.swap("Replaced `setup.py` invocations with `build` in CI") is None
    assert commits.swap("Use FORCE_COLOR instead of CLI args") is None
    assert commits.swap("Use ruff instead of flake8") == ("ruff", ("flake8",))


def test_a_rule_naming_another_only_as_the_restriction_points_back():
    from kenning.extract.seed import standalone

    assert standalone.points_back("Do not try to work around the restriction with `--force`; "
                                  "the rule is intentional.")
    assert not standalone.points_back("Respect the restriction on pushing to `main`.")
    assert not standalone.points_back("The rule that every module has tests is enforced.")


def test_a_release_dropping_a_now_eol_python_says_the_floor():
    root_floor = (3, 9)
    assert current.pythons_dropped("Dropped support for now EOL Python 3.8.", root_floor)


def test_testing_deps_are_plumbing():
    log = ("# Changelog\n\n## 7.0.0 (2026-01-01)\n\n### Removed\n\n"
           "- Removed some not really necessary testing deps like `six`.\n"
           "- Removed the `--cov-fail` option; use `--cov-fail-under` instead.\n")
    texts = [p.text for p in changelogs.proposals(log, "CHANGELOG.rst", "gadget", {})]
    assert not any("six" in t for t in texts), texts
    assert any("--cov-fail-under" in t for t in texts), texts


def test_every_python_projects_packaging_commands_are_no_convention():
    from kenning.extract.seed.contributing import _command

    assert _command("python -m build") is None
    assert _command("twine upload dist/*") is None
    assert _command("tox -p auto") is None
    assert _command("tox -e docs -p") is not None  # names the project's environment
    assert _command("tox -e py") is not None


FINDER = ("    Installing `gadget` as a build dependency enables its file finder, which includes"
          " all tracked files.\n")


@pytest.mark.parametrize("page, left_out", [
    # a feature list's pictograph-led points
    ('# About\n\n!!! warning "Automatic File Inclusion Behavior"\n\n' + FINDER + "\n"
     "    - ✅ **Expected**: All Git tracked files will be included in your sdist\n"
     "    - 🛠️ **Control**: Use `MANIFEST.in` to exclude unwanted files\n", ("Expected", "Control")),
    # a status that goes stale, how things typically are anywhere
    ("# Usage\n\n## Files\n\n!!! warning\n\n"
     "    Currently there is no built-in mechanism to transfer `file_list` to sdists.\n\n"
     "## Environments\n\n!!! warning\n\n"
     "    Virtual environments typically reference the system's `stdlib`.\n\n"
     "## Finder\n\n!!! warning\n\n" + FINDER, ("Currently", "typically")),
])
def test_what_is_no_fact_of_a_guide_is_left_out(page, left_out):
    texts = [p.text for p in guides.proposals(page, "docs/usage.md", "gadget")]
    assert not any(word in t for t in texts for word in left_out), texts
    assert any("enables its file finder" in t for t in texts), texts


def test_a_release_heading_may_give_its_date_in_words_after_the_version():
    # isort's CHANGELOG.md: "### 8.0.0 February 19 2026", "### 5.6.1 [Hotfix] October 8, 2020"
    log = ("Changelog\n=========\n\n## Releases\n\n### Unreleased\n\n"
           "### 8.0.0 February 19 2026\n\n  - Removed `--old-finders` flag and `old_finders`"
           " configuration option.\n\n"
           "### 5.9.1 June 21st 2021 [hotfix]\n  - Fixed #1758: a command-line overload.\n\n"
           "### 5.6.1 [Hotfix] October 8, 2020\n  - Removed the `--magic` flag.\n")
    texts = [p.text for p in changelogs.proposals(log, "CHANGELOG.md", "isort", {})]
    assert texts == ["isort 8.0.0 (CHANGELOG.md): Removed `--old-finders` flag and `old_finders`"
                     " configuration option."], texts
    # 5.6.1's removal is a point release's, older than the window: not "unreleased"


def test_what_pyramid_and_kombu_judges_found_no_fact():
    from kenning.extract.seed.documents import LEANS

    # "Meaning the `myproject.views` … loggers …": the sentence before says what
    assert LEANS.match("Meaning the `myproject.views` loggers have an effective level of DEBUG.")
    assert commits.swap("Prefers https over http and updated links to new locations") is None
    log = ("# Changelog\n\n## 5.6.0 (2026-01-01)\n\n### Removed\n\n"
           "- Removes Qpid transport from requirements of func test.\n"
           "- Removed the `qpid` transport; use `amqp` instead.\n")
    texts = [p.text for p in changelogs.proposals(log, "Changelog.rst", "kombu", {})]
    assert not any("func test" in t for t in texts), texts
    assert any("`amqp` instead" in t for t in texts), texts


def test_what_the_pyjwt_pdoc_and_multipart_judges_found():
    # pdoc's headings put the date first: "## 2025-10-27: pdoc 16.0.0"
    log = ("# Release History\n\n## Unreleased: pdoc next\n\n- Fix ordering.\n\n"
           "## 2025-10-27: pdoc 16.0.0\n\n- Replace vendored version of `markdown2` with the"
           " official upstream.\n")
    texts = [p.text for p in changelogs.proposals(log, "CHANGELOG.md", "pdoc", {})]
    assert texts == ["pdoc 16.0.0 (CHANGELOG.md): Replaces vendored version of `markdown2` with"
                     " the official upstream."], texts
    # a dotted warning class after "error" is named whole
    said = tooling.pyproject_proposals(
        '[tool.pytest.ini_options]\nfilterwarnings = [\n  "error",\n'
        '  "ignore::jwt.warnings.InsecureKeyLengthWarning",\n]\n', "pyproject.toml", "PyJWT")
    assert [p.text for p in said] == [
        "PyJWT (pyproject.toml): pytest turns warnings other than "
        "`jwt.warnings.InsecureKeyLengthWarning` into errors (`filterwarnings = error` in "
        "[tool.pytest.ini_options])."]
    # what `uvx` runs is a step of the script too
    script = tooling.script_proposals("#!/bin/sh -e\nuv run mypy src\nuvx check-sdist\nuv lock\n",
                                      "scripts/check", "gadget")
    assert "`uvx check-sdist`" in script[0].text, script


def test_what_the_blinker_argon2_and_requests_judge_found():
    # an RST literal block's "::" ends the sentence it closes, not the paragraph before it
    page = ("Advanced\n========\n\nSSL\n---\n\nBy default, SSL verification is enabled, and "
            "Requests will throw a SSLError if\nit's unable to verify the certificate::\n\n"
            "    >>> requests.get('https://example.invalid')\n")
    texts = [p.text for p in guides.proposals(page, "docs/advanced.rst", "requests")]
    assert texts == ["requests docs (Advanced › SSL): By default, SSL verification is enabled, "
                     "and Requests will throw a SSLError if it's unable to verify the "
                     "certificate."], texts
    # a rule that ends by announcing the command under it is no rule alone; a whole one is
    guide = ("# Contributing\n\nThe easiest way to get started is to install *uv* and run:\n\n"
             "```console\n$ uv sync\n```\n\nYour environment must be based on CPython 3.10, "
             "3.11 or 3.12:\n\n```bash\n$ pip install -U tox\n```\n")
    rules = [p.text for p in documents.rule_proposals(guide, "CONTRIBUTING.md", "docs")]
    assert not any("and run" in t for t in rules), rules
    assert any("must be based on CPython" in t for t in rules), rules
    # "added support" under a Deprecations heading is an addition
    log = ("# History\n\n## 2.32.0 (2026-05-20)\n\n**Deprecations**\n\n"
           "- Requests has officially added support for CPython 3.12.\n"
           "- The `requests.compat.chardet` alias is deprecated.\n")
    texts = [p.text for p in changelogs.proposals(log, "HISTORY.md", "requests", {})]
    assert not any("added support" in t for t in texts), texts


def test_a_guides_checklist_before_a_pull_request_is_read_as_a_templates_and_asks_nothing(
        tmp_path):
    text = ("# Contributing\n\n## Before opening a PR\n\n"
            "Please go through this checklist:\n\n"
            " - [ ] Format your code with black (`make format`)\n"
            "   - [ ] Run `make format-check` when black is pinned\n"
            " - [ ] Your code passes all tests (`make test`)\n\n"
            "## Reviews\n\n"
            "- [ ] Tests. Does the PR implement sufficient test coverage across versions?\n")
    found = contributing.proposals(text, "CONTRIBUTING.md", "demo", tmp_path)
    assert [(p.rule, p.provenance, p.text) for p in found] == [
        ("pr-checklist", "CONTRIBUTING.md:7",
         "demo (CONTRIBUTING.md, pull-request checklist): Format your code with black "
         "(`make format`)"),
        ("pr-checklist", "CONTRIBUTING.md:9",
         "demo (CONTRIBUTING.md, pull-request checklist): Your code passes all tests "
         "(`make test`)")]


def test_a_contributing_line_two_readers_take_is_proposed_once_and_names_the_project(
        kenning, repo):
    # (black is in the project's development requirements: a guide's rule naming a formatter
    # the project no longer uses is not proposed)
    (repo / "pyproject.toml").write_text('[project]\nname = "demo"\n\n[dependency-groups]\n'
                                         'dev = ["black"]\n', encoding="utf-8")
    (repo / "CONTRIBUTING.md").write_text(
        "# Contributing to Demo\n\n## The basics\n\n"
        "* We use `black` as code formatter and recommend configuring your editor to run it.\n\n"
        "## Testing\n\n"
        "* Tests must run on Linux, macOS, and Windows (unless they are testing "
        "platform-dependent\n  functionality, in which case they should be skipped "
        "elsewhere).\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "guide")
    result = kenning("seed", "--json", "--dry-run")
    assert result.code == 0, result.err
    said = sorted((i["provenance"], i["text"]) for i in json.loads(result.out)["items"]
                  if i["provenance"].startswith("CONTRIBUTING.md"))
    assert said == [
        ("CONTRIBUTING.md:5", "demo (CONTRIBUTING.md): We use `black` as code formatter and "
                              "recommend configuring your editor to run it."),
        ("CONTRIBUTING.md:9", "demo (CONTRIBUTING.md, Testing): Tests must run on Linux, "
                              "macOS, and Windows (unless they are testing platform-dependent "
                              "functionality, in which case they should be skipped elsewhere).")]
