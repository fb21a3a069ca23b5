"""`kenning seed` on a real project's history (pallets/itsdangerous, rebuilt from the test
data by `git fast-import`), and each source's rules on small texts."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import git, init_repo
from kenning.core.paths import current_project
from kenning.extract.seed import changelogs, commits, current, documents

DATA = Path(__file__).parent / "fixtures" / "seed" / "itsdangerous"


def fast_import(root: Path, records: list[tuple[int, str, bool, str]],
                files: dict[str, bytes]) -> None:
    """Commits (unix time, author, merge?, message), oldest first; `files` land in the last.
    One `git fast-import` for the whole history: thousands of commits in a second."""
    out: list[bytes] = []
    for n, (stamp, author, merge, message) in enumerate(records, 1):
        msg = message.encode("utf-8")
        out += [b"commit refs/heads/main\n", f"mark :{n}\n".encode(),
                f"committer {author or 'dev'} <dev@example.invalid> {stamp} +0000\n".encode(),
                f"data {len(msg)}\n".encode(), msg, b"\n"]
        if n > 1:
            out.append(f"from :{n - 1}\n".encode())
        if merge and n > 2:
            out.append(f"merge :{n - 2}\n".encode())
        if n == len(records):
            for name, content in files.items():
                out += [f"M 100644 inline {name}\n".encode(), f"data {len(content)}\n".encode(),
                        content, b"\n"]
        out.append(b"\n")
    subprocess.run(["git", "-C", str(root), "fast-import", "--quiet"], input=b"".join(out),
                   check=True)
    git(root, "reset", "-q", "--hard", "main")


def itsdangerous_history() -> list[tuple[int, str, bool, str]]:
    raw = gzip.decompress((DATA / "commits.log.gz").read_bytes()).decode("utf-8")
    out = []
    for record in raw.split("\x1e"):
        stamp, author, parents, message = record.split("\x1f", 3)
        out.append((int(stamp), author, int(parents) > 1, message))
    return out


@pytest.fixture
def itsdangerous(isolated: Path) -> Path:
    init_repo(isolated)
    fast_import(isolated, itsdangerous_history(), {
        "CHANGES.rst": (DATA / "CHANGES.rst").read_bytes(),
        "LICENSE.txt": (DATA / "LICENSE.txt").read_bytes(),
        # What HEAD's code holds, in brief: flit, no `__version__`, no JWS.
        "pyproject.toml": b'[project]\nname = "itsdangerous"\ndynamic = ["version"]\n\n'
                          b'[build-system]\nrequires = ["flit_core<4"]\n'
                          b'build-backend = "flit_core.buildapi"\n',
        "src/itsdangerous/__init__.py": b"from .serializer import Serializer as Serializer\n"})
    return isolated


def seed_json(kenning, *args: str) -> dict:
    result = kenning("seed", "--json", *args)
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_a_dry_run_on_a_real_history_proposes_versioned_changes_and_writes_nothing(
        kenning, itsdangerous):
    out = seed_json(kenning, "--dry-run")
    assert out["commits_read"] == 677 and out["files_read"] == ["CHANGES.rst", "pyproject.toml"]
    texts = {i["text"]: i for i in out["items"]}
    assert 5 <= len(texts) <= 12
    assert all(i["action"] == "proposed" for i in out["items"])
    # Said of the project, in the present tense, with its version.
    flit = texts["itsdangerous 2.2.0 (CHANGES.rst): Uses `flit_core` instead of `setuptools` "
                 "as build backend."]
    assert flit["provenance"] == "CHANGES.rst:18" and flit["rule"] == "changelog-instead"
    assert "itsdangerous 1.1.0 (CHANGES.rst): Changes default signing algorithm back to SHA-1." \
        in texts
    # HEAD's unreleased changes are proposed as such.
    assert "itsdangerous 2.3.0 (unreleased, CHANGES.rst): Drops support for Python 3.8 and " \
        "3.9." in texts
    # Overtaken: every Python floor before the unreleased 2.3.0 one, the deprecations of what
    # 2.1.0 removed or HEAD no longer has, and all of the yanked 1.0.0.
    assert not any("Python 3." in t and "unreleased" not in t
                   or "deprecated" in t.lower() and "Remove" not in t
                   or "__version__" in t or "SHA-512." in t or "(2.5" in t for t in texts)
    # The history's decisions ("switch to flit build backend", "drop support for Python 3.7")
    # repeat changelog entries: they are left to the entries, which have the version.
    assert not [t for t, i in texts.items() if i["source"] == "commits"]
    # Fixes, additions, bumps and vague entries are not proposed.
    assert not any("Bump" in t or "typo" in t.lower() or "Handle date overflow" in t
                   for t in texts)
    project = current_project()
    assert not (project.local_dir / "seed").exists()
    assert not project.project_facts_dir.exists() or not list(
        project.project_facts_dir.glob("*.yaml"))


def test_seed_is_incremental_and_accept_adds_facts_at_070_for_review(kenning, itsdangerous):
    first = seed_json(kenning)
    proposed = [i for i in first["items"] if i["action"] == "proposed"]
    assert proposed
    again = seed_json(kenning)
    assert again["commits_read"] == 0 and again["files_read"] == []
    assert {i["action"] for i in again["items"]} == {"pending"}
    (itsdangerous / "x.txt").write_text("x\n", encoding="utf-8")
    git(itsdangerous, "add", "x.txt")
    git(itsdangerous, "commit", "-qm", "Switch to hatchling as the build backend\n\n"
        "Because flit cannot build the extension modules we need.")
    third = seed_json(kenning)
    assert third["commits_read"] == 1
    new = [i for i in third["items"] if i["action"] == "proposed"]
    assert [i["text"].split(" (commit")[0] for i in new] == [
        "Switched to hatchling as the build backend"]
    assert new[0]["rationale"] == "Because flit cannot build the extension modules we need."

    accepted = seed_json(kenning, "--accept")
    added = [i for i in accepted["items"] if i["action"] == "added"]
    assert len(added) == len(proposed) + 1
    facts = json.loads(kenning("export", "--format", "json").out)
    assert len(facts) == len(added)
    assert all(f["confidence"] == 0.70 and f["origin"] == "import" and "seed" in f["tags"]
               for f in facts)
    review = kenning("review", "--json")
    assert review.code == 0, review.err
    queued = {fid for i in json.loads(review.out) for fid in i["ids"]}
    assert {i["fact_id"] for i in added} <= queued
    assert seed_json(kenning)["items"] == []  # proposed once, even after acceptance


def test_known_facts_are_not_proposed_again(kenning, itsdangerous):
    kenning("add", "itsdangerous 2.2.0 (CHANGES.rst): Uses `flit_core` instead of `setuptools` "
            "as build backend.", "--kind", "codebase")
    out = seed_json(kenning, "--dry-run")
    known = [i for i in out["items"] if i["action"] == "known"]
    assert [i["provenance"] for i in known] == ["CHANGES.rst:18"]


def test_secrets_in_commit_messages_are_redacted(kenning, repo):
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    git(repo, "commit", "-q", "--allow-empty", "-m",
        f"Switch to the internal mirror because the token {token} kept expiring")
    out = seed_json(kenning, "--dry-run")
    assert out["items"] and token not in json.dumps(out)


def test_five_thousand_commits_are_all_read_and_a_repeated_decision_proposed_once(kenning,
                                                                                 isolated):
    """How fast is bench/seed_bench.py's row (a ratio to a plain history reader), not this."""
    init_repo(isolated)
    subjects = ["Fix flaky test in the parser", "Switch to ruff because flake8 is slow",
                "Add docs for the config file", "Drop support for Python 3.8",
                "Refactor the loader\n\nNo behaviour change."]
    history = [(1_300_000_000 + n * 3600, "dev", False, f"{subjects[n % 5]} (#{n})")
               for n in range(5000)]
    fast_import(isolated, history, {"README.md": b"# x\n"})
    out = seed_json(kenning, "--dry-run")
    assert out["commits_read"] == 5000
    # The same decision repeated in many commits is proposed once.
    assert len([i for i in out["items"] if "ruff" in i["text"]]) == 1


