"""`kenning seed` leaves out what a reader finds no lasting fact in (issue 19's fourteenth
pass, read on the development snapshots): reverts, the project's packaging and plumbing, a
swap of one piece of Python's own for another, entries pointing at other entries, Python's
own defaults in a guide, and a rule restated in a file's summary list."""

from __future__ import annotations

import json

from kenning.extract.seed import changelogs, documents, guides
from kenning.extract.seed.model import Proposal, plain


def said(text: str, project: str = "proj") -> list[str]:
    return [p.text.split("): ", 1)[1] for p in changelogs.proposals(text, "CHANGES.md", project)]


def test_a_revert_and_the_projects_own_packaging_are_no_facts():
    text = ("## 2.0.0 (2026-01-01)\n\n### Removed\n\n"
            "- Revert backward incompatible change (`BaseURL`).\n"
            "- We had to revert the recursive feature for `evolve()` because it broke things.\n"
            "- The deprecated license classifier was removed from `setup.cfg`.\n"
            "- Removes obsolete `Makefile` targets.\n"
            "- Removes unneeded nesting in `Specifier.prereleases`.\n"
            "- `Python-Markdown` was unpinned from `<3.4`.\n"
            "- Uses `mkstemp()` instead of `mktemp()` in pager implementation.\n"
            "- Removes the `Response(on_close=...)` argument, a leaking implementation detail.\n"
            "- Removes support for `Response(on_close=...)`, a leaking implementation detail.\n"
            "- The current parser is deprecated: `Context.protected_args` is unneeded.\n")
    assert said(text) == [
        "Removes support for `Response(on_close=...)`, a leaking implementation detail.",
        "The current parser is deprecated: `Context.protected_args` is unneeded."], said(text)


def test_a_swap_of_pythons_own_code_is_how_the_code_is_written():
    text = ("## 2.0.0 (2026-01-01)\n\n### Changed\n\n"
            "- Replaced all `typing.Optional` with `typing.Union`.\n"
            "- Replaces uses of `os.system` with `subprocess.Popen`.\n"
            "- Use `map` instead of generator.\n"
            "- Replaces sys.exit(-1) with raise ImportError as it plays nicer with scanners.\n"
            "- Use `ast` instead of `eval` for string extraction:\n"
            "  - This also enables extraction from static f-strings.\n"
            "- Use `flit_core` instead of `setuptools` as build backend.\n")
    # What it changes for users ("also enables …") keeps it; a tool of its own is a choice.
    assert said(text) == [
        "Uses `ast` instead of `eval` for string extraction: This also enables extraction "
        "from static f-strings.",
        "Uses `flit_core` instead of `setuptools` as build backend."], said(text)


def test_an_entry_pointing_at_other_entries_and_a_context_tail():
    text = ("## 2.0.0 (2026-01-01)\n\n### Deprecations\n\n"
            "- `extra_javascript` underwent a change that can break plugins in rare cases. "
            "See respective entries above.\n"
            "- `warning_filter` is deprecated. Context: #3008\n"
            "- Port normalization is removed when the scheme is not one of `http` or `ws`, "
            "the two listed above.\n")
    # "listed above" may be the entry's own words; "entries above" are others'.
    assert said(text) == [
        "`warning_filter` is deprecated.",
        "Port normalization is removed when the scheme is not one of `http` or `ws`, the two "
        "listed above."], said(text)
    assert plain("It is no longer allowed to set `File.page` to a `str`. Context: #3443 - "
                 "following the deprecation in version 1.5.3 and #3381.") == \
        "It is no longer allowed to set `File.page` to a `str`."


def test_an_old_move_and_an_old_minimum_version_are_history():
    text = ("## 26.0 (2026-01-01)\n\n- Add `foo`.\n\n"
            "## 14.3 (2014-11-19)\n\n"
            "- BACKWARDS INCOMPATIBLE Move the specifier support out of `packaging.version` "
            "into `packaging.specifiers`.\n"
            "- Explicitly depend on Click 7.1.2 or newer as `Black` no longer works with "
            "versions older than 7.0.\n"
            "- `Version` no longer accepts a `str` subclass.\n")
    # And a change of behaviour from twice the window back (2014 against 2026) is settled.
    assert said(text) == [], said(text)
    recent = text.replace("## 14.3 (2014-11-19)", "## 20.3 (2020-11-19)")
    assert said(recent) == ["`Version` no longer accepts a `str` subclass."], said(recent)


