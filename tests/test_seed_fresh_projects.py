"""`kenning seed` on layouts first met on projects no rule was written for (sanic, dynaconf,
pendulum): a changelog and a contributing guide that only link to the project's website,
whose sources the repository keeps; a guide still naming a linter the project dropped; a
changelog's entries opening on their pull request; a "Deprecations and Removals" section's
strays; the floor a `setup()` dict sets; translated docs; one sentence on two pages; a final
release listing only what came after its pre-releases; advice for Pythons below the floor."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import git
from kenning.extract.seed import changelogs, formats

CHANGELOG = """\
---
content_class: changelog
---

# Changelog

## Version 25.12.0

### Features
- [#3071](https://w.dev/pr/3071) Add automatic `charset=UTF-8` to text types

### Deprecations and Removals
- [#3115](https://w.dev/3115) Remove the `Widget.legacy_mode` attribute; use `Widget.mode` instead
- [#2608](https://w.dev/2608) #2630 Signal conditions and triggers saved on `signal.extra`
- [#2525](https://w.dev/pr/2525) Warn on duplicate route names, will be prevented outright later

## Version 25.3.0

### Deprecations and Removals
- [#3020](https://w.dev/pr/3020) Remove Python 3.8 support
"""

CONTRIBUTING = """\
# Contributing

## Pull requests

- All pull requests must pass flake8 checks.
- All pull requests must be reviewed and approved by at least one member of the `widget-core` team.
"""

SETUP = """\
from setuptools import setup

setup_kwargs = {
    "name": "widget",
    "python_requires": ">=3.10",
}
setup(**setup_kwargs)
"""

GUIDE = """\
# Settings

## Merging

!!! warning
    Lower case keys are respected only on *nix systems. Windows environment variables are
    case insensitive, so `widget` reads them all as upper case.

## Timezones

!!! warning
    You should avoid using the `widget.tz` module in Python < 3.6.
"""

OTHER_GUIDE = """\
# Merging

!!! warning
    Lower case keys are respected only on *nix systems.
"""


def commit_all(repo: Path, files: dict[str, str]) -> None:
    """Write `files` (path -> text) into the repository and commit them."""
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "docs")


def seed(kenning) -> list[dict]:
    result = kenning("seed", "--json", "--dry-run")
    assert result.code == 0, result.err
    return [i for i in json.loads(result.out)["items"] if i["action"] == "proposed"]


def test_a_project_whose_changelog_and_guide_live_on_its_website(kenning, repo: Path):
    site = "site/content/en"
    files = {
        "CHANGELOG.md": ".. note::\n\n  See https://widget.dev/en/release-notes/changelog.html\n",
        "CONTRIBUTING.md": "# Contributing\n\nSee https://widget.dev/en/organization/"
                           "contributing.html\n",
        f"{site}/release-notes/changelog.md": CHANGELOG,
        f"{site}/organization/contributing.md": CONTRIBUTING,
        "setup.py": SETUP,
        "pyproject.toml": "[tool.ruff]\nline-length = 88\n",
        "widget/__init__.py": "class Widget:\n    mode = None\n",
        "docs/settings.md": GUIDE,
        "docs/merging.md": OTHER_GUIDE,
        "docs/pt-br/settings.md": "# Configurações\n\n!!! warning\n    Chaves minúsculas "
                                  "são respeitadas apenas em sistemas *nix, mas `widget` lê "
                                  "tudo em maiúsculas.\n",
    }
    commit_all(repo, files)
    found = {i["provenance"]: i["text"].split("): ", 1)[1] for i in seed(kenning)}
    # The website's sources stand for the pointers; the pull request an entry opens on goes.
    assert found[f"{site}/release-notes/changelog.md:13"] == \
        "Removes the `Widget.legacy_mode` attribute; use `Widget.mode` instead."
    # A section's strays (no removal, no deprecation in their words) and a Python drop below
    # the floor `setup()`'s dict sets (3.10) are not proposed; nor is a rule naming flake8,
    # which nothing of HEAD's configuration uses (ruff does the linting).
    assert not any(k.startswith(f"{site}/release-notes/changelog.md:1") and k != f"{site}/"
                   "release-notes/changelog.md:13" or k.endswith(":20") for k in found), found
    assert found[f"{site}/organization/contributing.md:6"].startswith(
        "All pull requests must be reviewed and approved")
    assert not any("flake8" in text for text in found.values())
    # One sentence two pages say is proposed once, by the page that says more; a translation
    # of the docs is not read; advice for Pythons below the floor is history.
    lower = [k for k, t in found.items() if t.startswith("Lower case keys")]
    assert lower == ["docs/settings.md:6"], found
    assert not any("pt-br" in k or "< 3.6" in t for k, t in found.items()), found


def test_a_link_names_the_websites_page_by_two_parts_of_its_path_at_least(tmp_path: Path):
    for rel in ("guide/en/release-notes/changelog.md", "guide/en/blog/changelog.md",
                "guide/en/organization/contributing.md", "docs/changelog.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("# x\n", encoding="utf-8")
    assert formats.site_source(tmp_path, "See https://w.dev/en/release-notes/changelog.html") \
        == tmp_path / "guide/en/release-notes/changelog.md"
    # a page's last name alone could be any page of that name; two equal matches, neither
    assert formats.site_source(tmp_path, "See https://w.dev/changelog.html") is None
    assert formats.site_source(tmp_path, "https://w.dev/x/changelog/") is None
    assert formats.site_source(tmp_path, "No link here.") is None


def test_a_pre_releases_entries_stay_unless_the_final_release_says_them_again():
    text = """# Change Log

## [3.0.0] - 2023-12-16

### Changed

- The testing helpers are now optional and must be opted-in via the `test` extra.
- Renamed the `Span` class to `Range`.

## [3.0.0a1] - 2022-11-23

### Changed

- Renamed the `Period` class to `Interval`.
- Renamed the `Span` class to `Range`. [#680](https://w.dev/pr/680)
"""
    found = [(p.provenance, p.text.split(": ", 1)[1])
             for p in changelogs.proposals(text, "CHANGELOG.md", "widget")]
    assert ("CHANGELOG.md:14", "Renamed the `Period` class to `Interval`.") in found
    assert [t for _, t in found if "`Span`" in t] == ["Renamed the `Span` class to `Range`."]
    assert "CHANGELOG.md:15" not in dict(found)  # said again by 3.0.0


def test_a_default_not_saying_of_what_and_a_command_leaning_on_the_one_before(tmp_path: Path):
    from kenning.extract.seed import contributing, guides

    page = ("# Constraints\n\n## Datetime constraints\n\n"
            "The default is `None`, which accepts either timezone-aware or naive values.\n\n"
            "By default, `widget.Struct` types are frozen.\n")
    found = [p.text for p in guides.proposals(page, "docs/constraints.md", "widget")]
    assert not any("`None`" in t for t in found), found
    assert any("are frozen" in t for t in found), found
    (tmp_path / "CONTRIBUTING.md").write_text(
        "# Contributing\n\n## Linting\n\nRun the hooks and apply fixes:\n\n```\njust hooks\n```\n\n"
        "Run the same hooks without applying fixes:\n\n```\njust check\n```\n", encoding="utf-8")
    (tmp_path / "justfile").write_text("hooks:\n  pre-commit run\ncheck:\n  pre-commit run\n",
                                       encoding="utf-8")
    said = [p.text for p in contributing.proposals(
        (tmp_path / "CONTRIBUTING.md").read_text(), "CONTRIBUTING.md", "widget", tmp_path)]
    assert any("just hooks" in t for t in said) and not any("just check" in t for t in said), said


def test_a_blind_judges_three_more_faults_on_httpcore():
    from kenning.extract.seed import guides, tooling

    # A fix saying what "needs to be removed" deprecates nothing.
    log = ("# Changelog\n\n## 0.14.7 (February 4th, 2022)\n\n- Requests which raise a "
           "PoolTimeout need to be removed from the pool queue. (#502)\n")
    assert changelogs.proposals(log, "CHANGELOG.md", "httpcore") == []
    # A script whose program is a variable the file does not set says nothing of what it runs
    # (it creates a venv first, off CI); a CI-only `git config` is plumbing, not a tool run.
    install = ('#!/bin/sh -e\n[ "$1" = "-p" ] && PYTHON=$2 || PYTHON="python3"\n\n'
               'if [ -z "$GITHUB_ACTIONS" ]; then\n    "$PYTHON" -m venv venv\n'
               '    PIP="venv/bin/pip"\nelse\n    PIP="pip"\nfi\n\n"$PIP" install -U pip\n'
               '"$PIP" install -r requirements.txt\n')
    assert tooling.script_proposals(install, "scripts/install", "httpcore") == []
    publish = ('#!/bin/sh -e\nif [ ! -z "$GITHUB_ACTIONS" ]; then\n  git config --local '
               'user.name "GitHub Action"\nfi\n\ntwine upload dist/*\nmkdocs gh-deploy --force\n')
    assert [p.text for p in tooling.script_proposals(publish, "scripts/publish", "httpcore")] \
        == ["httpcore (scripts/publish): `scripts/publish` runs `twine upload dist/*`; then "
            "`mkdocs gh-deploy --force`."]
    # A design said only as a quality is a slogan; one saying what was chosen is kept.
    page = ("# Extensions\n\nThe request/response API used by `httpcore` is kept deliberately "
            "simple and explicit.\n\nResponses are deliberately not cached by `httpcore`: "
            "caching belongs to the client.\n")
    found = [p.text for p in guides.proposals(page, "docs/extensions.md", "httpcore")]
    assert len(found) == 1 and "not cached" in found[0], found


def test_a_migration_guides_folder_and_a_contrast_with_everything_else(kenning, repo: Path):
    files = {
        "docs/migration_guide/index.rst": "Migration guide\n===============\n\nModel checks\n"
                                          "------------\n\n.. warning::\n\n   `__check_model__` now"
                                          " defaults to `True` in `widget.Factory`.\n",
        "docs/guide/factories.rst": "Factories\n=========\n\n.. warning::\n\n   `__check_model__`"
                                    " validates every model a `widget.Factory` builds.\n",
        "widget/__init__.py": "class Factory:\n    __check_model__ = True\n",
        "CONTRIBUTING.md": "# Contributing\n\nUnlike everything else, the `widget` API "
                           "docstrings must be reStructuredText.\n\nEvery `widget` pull request"
                           " must add a news fragment under `changelog.d/`.\n",
    }
    commit_all(repo, files)
    found = [i["provenance"] for i in seed(kenning)]
    assert "docs/guide/factories.rst:6" in found, found
    assert not any(p.startswith("docs/migration_guide/") for p in found), found
    assert any(p.startswith("CONTRIBUTING.md:5") for p in found), found
    assert not any(p.startswith("CONTRIBUTING.md:3") for p in found), found
