"""`kenning seed` on a changelog kept as one file per release (falcon's `docs/changes/4.0.0.rst`
behind a root `CHANGES.rst` that only points there; issue 19, a blind label set read after its
one run): the folder is read as one changelog, so an old release is history, and each
proposal cites its own file and lines."""

from __future__ import annotations

import json

from conftest import git
from kenning.extract.seed import changelogs

RELEASE = """Changelog for Falcon {version}
=========================

.. falcon-release: {day}

Breaking Changes
----------------

- A number of previously deprecated methods have now been
  removed:

  * The ``falcon-print-routes`` utility is no longer supported;
    ``falcon-inspect-app`` is a direct replacement.

- The default value of the ``csv`` parameter in ``parse_query_string()`` was
  changed to ``False``.
"""


def _write(repo, version: str, day: str) -> None:
    folder = repo / "docs" / "changes"
    folder.mkdir(parents=True, exist_ok=True)
    text = RELEASE.format(version=version, day=day)
    if version != "4.0.0":
        text = text.replace("``csv``", f"``csv{version.replace('.', '')}``")
    (folder / f"{version}.rst").write_text(text, encoding="utf-8")


def test_a_folder_of_release_files_behind_a_pointer_is_one_changelog(kenning, repo):
    (repo / "pyproject.toml").write_text('[project]\nname = "falcon"\n', encoding="utf-8")
    (repo / "falcon").mkdir()
    (repo / "falcon" / "uri.py").write_text(
        "def parse_query_string(query_string, csv=False):\n    return {}\n", encoding="utf-8")
    (repo / "CHANGES.rst").write_text(
        "To find our changes, go to ./docs/changes or https://falcon.readthedocs.io/changes.\n",
        encoding="utf-8")
    for version, day in (("4.0.0", "2024-10-08"), ("3.0.0", "2021-04-05"),
                         ("1.0.0", "2016-04-06")):
        _write(repo, version, day)
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", f"release {version}")
        git(repo, "tag", version)
    assert [p.name for p in changelogs.changelog_files(repo)] == ["4.0.0.rst", "3.0.0.rst",
                                                                   "1.0.0.rst"]
    result = kenning("seed", "--dry-run", "--json")
    assert result.code == 0, result.err
    found = {i["text"]: i["provenance"] for i in json.loads(result.out)["items"]
             if i["source"] == "changelog"}
    csv = [(t, p) for t, p in found.items() if "parse_query_string()" in t]
    # The newest release's change, cited in its own file: the title is no entry, the wrapped
    # "removed:" no section ("The default value … was changed" is no removal).
    assert csv == [("Breaking change in falcon 4.0.0 (docs/changes/4.0.0.rst): The default value "
                    "of the `csv` parameter in `parse_query_string()` was changed to `False`.",
                    "docs/changes/4.0.0.rst:15-16")], found
    # 1.0.0's removal and changed default are eight years before the newest: history.
    assert not any("1.0.0" in p for p in found.values()), found


def test_a_folder_of_two_release_files_is_not_a_changelog(repo):
    _write(repo, "4.0.0", "2024-10-08")
    _write(repo, "3.0.0", "2021-04-05")
    assert changelogs.changelog_files(repo) == []


def test_a_change_made_in_lieu_of_a_breaking_one_is_not_breaking():
    text = ("4.0.0 (2024-10-08)\n------------------\n\nNew & Improved\n~~~~~~~~~~~~~~\n\n"
            "- A new property, ``Request.headers_lower``, was added to get all headers with "
            "lowercase names. It was added in lieu of introducing a breaking change to the "
            "``Request.headers`` property.\n\nBreaking Changes\n~~~~~~~~~~~~~~~~\n\n"
            "- ``Request.cookies`` now gives precedence to the first value of a cookie. This is "
            "a breaking change.\n")
    found = [p.text for p in changelogs.proposals(text, "CHANGES.rst", "falcon")]
    assert not any("headers_lower" in t for t in found), found
    assert any("`Request.cookies` now gives precedence" in t for t in found), found


def test_a_code_comment_marker_in_a_guide_is_no_note():
    from kenning.extract.sentences import sentence_rules

    assert sentence_rules("NOTE(riker): Well, that's certainly good to know.", []) is None
    assert sentence_rules("Note: the cache is rebuilt on start.", [])[3] == "gotcha"


def test_a_deprecation_in_a_misc_section_is_one_and_in_favor_of_is_no_history():
    from kenning.extract.seed.later import historical

    text = ("4.3.0 (2026-06-15)\n------------------\n\nMisc\n~~~~\n\n"
            "- The ``falcon.testing.redirected`` context manager has been deprecated in favor of "
            "the standard library's ``contextlib.redirect_stdout``.\n"
            "- Our GitHub Actions workflows are now audited with ``zizmor``.\n")
    [p] = changelogs.proposals(text, "CHANGES.rst", "falcon")
    assert p.rule == "changelog-deprecation" and "`falcon.testing.redirected`" in p.text
    assert not historical("`x` has been deprecated in favor of `y`.")
    assert historical("`x` has been deprecated since 18.2.0.")


def test_a_name_a_deprecation_decorator_marks_is_still_deprecated(repo):
    from kenning.extract.seed import current

    (repo / "helpers.py").write_text(
        "import falcon\n\n\n@falcon.util.deprecated(\n    'This context manager is deprecated "
        "and will be removed in Falcon 5.0. '\n    'Please use contextlib.redirect_stdout "
        "instead.'\n)\n@contextlib.contextmanager\ndef redirected(stdout, stderr):\n    yield\n\n\n"
        "def kept():\n    pass\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "helpers")
    assert current._deprecated_by_decorator(repo) == {"redirected"}


def test_a_pointer_never_leads_out_of_the_project(tmp_path):
    """A hostile pointer ("see docs/../../outside/changes") or a symlinked docs folder names
    release files outside the project: they are not read."""
    outside = tmp_path / "elsewhere" / "outside" / "changes"
    outside.mkdir(parents=True)
    for version in ("1.0.0", "2.0.0", "3.0.0"):
        (outside / f"{version}.rst").write_text(f"{version}\n=====\n\n- Removed `x`.\n",
                                                encoding="utf-8")
    project = tmp_path / "elsewhere" / "proj"
    project.mkdir()
    (project / "CHANGES.rst").write_text("To find our changes, see docs/../../outside/changes\n",
                                         encoding="utf-8")
    (project / "docs").symlink_to(outside.parent)  # docs/changes is the outside folder
    assert changelogs.changelog_files(project) == [project / "CHANGES.rst"]
