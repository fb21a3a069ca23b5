"""`kenning seed` proposes the environment variables a project reads, as its changelog or its
guides tell how to use them: what a newcomer sets to switch something, true while HEAD's code
still names the variable, whatever the entry's age or section."""

from __future__ import annotations

import json

from conftest import git
from kenning.extract.seed import changelogs


def knob_texts(kenning) -> list[str]:
    result = kenning("seed", "--json", "--dry-run")
    assert result.code == 0, result.err
    return [i["text"] for i in json.loads(result.out)["items"]
            if i["action"] == "proposed" and i["rule"].endswith("-knob")]


CHANGES = """\
## 3.0.0 (2026-05-01)

### Added

- Added `DEMO_THEME` environment variable, a comma-separated list of the themes to try first.
- Added `DEMO_DRIVER` environment variable.
- Added `DEMO_GONE` environment variable to pick the colour depth of the output.
- Added a `nocolor` pseudo-class, set when the `NO_COLOR` environment variable is set.

### Fixed

- Fixed `DEMO_THEME` environment variable not being respected by the inline driver.

## 1.0.0 (2012-03-01)

### Added

- The speedups package is imported when installed. Set `DEMO_SPEEDUPS=0` to disable it.
"""


def test_a_changelog_entry_telling_how_to_use_the_projects_own_variable(kenning, repo):
    (repo / "pyproject.toml").write_text('[project]\nname = "demo"\n', encoding="utf-8")
    (repo / "demo.py").write_text(
        "import os\n\nTHEME = os.environ.get('DEMO_THEME', '')\n"
        "DRIVER = os.environ.get('DEMO_DRIVER')\n"
        "SPEEDUPS = os.environ.get('DEMO_SPEEDUPS', '1') != '0'\n"
        "NO_COLOR = 'NO_COLOR' in os.environ\n", encoding="utf-8")
    (repo / "CHANGES.md").write_text(CHANGES, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "code")
    assert knob_texts(kenning) == [
        # said in an Added section, and kept though fourteen years old: HEAD still reads it
        "demo 3.0.0 (CHANGES.md): Added `DEMO_THEME` environment variable, a comma-separated "
        "list of the themes to try first.",
        "demo 1.0.0 (CHANGES.md): The speedups package is imported when installed. Set "
        "`DEMO_SPEEDUPS=0` to disable it."]
    # Not proposed: DEMO_DRIVER says nothing of what it does, HEAD's code no longer names
    # DEMO_GONE, NO_COLOR is every program's, and a fix of how a variable is read is a fix.


def test_a_guide_sentence_on_the_projects_variable_is_proposed_once(kenning, repo):
    (repo / "pyproject.toml").write_text('[project]\nname = "demo"\n', encoding="utf-8")
    (repo / "demo.py").write_text("import os\n\nPIN = os.environ.get('DEMO_DEBUG_PIN')\n",
                                  encoding="utf-8")
    (repo / "docs").mkdir()
    (repo / "docs" / "debugging.md").write_text(
        "# Debugging\n\n## The debugger PIN\n\n"
        "An explicit PIN can be provided through the environment variable `DEMO_DEBUG_PIN`.\n",
        encoding="utf-8")
    (repo / "CHANGES.md").write_text(
        "## 2.0.0 (2026-01-01)\n\n### Features\n\n"
        "- The debugger PIN can be set with the `DEMO_DEBUG_PIN` environment variable, "
        "so a team shares one PIN.\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "docs")
    assert knob_texts(kenning) == [
        "demo docs (Debugging › The debugger PIN): An explicit PIN can be provided through "
        "the environment variable `DEMO_DEBUG_PIN`."]


def test_which_words_name_a_variable_and_whose_it_is():
    assert changelogs.knob("Added TEXTUAL_THEME environment var, which should be …") \
        == "TEXTUAL_THEME"
    assert changelogs.knob("Added support for environment variable `X_Y` to control") == "X_Y"
    assert changelogs.knob("Use AIOHTTP_NO_EXTENSIONS=1 to build without C") \
        == "AIOHTTP_NO_EXTENSIONS"
    assert changelogs.knob("The `HTTP_PROXY` header is ignored.") is None
    assert changelogs.own_variable("TEXTUAL_THEME", "textual")
    assert changelogs.own_variable("PYTHON_MULTIPART_X", "python-multipart")
    assert not changelogs.own_variable("TEXTUALIZE_X", "textual")
    assert not changelogs.own_variable("NO_COLOR", "textual")
