"""`kenning seed`'s changelog window by release date, overtaking by subject, and what is not
a fact (acknowledgements, internal clean-ups, sentences that do not read alone)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

from kenning.extract.seed import changelogs, commits, documents, later
from kenning.extract.seed.model import plain

# A long-lived major line (3.0 for five years), dated: 2.x and early 3.x are a decade old.
LONG_LIVED = """Changelog
---------

3.20.0 (2024-10-17)
*******************

Other changes:

- Use `OrderedSet` as default `set_class`. Schemas are now ordered by default.
- Drop support for Python 3.8.

3.18.0 (2023-09-01)
*******************

Features:

- Add `Enum` field.

3.4.0 (2020-01-12)
******************

- Removes useless `_serialize` override in `UUID` field.

3.0.0 (2019-08-18)
******************

- `Field.fail` is deprecated. Use `Field.make_error` instead.

2.0.0 (2015-09-25)
******************

- Remove `Select` / `Enum` fields. Use the `OneOf` validator instead.
- Remove `make_object`. Use a `post_load` method instead.

1.0.0 (2014-11-16)
******************

- *Backwards-incompatible*: Schema output is no longer an `OrderedDict` by default. If you
  want ordered field output, you must set the `ordered` option to `True`.

0.5.0 (2013-11-24)
******************

- *Backwards-incompatible*: Validation functions moved to validate.py.
- *Backwards-incompatible*: No implicit serializing of collections. Must set `many=True` if
  serializing to a list.
