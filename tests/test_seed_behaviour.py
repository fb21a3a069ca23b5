"""`kenning seed` on what a project says it now does (issue 19's nineteenth pass): a changelog's
change of behaviour or of where a thing lives, a commit whose body says the change and why,
a contributing guide's bold-led guidelines and "… like this::" commands, a guide's choice made
on purpose."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from conftest import git, init_repo
from kenning.extract.seed import changelogs, commits, contributing, current, guides, run
from kenning.extract.seed.model import Proposal

CHANGELOG = """\
Changelog
=========

2.1.1 (2026-05-02)
------------------

- ``Widget.render()`` now returns a ``Markup`` object instead of a ``str``.

2.1 (2026-05-01)
----------------

- ``Database.execute_write()`` now returns an ``ExecuteWriteResult`` object instead of the
  raw ``sqlite3.Cursor``. (:pr:`12`)
- Write connections now execute using the ``IMMEDIATE`` isolation level. This should help
  avoid a rare ``SQLITE_BUSY`` error.
- Row pages now return a ``400`` error instead of a ``500`` error for a bad row id.
- ``/-/query.json`` without ``?sql=`` now returns a ``400`` error, as the CSV format already
  did, instead of a ``200``.
- ``Widget.copy()`` now returns ``Self`` instead of ``Widget`` for type checkers.
- ``request.post_vars()`` remains available for backwards compatibility but is no longer the
  recommended API for reading forms.

2.0 (2025-06-01)
----------------

- The ``/db?sql=`` interface can now be found at ``/db/-/query?sql=``. Requests to the old
  endpoint are redirected.
- Plugin configuration now lives in the ``widget.yaml`` configuration file, passed using
  ``-c/--config``::

      widget -c widget.yaml

  Previously plugins were configured in ``metadata.yaml``.

1.0 (2019-01-01)
----------------

- ``Widget.size()`` now returns an ``int`` instead of a ``float``.
"""


def said(found: list) -> list[str]:
    return [p.text.split("): ", 1)[1] for p in found]


def test_a_change_of_behaviour_or_of_where_a_thing_lives_is_proposed_while_recent():
    found = changelogs.proposals(CHANGELOG, "CHANGES.rst", "widget")
    assert said([p for p in found if p.rule == "changelog-behaviour"]) == [
        "`Database.execute_write()` now returns an `ExecuteWriteResult` object instead of the "
        "raw `sqlite3.Cursor`.",
        "Write connections now execute using the `IMMEDIATE` isolation level. This should "
        "help avoid a rare `SQLITE_BUSY` error.",
        "The `/db?sql=` interface can now be found at `/db/-/query?sql=`. Requests to the old "
        "endpoint are redirected.",
        "Plugin configuration now lives in the `widget.yaml` configuration file, passed using "
        "`-c/--config`."], found
    # 2.1.1 is a point release (a fix); a `500` replaced is a fix, and so is catching up with
    # what "the CSV format already did"; `Self` is a type; 1.0 is past the window. The RST
    # literal block and what follows it are the example, not the entry.



def test_what_a_call_now_requires_and_a_tool_now_used_in_place_of_another_are_proposed():
    # beets' changelog (development): "… now require a `data_source` argument", "The project
    # now uses `uv` for packaging …, replacing `poetry`."
    text = ("Changelog\n=========\n\n3.1 (2026-05-01)\n----------------\n\n"
            "Other changes\n~~~~~~~~~~~~~\n\n"
            "- ``store.fetch_album()`` now requires a ``source`` argument and asks only that"
            " provider.\n"
            "- The project now uses ``uv`` for its virtual environment and locking, replacing"
            " ``pipenv``.\n"
            "- The progress bar now requires less memory on long imports.\n\n"
            "3.0 (2026-01-01)\n----------------\n\n- Started the changelog.\n")
    found = changelogs.proposals(text, "CHANGES.rst", "tune")
    assert [(p.rule, t) for p, t in zip(found, said(found), strict=True)] == [
        ("changelog-behaviour", "`store.fetch_album()` now requires a `source` argument and "
                                "asks only that provider."),
        ("changelog-change", "The project now uses `uv` for its virtual environment and "
                             "locking, replacing `pipenv`.")], found
    # the progress bar's entry names nothing a reader could look up: no fact

def test_a_change_of_behaviour_relies_on_what_its_first_sentence_names(tmp_path):
    root = init_repo(tmp_path / "widget")
    (root / "widget").mkdir()
    (root / "widget" / "db.py").write_text(
        'ISOLATION = "IMMEDIATE"\n\n\nclass ExecuteWriteResult:\n    pass\n\n\n'
        "def execute_write():\n    return ExecuteWriteResult()\n\n\nclass Request:\n"
        "    def post_vars(self):\n        return {}\n\n\ndef old_thing():\n"
        '    warnings.warn("old_thing is deprecated", DeprecationWarning)\n', encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "code")
    found = [p for p in changelogs.proposals(CHANGELOG, "CHANGES.rst", "widget")
             if "IMMEDIATE" in p.text or "ExecuteWriteResult" in p.text or "post_vars" in p.text]
    assert [p.rule for p in current.still_true(root, found)] == [
        "changelog-behaviour", "changelog-behaviour", "changelog-deprecation"], found
    # `SQLITE_BUSY` is SQLite's, named in the reason: HEAD's code need not spell it; "no
    # longer the recommended API" deprecates softly, naming no deprecation HEAD must warn of


PROSE = """\
Changelog
=========