# ---- the sources, on small texts -----------------------------------------------------------
def test_keep_a_changelog_sections_give_removals_and_deprecations(tmp_path):
    (tmp_path / "CHANGELOG.md").write_text("""# Changelog

## [Unreleased]

## [3.0.0] - 2024-02-01
### Removed
- The `--legacy` flag of `tool build` (use `--mode=classic`).
### Added
- A shiny new `tool serve` command.
### Fixed
- Crash when the config file is empty.

## [2.5.0] - 2023-11-11
### Changed
- The default cache directory is now `~/.cache/tool` instead of `~/.tool`.
### Deprecated
- `tool.compat.load()`; call `tool.load()` instead.
""", encoding="utf-8")
    found = changelogs.proposals((tmp_path / "CHANGELOG.md").read_text("utf-8"), "CHANGELOG.md")
    assert [(p.text, p.provenance) for p in found] == [
        ("Removed in 3.0.0 (CHANGELOG.md): The `--legacy` flag of `tool build` (use "
         "`--mode=classic`).", "CHANGELOG.md:7"),
        ("Changed in 2.5.0 (CHANGELOG.md): The default cache directory is now `~/.cache/tool` "
         "instead of `~/.tool`.", "CHANGELOG.md:15"),
        ("Deprecated in 2.5.0 (CHANGELOG.md): `tool.compat.load()`; call `tool.load()` instead.",
         "CHANGELOG.md:17"),
    ]