def test_a_guide_default_of_a_python_builtin_or_dunder_is_pythons():
    text = ("Hashing\n=======\n\n"
            "By default, Python classes are compared and hashed by their ``id``.\n\n"
            "Slots\n-----\n\n"
            "By default, the standard library ``functools.cached_property`` decorator does "
            "not work on slotted classes, because it requires a ``__dict__`` to store it.\n\n"
            "Equality\n--------\n\n"
            "By default, ``eq`` is ``True`` so instances compare by their fields.\n")
    found = [p.text.split("): ", 1)[1] for p in guides.proposals(text, "docs/h.rst", "attrs")]
    assert found == ["By default, `eq` is `True` so instances compare by their fields."], found


def test_a_contributing_rule_pointing_at_text_below_is_not_proposed():
    text = ("# Contributing\n\n## Installing for Development\n\n"
            "Note that for development you can just use [Hatch] directly as described below. "
            "If you wish to install a local clone anyway, you can run `pip install -e .`.\n\n"
            "Avoid force-pushes, otherwise review history is much harder to navigate.\n")
    found = [p.text for p in documents.rule_proposals(text, "CONTRIBUTING.md", "docs")]
    assert found == ["CONTRIBUTING.md: Avoid force-pushes, otherwise review history is much "
                     "harder to navigate."], found



def test_a_rule_that_points_at_the_example_after_it_is_not_proposed():
    # beets' CONTRIBUTING.rst (judged not self-contained blind): "do this, for example." ends
    # where a code block begins, so the fact says to do nothing in particular.
    text = ("# Contributing\n\n## Database\n\n"
            "If you must write raw SQL against the database, do this, for example.\n\n"
            "Avoid force-pushes, otherwise review history is much harder to navigate.\n\n"
            "Never call the scheduler from a signal handler, as follows.\n\n"
            "Always run `make lint` before pushing, like so.\n")
    found = [p.text for p in documents.rule_proposals(text, "CONTRIBUTING.md", "docs")]
    assert found == ["CONTRIBUTING.md: Avoid force-pushes, otherwise review history is much "
                     "harder to navigate."], found


def test_a_guides_default_of_an_unnamed_output_and_trivia_for_the_curious_are_not_proposed():
    text = ("Sync\n====\n\nUsage\n-----\n\n"
            "The default output is ``item_line`` for tracks.\n\n"
            "For the curious, the default word list is generated by a script.\n\n"
            "Timeouts\n--------\n\n"
            "The default behaviour is to give up after ``5`` seconds of silence.\n")
    found = [p.text.split("): ", 1)[1] for p in guides.proposals(text, "docs/sync.rst", "tune")]
    assert found == ["The default behaviour is to give up after `5` seconds of silence."], found

