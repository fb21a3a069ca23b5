"""`kenning seed` on release notes in FastAPI's style (latest-changes): a gitmoji before each
entry, a "PR [#n](url) by [@a](url)" credit after it, sections by kind (Features, Refactors,
Breaking Changes), and a breaking headline over points."""

from __future__ import annotations

from kenning.extract.seed import changelogs
from kenning.extract.seed.model import plain

NOTES = """\
# Release Notes

## 0.26.0 (2026-05-26)

### Breaking Changes

* ➖ Vendor Click and streamline Typer's code base. PR [#1774](https://g/1774) by [@s](https://g/s).
    * Typer no longer depends on Click as a third party dependency, it vendors Click.
    * This simplifies the work done by both Click and Typer teams.
    * It allows Typer to evolve independently, and enables several new planned features.
    * It will solve several dependency conflict situations for projects that use packages
      that depend on Click and some that depend on Typer, a long-standing request.
    * You can read more about it in the docs for Vendored Click, which explain what
      changes for programs that used Click's own types and plug-ins directly.

### Features

* ✨ Show help items in order of definition. PR [#944](https://g/944) by [@a](https://g/a).

## 0.21.2 (2026-01-10)

### Refactors

* 🗑️ Deprecate support for `is_flag` and `flag_value` parameters. PR [#987](https://g/987).

### Upgrades

* ➖ Drop `typing-extensions` as external dependency. PR [#1467](https://g/1) by [@a](https://g/a).
"""


def test_a_pull_request_credit_goes_whole_wherever_it_stands():
    assert plain("Drop `x`. PR [#1467](https://github.com/o/r/pull/1467) by [@a](https://a) "
                 "and [@b](https://b).") == "Drop `x`."
    assert plain("Vendor Click. PR [#1](https://u) by [@s](https://s): Typer no longer depends "
                 "on Click.") == "Vendor Click: Typer no longer depends on Click."
    assert plain("Use the PR template.") == "Use the PR template."


def test_gitmoji_entries_are_read_by_their_words_and_a_deprecation_by_its_verb():
    said = [p.text for p in changelogs.proposals(NOTES, "docs/release-notes.md", "typer")]
    assert said == [
        "Breaking change in typer 0.26.0 (docs/release-notes.md): Vendor Click and streamline "
        "Typer's code base: Typer no longer depends on Click as a third party dependency, it "
        "vendors Click.",
        "typer 0.21.2 (docs/release-notes.md): Deprecates support for `is_flag` and "
        "`flag_value` parameters.",
        "typer 0.21.2 (docs/release-notes.md): Drops `typing-extensions` as external "
        "dependency."]