def test_commit_rules_keep_decisions_and_drop_bots_reverted_and_vague_commits():
    def c(subject: str, body: str = "", author: str = "dev", merge: bool = False
          ) -> commits.Commit:
        from datetime import UTC, datetime

        return commits.Commit("a" * 40, datetime(2024, 5, 1, tzinfo=UTC), author, merge,
                              subject, body)

    found = commits.proposals([
        c("Switch to uv for dependency management"),
        c("Bump requests from 2.31 to 2.32", author="dependabot[bot]"),
        c("Use rstrip instead of strip", "Because padding is only added at the end."),
        c("Revert \"Migrate to poetry\""),
        c("Migrate to poetry"),
        c("Don't cache tokens on disk because they are secrets on shared machines"),
        c("Fix the thing"),
        c("Deprecate it"),
        c("Merge pull request #41 from dev/pnpm", "Migrate to pnpm workspaces\n\nSaves 2 min "
          "per CI run because installs are shared.", merge=True),
        c("Merge branch 'main' into feature", merge=True),
    ])
    # "Switch to uv" says no why: not proposed.
    assert [(p.text, p.rationale) for p in found] == [
        ("Don't cache tokens on disk because they are secrets on shared machines "
         "(commit aaaaaaa, 2024-05-01).", None),
        ("Migrated to pnpm workspaces (commit aaaaaaa, 2024-05-01).",
         "Saves 2 min per CI run because installs are shared."),
    ]


def test_adrs_contributing_and_agent_files_are_read_with_their_lines(tmp_path):
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    (adr / "0002-use-postgres.md").write_text("""# 2. Use PostgreSQL for persistence

## Status

Accepted

## Context

We need transactions across tables and the team already runs PostgreSQL.

## Decision

We will store all state in PostgreSQL 15. SQLite stays for tests only.
""", encoding="utf-8")
    (adr / "0003-use-mongo.md").write_text(
        "# 3. Use MongoDB\n\n## Status\n\nSuperseded by 2\n\n## Decision\n\nUse MongoDB.\n",
        encoding="utf-8")
    (tmp_path / "CONTRIBUTING.md").write_text(
        "# Contributing\n\nThanks!\n\n- Never commit directly to `main`; open a pull "
        "request.\n", encoding="utf-8")
    (tmp_path / "AGENTS.md").write_text(
        "# Agents\n\nAlways run `make check` before you say a change is done.\n",
        encoding="utf-8")
    def rel(p: Path) -> str:
        return p.relative_to(tmp_path).as_posix()

    decisions = [documents.adr_proposal(p.read_text("utf-8"), rel(p))
                 for p in documents.adr_files(tmp_path)]
    assert decisions[1] is None  # superseded
    assert decisions[0].text == ("Decision (docs/adr/0002-use-postgres.md, Use PostgreSQL for "
                                 "persistence): We will store all state in PostgreSQL 15.")
    assert decisions[0].rationale.startswith("We need transactions across tables")
    assert decisions[0].provenance == "docs/adr/0002-use-postgres.md:13"
    rules = [p for f in documents.design_files(tmp_path)
             for p in documents.rule_proposals(f.read_text("utf-8"), rel(f), "docs")]
    assert [(p.text, p.provenance) for p in rules] == [(
        "CONTRIBUTING.md: Never commit directly to `main`; open a pull request.",
        "CONTRIBUTING.md:5")]
    agents = [p for f in documents.agent_files(tmp_path)
              for p in documents.rule_proposals(f.read_text("utf-8"), rel(f), "agents")]
    assert [(p.text, p.provenance) for p in agents] == [(
        "AGENTS.md: Always run `make check` before you say a change is done.", "AGENTS.md:3")]