"""


def _said(found) -> list[str]:
    return [p.text.split(": ", 1)[1] for p in found]


def test_release_dates_are_read_from_headings_and_the_lines_under_them():
    assert changelogs.release_date("3.23.0 (2024-10-17)") == date(2024, 10, 17)
    assert changelogs.release_date("Released 2022-08-01") == date(2022, 8, 1)
    assert changelogs.release_date("## 0.28.1 (6th December, 2024)") == date(2024, 12, 6)
    assert changelogs.release_date("## 0.47.3 (August 24, 2025)") == date(2025, 8, 24)
    assert changelogs.release_date("Version 3.2.0") is None
    assert changelogs.release_date("1.0 (2024-13-40)") is None
    text = "Version 2.2.0\n-------------\n\nReleased 2022-08-01\n\n- Remove `x`.\n"
    assert changelogs._read(text)[1] == {"2.2.0": date(2022, 8, 1)}


def test_a_long_lived_major_line_is_windowed_by_date():
    found = changelogs.proposals(LONG_LIVED, "CHANGELOG.rst", "marshmallow")
    said = _said(found)
    # Removals and moves a decade old are history, "Backwards-incompatible" or not; so is an
    # internal clean-up; a removal a later entry took back ("Add `Enum` field") is overtaken.
    assert not [s for s in said if "Enum" in s or "make_object" in s or "moved" in s
                or "_serialize" in s]
    # A default a later entry set anew on the same subject is overtaken.
    assert not [s for s in said if "OrderedDict" in s]
    # A change of behaviour stays while it may still be news; from a release more than twice
    # the window before the newest (2015 against 2024) it is settled history, often changed
    # again since without an entry saying so (a blind judge of falcon: 0.2.0's and 0.3.0's
    # behaviour changes stale and not durable at 4.4.0). The recent drop is news.
    assert "Drops support for Python 3.8." in said
    assert not any(s.startswith("No implicit serializing") for s in said)
    # An old deprecation is kept as `old`: it holds only while HEAD's code still warns.
    fail = [p for p in found if "Field.fail" in p.text]
    assert [p.old for p in fail] == [True]
    assert not any(p.old for p in found if p is not fail[0])


def test_calver_and_zero_major_projects_are_windowed_by_date_alone():
    calver = ("## [26.1.0] - 2026-03-19\n\n- Drop support for Python 3.9.\n\n"
              "## [24.1.0] - 2024-08-03\n\n### Backwards-incompatible Changes\n\n"
              "- `attrs.validators.provides()` has been removed. Use `attrs.validators.is_()`.\n\n"
              "## [20.1.0] - 2020-08-20\n\n### Backwards-incompatible Changes\n\n"
              "- `attr.old_api()` has been removed.\n")
    said = _said(changelogs.proposals(calver, "CHANGELOG.md", "attrs"))
    assert said == ["Drops support for Python 3.9.", "`attrs.validators.provides()` has been "
                    "removed. Use `attrs.validators.is_()`."]
    zero = ("## 0.47.0 (May 29, 2025)\n\n#### Changed\n\n"
            "* `MultiPartParser`: Rename `max_file_size` to `spool_max_size` [#2780](u).\n\n"
            "#### Deprecated\n\n* Add deprecated warning to `TestClient(timeout=...)` [#2840](u)."
            "\n\n## 0.43.0 (December 25, 2024)\n\n#### Removed\n\n"
            "* Remove deprecated `allow_redirects` argument from `TestClient`; use "
            "`follow_redirects` [#2808](u).\n\n"
            "#### Refactor\n\n* Use a pair of streams instead of two queues on `TestClient`.\n\n"
            "## 0.15.0 (June 1, 2020)\n\n#### Removed\n\n* Remove `GraphQLApp` [#9](u).\n")
    said = _said(changelogs.proposals(zero, "docs/release-notes.md", "starlette"))
    assert said == ["`MultiPartParser`: Rename `max_file_size` to `spool_max_size`.",
                    "`TestClient(timeout=...)` is deprecated (it warns).",
                    "Removes deprecated `allow_redirects` argument from `TestClient`; use "
                    "`follow_redirects`."]


def test_acknowledgements_and_internal_changes_are_not_facts():
    assert plain("Passing metadata is deprecated. Use `metadata=...` instead. Thanks.") \
        == "Passing metadata is deprecated. Use `metadata=...` instead."
    assert plain("Replaces `missing` with `load_default` (:pr:`1742`). Thanks :user:`a` for "
                 "reporting and :user:`b` for the PR.") == "Replaces `missing` with `load_default`."
    text = ("Version 2.0\n-----------\n\nReleased 2024-01-01\n\n"
            "- Remove the `_bind` method of `Field`.\n"
            "- Removes `compat.plain_function` since it is no longer used.\n"
            "- Refactor the `Schema` hooks and remove `Schema.old_hook`.\n"
            "- Remove the internal `DispatchingApp` middleware.\n"
            "- The suffixes `_command` and `_cmd` are removed from generated names.\n")
    assert _said(changelogs.proposals(text, "CHANGES.rst")) == [
        "The suffixes `_command` and `_cmd` are removed from generated names."]


def test_a_commit_choice_and_a_guide_sentence_must_read_alone(tmp_path):
    def c(subject: str, body: str) -> commits.Commit:
        return commits.Commit("c" * 40, datetime(2017, 9, 24, tzinfo=UTC), "dev", False,
                              subject, body)

    log = [c("Use changelog date instead of build date", "In order to make builds "
             "reproducible."),
           c("Use shlex.quote instead of pipes.quote for arguments", "Because pipes is "
             "deprecated.")]
    assert [p.text.split(" (commit")[0] for p in commits.proposals(log)] == [
        "Used shlex.quote instead of pipes.quote for arguments"]
    guide = tmp_path / "CONTRIBUTING.md"
    guide.write_text("# Contributing\n\nBug fixes must go to the maintenance branch.\n"
                     "Exceptions may be made for bug fixes that introduce large code changes."
                     "\n", encoding="utf-8")
    said = [p.text for p in documents.rule_proposals(guide.read_text(), "CONTRIBUTING.md",
                                                     "docs")]
    assert not [s for s in said if "Exceptions" in s]


def test_removals_deprecations_and_their_history_are_read_by_what_they_say():
    # "does not warn anymore" and "no longer uses" leave the thing in place.
    assert later.removed_names("`ConsoleRenderer` does not warn anymore when it renders.") \
        == set()
    assert later.removed_names("`ProcessorFormatter` no longer uses exceptions.") == set()
    # The thing a part belongs to is not removed.
    assert later.removed_names("The `no_etag` parameter of `Response.freeze` is removed.") \
        == {"no_etag"}
    # *Emphasised* names are deprecated names; the thing the argument belongs to is not.
    assert later.deprecated_names("The *repr_ns* argument to `attr.s` is now deprecated.") \
        == {"repr_ns"}
    assert later.deprecated_names("Add `env` to `Templates`, and deprecate `env_options`.") \
        == {"env_options"}
    # "has been deprecated since 18.2.0" tells what came of a deprecation.
    assert later.deprecated_names("`__lt__` does not consider subclasses comparable anymore. "
                                  "This has been deprecated since 18.2.0.") == set()
    entry = changelogs.Entry("19.2.0", "backward-incompatible changes", "`__lt__` does not "
                             "consider subclasses comparable anymore. This has been deprecated "
                             "since 18.2.0.", 1, 1)
    assert changelogs.classify(entry) == "breaking"
    assert later.soft("we've decided to only soft-deprecate the *hash* argument")
    # A reverted change a later entry makes again is overtaken.
    items = [((1, 0), 'Revert "Add support for ASGI pathsend extension".', "removal"),
             ((1, 1), "Add support for ASGI pathsend extension.", None)]
    assert later.overtaken(items) == {0}


def test_an_old_change_of_behaviour_is_kept_and_a_stale_year_notice_is_not():
    text = ("## [26.1.0] - 2026-06-06\n\n- Drop support for Python 3.9.\n\n"
            "## [20.2.0] - 2020-12-31\n\n### Changed\n\n"
            "- `ProcessorFormatter` no longer uses exceptions for control flow.\n"
            "- `assoc()` is now deprecated in favor of `evolve()` and will stop working in "
            "2021.\n")
    said = _said(changelogs.proposals(text, "CHANGELOG.md", "structlog"))
    assert said == ["Drops support for Python 3.9.",
                    "`ProcessorFormatter` no longer uses exceptions for control flow."]


def test_an_undated_changelog_is_dated_by_its_release_tags(tmp_path):
    import os
    import subprocess

    from conftest import git, init_repo
    from kenning.extract.seed import run

    root = init_repo(tmp_path / "p")
    (root / "CHANGES.rst").write_text(
        "Version 3.1.0\n-------------\n\n- Remove the `old_api` function in favor of `api`.\n\n"
        "Version 3.0.0\n-------------\n\n- Remove the `legacy` module; use `modern`.\n",
        encoding="utf-8")
    for version, when in (("3.0.0", "2015-01-01T00:00:00"), ("3.1.0", "2024-01-01T00:00:00")):
        env = {**os.environ, "GIT_COMMITTER_DATE": when, "GIT_AUTHOR_DATE": when}
        subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", f"Release {version}"],
                       cwd=root, env=env, check=True)
        git(root, "tag", f"v{version}")
    git(root, "add", "CHANGES.rst")
    git(root, "commit", "-qm", "changes")
    assert run.commits.tag_dates(root) == {"3.0.0": date(2015, 1, 1), "3.1.0": date(2024, 1, 1)}
    # Same major line: only the tags' dates make the 2015 removal history.
    said = [p.text for p in changelogs.proposals((root / "CHANGES.rst").read_text(),
                                                 "CHANGES.rst", "demo",
                                                 run.commits.tag_dates(root))]
    assert said == ["demo 3.1.0 (CHANGES.rst): Removes the `old_api` function in favor of `api`."]
    assert len(changelogs.proposals((root / "CHANGES.rst").read_text(), "CHANGES.rst")) == 2


def test_a_commit_decision_older_than_the_window_is_history():
    def c(subject: str, year: int) -> commits.Commit:
        return commits.Commit(str(year) * 10, datetime(year, 1, 1, tzinfo=UTC), "dev", False,
                              subject, "")

    log = [c("Don't cache tokens on disk because they are secrets", 2024),
           c("No longer log from the reloader because it is spammy", 2015)]
    assert [p.text.split(" (commit")[0] for p in commits.proposals(log)] == [
        "Don't cache tokens on disk because they are secrets"]


# reStructuredText sections under a release, as waitress writes them (test7, development).
SECTIONED = """\
3.0.2 (2024-11-16)
------------------

