"""`kenning seed` proposes what is still true at HEAD: deprecations HEAD's code still warns
about, advice whose names HEAD still has, each fact once from its best source; and a later
run takes back what a new commit reverts."""

from __future__ import annotations

import json
from dataclasses import replace

from conftest import git
from kenning.extract.seed import changelogs
from kenning.extract.seed.model import project_name


def seed_json(kenning, *args: str) -> dict:
    result = kenning("seed", "--json", *args)
    assert result.code == 0, result.err
    return json.loads(result.out)


def texts(out: dict, action: str = "proposed") -> list[str]:
    return [i["text"] for i in out["items"] if i["action"] == action]


def test_a_deprecation_head_no_longer_warns_about_and_advice_about_gone_code_are_dropped(
        kenning, repo):
    (repo / "pyproject.toml").write_text('[project]\nname = "demo"\ndynamic = ["version"]\n\n'
                                         '[tool.x]\nname = "not-this"\n', encoding="utf-8")
    (repo / "demo.py").write_text(
        "import warnings\n\n\ndef load():\n    ...\n\n\n"
        "def old_load():\n    warnings.warn('old_load is deprecated', DeprecationWarning)\n"
        "    return load()\n\n\n"
        "def read_config():  # kept: it calls load now\n"
        "    return load()\n\n\nclass App:\n    json_module = None\n\n\n"
        "def legacy_read():\n    \"\"\"Read.\n\n    .. deprecated:: 2.0\n    \"\"\"\n"
        "    return load()\n", encoding="utf-8")
    (repo / "CHANGES.md").write_text(
        "## 2.0.0\n\n"
        "- `old_load()` is deprecated. Use `load()` instead.\n"
        "- `read_config()` is deprecated. Use `load()` instead.\n"
        "- Deprecate `legacy_read()`, which reads twice.\n"
        "- JSON no longer uses simplejson. To use another JSON module, override "
        "`App.json_encoder`.\n"
        "- JSON support no longer uses pickle. To use another module, set "
        "`App.json_module`.\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "code")
    found = [t.split(": ", 1)[1] for t in texts(seed_json(kenning, "--dry-run"))]
    # what HEAD's code raises a warning for says so; a docstring's mark is no warning
    assert found == ["`old_load()` is deprecated (it warns). Use `load()` instead.",
                     "Deprecates `legacy_read()`, which reads twice.",
                     "JSON support no longer uses pickle. To use another module, set "
                     "`App.json_module`."]
    assert project_name(repo) == "demo"


def test_a_later_removal_overtakes_what_relied_on_the_name_and_old_removals_are_history():
    text = """Version 3.1.0
-------------

-   Remove `json_encoder` and `JSONIFY_PRETTYPRINT` config. Use `app.json` instead.
-   `Request.host` validates its characters. An empty value is no longer allowed.


Version 3.0.9
-------------

-   `Request.host` validates its characters. An empty value is no longer allowed.


Version 2.0.0
-------------

-   Change the default for `JSONIFY_PRETTYPRINT` to `False`.
-   JSON no longer uses simplejson. Override `app.json_encoder` to use another one.
-   The default `timeout` is now 30 seconds.


Version 0.5
-----------

-   Removed support for `create_loader` which is no longer used.
-   `get_json` no longer accepts arbitrary encodings.
"""
    found = changelogs.proposals(text, "CHANGES.rst", "demo")
    assert [p.text for p in found] == [
        "demo 3.1.0 (CHANGES.rst): Removes `json_encoder` and `JSONIFY_PRETTYPRINT` config. "
        "Use `app.json` instead.",
        # Backported to 3.0.9 too: proposed once, from the newest release.
        "demo 3.1.0 (CHANGES.rst): `Request.host` validates its characters. An empty value is "
        "no longer allowed.",
        "demo 2.0.0 (CHANGES.rst): The default `timeout` is now 30 seconds.",
        # A restriction from long ago still holds; a removal from then is history.
        "demo 0.5 (CHANGES.rst): `get_json` no longer accepts arbitrary encodings."]


def test_the_same_fact_from_a_commit_and_the_changelog_is_proposed_once_from_the_changelog(
        kenning, repo):
    (repo / "cache.py").write_text("import orjson\n", encoding="utf-8")
    (repo / "CHANGES.md").write_text(
        "## 1.1.0\n\n- Use `orjson` instead of `json` for the cache files.\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Use orjson instead of json for the cache files because json is "
        "slow on big ones")
    (repo / "AGENTS.md").write_text("# Rules\n\nAlways run `make lint` before you push.\n",
                                    encoding="utf-8")
    (repo / "CONTRIBUTING.md").write_text("# Contributing\n\nAlways run `make lint` before "
                                          "you push.\n", encoding="utf-8")
    out = seed_json(kenning, "--dry-run")
    assert sorted((i["source"], i["action"]) for i in out["items"]) == [
        ("agents", "known"), ("changelog", "proposed"), ("docs", "proposed")]


def test_a_revert_in_a_later_run_withdraws_the_pending_proposal(kenning, repo):
    git(repo, "commit", "-q", "--allow-empty", "-m",
        "Switch to ruff because flake8 is too slow on the monorepo")
    sha = git(repo, "rev-parse", "HEAD").strip()
    first = seed_json(kenning)
    assert [i["provenance"] for i in first["items"]] == [f"commit {sha[:12]}"]
    git(repo, "commit", "-q", "--allow-empty", "-m",
        "Revert \"Switch to ruff because flake8 is too slow on the monorepo\"\n\n"
        f"This reverts commit {sha}.")
    second = seed_json(kenning)
    assert [(i["action"], i["provenance"]) for i in second["items"]] == [
        ("withdrawn", f"commit {sha[:12]}")]
    assert seed_json(kenning)["items"] == []  # no longer waiting
    assert "withdrawn" not in kenning("seed").out


def test_the_mcp_seed_tool_lists_proposals_and_stores_nothing(repo):
    import anyio
    from mcp import Client

    from kenning.core.paths import current_project
    from mcpclient import stdio_server

    (repo / "AGENTS.md").write_text("# Rules\n\nNever commit generated files in `dist/`.\n",
                                    encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "agents")

    async def go() -> dict:
        async with Client(stdio_server()) as client:
            result = await client.call_tool("knowledge_seed", {"limit": 5})
            assert not result.is_error, result.content[0].text
            bad = await client.call_tool("knowledge_seed", {"limit": 0})
            assert bad.is_error and "1-200" in bad.content[0].text
            return json.loads(result.content[0].text)

    out = anyio.run(go)
    assert out["total"] == 1 and out["proposals"][0]["provenance"] == "AGENTS.md:3"
    assert out["proposals"][0]["source"] == "agents"
    assert not (current_project().local_dir / "seed").exists()


def test_a_zero_major_project_bold_sections_and_pre_releases():
    text = """# Changelog

## 0.28.0 (28th November, 2024)

**Deprecations**:

* The `cert` argument is now deprecated and will raise warnings.

**The following changes are also included**:

* Treat `socks5h` as a valid proxy scheme. (#3178)
* The deprecated `app` argument has now been removed.

## 0.13.0 (1st May, 2020)

* Drop `uds=...` from the client. (Pull #804)
* We no longer have a `urllib3` dependency, although there is still a `UrllibTransport`.

## 0.13.0.dev0 (1st April, 2020)

* Use `limits=...` instead of `pool_limits=...`.
* We no longer have a `urllib3` dependency, although there is still a `UrllibDispatcher`.
"""
    found = [p.text for p in changelogs.proposals(text, "CHANGELOG.md", "httpx")]
    # 0.13 is not the last minor line but one (0.27): its removals are history, and what
    # 0.13.0.dev0 said that 0.13.0 says again is 0.13.0's; only the 0.28 deprecation is under
    # the bold "Deprecations". The `app` removal names no replacement, nor did a deprecation
    # before it: no fact. The dev release's choice 0.13.0 does not repeat stays, as an old
    # choice HEAD's code must still bear out (`current`).
    assert found == [
        "Deprecated in httpx 0.28.0 (CHANGELOG.md): The `cert` argument is now deprecated and "
        "will raise warnings.",
        "httpx 0.13.0.dev0 (CHANGELOG.md): Uses `limits=...` instead of `pool_limits=...`."]
    assert [p.old for p in changelogs.proposals(text, "CHANGELOG.md", "httpx")] == [False, True]


def test_a_guide_sentence_pointing_back_is_not_proposed_alone(tmp_path):
    from kenning.extract.seed import documents

    text = ("# Contributing\n\nRun the test suite with `make test` before you push.\n"
            "However, that HTTPS requests must only go to the host in the certificate.\n")
    found = [p.text for p in documents.rule_proposals(text, "CONTRIBUTING.md", "docs")]
    assert not any("However" in t for t in found)


def test_a_long_breaking_change_by_its_first_sentence_and_minimum_versions():
    text = """## 25.4.0

### Backwards-incompatible Changes

- Class-level `kw_only=True` behavior is now consistent with `dataclasses`. Previously, a
  class that sets it makes all attributes keyword-only. This shouldn't be a problem unless
  you have a pattern like this: ```python @define(kw_only=True) class Base: a: int ``` Here,
  we have a class with an attribute that sets `kw_only=False` and has a default, and then a
  subclass with required arguments. Previously this would work, but now this fails since the
  attribute is positional, and we have a required positional argument following another one.
- `Old` is now a deprecated alias of `New`.

### Changes

- Minimum required version of MarkupSafe is 3.0.3.
"""
    found = [p.text for p in changelogs.proposals(text, "CHANGELOG.md", "attrs")]
    assert found == [
        "Breaking change in attrs 25.4.0 (CHANGELOG.md): Class-level `kw_only=True` behavior is "
        "now consistent with `dataclasses`.",
        "Breaking change in attrs 25.4.0 (CHANGELOG.md): `Old` is now a deprecated alias of "
        "`New`.",
        "attrs 25.4.0 (CHANGELOG.md): Minimum required version of MarkupSafe is 3.0.3."]


def test_a_module_that_warns_at_import_keeps_its_names_old_deprecations(kenning, repo):
    (repo / "demo").mkdir()
    (repo / "demo" / "wsgi.py").write_text(
        "import warnings\n\nwarnings.warn(\n    'demo.wsgi is deprecated; use a2wsgi',\n"
        "    DeprecationWarning,\n)\n\n\nclass WSGIMiddleware:\n    pass\n", encoding="utf-8")
    (repo / "demo" / "app.py").write_text("class Router:\n    pass\n", encoding="utf-8")
    (repo / "CHANGES.md").write_text(
        "## 3.0.0 (2026-11-01)\n\n- Removed `Thing` from the public API.\n\n"
        "## 1.0.0 (2020-01-01)\n\n- Deprecate `WSGIMiddleware` in favor of a2wsgi.\n"
        "- Deprecate `Router` in favor of routes.\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "code")
    found = texts(seed_json(kenning, "--dry-run"))
    # Past the window (and within twice it), a deprecation holds only while HEAD warns: the
    # module's warning covers its class; `Router` is defined where nothing warns.
    assert any("`WSGIMiddleware`" in t for t in found), found
    assert not any("`Router`" in t for t in found), found


def test_what_heads_python_floor_tools_or_code_no_longer_bear_out_is_not_proposed(
        kenning, repo):
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "demo"\nrequires-python = ">=3.10"\n\n[tool.ruff]\n'
        'line-length = 88\n', encoding="utf-8")
    (repo / "uv.lock").write_text("version = 1\n", encoding="utf-8")
    (repo / "demo.py").write_text("def structure(value, cls):\n    return value\n",
                                  encoding="utf-8")
    (repo / "docs").mkdir()
    (repo / "docs" / "usage.md").write_text(
        "# Usage\n\n## Rules\n\n"
        "The converter must be given a class: `structure()` never guesses the type.\n\n"
        "Make sure you use the types from `collections.abc` on Python 3.9+, and from "
        "`typing` on older Python versions.\n\n"
        "A payload with the key `field_one` must be handled as `ClassA` by the strategy.\n\n"
        "If even more customization is required, `structure()` must be copied into your "
        "codebase.\n", encoding="utf-8")
    (repo / "CHANGES.md").write_text(
        "## 3.0.0 (2026-11-01)\n\n### Changed\n\n- Use ruff instead of flake8.\n"
        "- Use PDM instead of Poetry.\n"
        "- Removes patching of `click` that mitigated errors on Python 3.6.\n"
        "- Removes support for pre-Python 3.7 `async` as a variable name.\n",
        encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "code")
    for subject in ("Don't inherit from AbstractContextManager since that breaks 3.8",
                    "Don't use `hash` to avoid attrs warning",
                    "Never vendor `six` because the wheel must stay pure-Python"):
        git(repo, "commit", "-q", "--allow-empty", "-m", subject)
    found = texts(seed_json(kenning, "--dry-run"))
    # A guide's must / should is not proposed at all (round 10: 8 good of 14 judged).
    assert not any("`structure()` never guesses the type" in t for t in found), found
    # A removal about running on a Python below the floor is a one-off fix; what the project
    # reads of older Pythons' code is not.
    assert not any("patching of `click`" in t for t in found), found
    assert any("pre-Python 3.7 `async`" in t for t in found), found
    # A bare "3.8" is a Python below the floor; a fix for a warning is no lasting rule.
    assert any("vendor `six`" in t for t in found), found
    assert not any("AbstractContextManager" in t or "`hash`" in t for t in found), found
    assert any("ruff instead of flake8" in t for t in found), found
    # Python 3.9 is below the floor; `ClassA` is an example's name the code lacks; copying
    # into "your codebase" is advice to users; PDM left no trace at HEAD (a uv.lock).
    for gone in ("Python 3.9+", "`ClassA`", "your codebase", "PDM"):
        assert not any(gone in t for t in found), (gone, found)
    tooling = [t for t in found if "(pyproject.toml)" in t]
    assert not any("needs" in t or "should" in t for t in tooling), tooling


def test_a_rule_said_again_inside_a_longer_one_is_proposed_once_the_first(kenning, repo):
    # yarl's AGENTS.md: one bullet gives its first sentence as a rule, and the whole of it.
    (repo / "AGENTS.md").write_text(
        "# Things not to do\n\n"
        "- Do not push without running `make doc-spelling` first if you\n"
        "  edited any `.rst` file. The docs build fails on unknown words\n"
        "  and burns a CI run; see _Run the docs spell check_ above.\n", encoding="utf-8")
    out = seed_json(kenning, "--dry-run")
    # An agent file's item is read whole (seed/agents.py), its pointer elsewhere left out.
    assert texts(out) == ["AGENTS.md: Do not push without running `make doc-spelling` first if "
                          "you edited any `.rst` file. The docs build fails on unknown words and "
                          "burns a CI run."]
    assert texts(out, "known") == []  # the phrasing rules' first sentence is inside it: once


def test_a_rule_said_again_further_down_is_placed_on_its_own_line():
    from kenning.extract.seed.documents import line_of

    lines = ["maintainers expect every PR body to follow this exact structure.",
             "Do not invent your own `## What / ## Why / ## How / ## Testing`",
             "layout; that is the marker that the PR was written by an agent", "",
             "## Things not to do", "",
             "- Do not invent a `## What / ## Why / ## How / ## Testing` PR",
             "  body; use the aio-libs template above."]
    assert line_of("Do not invent a `## What / ## Why / ## How / ## Testing` PR body; use the "
                   "aio-libs template above.", lines) == 7
    assert line_of("Do not invent your own `## What / ## Why / ## How / ## Testing` layout; that "
                   "is the marker that the PR was written by an agent.", lines) == 2



def test_a_rule_said_again_with_more_in_another_file_is_not_taken_for_a_restatement():
    from kenning.extract.seed.model import Proposal
    from kenning.extract.seed.run import _restating

    # flask-sqlalchemy: a docs page's "… considered legacy." and another's, then what to use.
    short = Proposal(source="docs", kind="codebase", text="a docs (A): The query interface is "
                     "considered legacy in SQLAlchemy.", provenance="docs/a.rst:128",
                     rule="guide-warning")
    long = Proposal(source="docs", kind="codebase", text="a docs (B): The query interface is "
                    "considered legacy in SQLAlchemy. Prefer `session.execute` instead.",
                    provenance="docs/b.rst:7", rule="guide-warning")
    assert _restating(long, [short]) is None
    assert _restating(long, [replace(short, provenance="docs/b.rst:3")]) == f"new:{short.key}"


def test_a_python_or_pypy_support_drop_heads_floor_says_is_not_proposed(kenning, repo):
    # Poetry's `python = ">=3.8.0"` is the floor too.
    (repo / "pyproject.toml").write_text(
        '[tool.poetry]\nname = "demo"\n\n[tool.poetry.dependencies]\npython = ">=3.8.0"\n',
        encoding="utf-8")
    (repo / "CHANGES.md").write_text(
        "## 3.0.0 (2026-11-01)\n\n### Removed\n\n- Dropped support for Python3.7.\n"
        "- Drops support for end-of-life PyPy3.8.\n"
        "- Removed support for end-of-life Python 3.6 and 3.7.\n"
        "- Removed support for Python with an `ssl` module compiled with LibreSSL.\n"
        "- Removed support for Python 3.9.\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "code")
    git(repo, "commit", "-q", "--allow-empty", "-m",
        "Drop support for Python 3.7 because it reached its end of life")
    found = texts(seed_json(kenning, "--dry-run"))
    # The floor is the lasting fact, said with the newest drop of the Python below it; the
    # other drops at or below it are how it got there.
    assert "Removed in demo 3.0.0 (CHANGES.md): Dropped support for Python3.7. demo supports " \
           "Python >=3.8.0 (`python` in pyproject.toml)." in found, found
    assert not any("Supports Python" in t for t in found), found
    for gone in ("PyPy3.8", "Python 3.6 and 3.7", "Python 3.7 because"):
        assert not any(gone in t for t in found), (gone, found)
    # Not a version of Python; a drop above the floor is news the floor does not say yet.
    assert any("LibreSSL" in t for t in found), found
    assert any("Python 3.9." in t for t in found), found


def test_a_removal_a_later_release_restored_or_of_private_names_only_is_not_proposed():
    text = """2.6.1 (2026-11-08)
==================

- Restore previously removed ``HTTPResponse.getheaders()`` method.

2.6.0 (2026-11-01)
==================

- Removed the ``HTTPResponse.getheaders()`` method in favor of ``HTTPResponse.headers``.
- Removed the ``HTTPResponse.getheader(name)`` method in favor of ``HTTPResponse.headers.get``.
- Removed the ``_prepare_conn`` method from ``HTTPConnectionPool``.
- Removed ``DEFAULT_CIPHERS`` and ``HAS_SNI`` from the private module ``demo.util.ssl_``.
- Removes antiquated ``__nonzero__`` methods.
- The ``_version.py`` file has been removed and is now created at build time by hatch-vcs.
"""
    found = [p.text for p in changelogs.proposals(text, "CHANGES.rst", "demo")]
    assert found == [
        "demo 2.6.0 (CHANGES.rst): Removed the `HTTPResponse.getheader(name)` "
        "method in favor of `HTTPResponse.headers.get`.",
        "demo 2.6.0 (CHANGES.rst): The `_version.py` file has been removed and is "
        "now created at build time by hatch-vcs."], found