def test_links_fifos_and_linked_folders_are_not_followed(kenning, repo, tmp_path):
    outside = tmp_path / "outside"
    (outside / "adr").mkdir(parents=True)
    secret = "Removed support for the quasarwidget secret API."
    (outside / "CHANGES.md").write_text(f"## 1.0.0\n\n- {secret}\n", encoding="utf-8")
    (outside / "adr" / "0001-x.md").write_text(
        "# 1. Quasarwidget\n\n## Status\n\nAccepted\n\n## Decision\n\nWe use quasarwidget.\n",
        encoding="utf-8")
    (repo / "CHANGES.md").symlink_to(outside / "CHANGES.md")
    (repo / "AGENTS.md").symlink_to("/dev/zero")
    (repo / "docs").mkdir()
    (repo / "docs" / "adr").symlink_to(outside / "adr")
    os.mkfifo(repo / "CONTRIBUTING.md")
    result = kenning("seed", "--dry-run", "--json")
    assert result.code == 0, result.err
    assert "quasarwidget" not in result.out.lower()
    assert json.loads(result.out)["files_read"] == ["README.md"]  # the one real file
    exported = kenning("export", "--agents-md")
    assert exported.code == 1 and "symlink" in exported.err
    assert (repo / "AGENTS.md").is_symlink()


def test_an_entry_later_history_overtook_is_not_proposed():
    text = """Version 3.0.0
-------------

Unreleased

-   Drop support for Python 3.9.


Version 2.1.0
-------------

-   Drop support for Python 3.8.
-   Change the default `timeout` from 10 to 30 seconds.
-   Use `hatchling` instead of `flit_core` as build backend.
-   Remove the deprecated `load_legacy()` function.


Version 2.0.0
-------------

Released 2020-01-01

YANKED: it changed the default encoding to latin-1.

-   Change the default encoding to latin-1.
-   Dropped support for 2.7.


Version 1.5.0
-------------

-   Change the default `timeout` from 5 to 10 seconds.
-   Use `flit_core` instead of `setuptools` as build backend.
-   `load_legacy()` is deprecated. Call `load()` instead.
-   The `--fast` option will be removed in 2.1.0. Use `--mode=fast`.
-   Drop support for Python 3.5 and 3.6.
-   `Parser.strict` is deprecated and will be dropped in 9.0.
"""
    found = [p.text.split(": ", 1)[1] for p in changelogs.proposals(text, "CHANGES.rst")]
    assert found == [
        "Drop support for Python 3.9.",  # unreleased: what HEAD holds
        "Change the default `timeout` from 10 to 30 seconds.",
        "Use `hatchling` instead of `flit_core` as build backend.",
        # a removal of a name, said with what its deprecation named instead
        "Remove the deprecated `load_legacy()` function. (Deprecated in 1.5.0: `load_legacy()` "
        "is deprecated. Call `load()` instead.)",
        "`Parser.strict` is deprecated and will be dropped in 9.0.",
    ]


