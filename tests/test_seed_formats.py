"""`kenning seed` on changelogs it could not read (issue 19's seventeenth pass): a short
CHANGES that points at the real changelog, Sphinx's `.. changelog::` / `.. change::`
directives (alembic), release headings in bold (anyio) or after the project's name (pluggy,
trio: towncrier's default title), and what those changelogs showed: a "Deprecations and
Removals" section's verb, a "BACKWARDS INCOMPATIBLE" label, a long entry said by its first
sentence, an announcement for "the next release" that has come, a removed workaround."""

from __future__ import annotations

import json
from datetime import date

from conftest import git
from kenning.extract.seed import changelogs
from kenning.extract.seed.model import plain

SPHINX = """\
==========
Changelog
==========

.. changelog::
    :version: 2.1.1
    :include_notes_from: unreleased

.. changelog::
    :version: 2.1.0
    :released: August 4, 2026

    .. change::
        :tags: bug, commands
        :tickets: 1822

        Fixed inconsistency where ``stamp`` would emit a ``DROP TABLE`` statement;
        offline mode no longer emits this ``DROP``.

    .. change::
        :tags: removed, environment
        :tickets: 987

        The "Pylons" environment template has been removed as of Widget 2.1;
        use the ``generic`` template instead. Pull request
        courtesy Someone Else.

        A second paragraph that is not what changed.

        .. seealso::

            :ref:`templates`

    .. change::
        :tags: changed, general

        Support for SQLAlchemy 1.3, which was EOL as of 2021, is now dropped from
        Widget as of version 2.1.0. :ticket:`508`

.. changelog::
    :version: 2.0.0
    :released: Mon Mar 12 2026

    .. change::
        :tags: usecase, autogenerate

        Change the default value of :paramref:`.EnvironmentContext.configure.compare_type`
        to ``True``.
"""


def test_sphinx_changelog_directives_are_read_as_releases_sections_and_entries():
    lines = SPHINX.splitlines()
    found = {e.first: e for e in changelogs.entries(SPHINX)}
    # each entry keeps its own lines; its tags are its section; its first paragraph is it
    removed = found[lines.index("        The \"Pylons\" environment template has been "
                                "removed as of Widget 2.1;") + 1]
    assert (removed.version, removed.section) == ("2.1.0", "removed")
    assert plain(removed.text) == ('The "Pylons" environment template has been removed as of '
                                   "Widget 2.1; use the `generic` template instead.")
    assert changelogs.release_dates(SPHINX) == {"2.1.0": date(2026, 8, 4),
                                                "2.0.0": date(2026, 3, 12)}
    texts = [p.text for p in changelogs.proposals(SPHINX, "docs/changelog.rst", "widget")]
    assert texts == [
        'Removed in widget 2.1.0 (docs/changelog.rst): The "Pylons" environment template has '
        "been removed as of Widget 2.1; use the `generic` template instead.",
        "widget 2.1.0 (docs/changelog.rst): Support for SQLAlchemy 1.3, which was EOL as of "
        "2021, is now dropped from Widget as of version 2.1.0.",
        "widget 2.0.0 (docs/changelog.rst): Changes the default value of "
        "EnvironmentContext.configure.compare_type to `True`."], texts  # the bug fix: none