3.0 (2026-04-15)
----------------

This release focuses on performance: ``Widget.render()`` now uses a cache instead of
recomputing each page.

Tokens are gone
~~~~~~~~~~~~~~~

Widget's token-based ``csrf`` protection has been replaced with a check of the
``Sec-Fetch-Site`` and ``Origin`` request headers.

This breaking change removes ``csrftoken`` from ``Widget`` templates.

Other changes
~~~~~~~~~~~~~

- ``Widget.close()`` now also closes the write connection.
"""


def test_a_paragraph_of_a_releases_prose_says_what_replaces_what():
    found = changelogs.proposals(PROSE, "CHANGES.rst", "widget")
    assert [(p.rule, p.provenance) for p in found] == [("changelog-change", "CHANGES.rst:13-14")]
    assert said(found) == [
        "Widget's token-based `csrf` protection has been replaced with a check of the "
        "`Sec-Fetch-Site` and `Origin` request headers."], found
    # what the release is about ("This release focuses on …") and a paragraph's "breaking" or
    # "removes" (the release's story, not one change) are not proposed


def commit(root: Path, message: str, when: str) -> None:
    (root / "log.txt").write_text(message, encoding="utf-8")
    git(root, "add", "-A")
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    subprocess.run(["git", "-C", str(root), "commit", "-qm", message], env=env, check=True,
                   capture_output=True)


WHY = ("Implement INTERSECT-based restrictions\n\n"
       "Actor restrictions are now implemented as SQL filters using INTERSECT rather than as "
       "deny/allow rules. This ensures restrictions act as hard limits that plugins cannot "
       "override.\n\nCloses #2572")


def test_a_commit_whose_body_says_the_change_and_why_is_a_decision(tmp_path):
    root = init_repo(tmp_path / "r")
    commit(root, f"New restriction_sql mechanism for actor restrictions\n\n{WHY}",
           "2019-01-01T00:00:00")
    commit(root, f"Fix restriction bypass\n\n{WHY}", "2025-01-01T00:00:00")
    commit(root, "Read varnames from code objects\n\nThe hook now reads code objects instead "
                 "of signatures. This makes it simpler and faster.", "2025-02-01T00:00:00")
    commit(root, "Implement also_requires\n\nApplies this to execute-sql, which now requires "
                 "view-database. This prevents executing SQL on a hidden database.",
           "2025-03-01T00:00:00")
    commit(root, f"New restriction_sql mechanism for actor restrictions\n\n{WHY}",
           "2025-11-03T00:00:00")
    commit(root, "Ensure nav is sorted regardless of the order inside Files\n\nThis means "
                 "plugins don't have to find the sort order themselves.", "2025-11-04T00:00:00")
    found = [p for p in commits.proposals(commits.read_log(root)) if p.rule == "commit-why"]
    assert [p.text.rsplit(" (commit ", 1)[0] for p in found] == [
        "Ensure nav is sorted regardless of the order inside Files. This means plugins don't "
        "have to find the sort order themselves",
        "New restriction_sql mechanism for actor restrictions: Actor restrictions are now "
        "implemented as SQL filters using INTERSECT rather than as deny/allow rules. This "
        "ensures restrictions act as hard limits that plugins cannot override"], found
    assert found[1].rationale.startswith("This ensures restrictions act as hard limits")
    # the subject says the change and the body opens on why; not a fix's story, a reason
    # about the code's tidiness, a sentence leaning on "this", nor the same subject from before
    # the window (2019, more than 4 years before the newest commit)



def merge(root: Path, branch: str, message: str, when: str) -> None:
    """A branch with one commit, merged into main with `message` (a merge commit)."""
    git(root, "checkout", "-qb", branch)
    commit(root, f"work on {branch}", when)
    git(root, "checkout", "-q", "-")
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    subprocess.run(["git", "-C", str(root), "merge", "-q", "--no-ff", "-m", message, branch],
                   env=env, check=True, capture_output=True)


def test_a_merge_commit_titled_by_its_pull_request_is_read_and_a_scoped_fix_is_no_decision(
        tmp_path):
    # beets (seed development data) merges with GitHub's "pull request title and description"
    # message: the merge commit holds the decision and its reason, as a squash would.
    root = init_repo(tmp_path / "r")
    commit(root, "Start", "2025-01-01T00:00:00")
    merge(root, "safe", "Safely handle source plugin errors (#6102)\n\nInstead of failing the "
                        "whole import, errors from one source plugin are now caught and logged. "
                        "This ensures the tagger goes on with the other sources.",
          "2025-02-01T00:00:00")
    merge(root, "web", "Plugins/web: fix the values endpoint (#6200)\n\nThe endpoint now "
                       "returns the values instead of the field name. This lets clients list "
                       "the album artists.", "2025-03-01T00:00:00")
    merge(root, "other", "Merge branch 'other'\n\nThe cache is now kept on disk instead of in "
                         "memory. This ensures it survives a restart.", "2025-04-01T00:00:00")
    found = [p.text.rsplit(" (commit ", 1)[0]
             for p in commits.proposals(commits.read_log(root)) if p.rule == "commit-why"]
    assert found == ["Safely handle source plugin errors: Instead of failing the whole import, "
                     "errors from one source plugin are now caught and logged. This ensures "
                     "the tagger goes on with the other sources"], found

GUIDELINES = """\
Contributing
============