def test_a_floor_moved_by_a_wording_a_deprecation_later_removed_and_a_leaning_entry():
    text = """## 24.3.0

### Backwards-incompatible Changes

- Python 3.7 has been dropped.
- `evolve()` doesn't accept the *inst* argument as a keyword argument anymore.

## 23.1.0

### Backwards-incompatible Changes

- Python 3.6 has been dropped and packaging switched to static package data.

### Changes

- Passing the instance using the `inst` keyword argument is now deprecated and will be removed.
- `hash` is now deprecated and will be removed in, or after, April 2030.
- Attributes with a default of `None` are now deleted too. #523

## 23.0.0

### Backwards-incompatible Changes

- Python 3.5 is not supported anymore.

### Changes

- The `hash` argument is now deprecated in favor of `unsafe_hash`.
"""
    found = [p.text.split(": ", 1)[1] for p in changelogs.proposals(text, "CHANGES.md")]
    assert found == [
        "Python 3.7 has been dropped.",
        "`evolve()` doesn't accept the *inst* argument as a keyword argument anymore.",
        "`hash` is now deprecated and will be removed in, or after, April 2030.",
        "The `hash` argument is now deprecated in favor of `unsafe_hash`.",
    ]


def test_a_deprecated_behaviour_a_later_entry_says_is_gone_is_overtaken():
    text = """## 19.2.0

### Changes

- `__lt__` and `__gt__` do not consider subclasses comparable anymore.
- Fixed a typo in the docs.

## 18.2.0

### Deprecations

- Comparing subclasses using `<` and `>` is now deprecated.
- Passing `str` paths to `open_file()` is now deprecated.
"""
    found = [p.text.split(": ", 1)[1] for p in changelogs.proposals(text, "CHANGES.md")]
    assert found == ["Passing `str` paths to `open_file()` is now deprecated."]


def test_drops_below_the_python_floor_head_requires_are_history():
    floor = (3, 10)
    assert current.below_floor("Python 3.7 has been dropped.", floor)
    assert current.below_floor("Drop support for Python 2.7 and 3.5.", floor)
    assert current.below_floor("Dropped support for legacy Python versions", floor)
    assert not current.below_floor("Drop support for Python 3.9.", floor)  # the floor's own
    assert not current.below_floor("Drop support for Python 3.7, 3.8, and 3.9.", floor)
    assert not current.below_floor("Drop support for Python 3.7.", None)
    assert not current.below_floor("`x` is deprecated (for Python 3.7: use `y`).", floor)
    assert not current.below_floor("Drop support for Node 8.", floor)


def test_a_sub_point_of_a_guide_list_item_carries_the_item_it_explains(tmp_path):
    text = ("# Contributing\n\n- Before starting big contributions, **talk to us first**.\n"
            "  You must not waste energy on something that we do not want.\n")
    texts = [p.text for p in documents.rule_proposals(text, "CONTRIBUTING.md", "contributing")]
    assert all(t.startswith("CONTRIBUTING.md: Before starting big contributions, talk to us "
                            "first.") for t in texts), texts


def test_a_changelog_entry_too_long_to_quote_whole_is_not_cut():
    long = "Remove the `old` module. " + "It was slow and nobody used it. " * 20
    text = f"Version 2.0.0\n-------------\n\n-   {long}\n" \
        "-   Remove the `legacy` API. Use `modern` instead.\n"
    assert [p.text for p in changelogs.proposals(text, "CHANGES.rst")] == [
        "Changed in 2.0.0 (CHANGES.rst): Remove the `legacy` API. Use `modern` instead."]


def test_a_bug_fix_or_a_preview_styles_entry_is_no_removal_or_breaking_change():
    text = ("## 2.1.0\n\n### Preview style\n\n- Remove parentheses around `except` types.\n\n"
            "### Changed\n\n- Bugfix: Relative links will always render with a trailing "
            "slash, removed the `../..` form.\n"
            "- Compatibility with Jinja2 3.1.0: due to a breaking change in Jinja2, `build` "
            "would crash with an `AttributeError`.\n"
            "- Removed the `legacy` API. Use `modern` instead.\n")
    assert [p.text for p in changelogs.proposals(text, "CHANGES.md")] == [
        "Changed in 2.1.0 (CHANGES.md): Removed the `legacy` API. Use `modern` instead."]


