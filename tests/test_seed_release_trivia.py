"""`kenning seed` leaves out release trivia the blind judges kept finding (issue 19's sixteenth
pass, read on urllib3's, rich's, yarl's and babel's verdicts): a removal of names with no
replacement said, a point release's fix, fix wording, an old signature detail, a rename to a
private name; a checklist item that states no rule; a "by default" sentence that is not the
project's default; a commit that names a trigger it stops."""

from __future__ import annotations

import subprocess

from kenning.extract.seed import commits, guides, tooling
from test_seed_trivia import said


def test_a_removal_of_names_only_is_kept_only_with_what_replaces_them():
    text = ("## 2.1.0 (2026-01-01)\n\n### Removed\n\n"
            "- Removed deprecated `Retry` options `method_whitelist`, `REDIRECT_BLACKLIST`.\n"
            "- The deprecated `proxies` argument has now been removed.\n"
            "- Removed default value of `None` for the `context` parameter of `Pool.connect`.\n"
            "- Removes `soft_unicode`, which was previously deprecated. Use `soft_str` instead.\n"
            "- Removed `tls_required` property from `Connection`. This is now determined from "
            "the `scheme` parameter.\n"
            "- Removed fallback on certificate `commonName` in `match_hostname()` function.\n"
            "- Removed support for the deprecated `secure` extra.\n"
            "- Removed `typing_extensions` from runtime dependencies.\n")
    assert said(text) == [
        "Removes `soft_unicode`, which was previously deprecated. Use `soft_str` instead.",
        "Removed `tls_required` property from `Connection`. This is now determined from the "
        "`scheme` parameter.",
        "Removed fallback on certificate `commonName` in `match_hostname()` function.",
        "Removed support for the deprecated `secure` extra.",
        "Removed `typing_extensions` from runtime dependencies."], said(text)


def test_a_removal_of_names_is_said_with_what_their_deprecation_named_instead():
    text = ("## 0.45.0 (2026-01-01)\n\n### Removed\n\n"
            "- Remove deprecated `WS_1004_NO_STATUS` and `WS_1005_CLOSURE`.\n"
            "- Remove deprecated `old_flag` argument from `Client`.\n\n"
            "## 0.40.0 (2025-01-01)\n\n### Deprecated\n\n"
            "- Deprecate `WS_1004_NO_STATUS` and `WS_1005_CLOSURE` in favor of "
            "`WS_1005_NO_STATUS` and `WS_1006_CLOSURE`.\n"
            "- Deprecate `old_flag`.\n")
    assert said(text)[0] == (
        "Removes deprecated `WS_1004_NO_STATUS` and `WS_1005_CLOSURE`. (Deprecated in 0.40.0: "
        "Deprecate `WS_1004_NO_STATUS` and `WS_1005_CLOSURE` in favor of `WS_1005_NO_STATUS` "
        "and `WS_1006_CLOSURE`.)"), said(text)
    assert not any("old_flag` argument" in s for s in said(text))  # its deprecation named none


def test_a_point_releases_removal_is_a_fix_but_support_and_security_stay():
    text = ("## 1.26.15 (2026-01-02)\n\n"
            "- Removes \"!\" character from the unreserved characters in IPv6 Zone ID parsing.\n"
            "- Waitress now validates chunk lengths: values such as `0x01` are no longer "
            "supported. This stops potential HTTP request smuggling.\n"
            "- Note for downstream distributors: the `_version.py` file has been removed and is "
            "now created at build time.\n\n"
            "## 1.26.0 (2026-01-01)\n\n"
            "- Removes the `!` character from the unreserved characters in `Url.host`.\n")
    assert said(text) == [
        "Waitress now validates chunk lengths: values such as `0x01` are no longer supported. "
        "This stops potential HTTP request smuggling.",
        "Note for downstream distributors: the `_version.py` file has been removed and is now "
        "created at build time.",
        "Removes the `!` character from the unreserved characters in `Url.host`."], said(text)


