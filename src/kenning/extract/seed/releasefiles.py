"""A changelog kept as one file per release: `docs/changes/4.3.0.rst`, `docs/releases/5.0.txt`.

Some projects (falcon, Django) write each release's notes into a file of its own, named by
the version, in a folder the root's `CHANGES.rst` only points at ("To find our changes, go to
./docs/changes"). Read file by file, every release would be the newest of its changelog, so
nothing would ever be history and no newer entry could overtake an older one. So the folder is
read as one changelog: the files newest first, each under a heading of its version (its own
title, "Changelog for Falcon 4.3.0", blanked), and what `changelogs.proposals` finds is sent
back to the file and lines it came from. The whole folder is read once per seed run.
Stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import date
from pathlib import Path

from kenning.extract.seed.model import Proposal, lines_label, lines_of, regular_dir, regular_file

FOLDERS = ("docs/changes", "docs/changelog", "docs/releases", "docs/release-notes",
           "docs/release_notes", "docs/source/changes", "docs/source/releases",
           "docs/source/changelog", "doc/changes", "doc/releases", "doc/changelog", "changes",
           "changelog", "releases", "release-notes", "release_notes")
MIN_FILES = 3  # a folder of release notes holds several; one or two files are something else
MAX_FILES = 200
_RELEASE_FILE = re.compile(r"^v?(?P<version>\d+(?:\.\d+){1,3})\.(?:rst|md|txt|markdown)$", re.I)
_UNDERLINE = re.compile(r"^\s*([=~^\-#*+`'\"])\1{2,}\s*$")
_VIRTUAL = "\x00releases"  # the combined text's name while it is read


def release_files(root: Path, named: list[str] = ()) -> list[Path]:
    """The per-release files of the project's release-notes folder, newest first: a folder a
    pointer names (`named`, relative to the root) or one of the usual ones, holding at least
    `MIN_FILES` files named by a version."""
    real_root = root.resolve()
    for rel in [*named, *FOLDERS]:
        parts = [p for p in rel.split("/") if p not in ("", ".")]
        if not parts or ".." in parts:
            continue  # a pointer's words may name anything: only folders inside the project
        folder = root.joinpath(*parts)
        if not regular_dir(folder) or not folder.resolve().is_relative_to(real_root):
            continue
        files = [p for p in folder.iterdir() if _RELEASE_FILE.match(p.name) and regular_file(p)]
        if len(files) >= MIN_FILES:
            return sorted(files, key=lambda p: _order(p.name), reverse=True)[:MAX_FILES]
    return []


def folders_named(text: str) -> list[str]:
    """Folders a short pointer names ("go to ./docs/changes", "see docs/releases/")."""
    return [m[1] for m in re.finditer(r"(?<![\w/.-])\.?/?((?:[\w.-]+/)*[\w-]+)/?(?=[\s).,;:]|$)",
                                      text) if "/" in m[1]]


def _order(name: str) -> tuple[int, ...]:
    m = _RELEASE_FILE.match(name)
    return tuple(int(x) for x in m["version"].split(".")) if m else ()


def version_of(path: Path) -> str:
    m = _RELEASE_FILE.match(path.name)
    return m["version"] if m else ""


def combined(texts: list[tuple[str, str, str]]) -> tuple[str, list[tuple[int, int, str]]]:
    """One changelog text of (rel, version, text) releases, newest first, and the spans it
    maps back: (first combined line, last combined line, rel), 1-based, each file's lines
    keeping their numbers from the span's first line on."""
    lines: list[str] = []
    spans: list[tuple[int, int, str]] = []
    for rel, version, text in texts:
        own = text.splitlines()
        for n, line in enumerate(own[:6]):  # its title says the version: the heading is ours
            if version in line and not line.lstrip().startswith(("-", "*")):
                own[n] = ""
                if n + 1 < len(own) and _UNDERLINE.match(own[n + 1]):
                    own[n + 1] = ""
                if n > 0 and _UNDERLINE.match(own[n - 1]):
                    own[n - 1] = ""
                break
        lines += ["", version, "=" * len(version), ""]
        spans.append((len(lines) + 1, len(lines) + len(own), rel))
        lines += own
    return "\n".join(lines), spans


def reader(files: list[Path], root: Path, read: Callable[[Path], str],
           proposals: Callable[..., list[Proposal]], project: str | None,
           tagged: Mapping[str, date]) -> Callable[[str, str], list[Proposal]]:
    """A reader of one release file (`(text, rel) -> proposals`, as the seed runs each
    file's) that reads the whole folder once and gives each file what came from it."""
    by_file: dict[str, list[Proposal]] | None = None

    def read_one(_text: str, rel: str) -> list[Proposal]:
        nonlocal by_file
        if by_file is None:
            texts = []
            for path in files:
                try:
                    texts.append((path.relative_to(root).as_posix(), version_of(path),
                                  read(path)))
                except OSError:
                    continue
            text, spans = combined(texts)
            by_file = {}
            for p in proposals(text, _VIRTUAL, project, tagged):
                moved = _moved(p, spans)
                if moved is not None:
                    by_file.setdefault(moved.provenance.rsplit(":", 1)[0], []).append(moved)
        return by_file.get(rel, [])
    return read_one


def _moved(p: Proposal, spans: list[tuple[int, int, str]]) -> Proposal | None:
    """`p` with its provenance and the file its text names set to the release file its lines
    are in (None when they are in a heading of ours)."""
    a, b = lines_of(p.provenance)
    for start, end, rel in spans:
        if start <= a <= end:
            label = lines_label(rel, a - start + 1, min(b, end) - start + 1)
            return replace(p, provenance=label, text=p.text.replace(_VIRTUAL, rel))
    return None