def test_a_deprecation_whose_name_head_no_longer_holds_is_not_proposed(kenning, repo):
    (repo / "pkg").mkdir()
    (repo / "pkg" / "api.py").write_text(
        "def load():\n    ...\n\n\ndef old_load():  # deprecated\n    return load()\n",
        encoding="utf-8")
    (repo / "CHANGES.md").write_text(
        "## 2.0.0\n\n- `read_config()` is deprecated. Use `load()` instead.\n"
        "- `old_load()` is deprecated. Use `load()` instead.\n"
        "- Use `orjson` instead of `json` for the cache files.\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Deprecate pkg.api.old_load")
    git(repo, "commit", "-q", "--allow-empty", "-m", "Deprecate the gone_helper() function")
    out = seed_json(kenning, "--dry-run")
    texts = [i["text"].split(" (commit")[0] for i in out["items"]]
    # With a changelog, the commits' deprecations are left to it.
    assert texts == ["project 2.0.0 (CHANGES.md): "
                     "`old_load()` is deprecated. Use `load()` instead."]
    git(repo, "rm", "-q", "CHANGES.md")
    git(repo, "commit", "-qm", "Move the release notes to the website")
    texts = [i["text"].split(" (commit")[0] for i in seed_json(kenning, "--dry-run")["items"]]
    assert texts == ["Deprecated pkg.api.old_load"]


def test_commits_a_newer_commit_overtook_are_not_proposed():
    from datetime import UTC, datetime

    def c(subject: str, day: int, body: str = "") -> commits.Commit:
        return commits.Commit(f"{day:040d}", datetime(2024, 5, day, tzinfo=UTC), "dev",
                              False, subject, body)

    found = commits.proposals([  # newest first, as git log gives them
        c("Update nodejs version to 18", 9),
        c("Switch to pnpm because installs are shared between workspaces", 8),
        c("Drop support for nodejs 8, move to nodejs 12", 3),
        c("Drop support for PyPy", 2),
        c("Switch to yarn because npm was slow", 1),
    ])
    assert [p.text.split(" (commit")[0] for p in found] == [
        "Switched to pnpm because installs are shared between workspaces",
        "Dropped support for PyPy", "Switched to yarn because npm was slow"]


def test_a_madr_decision_is_spelled_out_or_not_proposed(tmp_path):
    madr = """# 9. Tokens through payments

## Status

Accepted

## Context

Token management is not tied to a payment.

## Considered Options
- Use the customer endpoint for token operations
- Use the payment endpoint for token operations

## Decision Outcome
Chosen option: "payment", because
- the integration already uses payments.
- the flow matches the other payment methods.
"""
    found = documents.adr_proposal(madr, "docs/adr/0009-tokens.md")
    assert found.text == (
        "Decision (docs/adr/0009-tokens.md, Tokens through payments): Chose: Use the payment "
        "endpoint for token operations (over: Use the customer endpoint for token operations), "
        "because the integration already uses payments.")
    fragment = madr.replace("- Use the payment endpoint", "- Use the billing endpoint")
    assert documents.adr_proposal(fragment, "docs/adr/0009-tokens.md") is None


def test_with_a_changelog_commits_that_deprecate_or_remove_are_left_to_it():
    from datetime import UTC, datetime

    def c(subject: str, body: str = "") -> commits.Commit:
        return commits.Commit("b" * 40, datetime(2020, 6, 19, tzinfo=UTC), "dev", False,
                              subject, body)

    log = [c("Deprecate the werk.script module"), c("Remove support for fix_headers"),
           c("Drop support for Python 3.7"),
           c("Don't cache tokens on disk because they are secrets on shared machines")]
    assert [p.rule for p in commits.proposals(log)] == [
        "commit-deprecate", "commit-drop-support", "commit-drop-support", "commit-reason"]
    # A deprecation is kept only as `old`: HEAD's code must still warn about it (and the
    # changelog must not name it, see `run`); removals and support drops are the changelog's.
    kept = commits.proposals(log, has_changelog=True)
    assert [(p.text.split(" (commit")[0], p.old) for p in kept] == [
        ("Deprecated the werk.script module", True),
        ("Don't cache tokens on disk because they are secrets on shared machines", False)]