def test_a_changelog_that_points_elsewhere_is_read_where_it_points(kenning, repo):
    (repo / "CHANGES").write_text("=====\nMOVED\n=====\n\nPlease see:\n\n"
                                  "    /docs/build/changelog.rst\n\nor\n\n"
                                  "    http://widget.example.org/en/latest/changelog.html\n\n"
                                  "for the current CHANGES.\n", encoding="utf-8")
    (repo / "docs" / "build").mkdir(parents=True)
    (repo / "docs" / "build" / "changelog.rst").write_text(SPHINX, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "changelog")
    items = json.loads(kenning("seed", "--dry-run", "--json", "--source", "changelog").out)
    found = {i["provenance"] for i in items["items"]}
    line = SPHINX.splitlines().index("        Support for SQLAlchemy 1.3, which was EOL as of "
                                     "2021, is now dropped from") + 1
    assert found == {f"docs/build/changelog.rst:{line}-{line + 1}"}, found  # the others name
    # code this repository lacks
    # an include, and a link to the docs' changelog page, point the same way
    assert changelogs.changelog_files(repo) == [repo / "docs" / "build" / "changelog.rst"]
    (repo / "CHANGES").write_text(".. include:: docs/build/changelog.rst\n", encoding="utf-8")
    assert changelogs.changelog_files(repo) == [repo / "docs" / "build" / "changelog.rst"]
    link = repo.parent / f"{repo.name}-link"  # the root as given, not as resolved
    link.symlink_to(repo)
    assert changelogs.changelog_files(link) == [link / "docs" / "build" / "changelog.rst"]
    (repo.parent / "outside.rst").write_text(SPHINX, encoding="utf-8")
    (repo / "CHANGES").write_text(".. include:: ../outside.rst\n", encoding="utf-8")
    assert changelogs.changelog_files(repo) == [repo / "CHANGES"]  # never out of the repository
    (repo / "CHANGES").write_text("See https://widget.example.org/en/latest/changelog.html\n",
                                  encoding="utf-8")
    (repo / "docs" / "changelog.rst").write_text(SPHINX, encoding="utf-8")
    assert changelogs.changelog_files(repo) == [repo / "docs" / "changelog.rst"]
    # a changelog with entries of its own is read itself, whatever it names
    (repo / "CHANGES").write_text("Version 1.0.0\n-------------\n\n- Drop support for Widget "
                                  "0.9 plugins, see docs/build/changelog.rst.\n",
                                  encoding="utf-8")
    assert changelogs.changelog_files(repo) == [repo / "CHANGES"]


def test_a_release_heading_in_bold_or_after_the_projects_name_starts_a_release():
    bold = ("Version history\n===============\n\n**UNRELEASED**\n\n"
            "- Changed the default value of the ``use_uvloop`` backend option to ``False``\n\n"
            "**4.14.2**\n\n- Dropped ``sniffio`` as a direct dependency\n")
    assert [(e.version, e.text) for e in changelogs.entries(bold)] == [
        ("unreleased", "Changed the default value of the ``use_uvloop`` backend option to "
                       "``False``"),
        ("4.14.2", "Dropped ``sniffio`` as a direct dependency")]
    named = ("Changelog\n=========\n\npluggy 1.6.0 (2025-05-15)\n=========================\n\n"
             "Deprecations and Removals\n-------------------------\n\n"
             "- `#556 <https://github.com/o/r/issues/556>`_: Widget 3 is no longer supported."
             "\n\nPython 3.12\n-----------\n\n- Remove the `x` option in favor of `y`.\n")
    found = [e.version for e in changelogs.entries(named)]
    # a runtime's name before a version is no release of the project
    assert found == ["1.6.0", "1.6.0"], found
    assert changelogs.release_dates(named) == {"1.6.0": date(2025, 5, 15)}
    assert plain(changelogs.entries(named)[0].text) == "Widget 3 is no longer supported."


