"""towncrier's news fragments: the next release's changelog, one file an entry. Stdlib only.

Projects that use towncrier (aiohttp, attrs, trio, tox, virtualenv, yarl …) keep what the
unreleased code changed as fragment files until a release renders them into the changelog:
`CHANGES/12501.breaking.rst`, `changelog.d/1234.deprecation.md`, `newsfragments/+x.removal`.
What HEAD already holds and no release has told yet is there, and nowhere else: a removal on
the main branch, a renamed option, a new default. The folder is the one towncrier's own
configuration names (`[tool.towncrier] directory` in pyproject.toml or towncrier.toml), else
one of the usual names holding files named as fragments. Each fragment is an entry of the
upcoming release, its type its section (`breaking` and `removal` say what they are, `bugfix`
is a fix, `feature` an addition), read by `changelogs` with the changelog's rules.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

from kenning.extract.seed.model import regular_dir, regular_file

MAX_FRAGMENTS = 400
MAX_CONFIG_BYTES = 256 * 1024
_FOLDERS = ("CHANGES", "changes", "changelog.d", "newsfragments", "changelog", "news",
            "docs/changelog", "doc/changelog", "docs/changes", "changelog/unreleased")
# "12501.breaking.rst", "1234.deprecation.1.md", "+orphan.removal", "gh-99.feature.rst"
FRAGMENT = re.compile(r"^(?P<id>[^.\s]+)\.(?P<type>[a-z][a-z_-]*)(?:\.\d+)?"
                      r"(?:\.(?:rst|md|txt|markdown))?$")
# The section each fragment type is read under (as a rendered changelog titles it); a type
# not named here is read under its own name.
SECTIONS = {"breaking": "breaking changes", "removal": "removals", "removals": "removals",
            "deprecation": "deprecations", "deprecations": "deprecations",
            "feature": "features", "features": "features", "bugfix": "bug fixes",
            "bugfixes": "bug fixes", "bug": "bug fixes", "fix": "bug fixes",
            "doc": "documentation", "docs": "documentation", "misc": "misc",
            "contrib": "contributor-facing changes", "packaging": "packaging",
            "trivial": "misc", "internal": "internal"}


def fragment_folder(root: Path) -> Path | None:
    """The folder of the project's news fragments, or None."""
    named = _configured(root)
    for rel in ([named] if named else []) + list(_FOLDERS):
        folder = root / rel
        if regular_dir(folder) and fragment_files(folder, limit=1):
            return folder
    return None


def fragment_files(folder: Path, limit: int = MAX_FRAGMENTS) -> list[Path]:
    """The fragments in `folder` (not its README or template), sorted, at most `limit`."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    out = [folder / n for n in names
           if (m := FRAGMENT.match(n)) and m["type"] not in ("rst", "md", "txt", "toml", "j2")
           and not n.lower().startswith(("readme", "template", "_template"))
           and regular_file(folder / n)]
    return out[:limit]


def section_of(path: Path) -> str | None:
    m = FRAGMENT.match(path.name)
    return SECTIONS.get(m["type"], m["type"].replace("_", " ")) if m else None


def _configured(root: Path) -> str | None:
    """`[tool.towncrier] directory` of pyproject.toml, or `directory` of towncrier.toml."""
    for name in ("towncrier.toml", "pyproject.toml"):
        path = root / name
        if not regular_file(path) or path.stat().st_size > MAX_CONFIG_BYTES:
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8", errors="replace"))
        except (tomllib.TOMLDecodeError, ValueError, OSError):
            continue
        tool = data.get("tool", {})
        table = tool.get("towncrier", {}) if isinstance(tool, dict) else {}
        folder = table.get("directory") if isinstance(table, dict) else None
        if isinstance(folder, str) and folder.strip() and ".." not in folder:
            return folder.strip().strip("/")
    return None
