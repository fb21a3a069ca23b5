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


NOTICES = """Changelog
=========

2.4.0 (2026-06-01)
------------------

New features
~~~~~~~~~~~~

- :doc:`plugins/musicbrainz`: The autotagger has been moved to a separate plugin. If you've
  customized your ``plugins`` list, you'll need to add ``musicbrainz`` to it.
- Add a ``--force`` option to ``beet fetch``.

Bug fixes
~~~~~~~~~

- ``beet update`` no longer crashes on a flexible attribute.

For plugin developers
~~~~~~~~~~~~~~~~~~~~~

- ``plugins.find_plugins`` function does not anymore load plugins. You need to explicitly
  call ``plugins.load_plugins()`` to load them.
- ``plugins.load_plugins`` function does not anymore accept the list of plugins to load.
- If you maintain a metadata source plugin that populates ``composer``, update it to
  populate ``composers`` instead.
- A new plugin event, ``album_matched``, is sent when an album has been matched.
"""


def test_a_notice_saying_what_those_who_build_on_the_project_must_now_do_is_proposed():
    from kenning.extract.seed import changelogs

    found = [(p.rule, p.text.split(": ", 1)[1])
             for p in changelogs.proposals(NOTICES, "docs/changelog.rst", "beets")]
    assert found == [
        ("changelog-notice", "Plugins/musicbrainz: The autotagger has been moved to a separate "
         "plugin. If you've customized your `plugins` list, you'll need to add `musicbrainz` to "
         "it."),
        ("changelog-notice", "`plugins.find_plugins` function does not anymore load plugins. "
         "You need to explicitly call `plugins.load_plugins()` to load them."),
        # "does not anymore" says "no longer"
        ("changelog-breaking", "`plugins.load_plugins` function does not anymore accept the "
         "list of plugins to load."),
        ("changelog-notice", "If you maintain a metadata source plugin that populates "
         "`composer`, update it to populate `composers` instead.")]


GUIDE = """Contributing
============

How to Submit Your Work
-----------------------

1. Fork the repository and clone it to create a workspace.
2. Add tests. If you've fixed a bug, write a test for it.
3. Add a changelog entry to ``docs/changelog.rst`` near the top of the document.
4. Run the tests and style checker.

Writing Tests
-------------

Since we are currently migrating the tests from unittest_ to pytest_, new tests should be
written using pytest_.

Documentation updates that cover new or modified features must use Sphinx's
``versionadded`` directive.

If in doubt, tests should be nice.
"""


def test_a_step_naming_a_file_and_a_convention_after_its_reason_are_proposed(tmp_path):
    from kenning.extract.seed import contributing, documents

    steps = [p.text for p in documents.contributing_steps(GUIDE, "CONTRIBUTING.rst")]
    # a step naming where each contribution writes; "Add tests." names no file
    assert steps == ["CONTRIBUTING.rst: Add a changelog entry to `docs/changelog.rst` near the "
                     "top of the document."]
    said = [p.text.split("): ", 1)[1] for p in contributing.convention_proposals(
        GUIDE, "CONTRIBUTING.rst", "widget")]
    # after what it follows from ("Since …, new tests should …"), its links by name read as
    # names; a subject 40 to 60 letters long; "If in doubt," is no reason
    assert said == ["Since we are currently migrating the tests from unittest to pytest, new "
                    "tests should be written using pytest.",
                    "Documentation updates that cover new or modified features must use Sphinx's "
                    "`versionadded` directive."], said


def test_a_fix_said_with_we_an_entry_leaning_or_pointing_above_and_one_of_no_impact():
    from kenning.extract.seed import changelogs

    text = """## 2.0.0

### Changed

- We fixed a flaky test named `test_album_art` that some distributions had disabled.
  Disabling this test should no longer be necessary.
- `beets.util.confit` is no longer used; use `confuse` instead.
- Similarly, `beets.util.pipe` is no longer used; import `pipeline` instead.
- Fields of `File` are computed on demand. Only the three above attributes are primary ones,
  and you need to clear the attribute first.
- Dropped `janus` as a dependency. This should not have any impact on plugin developers.
"""
    found = [p.text.split(": ", 1)[1] for p in changelogs.proposals(text, "CHANGES.md", "demo")]
    assert found == ["`beets.util.confit` is no longer used; use `confuse` instead."], found