TOWNCRIER = """\
Release history
===============

trio 0.34.0 (2026-08-10)
------------------------

Deprecations and removals
~~~~~~~~~~~~~~~~~~~~~~~~~

- Both trio.testing.RaisesGroup and trio.testing.Matcher have been deprecated. Use
  `pytest.RaisesGroup` instead.
- Removes workaround for OpenSSL 1.1.1 DTLS ClientHello bug.
- Calling `bool()` on a `trio.Event` now raises a `DeprecationWarning`; ask
  `trio.Event.is_set()`.
- `MultiError` has been fully removed, and all relevant trio functions now raise
  ExceptionGroups instead.

Breaking changes
~~~~~~~~~~~~~~~~

- BACKWARDS INCOMPATIBLE Replaced the `policy` option with `loop_factory` on the asyncio
  backend.
- Most of the public classes that Trio exports weren't designed with subclassing in mind.
  And we've noticed that some users were trying to subclass them anyway, and ending up
  with fragile code that we're likely to accidentally break in the future, or else be
  stuck unable to make improvements. So we have made them final: subclassing them now
  raises a `TypeError`, and there is no switch to turn that back off. The same goes for
  the classes `trio.testing` exports, which tests may have relied on subclassing until
  now; they get the same treatment and raise the same error from this release on.

Other changes
~~~~~~~~~~~~~

- Replaced `python-dateutil` with the standard library module zoneinfo. This module is
  part of every Python this release supports, so no backport is installed any more, and
  the `trio[tz]` extra, which used to pull in `python-dateutil` and `tzdata` for the
  time-zone support of `trio.to_thread` deadlines, now installs `tzdata` only; the extra
  stays for anyone whose platform lacks the system time-zone database it reads first.
  Nothing changes for code that passes aware `datetime` objects; code that passed
  `dateutil.tz` objects keeps working through the same adapter as before.

trio 0.2.0 (2025-12-06)
-----------------------

Breaking changes
~~~~~~~~~~~~~~~~

- In the next release, the `bind` method on Trio socket objects will become async.
"""


def test_towncrier_sections_give_each_entry_its_own_verb_and_a_label_goes():
    texts = [p.text for p in changelogs.proposals(TOWNCRIER, "history.rst", "trio")]
    assert texts == [
        # "Deprecations and removals": the verb its rule says, not the first of the two
        "Deprecated in trio 0.34.0 (history.rst): Both trio.testing.RaisesGroup and "
        "trio.testing.Matcher have been deprecated. Use `pytest.RaisesGroup` instead.",
        "Deprecated in trio 0.34.0 (history.rst): Calling `bool()` on a `trio.Event` now "
        "raises a `DeprecationWarning`; ask `trio.Event.is_set()`.",
        "Removed in trio 0.34.0 (history.rst): `MultiError` has been fully removed, and all "
        "relevant trio functions now raise ExceptionGroups instead.",
        # the label is said by the verb
        "Breaking change in trio 0.34.0 (history.rst): Replaced the `policy` option with "
        "`loop_factory` on the asyncio backend.",
        # a long entry whose first sentence says its rule's change, by that sentence
        "trio 0.34.0 (history.rst): Replaced `python-dateutil` with the standard library "
        "module zoneinfo."], texts
    # Left out: a removed workaround (the project's stopgap); a long breaking entry whose
    # first sentence says no change ("… weren't designed with subclassing in mind."); an
    # older release's announcement for "the next release", which has come since.


PIPX_LIKE = """\
`1.6.0 <https://github.com/o/pipx/tree/1.6.0>`_ - 2026-06-01
===========================================================

Bugfixes
--------

- Skip cache tag files when removing expired `pipx run` environments.
- Pass ``--fetch-python=missing`` to let pipx download an interpreter; nothing is removed.

`1.5.0 <https://github.com/o/pipx/tree/1.5.0>`_ - 2026-03-29
===========================================================

Deprecations and Removals
-------------------------

- Deprecate ``--fetch-missing-python``; it is now an alias for ``--fetch-python=missing``.
  The keyword ``fetch_missing_python: bool`` is replaced by ``fetch_python``.
- Deprecate ``--skip-maintenance`` flag of ``pipx list``; maintenance is now never executed
  there.
"""


