"""`kenning seed` on a Sphinx changelog with a project's own roles (issue 19's twentieth pass,
from the scrapy labels' misses): `:setting:` names, a support word beside another runtime,
a name that drops a response, a partial un-deprecation, a default said with "by default,
instead of", a long entry of a breaking section, and a change of behaviour many feature
releases back. The fixture is an excerpt of scrapy's real `docs/news.rst`."""

from __future__ import annotations

from pathlib import Path

from kenning.extract.seed import changelogs, guides
from kenning.extract.seed.later import removed_names, support_subject
from kenning.extract.seed.model import plain

NEWS = Path(__file__).parent / "fixtures" / "seed" / "scrapy" / "news.rst"


def proposals() -> list[str]:
    found = changelogs.proposals(NEWS.read_text(encoding="utf-8"), "docs/news.rst", "Scrapy")
    return [p.text.split("): ", 1)[1] for p in found]


def entry_at(line: int) -> changelogs.Entry:
    return next(e for e in changelogs.entries(NEWS.read_text(encoding="utf-8"))
                if e.first <= line <= e.last)


def line_of(words: str) -> int:
    lines = NEWS.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if words in line)


def test_a_projects_own_role_is_code_said_with_its_kind():
    assert plain("Use :setting:`DOWNLOAD_MAXSIZE` instead.") == \
        "Use `DOWNLOAD_MAXSIZE` setting instead."
    assert plain("The :setting:`FEEDS` setting is now a dict.") == \
        "The `FEEDS` setting is now a dict."  # not "setting setting"
    assert plain("from the :signal:`spider_opened` signal handler") == \
        "From the `spider_opened` signal handler."
    assert plain("Changed the item representation. (:rev:`2631`)") == \
        "Changed the item representation."
    assert "`is_secure`" in plain("see :reqmeta:`is_secure`")


def test_dotted_code_opening_a_fact_keeps_its_case():
    assert plain(":class:`~scrapy.FormRequest` is no longer deprecated.") \
        .startswith("scrapy.FormRequest is")
    assert plain("removed the `x` option.").startswith("Removed")


def test_a_default_changed_by_a_security_fix_or_said_far_from_is_now():
    said = proposals()
    assert "`s3://` requests now use HTTPS by default, instead of plaintext HTTP." in said
    assert "The default value of the `SCHEDULER_PRIORITY_QUEUE` setting is now " \
           "`'scrapy.pqueues.DownloaderAwarePriorityQueue'`." in said


def test_a_support_word_moves_the_runtime_it_stands_by():
    # 2.18.0's "… on Python 3.14 and higher … are now required" is about brotli and zstd
    assert "Dropped support for Python 3.9." in proposals()
    assert support_subject("`brotli` (`brotlicffi` on PyPy) and Zstandard support (the "
                           "standard library compression.zstd module on Python 3.14 and "
                           "higher, the `backports.zstd` package on earlier versions) are now "
                           "required") is None
    assert support_subject("Python 3.10 or later is now required.") == "python"
    assert support_subject("Dropped official support for running on Python 3.9") == "python"


def test_a_name_dropping_a_response_removes_no_code():
    assert removed_names("HttpCompressionMiddleware now logs a warning when it drops a "
                         "response for exceeding `DOWNLOAD_MAXSIZE` during decompression.") \
        == set()
    assert removed_names("`Q` now drops support for `bar`.") == {"bar"}
    assert any(s.startswith("The following spider attributes are deprecated in favor of "
                            "settings: `download_maxsize` (use `DOWNLOAD_MAXSIZE` setting)")
               for s in proposals())


def test_what_a_partial_undeprecation_leaves_is_a_deprecation():
    assert "scrapy.FormRequest is no longer deprecated, only its `from_response()` method is " \
           "still deprecated." in proposals()


def test_an_aside_in_a_nested_list_is_not_the_entrys_noise():
    # "(which was never officially supported and may work incorrectly)" is no fix
    entry = entry_at(line_of("Returning a :class:`~twisted.internet.defer.Deferred`"))
    assert changelogs.classify(entry) == "deprecation"


def test_a_long_entry_of_a_breaking_section_is_said_by_its_first_sentence():
    assert any(s.startswith("The scrapy.crawler.Crawler.engine,") and s.endswith(
        "raise RuntimeError when read before the crawl starts, instead of being `None` until "
        "then.") for s in proposals())


def test_a_change_of_behaviour_fifteen_feature_lines_back_is_settled():
    said = proposals()
    assert not any("Retry gaveups" in s or "METAREFRESH_IGNORE_TAGS" in s for s in said)
    text = NEWS.read_text(encoding="utf-8")
    since = changelogs._lines_since(e.version for e in changelogs.entries(text))
    assert since("2.0.0") == 18 >= changelogs.SETTLED_LINES > since("2.6.0")


def test_a_limitation_bullet_that_is_no_sentence_is_said_with_its_lead_in():
    text = (NEWS.parent / "asyncio.rst").read_text(encoding="utf-8")
    said = [p.text.split("): ", 1)[1] for p in guides.proposals(
        text, "docs/topics/asyncio.rst", "Scrapy")]
    assert "The following features are not available: " \
           "scrapy.core.downloader.handlers.ftp.FTPDownloadHandler." in said
    assert "scrapy.core.downloader.handlers.ftp.FTPDownloadHandler." not in said
    assert guides._only_names("`A` and `B` (`C` and `D` are available)")
    assert not guides._only_names("`A` is not available without a reactor.")


def test_a_bullet_of_names_alone_is_no_proposal_and_a_lead_in_stays_in_its_section():
    page = """\
Stash
=====

Feature flags
-------------

Flags come in two kinds:

- **Boolean** - on or off

Limitations
-----------

- **No persistence** - data lives in the arbiter's memory
- `Stash.keys()` and `Stash.items()`
"""
    said = [p.text.split("): ", 1)[1] for p in guides.proposals(page, "docs/stash.rst", "Gunicorn")]
    assert "No persistence - data lives in the arbiter's memory." in said  # not "Flags come …:"
    assert not any("Stash.keys()" in s for s in said)


def test_a_deprecation_policy_or_stability_section_gives_its_rules():
    text = (NEWS.parent / "versioning.rst").read_text(encoding="utf-8")
    found = guides.proposals(text, "docs/versioning.rst", "Scrapy")
    said = [p.text.split("): ", 1)[1] for p in found if p.rule == "guide-policy"]
    assert "We aim to maintain support for deprecated Scrapy features for at least 1 year." \
        in said
    assert "Methods or functions that start with a single underscore (`_`) are private and " \
           "should never be relied upon as stable." in said
    assert not any(s.startswith("For example") for s in said)  # an example narrates
    assert not guides._POLICY.search("Security policy")  # how to report, not what holds


def test_a_long_list_entry_is_quoted_whole_without_its_bracketed_asides():
    said = [s for s in proposals() if s.startswith("Returning a twisted.internet.defer.Deferred")]
    assert said == ["Returning a twisted.internet.defer.Deferred from the following user-defined "
                    "functions is deprecated in favor of defining them as coroutine "
                    "functions: spider callbacks and errbacks; the `process_request()`, "
                    "`process_response()` and `process_exception()` methods of custom "
                    "downloader middlewares; the `process_item()`, `open_spider()` and "
                    "`close_spider()` methods of custom pipelines; signal handlers; the "
                    "`download_request()` and `close()` methods of custom download handlers."]