def test_fix_wording_and_an_old_signature_detail_are_release_trivia():
    text = ("## 14.0.0 (2026-01-01)\n\n### Changed\n\n"
            "- Removed the empty line printed in jupyter while using `Progress`.\n"
            "- Drops specific support for the `tomli` requirement on alphas, working around a "
            "bug in pip.\n"
            "- Renames `format_full_version` to `_format_full_version` to make it private.\n"
            "- Renames `max_file_size` to `spool_max_size`.\n\n"
            "## 2.0.0 (2020-01-01)\n\n"
            "- Enforced keyword args in `Console` / `Text` interfaces (backwards incompatible)\n"
            "- `Console` no longer accepts arbitrary encodings (backwards incompatible)\n")
    assert said(text) == [
        "Renames `max_file_size` to `spool_max_size`.",
        "`Console` no longer accepts arbitrary encodings (backwards incompatible)"], said(text)


def test_a_checklist_item_in_the_first_person_is_a_rule_only_when_it_names_an_action():
    template = ("## Checklist\n\n"
                "- [ ] I've run the latest black with default args on new code.\n"
                "- [ ] I accept that @maintainer may be pedantic in the code review.\n"
                "- [ ] AI was used to generate this PR.\n"
                "- [ ] You've added tests (in `tests/`) which would fail without your patch.\n"
                "- [ ] I've added a test for each change, and I tried to make one atomic change.\n"
                "- [ ] Changes have news fragments in `changelog.d`.\n")
    found = [p.text.split("checklist): ", 1)[1] for p in tooling.pr_template_proposals(
        template, ".github/pull_request_template.md", "widget")]
    assert found == ["Run the latest black with default args on new code.",
                     "Add tests (in `tests/`) which would fail without your patch.",
                     "Add a test for each change.",
                     "Changes have news fragments in `changelog.d`."], found


def test_a_checklist_box_naming_the_kind_of_change_or_any_projects_hygiene_is_no_rule():
    template = ("This pull request is:\n\n"
                "- [ ] A documentation / typographical error fix\n"
                "- [ ] A short code fix\n"
                "\t- please include tests.\n"
                "- [ ] An update of the release scripts for new platforms\n"
                "- [ ] wrote descriptive pull request text\n"
                "- [ ] ran the linter to address style issues (`pre-commit run --all-files`)\n")
    found = [p.text.split("checklist): ", 1)[1] for p in tooling.pr_template_proposals(
        template, ".github/pull_request_template.md", "widget")]
    assert found == ["Run the linter to address style issues (`pre-commit run --all-files`)."]


def test_a_by_default_sentence_must_say_the_projects_own_default():
    def defaults(page: str) -> list[str]:  # one default a page, the first that holds
        return [p.text.split("): ", 1)[1] for p in guides.proposals(
            "Settings\n========\n\n" + page, "docs/settings.rst", "widget")]
    assert defaults("Dropping TLS 1.0 by default means you won't be vulnerable if a flaw in "
                    "TLS 1.0 were found.\n\n"
                    "You can also have it load by default by adding `\"widget\"` to the "
                    "`extensions` variable.\n\n"
                    "By default, highlight.js only supports `23` common languages.\n\n"
                    "By default, Widget retries `3` times.\n") == [
        "By default, Widget retries `3` times."]
    # the project's own code as the subject is no other product
    assert defaults("By default, TaskGroup.start() returns the value passed to "
                    "`started()`.\n") == [
        "By default, TaskGroup.start() returns the value passed to `started()`."]


def test_a_commit_naming_a_trigger_it_stops_gives_no_reason(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for subject in ("Don't default to outputting ANSI just because `Console.record` is set",
                    "Use `hatchling` instead of `setuptools` because it builds reproducibly"):
        subprocess.run(["git", "-C", str(root), "-c", "user.name=a", "-c", "user.email=a@b",
                        "commit", "-q", "--allow-empty", "-m", subject], check=True)
    found = [p.text for p in commits.proposals(commits.read_log(root))]
    assert [t.split(" (commit ")[0] for t in found] == [
        "Used `hatchling` instead of `setuptools` because it builds reproducibly"], found


def test_one_change_said_twice_in_a_changelog_is_proposed_once():
    text = ("## 3.13.0 (2026-01-01)\n\n"
            "- Replaces `missing`/`default` field parameters with `load_default`/`dump_default`.\n"
            "- The use of `missing`/`default` field parameters is deprecated. "
            "`load_default`/`dump_default` should be used instead.\n"
            "- Replaces `old_hook` with `new_hook`.\n")
    assert said(text) == [
        "The use of `missing`/`default` field parameters is deprecated. "
        "`load_default`/`dump_default` should be used instead.",
        "Replaces `old_hook` with `new_hook`."], said(text)