def test_a_typing_commit_a_cut_sentence_and_a_narrower_tool_swap_are_left_out(tmp_path):
    import os
    import subprocess

    from conftest import init_repo
    from kenning.extract.seed import commits, current

    def commit(root, message, when):
        (root / "log.txt").write_text(message, encoding="utf-8")
        git(root, "add", "-A")
        env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
        subprocess.run(["git", "-C", str(root), "commit", "-qm", message], env=env,
                       check=True, capture_output=True)

    root = init_repo(tmp_path / "r")
    commit(root, "Typing: make dbcore.db.Results a Sequence\n\nResults is now typed as a "
                 "Sequence rather than an Iterable. This means callers can index it.",
           "2026-01-01T00:00:00")
    commit(root, "Used provided deduplicate function for keep_allowed\n\ngeneration, instead "
                 "of a simple set(). This way we keep the original order of genres.",
           "2026-01-02T00:00:00")
    commit(root, "Make aliases opt-in\n\nAliases are now used only when enabled rather than "
                 "always. This means a sync no longer overwrites artist credits.",
           "2026-01-03T00:00:00")
    found = [p.text.rsplit(" (commit ", 1)[0] for p in commits.proposals(commits.read_log(root))
             if p.rule == "commit-why"]
    assert found == ["Make aliases opt-in: Aliases are now used only when enabled rather than "
                     "always. This means a sync no longer overwrites artist credits"], found

    from kenning.extract.seed.model import Proposal

    def swap(text, sha):
        return Proposal(source="commits", kind="decision", text=f"{text} (commit {sha}, "
                        "2024-09-21).", provenance=f"commit {sha}", rule="commit-tool-swap")
    wide = swap("Migrated from isort/Black/Flake8 to Ruff", "c3")
    narrow = [swap("Replaced isort and black by ruff format", "c2"),
              swap("Replaced flake8 by ruff", "c1")]
    other = swap("Replaced mkautodoc by mkdocstrings", "c0")
    assert current._swaps_once([wide, *narrow, other]) == [wide, other]


def test_a_removal_told_with_how_the_code_now_behaves_and_why_is_a_decision(tmp_path):
    import os
    import subprocess

    from conftest import init_repo
    from kenning.extract.seed import commits

    root = init_repo(tmp_path / "r")
    for message, when in (
            ("Remove logging import sideeffect (#6755)\n\nLogging is no longer implicitly "
             "configured as a side effect of import; it is now initialized explicitly during UI "
             "startup. This allows library users to fully control logging configuration "
             "themselves.", "2026-06-30T00:00:00"),
            ("Remove the `old_api` module", "2026-07-01T00:00:00")):
        (root / "log.txt").write_text(message, encoding="utf-8")
        git(root, "add", "-A")
        env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
        subprocess.run(["git", "-C", str(root), "commit", "-qm", message], env=env,
                       check=True, capture_output=True)
    found = [p.text.rsplit(" (commit ", 1)[0]
             for p in commits.proposals(commits.read_log(root), has_changelog=True)]
    # with a changelog, a bare removal is left to it; one told with its reason is not
    assert found == ["Removed logging import sideeffect: Logging is no longer implicitly "
                     "configured as a side effect of import; it is now initialized explicitly "
                     "during UI startup. This allows library users to fully control logging "
                     "configuration themselves"], found


def test_what_now_happens_by_default_is_a_change_of_behaviour():
    from kenning.extract.seed import changelogs

    text = """## 3.20.0 (2026-01-01)

- Use `OrderedSet` as default `set_class`. Schemas are now ordered by default.

### Fixed

- `ConsoleRenderer` now uses no colors by default, if `colorama` is not available.
"""
    found = [(p.rule, p.text.split(": ", 1)[1])
             for p in changelogs.proposals(text, "CHANGES.md", "demo")]
    assert found == [("changelog-behaviour", "Uses `OrderedSet` as default `set_class`. Schemas "
                      "are now ordered by default.")], found


def test_a_default_changed_from_one_value_to_another_is_news_whatever_verb_opens_it():
    from kenning.extract.seed import changelogs

    text = """## 3.12.11 (2026-01-01)

### Bug fixes

- Improved SSL connection handling by changing the default ``ssl_shutdown_timeout``
  from ``0.1`` to ``0`` seconds. SSL connections now use Python's default graceful
  shutdown during normal operation but are aborted immediately when the connector
  is closed, providing optimal behavior for both cases. Also added support for
  ``ssl_shutdown_timeout=0`` on all Python versions, which was previously a no-op
  on some of them, and made the connector's close path cancel pending handshakes
  before it returns, so no shutdown task is left behind on a closed event loop.
- Improved the error message when the default timeout is hit.
"""
    found = [(p.rule, p.text.split(": ", 1)[1])
             for p in changelogs.proposals(text, "CHANGES.rst", "demo")]
    # too long to say whole: its first sentence, which says the change; the other "Improved"
    # entry names a default but no change of it
    assert found == [("changelog-default", "Improved SSL connection handling by changing the "
                      "default `ssl_shutdown_timeout` from `0.1` to `0` seconds.")], found
    # When the entry goes on to deprecate the setting, its new default is moot (a blind judge
    # called aiohttp 3.12.11's, which does, stale).
    moot = text.replace("on a closed event loop.", "on a closed event loop. The "
                        "``ssl_shutdown_timeout`` parameter is now deprecated and will be removed "
                        "in 4.0.")
    assert [p.text for p in changelogs.proposals(moot, "CHANGES.rst", "demo")] == []