def test_changelog_deprecations_and_removals_are_kept_from_the_last_two_major_lines():
    text = """Version 3.1.0
-------------

- `Request.charset` is deprecated and will be removed in 4.0.

Version 2.3.0
-------------

- Deprecate the `app.urls` module, use `urllib.parse` instead.

Version 1.0.0
-------------

- Removed `app.templates` and `app.contrib.kickstart`.
- Deprecate `utils.escape`, use `MarkupSafe` instead.
- Use stdlib `ssl` module instead of `OpenSSL` for the builtin server. `OpenSSL`
  contexts are not supported anymore.
- The default `max_size` is now 500 MB instead of 100 MB.
"""
    texts = [p.text.split(":", 1)[0] for p in changelogs.proposals(text, "CHANGES.rst")]
    assert texts == ["Changed in 3.1.0 (CHANGES.rst)", "Changed in 2.3.0 (CHANGES.rst)",
                     "Changed in 1.0.0 (CHANGES.rst)", "Changed in 1.0.0 (CHANGES.rst)",
                     "Changed in 1.0.0 (CHANGES.rst)"]
    rules = [(p.rule, p.old) for p in changelogs.proposals(text, "CHANGES.rst")]
    # The old removal said as a choice ("use X instead of Y") is kept as `old`, like the old
    # deprecation: the one holds while HEAD's code still uses X, the other while it still
    # warns (see `current`).
    assert rules == [("changelog-deprecation", False), ("changelog-deprecation", False),
                     ("changelog-deprecation", True), ("changelog-removal", True),
                     ("changelog-default", False)]
    # CalVer: the first component is the year, so about the last two years are kept.
    calver = "## 25.3.0\n\n- Removed the `legacy_api` module in favor of `api`.\n\n## 24.1.0\n\n" \
        "- Deprecate `Client.old_send()`, use `Client.send()`.\n\n## 23.1.0\n\n" \
        "- Removed the `compat` shim for `attr.s` users.\n\n- Removed `Thing.frob()` support.\n"
    found = changelogs.proposals(calver, "CHANGELOG.md")
    assert [p.text.split(" (")[0] for p in found] == ["Changed in 25.3.0", "Changed in 24.1.0"]


def test_a_releases_own_prose_explains_the_entry_it_is_about():
    """starlette 0.21.0 says above its sections why the `TestClient` change breaks suites."""
    text = ("# Release notes\n\n## 0.21.0 (September 26, 2022)\n\n"
            "This release replaces the underlying HTTP client used on the `TestClient` "
            "(`requests` :arrow_right: `httpx`), and as those clients [differ _a bit_ on their "
            "API](https://example.org), your test suite will likely break. Use the tool.\n\n"
            "### Changed\n* Replace `requests` with `httpx` in `TestClient` [#1376](x).\n"
            "* Drop support for Python 3.6 in `TestClient` [#1377](x).\n")
    assert [p.text for p in changelogs.proposals(text, "docs/release-notes.md", "starlette")] \
        == ["starlette 0.21.0 (docs/release-notes.md): Replaces `requests` with `httpx` in "
            "`TestClient`. This release replaces the underlying HTTP client used on the "
            "`TestClient` (`requests` → `httpx`), and as those clients differ a bit on their "
            "API, your test suite will likely break.",
            # one name in common: the prose is not about it
            "starlette 0.21.0 (docs/release-notes.md): Drops support for Python 3.6 in "
            "`TestClient`."]


def test_a_bare_link_left_at_the_end_of_an_entry_is_dropped():
    text = ("Deprecations\n~~~~~~~~~~~~\n\n1.3.0 (2019-04-22)\n------------------\n\n"
            "Deprecations\n~~~~~~~~~~~~\n\n- The ``send_bytes`` adjustment is deprecated\n"
            "  pending removal in a future release.\n"
            "  and https://github.com/Pylons/waitress/pull/246\n\n"
            "- ``serve_forever`` is deprecated, see https://example.org/serve.\n")
    assert [p.text.split(": ", 1)[1] for p in changelogs.proposals(text, "HISTORY.txt")] == [
        "The `send_bytes` adjustment is deprecated pending removal in a future release.",
        "`serve_forever` is deprecated."]