def test_a_rule_restated_in_other_words_in_a_summary_list_is_proposed_once(kenning, repo):
    from conftest import git

    # yarl's AGENTS.md: the rule where it is explained, then in "Things not to do".
    (repo / "AGENTS.md").write_text(
        "# Pull requests\n\n"
        "Do not invent your own `## What / ## Why / ## How` layout; that is the marker\n"
        "that the PR was written by an agent without reading the conventions.\n\n"
        "# Things not to do\n\n"
        "- Do not invent a `## What / ## Why / ## How` PR body; use the template above.\n"
        "- Do not invent a `CHANGES/123.bugfix.rst` fragment name of your own.\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "agents")
    result = kenning("seed", "--json", "--dry-run")
    assert result.code == 0, result.err
    found = [i["text"] for i in json.loads(result.out)["items"] if i["action"] == "proposed"]
    # Same opening, same long literal: one rule. Another literal: another rule.
    assert found == [
        "AGENTS.md: Do not invent your own `## What / ## Why / ## How` layout; that is the "
        "marker that the PR was written by an agent without reading the conventions.",
        "AGENTS.md (Things not to do): Do not invent a `CHANGES/123.bugfix.rst` fragment name"
        " of your own."], found


def test_two_deprecations_of_different_code_are_two_rules():
    from kenning.extract.seed.run import _restating

    a = Proposal(source="changelog", kind="codebase", text="httpx 0.28.0 (CHANGELOG.md): The "
                 "`verify_certificate` argument as a string is now deprecated.",
                 provenance="CHANGELOG.md:33", rule="changelog-deprecation")
    b = Proposal(source="changelog", kind="codebase", text="httpx 0.28.0 (CHANGELOG.md): The "
                 "`cert_file_argument` argument is now deprecated and will raise warnings.",
                 provenance="CHANGELOG.md:34", rule="changelog-deprecation")
    assert _restating(b, [a]) is None


def test_one_deprecation_said_in_the_changelog_and_a_guide_is_proposed_once(kenning, repo):
    from conftest import git

    (repo / "demo").mkdir()
    (repo / "demo" / "testing.py").write_text(
        "import warnings\n\n\nclass CliRunner:\n    def isolated_filesystem(self):\n"
        "        warnings.warn('isolated_filesystem is deprecated', DeprecationWarning)\n",
        encoding="utf-8")
    (repo / "CHANGES.md").write_text(
        "## 8.5.0 (2026-11-01)\n\n- Deprecate `CliRunner.isolated_filesystem`. Use a "
        "temporary directory instead.\n", encoding="utf-8")
    (repo / "docs").mkdir()
    (repo / "docs" / "testing.md").write_text(
        "# Testing\n\n## Deprecations\n\n"
        "`CliRunner.isolated_filesystem()` is deprecated and will be removed in Project 9.0.\n",
        encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "deprecate")
    out = json.loads(kenning("seed", "--json", "--dry-run").out)
    found = [i["text"] for i in out["items"] if i["action"] == "proposed"]
    known = [i["text"] for i in out["items"] if i["action"] == "known"]
    assert [t.split(" ", 1)[1] for t in found if "isolated_filesystem" in t] == [
        "8.5.0 (CHANGES.md): Deprecates `CliRunner.isolated_filesystem` (it warns). Use a "
        "temporary directory instead."], found
    assert len([t for t in known if "isolated_filesystem" in t]) == 1, known


def test_a_guide_default_said_of_it_does_not_say_what():
    text = ("Time\n====\n\n"
            "By default, it starts at time 0, and clock time only advances when you call "
            "``MockClock.jump``.\n\n"
            "Arguments\n=========\n\n"
            "By default, it's assumed that the ``name`` argument is not required.\n")
    found = [p.text.split("): ", 1)[1] for p in guides.proposals(text, "docs/t.rst", "trio")]
    assert found == ["By default, it's assumed that the `name` argument is not required."], found


def test_a_commit_about_how_python_works_is_no_decision():
    from datetime import UTC, datetime

    from kenning.extract.seed import commits

    def c(subject: str) -> commits.Commit:
        return commits.Commit("b" * 40, datetime(2024, 5, 1, tzinfo=UTC), "dev", False,
                              subject, "")

    found = [p.text.split(" (commit ")[0] for p in commits.proposals([
        c("Don't define __ne__ methods, they're implicit since Py3"),
        c("Avoid `importlib_metadata` dependency since Python 3.10"),
    ])]
    # `importlib_metadata` is a package of its own, not Python's: a choice of the project.
    assert found == ["Avoid `importlib_metadata` dependency since Python 3.10"], found


def test_a_deprecation_said_in_an_aside_is_not_the_entrys_news():
    text = ("## 4.18.6 (2026-01-01)\n\n"
            "- Sets a `jsonschema` specific user agent when automatically retrieving remote "
            "references (which is deprecated).\n"
            "- `ErrorTree.__setitem__` is now deprecated.\n")
    assert said(text, "jsonschema") == ["`ErrorTree.__setitem__` is now deprecated."]


def test_a_list_item_leaning_on_its_lead_in_is_said_with_it():
    text = ("# News fragments\n\n"
            "Conventions for the fragment body:\n\n"
            "- Use reStructuredText, not Markdown.\n"
            "- Do not include the issue or PR number in the body; towncrier\n"
            "  adds it automatically from the filename.\n\n"
            "Some rules for writing tests:\n\n"
            "- Tests must never depend on the network.\n")
    found = [p.text for p in documents.rule_proposals(text, "AGENTS.md", "agents")]
    # "the body" is the fragment's, which only the lead-in says; the others stand alone.
    assert "AGENTS.md: Conventions for the fragment body: Do not include the issue or PR number " \
        "in the body; towncrier adds it automatically from the filename." in found, found
    assert "AGENTS.md: Tests must never depend on the network." in found, found


def test_a_sentence_that_only_sends_to_a_link_goes_whole():
    assert plain("Waitress will no longer accept newlines in headers. See "
                 "https://github.com/Pylons/waitress/issues/117 for more information, as well "
                 "as\n https://www.owasp.org/index.php/HTTP_Response_Splitting.") == \
        "Waitress will no longer accept newlines in headers."
    assert plain("The default loop timeout is now 1 second.  See "
                 "https://github.com/o/r/issues/6 .  It can be changed.") == \
        "The default loop timeout is now 1 second. It can be changed."


def test_a_version_history_page_is_no_guide():
    text = ("Version history\n===============\n\n**4.12.0**\n\n"
            "- Fixed issues on free-threading builds, where new threads inherit the current "
            "context by default, causing ``anyio.to_thread.run_sync()`` to misbehave.\n")
    assert guides.proposals(text, "docs/versionhistory.rst", "anyio") == []
    assert changelogs.PAGE_NAME.search("versionhistory")
