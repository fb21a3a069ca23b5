"""`kenning seed` on what a blind judge found wrong on babel (issue 19's twelfth pass): credits
left half-stripped, sections that hold more than deprecations, infrastructure notes, a support
notice HEAD's Python floor has made, an old choice HEAD no longer uses, a literal's `**`, and
a default that is the standard library's."""

from __future__ import annotations

import json
from datetime import date

from conftest import git
from kenning.extract.seed import changelogs, current, guides
from kenning.extract.seed.model import plain


def seed_json(kenning, *args: str) -> dict:
    result = kenning("seed", "--json", *args)
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_a_credit_at_an_entrys_end_goes_whole_with_its_references():
    assert plain("Adjust `conf.py` for Sphinx 8 by @hrnciar in :gh:`1155`") == \
        "Adjust `conf.py` for Sphinx 8."
    assert plain("Fix `--ignore-dirs` handling (#1094) by @a-b and @Edwin18 in :gh:`1052` and "
                 ":gh:`1095`") == "Fix `--ignore-dirs` handling."
    assert plain("Test on Python 3.13 beta releases by @akx in") == \
        "Test on Python 3.13 beta releases."
    assert plain("Drop support for Python 3.9 by [@auvipy](https://github.com/auvipy) in "
                 "[#9781](https://github.com/o/r/pull/9781)") == "Drop support for Python 3.9."
    # An author after a dash, at the end or before the nested points joined after it.
    assert plain("Removes antiquated `__nonzero__` methods - Nikita Sobolev") == \
        "Removes antiquated `__nonzero__` methods."
    assert plain("Numbers: assume spaces are non-breaking ones - Aarni Koskela (:gh:`649`)") \
        == "Numbers: assume spaces are non-breaking ones."
    assert plain("Uses `ast` instead of `eval` - Aarni Koskela: Static f-strings too.") == \
        "Uses `ast` instead of `eval`: Static f-strings too."
    # towncrier's credit after dashes and its line of references go whole; so does a
    # reference list after the word that brought it in (yarl's CHANGES.rst).
    assert plain("The deprecated license classifier was removed from :file:`setup.cfg`\n"
                 "  -- by :user:`yegorich`.\n\n  *Related issues and pull requests on GitHub:*"
                 "\n  :issue:`1550`, :pr:`1551`.") == \
        "The deprecated license classifier was removed from setup.cfg."
    assert plain("Removed port normalization -- by :user:`a` and :user:`b`. It was recently "
                 "added in :issue:`1033` and :pr:`1034` and did blocking I/O.") == \
        "Removed port normalization. It was recently added and did blocking I/O."
    # A sentence whose reference went, and left it ending in "in", goes.
    assert plain("Uses `X` now. The change was made in `#12 <https://x/pull/12>`_.") == \
        "Uses `X` now."
    assert plain("Users must log in.") == "Users must log in."
    # A literal keeps its stars; bold marks go.
    assert plain("Mapped to ``**.py``, **all** files.") == "Mapped to `**.py`, all files."


BABEL_LIKE = """\
Version 2.17.0
--------------

Deprecation and compatibility
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

* Docs: Adjust docs/conf.py to add compatibility with sphinx 8 by @hrnciar in :gh:`1155`
* General: Import `Literal` from the typing module by @tomasr8 in :gh:`1175`
* Messages: Mark `wraptext` deprecated; use `TextWrapper` directly in `write_po` by @akx

Infrastructure
~~~~~~~~~~~~~~

* Replace deprecated `ast.Str` with `ast.Constant` by @tomasr8 in :gh:`1083`
* Removes antiquated `__nonzero__` methods - Nikita Sobolev

Deprecations
~~~~~~~~~~~~

* The `Locale.parse_legacy` helper.
"""


def test_a_section_besides_deprecations_and_an_infrastructure_section_give_no_verb():
    found = [p.text for p in changelogs.proposals(BABEL_LIKE, "CHANGES.rst", "babel")]
    # "Deprecation and compatibility" holds entries that deprecate nothing: each must say it;
    # a plain "Deprecations" section still gives its verb.
    assert found == [
        "Deprecated in babel 2.17.0 (CHANGES.rst): Messages: Mark `wraptext` deprecated; use "
        "`TextWrapper` directly in `write_po`",
        "Deprecated in babel 2.17.0 (CHANGES.rst): The `Locale.parse_legacy` helper."], found


def test_a_support_notice_head_has_made_is_history():
    notice = ("This version, Babel 2.14, is the last version of Babel to support Python 3.7. "
              "Babel 2.15 will require Python 3.8 or newer.")
    assert current.announced_reached(notice, (3, 8))
    assert not current.announced_reached(notice, (3, 7))  # HEAD still runs on 3.7
    assert not current.announced_reached("Babel 3.0 will require Python 3.10.", (3, 8))
    assert not current.announced_reached("We will drop Python 3.8 next.", (3, 8))
    assert current.announced_reached("We will drop Python 3.8 next.", (3, 9))