def proposed_after_commit(kenning, repo, files: dict[str, str]) -> list[dict]:
    """Commit `files` (name -> text) and return what `kenning seed --dry-run` proposes."""
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "update")
    return proposed(seed_json(kenning, "--dry-run"))


def test_a_sentence_pointing_at_the_list_after_it_is_not_proposed(kenning, repo):
    texts = [i["text"] for i in proposed_after_commit(kenning, repo, {"CONTRIBUTING.md": (
        "# Contributing\n\n"
        "Never `print` informational messages; use the `demo.log` logger instead.\n\n"
        "- Note that `make fix` will not catch the following:\n\n"
        "  - Lines longer than 100 characters.\n  - Names shorter than two letters.\n")})]
    assert any("`demo.log` logger" in t for t in texts)
    assert not any("the following" in t for t in texts)


TOWNCRIER_TITLES = """Release History
===============

v2.1.0 (2026-05-01)
*******************

Bug fixes - 2.1.0
=================

- `demo run` now exits with code 1 instead of -1 when an environment fails.

Improved documentation - 2.1.0
==============================

- Replaces the archived Docker image recommendation with `docs/docker.rst`.

Deprecations and Removals - 2.1.0
=================================

- The `legacy_mode` option is deprecated in favour of the `mode` option.
"""


def test_towncrier_section_titles_with_their_version_are_sections(kenning, repo):
    # "Bug fixes - 2.1.0" is a section of 2.1.0, not a heading to ignore: its fixes and the
    # documentation's edits are history, not facts; its deprecations section's entry stands.
    demo = ("import warnings\n\n\ndef configure(mode='new', legacy_mode=False):\n"
            "    if legacy_mode:\n"
            "        warnings.warn('legacy_mode is deprecated', DeprecationWarning)\n")
    items = proposed_after_commit(kenning, repo, {"CHANGELOG.rst": TOWNCRIER_TITLES,
                                                  "demo.py": demo})
    texts = [i["text"] for i in items if "CHANGELOG" in i["provenance"]]
    assert not any("exits with code" in t or "Docker" in t for t in texts)
    assert any("`legacy_mode`" in t for t in texts)


SECURITY = """# Security Policy

## Supported Versions

We follow calendar versioning. Therefore we only support the latest release of demo.

| Version | Supported |
| ------- | --------- |
| 2.x     | yes       |

## Reporting a Vulnerability

> [!WARNING]
> Please **do not** file a public GitHub issue for security reports.

To report a security vulnerability, please send email to
[the security team](mailto:sec@example.org).

Alternatively, to report a security vulnerability, use the
[security contact](https://example.org/security).
"""


def test_the_security_policy_says_how_to_report_and_what_is_supported(kenning, repo):
    items = proposed_after_commit(kenning, repo, {".github/SECURITY.md": SECURITY})
    said = {i["text"].split(": ", 1)[1] for i in items if "SECURITY" in i["provenance"]}
    assert said == {
        "We only support the latest release of demo.",
        "Please do not file a public GitHub issue for security reports.",
        "To report a security vulnerability, please send email to the security team."}
    assert not any("example.org" in t for t in said)  # no one's mailbox, no second way
    # each cites the line its sentence starts on, not its paragraph's first line
    assert {i["rule"]: i["provenance"] for i in items if "SECURITY" in i["provenance"]} == {
        "security-supported": ".github/SECURITY.md:5", "security-public": ".github/SECURITY.md:14",
        "security-report": ".github/SECURITY.md:16"}


def test_a_rule_naming_these_things_it_never_listed_is_not_proposed(kenning, repo):
    items = proposed_after_commit(kenning, repo, {"CONTRIBUTING.md": (
        "# Contributing\n\nWe support Linux, macOS and Windows.\n\n"
        "- Any pull request must consider and work on all these platforms.\n"
        "- Never edit `demo/_version.py`; those files are generated by `make version`.\n")})
    texts = [i["text"] for i in items]
    assert not any("these platforms" in t for t in texts)
    assert any("`demo/_version.py`" in t for t in texts)  # "those files" after naming one