General guidelines
------------------

* **main should always be releasable**. Incomplete features should live in branches.
* **New plugin hooks** should only be shipped if accompanied by a plugin that uses them.
* **Have fun** and be nice.

Running the tests
-----------------

You can run the tests faster using multiple CPU cores like this::

    pytest -n auto
"""


def test_a_bold_led_guideline_and_a_like_this_command_are_proposed(tmp_path):
    root = tmp_path / "widget"
    root.mkdir()
    found = contributing.proposals(GUIDELINES, "docs/contributing.rst", "widget", root)
    assert [p.text.split("): ", 1)[1] for p in found] == [
        "Run the tests faster using multiple CPU cores: `pytest -n auto`.",
        "Main should always be releasable. Incomplete features should live in branches.",
        "New plugin hooks should only be shipped if accompanied by a plugin that uses them."], \
        found
    # "Have fun" asks nothing of a contribution


DESIGN = """\
Upserting rows
==============

If successful, this will return a ``200`` status code and a ``{"ok": true}`` response body.
This is deliberately different from the ``201`` returned by insert: an upsert may update
existing rows without creating anything, so it does not claim resource creation.

If you intentionally want to create a row, use ``insert`` and its ``201`` status code.
"""


def test_a_choice_made_on_purpose_is_said_with_what_it_is_about():
    found = guides.proposals(DESIGN, "docs/json_api.rst", "widget")
    assert [(p.rule, p.text) for p in found] == [(
        "guide-design",
        "widget docs (Upserting rows): If successful, this will return a `200` status code "
        'and a `{"ok": true}` response body. This is deliberately different from the `201` '
        "returned by insert: an upsert may update existing rows without creating anything, "
        "so it does not claim resource creation.")], found
    # what the reader may do on purpose is no choice of the project's


def test_a_commits_decision_the_changelog_says_is_left_to_the_changelog():
    entry = Proposal(
        source="changelog", kind="codebase",
        text="widget 2.1 (CHANGES.rst): The write API endpoints now parse the request body as "
             "JSON regardless of the `Content-Type` header.",
        provenance="CHANGES.rst:12", rule="changelog-behaviour")
    said = Proposal(
        source="commits", kind="decision",
        text="Write endpoints parse the body as JSON regardless of Content-Type: The lenient "
             "rule is now uniform: the body is always parsed as JSON. This makes curl -d work "
             "without the header (commit 87cd695, 2026-07-06).",
        provenance="commit 87cd695ca3b9", rule="commit-why")
    other = Proposal(
        source="commits", kind="decision",
        text="Require permissions-debug permission for /-/check endpoint: The /-/check endpoint "
             "now requires the permissions-debug permission. This prevents probing the "
             "permission system (commit 2c8e92a, 2025-10-26).",
        provenance="commit 2c8e92a0a0a0", rule="commit-why")
    assert run._said_once([entry, said, other]) == [entry, other]


def test_a_long_entry_is_read_and_proposed_by_its_first_sentence():
    # jsonschema 4.18.0 and trio 0.25.0 (development): an entry of many sentences, the change
    # said first and its story after it.
    story = " ".join(["The new library is more compliant than the old support and this is"
                      " a culmination of a meaningful chunk of work."] * 12)
    text = ("Changelog\n=========\n\n4.18.0 (2026-05-01)\n-------------------\n\n"
            f"- ``widget.Resolver`` is now deprecated in favor of the ``referencing`` library."
            f" {story}\n"
            f"- Widgets render faster. {story}\n\n"
            "4.0 (2026-01-01)\n----------------\n\n- Started the changelog.\n")
    found = changelogs.proposals(text, "CHANGES.rst", "widget")
    assert [(p.rule, t) for p, t in zip(found, said(found), strict=True)] == [
        ("changelog-deprecation", "`widget.Resolver` is now deprecated in favor of the"
                                  " `referencing` library.")], found


def test_an_entry_saying_it_is_unlikely_to_affect_anyone_is_not_proposed():
    # textual 0.20.0 (development; a blind judge: "nothing to act on")
    text = ("Changelog\n=========\n\n4.18.0 (2026-05-01)\n-------------------\n\n"
            "- Changed signature of ``Driver``. Technically a breaking change, but unlikely to"
            " affect anyone.\n- ``Timer.start`` is now private, and returns ``None``. Breaking"
            " change.\n\n4.0 (2026-01-01)\n----------------\n\n- Started the changelog.\n")
    assert [p.text.split("): ", 1)[1] for p in changelogs.proposals(text, "CHANGES.rst", "w")] \
        == ["`Timer.start` is now private, and returns `None`. Breaking change."]


def test_a_removal_naming_only_a_kind_of_thing_is_not_proposed():
    # aiohttp's "Drops deprecated SSL client settings." (a blind judge: which ones?)
    text = ("Changelog\n=========\n\n4.18.0 (2026-05-01)\n-------------------\n\n"
            "- Drops deprecated SSL client settings; use ``ssl`` instead.\n"
            "- Drops deprecated ``verify_ssl`` and ``ssl_context`` settings; use ``ssl``"
            " instead.\n\n"
            "4.0 (2026-01-01)\n----------------\n\n- Started the changelog.\n")
    assert [p.text.split("): ", 1)[1] for p in changelogs.proposals(text, "CHANGES.rst", "w")] \
        == ["Drops deprecated `verify_ssl` and `ssl_context` settings; use `ssl` instead."]
