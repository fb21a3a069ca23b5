"""What blind judges 34-36 found wrong in `kenning seed`'s tornado proposals, each a general
fault: a release section named by its module, a checklist's generic review item, a deprecation
a decade old, and a Python drop beside a Python added."""

from __future__ import annotations

from datetime import date

from kenning.extract.seed import changelogs, current, tooling

RELEASE_NOTES = """\
6.4.0 (2023-11-28)
==================

Deprecation notices
~~~~~~~~~~~~~~~~~~~

- `tornado.ioloop.IOLoop.add_signal_handler` is deprecated and will be removed in version 7.0.

``tornado.websocket``
~~~~~~~~~~~~~~~~~~~~~

- The ``subprotocols`` argument to `.WebSocketClientConnection` now defaults to None instead of
  an empty list.
"""

OLD_NOTES = """\
6.5.0
=====

- `tornado.web.HTTPError.log_message` is deprecated. Use `get_message` instead.

4.3.0
=====

- `Multi` and `.multi_future` are deprecated and replaced by a unified function `.multi`.
"""


def test_a_section_named_by_its_module_ends_the_deprecations_above_it():
    said = [p.text for p in changelogs.proposals(RELEASE_NOTES, "docs/releases/v6.4.0.rst",
                                                 "tornado")]
    assert said == [
        "Deprecated in tornado 6.4.0 (docs/releases/v6.4.0.rst): "
        "`tornado.ioloop.IOLoop.add_signal_handler` is deprecated and will be removed in "
        "version 7.0.",
        "tornado 6.4.0 (docs/releases/v6.4.0.rst): The `subprotocols` argument to "
        "`.WebSocketClientConnection` now defaults to None instead of an empty list."]


def test_a_deprecation_twice_the_window_old_is_history_whatever_head_says():
    tagged = {"6.5.0": date(2025, 5, 22), "4.3.0": date(2015, 11, 6)}
    said = [p.text for p in changelogs.proposals(OLD_NOTES, "docs/releases.rst", "tornado",
                                                 tagged)]
    assert said == ["tornado 6.5.0 (docs/releases.rst): "
                    "`tornado.web.HTTPError.log_message` is deprecated. Use `get_message` instead."]


def test_a_python_drop_beside_a_python_added_is_history_once_the_floor_passed_it():
    text = ("Python 3.7 is no longer supported; the minimum supported Python version is 3.8. "
            "Python 3.12 is now supported.")
    assert current.pythons_dropped(text, (3, 9))
    assert not current.pythons_dropped(text, (3, 7))
    assert not current.pythons_dropped("Python 3.12 is now supported.", (3, 9))


def test_a_checklists_review_of_your_own_changes_is_any_projects():
    template = ("## Checklist\n\n"
                "- [ ] Review your changes for any backwards incompatibilities that may affect "
                "downstream applications using Tornado.\n"
                "- [ ] Run `tox -e lint,docs,py3` locally and make sure it passes.\n")
    said = [p.text for p in tooling.pr_template_proposals(template, "CONTRIBUTING.md",
                                                          "tornado")]
    assert said == ["tornado (CONTRIBUTING.md, pull-request checklist): Run "
                    "`tox -e lint,docs,py3` locally and make sure it passes."]