Security
~~~~~~~~

- Waitress now validates that the chunk length is only valid hex digits, and values
  such as ``0x01`` are no longer supported.

1.3.0 (2019-04-22)
------------------

Deprecations
~~~~~~~~~~~~

- The ``send_bytes`` adjustment now defaults to ``1`` and is deprecated
  pending removal in a future release.
- ``jsonschema.RefResolver`` -- see above for details on the replacement.

Features
~~~~~~~~

- Stop early and close the ``app_iter`` when writing to a closed socket.

Bugfixes
~~~~~~~~

- Upon receiving a request without HTTP/1.0 or HTTP/1.1 we will no longer set the
  version to the string value "None".
- Trigger the ``app_iter`` to close as part of shutdown.
- The default ``asyncore_loop_timeout`` is now 1 second.

0.3 (2012-01-01)
----------------

Security Fixes
~~~~~~~~~~~~~~

- Bare LF line endings are no longer supported in chunked bodies.

Features
~~~~~~~~

- Use self.logger to log socket errors instead of self.log_info (normalize).
"""


def test_underlined_sections_say_what_their_entries_are():
    found = changelogs.proposals(SECTIONED, "HISTORY.txt", "waitress")
    said = {p.text.split(": ", 1)[1]: p for p in found}
    # A fix is not a deprecation because the section above it was one; a changed default
    # and what a security fix refuses stay true in any section, however old.
    assert set(said) == {
        "Waitress now validates that the chunk length is only valid hex digits, and values "
        "such as `0x01` are no longer supported.",
        "The `send_bytes` adjustment now defaults to `1` and is deprecated pending removal in "
        "a future release.",
        "The default `asyncore_loop_timeout` is now 1 second.",
        "Bare LF line endings are no longer supported in chunked bodies."}
    assert said["The default `asyncore_loop_timeout` is now 1 second."].text.startswith(
        "waitress 1.3.0 (HISTORY.txt): ")
    assert said["Bare LF line endings are no longer supported in chunked bodies."].old is False
    assert later.deprecated_names("The `send_bytes` adjustment is deprecated pending removal "
                                  "in a future release.") == {"send_bytes"}


def test_the_window_is_the_projects_newest_release_in_any_changelog():
    history = ("2.1.2 (2022-05-01)\n------------------\n\n- Drop support for Python 2.7.\n\n"
               "1.4.0 (2019-12-20)\n------------------\n\n"
               "- Remove the ``legacy`` module; use ``modern``.\n")
    alone = _said(changelogs.proposals(history, "HISTORY.txt", "waitress"))
    assert alone == ["Drops support for Python 2.7.", "Removes the `legacy` module; use `modern`."]
    changes = "3.0.2 (2024-11-16)\n------------------\n\n- Add a thing.\n"
    beside = changelogs.proposals(history, "HISTORY.txt", "waitress",
                                  changelogs.release_dates(changes))
    assert _said(beside) == ["Drops support for Python 2.7."]  # 2019 is past 2024's window


def test_a_default_is_overtaken_by_a_later_default_of_the_same_name():
    text = ("1.3.0 (2019-04-22)\n------------------\n\n"
            "- The ``send_bytes`` adjustment now defaults to ``1``.\n\n"
            "0.7 (2012-05-01)\n----------------\n\n"
            "- Default ``send_bytes`` value is now 18000 instead of 9000.\n")
    assert _said(changelogs.proposals(text, "HISTORY.txt", "waitress")) == [
        "The `send_bytes` adjustment now defaults to `1`."]


def test_a_link_names_no_code_the_head_must_hold():
    from kenning.extract.seed import current
    from kenning.extract.seed.model import Proposal

    p = Proposal(source="changelog", kind="codebase", rule="changelog-deprecation",
                 text="waitress 1.3.0 (HISTORY.txt): The `send_bytes` adjustment is deprecated."
                      " See https://github.com/Pylons/waitress/pull/246.",
                 provenance="HISTORY.txt:1")
    assert current._relied_on(p) == {"send_bytes"}


def test_a_contributing_items_sentence_is_whole_and_does_not_point_back():
    text = ("Support questions\n-----------------\n\n"
            "Please don't use the issue tracker for this. Use the forum.\n\n"
            "Submitting patches\n------------------\n\n"
            "-   Include tests that cover any code changes you make. Make sure the\n"
            "    test fails without your patch. Run the tests as described below.\n")
    said = [p.text for p in documents.rule_proposals(text, "CONTRIBUTING.rst", "docs")]
    assert said == ["CONTRIBUTING.rst: Include tests that cover any code changes you make. "
                    "Make sure the test fails without your patch."]


def test_a_removal_is_overtaken_only_by_what_takes_its_subject_away():
    """Three misreadings that dropped scrapy's recent removals and a default: a removal that
    tells its deprecation's history is no code-less deprecation ("…, deprecated in 2.13.0, is
    removed"), so two shared words of prose (the project's dotted names among them) do not
    make a later, unrelated removal its end; names listed after a colon are named; and a
    name that does the removing ("`Queue` now removes the directory") is not removed."""
    removal = ("The `start_requests()` method of scrapy.Spider, deprecated in 2.13.0, is "
               "removed and no longer called. Use `start()` instead.")
    unrelated = ("The following runtime usage of interfaces is removed: "
                 "scrapy.spiderloader.SpiderLoader is no longer marked as implementing the "
                 "`ISpiderLoader` interface of the spider loader.")
    items = [((2, 16), removal, "removal"), ((2, 18), unrelated, "removal")]
    assert later.overtaken(items) == set()
    listed = ("The following spider attributes are deprecated in favor of settings: "
              "`download_maxsize` (use `DOWNLOAD_MAXSIZE`); `user_agent` (use `USER_AGENT`)")
    other = ("AutoThrottle no longer sets the `download_delay` attribute of the running "
             "spider.")
    assert later.overtaken([((2, 14), listed, "deprecation"), ((2, 18), other, "breaking")]) \
        == set()
    assert later.removed_names("`DownloaderAwarePriorityQueue` now removes the directory of "
                               "a download slot once that slot is drained.") == set()
    assert later.removed_names("`Queue` removes `old_dir` when done.") == {"old_dir"}
    # a deprecation naming no code still ends where a later entry takes that behaviour away
    items = [((1, 0), "Comparing subclasses using `<` is deprecated.", "deprecation"),
             ((1, 1), "Comparing subclasses is no longer supported.", "removal")]
    assert later.overtaken(items) == {0}


def test_a_cut_sentence_that_points_at_what_was_cut_is_not_proposed():
    long_list = "".join(f"    -   ``widget.feeds.Storage{n}``\n\n" for n in range(12))
    text = ("2.14.0 (2026-01-05)\n-------------------\n\nBackward-incompatible changes\n"
            "~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n\n"
            "-   The classes listed below are now abstract base classes. They cannot be "
            "instantiated directly and their subclasses need to override the abstract methods "
            "they have. If you subclass them you may need to add the missing methods to your "
            "code, or you will get a ``TypeError`` when creating an instance of your "
            "subclass, which now happens at import time in several places of the code base "
            "rather than at the point of first use as it did before.\n\n" + long_list +
            "-   ``widget.Item`` now raises ``TypeError`` instead of ``KeyError`` for an "
            "unknown field.\n")
    said = _said(changelogs.proposals(text, "docs/news.rst", "widget"))
    assert not any("listed below" in s for s in said)
    assert any("`widget.Item` now raises `TypeError`" in s for s in said)


def test_a_dated_release_of_an_older_major_line_within_the_window_is_not_history():
    # textual (development since its after-run): eight major lines in two years, so the
    # major line before the newest says little of age; a release's date says it.
    text = ("## [8.0.0] - 2026-05-01\n\n### Changed\n\n- Renamed `Select.BLANK` to `Select.NULL`."
            "\n\n## [1.0.0] - 2024-12-12\n\n### Removed\n\n- Removed the `App.dark` reactive; use"
            " `App.theme`.\n\n## [0.5.0] - 2021-01-10\n\n### Changed\n\n- Renamed"
            " `Widget.call_later` to `Widget.call_after_refresh`.\n")
    said = [p.text.split("): ", 1)[1] for p in changelogs.proposals(text, "CHANGELOG.md", "tui")]
    assert said == ["Renamed `Select.BLANK` to `Select.NULL`.",
                    "Removed the `App.dark` reactive; use `App.theme`."], said  # 0.5.0: past
    # the window
    # undated, the major line before the newest is still where history starts
    undated = re.sub(r" - \d{4}-\d\d-\d\d", "", text)
    said = [p.text.split("): ", 1)[1]
            for p in changelogs.proposals(undated, "CHANGELOG.md", "tui")]
    assert said == ["Renamed `Select.BLANK` to `Select.NULL`."], said


def test_a_choice_past_the_window_is_kept_but_not_one_a_decade_old():
    # paramiko 1.11.6 (2013) and urllib3 1.2 (2012) (development): "Replaces PyCrypto's
    # `Random` with `os.urandom`" is the project's history, whatever HEAD still uses
    text = ("## 4.0.0 (2026-05-01)\n\n- Removed `old_api`; use `api`.\n\n"
            "## 3.0.0 (2021-03-01)\n\n- Uses `LifoQueue` instead of `Queue` for pooling.\n\n"
            "## 1.2.0 (2013-03-01)\n\n- Uses `os.urandom` instead of `Random` for keys.\n")
    found = changelogs.proposals(text, "CHANGES.md", "ssh")
    assert [(p.text.split("): ", 1)[1], p.old) for p in found] == [
        ("Removed `old_api`; use `api`.", False),
        ("Uses `LifoQueue` instead of `Queue` for pooling.", True)], found