def test_an_option_or_a_command_is_one_name_a_later_entry_must_name_whole(kenning, repo):
    """pipx's deprecations were taken as overtaken: `--skip-maintenance` read as "skip"
    (a later "Skip cache tag files when removing …"), `pipx list` as "pipx", and the alias a
    deprecation names as what stays read as deprecated too."""
    (repo / "docs").mkdir()
    (repo / "docs" / "changelog.rst").write_text(PIPX_LIKE, encoding="utf-8")
    (repo / "pyproject.toml").write_text("[project]\nname = 'pipx'\n", encoding="utf-8")
    (repo / "pipx.py").write_text(
        "import argparse\n\n\ndef parser():\n    p = argparse.ArgumentParser()\n"
        "    p.add_argument('--fetch-python')\n    p.add_argument(\n"
        "        '--fetch-missing-python',\n        dest='fetch_python',\n"
        "        help='Deprecated: alias for --fetch-python=missing.',\n    )\n"
        "    p.add_argument('--skip-maintenance', help='Deprecated: does nothing.')\n"
        "    return p\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "pipx")
    found = [i["text"] for i in json.loads(kenning(
        "seed", "--dry-run", "--json", "--source", "changelog").out)["items"]]
    assert found == [
        "pipx 1.5.0 (docs/changelog.rst): Deprecates `--fetch-missing-python`; it "
        "is now an alias for `--fetch-python=missing`. The keyword `fetch_missing_python: "
        "bool` is replaced by `fetch_python`.",
        "pipx 1.5.0 (docs/changelog.rst): Deprecates `--skip-maintenance` flag "
        "of `pipx list`; maintenance is now never executed there."], found


def test_a_commit_swapping_one_development_tool_for_another_needs_no_reason(kenning, repo):
    (repo / "pyproject.toml").write_text("[project]\nname = 'widget'\n\n[tool.ruff]\n"
                                         "line-length = 120\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Use ruff instead of flake8, autoflake and isort (#2110)")
    (repo / "widget.py").write_text("x = 1\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Use rstrip instead of strip in the parser of widgets")
    found = [i["text"] for i in json.loads(kenning(
        "seed", "--dry-run", "--json", "--source", "commits").out)["items"]]
    assert len(found) == 1 and found[0].startswith(
        "Uses ruff instead of flake8, autoflake and isort (commit "), found


def test_release_please_headings_symbol_sections_and_a_linked_unreleased_are_read():
    """conventional-changelog / release-please: linked headings, "### ⚠ BREAKING CHANGES",
    an entry's commit in parentheses; Keep a Changelog's "## [Unreleased](…compare…)"."""
    text = ("# Changelog\n\n## [Unreleased](https://github.com/o/r/compare/v2.0.0...HEAD)\n\n"
            "### Removed\n\n- Remove the `legacy` option; use `modern` instead.\n\n"
            "## [2.0.0](https://github.com/o/r/compare/v1.9.0...v2.0.0) (2026-01-10)\n\n\n"
            "### ⚠ BREAKING CHANGES\n\n* **client:** the `retry` option now defaults to `3` "
            "([1a2b3c4](https://github.com/o/r/commit/1a2b3c4d))\n\n### 🐛 Bug Fixes\n\n"
            "* **client:** the `retry` option no longer crashes on empty bodies "
            "([5e6f7a8](https://github.com/o/r/commit/5e6f7a8b))\n")
    assert [(e.version, e.section) for e in changelogs.entries(text)] == [
        ("unreleased", "removed"), ("2.0.0", "breaking changes"), ("2.0.0", "bug fixes")]
    assert [p.text for p in changelogs.proposals(text, "CHANGELOG.md", "widget")] == [
        "widget (unreleased, CHANGELOG.md): Removes the `legacy` option; use `modern` instead.",
        "Breaking change in widget 2.0.0 (CHANGELOG.md): Client: the `retry` option now "
        "defaults to `3`"]


def test_a_removal_of_a_private_classs_member_is_the_projects_insides():
    """pluggy 1.0.0's "Remove the `_Result.result` property": `_Result` is private, and so is
    what is reached through it; a public class's member is not."""
    assert changelogs.private_removal("Remove the `_Result.result` property. Use "
                                      "`_Result.get_result()` instead.")
    assert changelogs.private_removal("Removed the `_prepare_conn` method.")
    assert not changelogs.private_removal("Remove the `Result.result` property. Use "
                                          "`Result.get_result()` instead.")


def test_an_entry_saying_what_replaces_what_in_passing_is_proposed_while_recent():
    text = ("Changelog\n=========\n\n2.0 (2026-05-28)\n----------------\n\n"
            "- New query methods for plugins: ``add_query()`` and ``get_query()``. These "
            "replace the removed ``get_canned_query()`` method.\n"
            "- The ``tokens`` module has been replaced with ``origin_check``.\n"
            "- The error page now shows a clean message.\n\n"
            "1.0 (2019-01-10)\n----------------\n\n"
            "- The ``legacy`` renderer has been replaced with ``html``.\n")
    found = [p.text for p in changelogs.proposals(text, "CHANGES.rst", "widget")]
    assert found == [
        "widget 2.0 (CHANGES.rst): New query methods for plugins: `add_query()` and "
        "`get_query()`. These replace the removed `get_canned_query()` method.",
        "widget 2.0 (CHANGES.rst): The `tokens` module has been replaced with `origin_check`."
    ], found  # 1.0's, seven years before the newest release, is old news


def test_a_change_a_newer_entry_undoes_on_the_same_code_is_not_proposed():
    text = ("Changelog\n=========\n\n2.1 (2026-07-14)\n----------------\n\n"
            "- ``/-/plugins.json`` once again returns a top-level JSON array, reverting the "
            "object envelope introduced in 2.0.\n\n"
            "2.0 (2026-07-07)\n----------------\n\n"
            "- ``/-/plugins.json`` now returns an object instead of a top-level JSON array; "
            "this is a breaking change.\n"
            "- ``/-/actions.json`` now returns an object instead of a top-level JSON array; "
            "this is a breaking change.\n")
    found = [p.text for p in changelogs.proposals(text, "CHANGES.rst", "widget")]
    assert found == ["widget 2.0 (CHANGES.rst): `/-/actions.json` now returns an object "
                     "instead of a top-level JSON array; this is a breaking change."], found


RELEASES = """\
=========
Changelog
=========

- :release:`3.1.0 <2026-04-05>`
- :support:`-` Dropped support for Python versions older than 3.9.
- :bug:`742 major` ``Promise.join()`` no longer raises ``AttributeError`` when the
  runner was disowned.
- :feature:`947` ``widget.run()`` now defaults to ``warn=True``.
- :release:`3.0.1 <2026-01-06>`
- :support:`- backported` The ``widget.legacy`` module is now deprecated in favor of
  ``widget.modern``.
- :release:`3.0.0 <2025-12-02>`
- :feature:`-` Add ``Context.remainder``.
"""


def test_a_releases_changelog_is_read_entry_by_entry_under_its_release_bullets():
    # invoke's `sites/www/changelog.rst` (development): the `releases` Sphinx extension's list,
    # a release bullet closing the entries under it, each entry's kind its section.
    found = [(e.version, e.section, e.first, plain(e.text)) for e in changelogs.entries(RELEASES)]
    assert found == [
        ("3.1.0", "support", 6, "Dropped support for Python versions older than 3.9."),
        ("3.1.0", "bug fixes", 7, "`Promise.join()` no longer raises `AttributeError` when the"
                                  " runner was disowned."),
        ("3.1.0", "changes", 9, "`widget.run()` now defaults to `warn=True`."),
        ("3.0.1", "support", 11, "The `widget.legacy` module is now deprecated in favor of"
                                 " `widget.modern`."),
        ("3.0.0", "changes", 14, "Add `Context.remainder`.")], found
    assert changelogs.release_dates(RELEASES) == {"3.1.0": date(2026, 4, 5),
                                                  "3.0.1": date(2026, 1, 6),
                                                  "3.0.0": date(2025, 12, 2)}
    rules = [p.rule for p in changelogs.proposals(RELEASES, "CHANGES.rst", "widget")]
    # the fix and the addition are not proposed; a feature is read by its own words
    assert rules == ["changelog-removal", "changelog-default", "changelog-deprecation"], rules


def test_a_changelog_kept_deeper_in_the_tree_is_found_but_never_a_fixtures(repo):
    (repo / "tests" / "fixtures").mkdir(parents=True)
    (repo / "tests" / "fixtures" / "CHANGELOG.md").write_text("## 1.0\n\n- Removed `x`.\n",
                                                              encoding="utf-8")
    (repo / "debian").mkdir()
    (repo / "debian" / "changelog").write_text("widget (1.0-1) unstable; urgency=low\n",
                                               encoding="utf-8")
    (repo / "vendor" / "lib").mkdir(parents=True)
    (repo / "vendor" / "lib" / "CHANGES.rst").write_text(RELEASES, encoding="utf-8")
    assert changelogs.changelog_files(repo) == []
    (repo / "sites" / "www").mkdir(parents=True)
    (repo / "sites" / "www" / "changelog.rst").write_text(RELEASES, encoding="utf-8")
    assert changelogs.changelog_files(repo) == [repo / "sites" / "www" / "changelog.rst"]
    (repo / "CHANGES.md").write_text("## 2.0\n\n- Removed `y`.\n", encoding="utf-8")
    assert changelogs.changelog_files(repo) == [repo / "CHANGES.md"]  # the root's comes first


def test_a_sphinx_site_outside_docs_is_read_as_the_docs_but_a_conf_module_is_not(repo):
    # invoke's and paramiko's `sites/www` and `sites/docs` (invoke development)
    from kenning.extract.seed import contributing, documents, guides
    from kenning.extract.seed.model import site_dirs

    www = repo / "sites" / "www"
    www.mkdir(parents=True)
    for name in ("conf.py", "index.rst"):
        (www / name).write_text("", encoding="utf-8")
    (www / "development.rst").write_text("Development\n===========\n\nRun ``inv test``.\n",
                                         encoding="utf-8")
    (www / "configuration.rst").write_text("Config\n======\n\nIt defaults to ``True``.\n",
                                           encoding="utf-8")
    (repo / "widget" / "utils").mkdir(parents=True)  # a package's own `conf.py` module
    (repo / "widget" / "utils" / "conf.py").write_text("X = 1\n", encoding="utf-8")
    for name in ("index.md", "__init__.py"):
        (repo / "widget" / "utils" / name).write_text("", encoding="utf-8")
    (repo / "tests" / "site").mkdir(parents=True)  # nor a test's site
    for name in ("conf.py", "index.rst"):
        (repo / "tests" / "site" / name).write_text("", encoding="utf-8")
    assert site_dirs(repo) == ["sites/www"]
    assert www / "configuration.rst" in guides.guide_files(repo)
    assert www / "development.rst" in contributing.contributing_files(repo)
    assert www / "development.rst" in documents.design_files(repo)


ADMIN = """\
=========
Changelog
=========

- :release:`4.0.0 <2025-08-03>`
- :support:`-` Administrivia update:

  - dropped support for Python <3.9
  - removed the now-vestigial ``ed25519`` packaging 'extra'
  - with those two changes, ``widget[all]`` has itself been axed

- :support:`973` Removed support for the DSA key algorithm, as it has been badly outdated
  and insecure for a decade.
- :support:`-` Remove deprecated code:

  - ``Widget.old()``: use ``Widget.new()``
- :release:`3.0.0 <2025-01-03>`
- :support:`-` Removes the now irrelevant ``widget.py3compat`` module.

  .. warning::
      This change is backwards incompatible.
"""


def test_a_headlines_nested_bullets_that_say_their_change_are_entries_of_their_own():
    # paramiko 4.0.0 (development since its after-run): "Administrivia update:" over the
    # release's removals; a reason "badly outdated" is no cleanup; a directive ends an entry
    found = [(p.provenance, p.text.split("): ", 1)[1])
             for p in changelogs.proposals(ADMIN, "CHANGES.rst", "widget")]
    assert found == [
        ("CHANGES.rst:8", "Dropped support for Python <3.9."),
        ("CHANGES.rst:9", "Removed the now-vestigial `ed25519` packaging 'extra'."),
        ("CHANGES.rst:12-13", "Removed support for the DSA key algorithm, as it has been badly"
                              " outdated and insecure for a decade."),
        ("CHANGES.rst:14-16", "Removes deprecated code: `Widget.old()`: use `Widget.new()`"),
        ("CHANGES.rst:18-21", "Removes the now irrelevant `widget.py3compat` module.")], found
    # the part under a headline that says its change is its detail, not a fact of its own;
    # `entries` is still every top-level bullet
    assert [e.first for e in changelogs.entries(ADMIN)] == [6, 12, 14, 18]


def test_python_below_a_version_is_the_one_just_below_it():
    from kenning.extract.seed.current import pythons_dropped

    assert pythons_dropped("Dropped support for Python <3.9.", (3, 9))
    assert pythons_dropped("Drop support for Python versions less than 3.6", (3, 9))
    assert not pythons_dropped("Dropped support for Python <3.11.", (3, 9))  # above the floor


def test_towncrier_news_fragments_are_the_upcoming_releases_entries(kenning, repo):
    # aiohttp's `CHANGES/*.breaking.rst` on its main branch, attrs' `changelog.d/` (development)
    news = repo / "CHANGES"
    news.mkdir()
    (news / "12501.breaking.rst").write_text(
        "Removed ``BasicAuth`` and the ``auth`` parameter. Use ``encode_basic_auth()`` in a\n"
        "header instead -- by :user:`someone`.\n", encoding="utf-8")
    (news / "9109.breaking.rst").write_text("Changed default value of ``compress`` from ``None``"
                                            " to ``False``.\n", encoding="utf-8")
    (news / "12600.bugfix.rst").write_text("Fixed ``ClientSession.get()`` no longer raising on"
                                           " a closed session.\n", encoding="utf-8")
    (news / "README.rst").write_text("Put fragments here.\n", encoding="utf-8")
    (news / ".gitignore").write_text("!.gitignore\n", encoding="utf-8")
    (repo / "client.py").write_text("def encode_basic_auth(login):\n    ...\n\n\n"
                                    "def request(url, compress=False):\n    ...\n",
                                    encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "news")
    items = json.loads(kenning("seed", "--dry-run", "--json", "--source", "changelog").out)
    found = sorted((i["provenance"], i["text"].split("): ", 1)[1]) for i in items["items"])
    assert found == [
        ("CHANGES/12501.breaking.rst:1-2", "Removed `BasicAuth` and the `auth` parameter. Use "
                                           "`encode_basic_auth()` in a header instead."),
        ("CHANGES/9109.breaking.rst:1", "Changed default value of `compress` from `None` to "
                                        "`False`.")], found  # the fix is not a fact
    # towncrier's own configuration names the folder first
    (repo / "changelog.d").mkdir()
    (repo / "changelog.d" / "7.removal.md").write_text("Removed `old()`.\n", encoding="utf-8")
    from kenning.extract.seed import fragments

    assert fragments.fragment_folder(repo) == repo / "CHANGES"
    (repo / "pyproject.toml").write_text('[tool.towncrier]\ndirectory = "changelog.d"\n',
                                         encoding="utf-8")
    assert fragments.fragment_folder(repo) == repo / "changelog.d"
    assert [p.name for p in fragments.fragment_files(news)] == ["12501.breaking.rst",
                                                                "12600.bugfix.rst",
                                                                "9109.breaking.rst"]
