"""A proposal must read on its own: one that points at what follows it in its file is left out.

Read on the blind verdicts of issue 19's twenty-first pass (tox-dev/tox; SPLITS.md): a
sentence that ends by pointing ahead ("… use the following targets (tox environments).",
"`tox -e fix` will not catch the following.", a sentence ending in a colon) leaves its point
behind, since the list it announces is not part of the fact. Pure and stdlib only.
"""

from __future__ import annotations

import re

from kenning.extract.seed.model import Proposal, statement

# "… the following targets (tox environments).", "… will not catch the following.", "…:"
_POINTS_AHEAD = re.compile(r"\b(?:the|these|those) following(?:\s+[\w()'-]+){0,3}\W*$|:\s*$",
                           re.I)


def points_ahead(sentence: str) -> bool:
    """The sentence ends pointing at what follows it in its file."""
    return bool(_POINTS_AHEAD.search(sentence.strip()))


def reads_alone(proposals: list[Proposal]) -> list[Proposal]:
    """`proposals` without those whose statement points ahead."""
    return [p for p in proposals if not points_ahead(statement(p))]