def test_setup_pys_floor_retires_a_notice_and_an_old_choice_needs_heads_code(kenning, repo):
    (repo / "setup.py").write_text(
        "from setuptools import setup\n\nsetup(name='babel', python_requires='>=3.8')\n",
        encoding="utf-8")
    (repo / "babel").mkdir()
    (repo / "babel" / "extract.py").write_text(
        "import ast\nimport pickle\n\n\ndef parse(s):\n    return ast.literal_eval(s)\n",
        encoding="utf-8")
    (repo / "CHANGES.rst").write_text(
        "Version 2.14.0\n--------------\n\n(released 2023-12-04)\n\n"
        "Upcoming deprecation\n~~~~~~~~~~~~~~~~~~~~\n\n"
        "* This version, Babel 2.14, is the last version of Babel to support Python 3.7.\n"
        "  Babel 2.15 will require Python 3.8 or newer.\n\n"
        "Possibly backwards incompatible changes\n~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n\n"
        "* ``Locale.parse()`` will no longer return ``None``.\n\n"
        "Version 1.0\n-----------\n\n(released 2018-07-26)\n\n"
        "* Use cPickle instead of pickle for better performance.\n"
        "* Use `ast` instead of `eval` for Python string extraction.\n"
        "    * This also enables extraction from static f-strings.\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "code")
    found = [i["text"] for i in seed_json(kenning, "--dry-run")["items"]]
    assert any("`Locale.parse()` will no longer return `None`" in t for t in found), found
    # HEAD's setup.py requires 3.8: the notice is history; 2018's cPickle (past the window, not
    # yet a decade old) is not in HEAD's code, its `ast` is.
    assert not any("Python 3.7" in t or "cPickle" in t for t in found), found
    assert any("Uses `ast` instead of `eval`" in t for t in found), found


def test_a_literals_glob_is_kept_and_the_standard_librarys_default_is_not_the_projects():
    text = (
        "Dates\n=====\n\nTime-zone Support\n-----------------\n\n"
        "Many of the verbose time formats include the time-zone, but time-zone information "
        "is not by default available for the Python ``datetime`` and ``time`` objects.\n\n"
        "Extraction\n----------\n\n"
        "The ``python`` extractor is by default mapped to the glob pattern ``**.py``, meaning "
        "it'll be applied to all files with the ``.py`` extension in any directory.\n")
    found = [p.text.split("): ", 1)[1] for p in guides.proposals(text, "docs/d.rst", "babel")]
    assert found == [
        "The `python` extractor is by default mapped to the glob pattern `**.py`, meaning "
        "it'll be applied to all files with the `.py` extension in any directory."], found


def test_a_contributing_guides_numbered_steps_with_a_command_are_proposed(kenning, repo):
    (repo / "CONTRIBUTING.md").write_text(
        "# Contributing\n\n## Setting up a development environment and running tests\n\n"
        "1. Set up a Python virtualenv (the methods vary depending on tooling)\n"
        "  and activate it.\n"
        "2. Install Babel in editable mode with development dependencies: "
        "`pip install -e .[dev]`\n"
        "3. Run `make import-cldr` to import the CLDR database.\n"
        "  This will download the CLDR database and convert it.\n"
        "4. Run the tests in `tests`.\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "guide")
    found = [(i["provenance"], i["text"]) for i in seed_json(kenning, "--dry-run")["items"]]
    # A step without a command names nothing to do; a step's later sentence is its detail.
    assert found == [
        ("CONTRIBUTING.md:7", "project (CONTRIBUTING.md): Install Babel in editable mode with "
         "development dependencies: `pip install -e .[dev]`"),
        ("CONTRIBUTING.md:8", "project (CONTRIBUTING.md): Run `make import-cldr` to import the "
         "CLDR database.")], found


def test_a_release_heading_whose_version_is_an_rst_link_starts_a_release():
    """towncrier's RST template in some projects links each version to its tree."""
    text = ("Changelog\n#########\n\n"
            "`2.4.0 <https://github.com/o/widget/tree/2.4.0>`_ - 2026-08-13\n"
            "==============================================================\n\n"
            "Removals\n--------\n\n"
            "- Removes the `WIDGET_ALLOW_SPACE` environment variable; paths with spaces now "
            "always work.\n")
    found = [p.text for p in changelogs.proposals(text, "docs/changelog.rst", "widget")]
    assert found == ["Removed in widget 2.4.0 (docs/changelog.rst): Removes the "
                     "`WIDGET_ALLOW_SPACE` "
                     "environment variable; paths with spaces now always work."], found
    # a release without a date does not take the next linked heading's
    undated = ("`1.1.0 <https://github.com/o/widget/tree/1.1.0>`_\n"
               "================================================\n\n" + text.split("\n\n", 1)[1])
    assert changelogs.release_dates(undated) == {"2.4.0": date(2026, 8, 13)}
