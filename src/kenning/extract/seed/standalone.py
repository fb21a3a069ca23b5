"""A proposal must read on its own: one that points at what follows it in its file, or back at
what came before it, is left out.

Read on the blind verdicts of issue 19's twenty-first pass (tox-dev/tox, then pypa/virtualenv;
SPLITS.md): a sentence that ends by pointing ahead ("… use the following targets (tox
environments).", "`tox -e fix` will not catch the following.", a sentence ending in a colon)
leaves its point behind, since the list it announces is not part of the fact; so does one that
names "these platforms" its own words never listed ("Any pull request must consider and work
on all these platforms."). "These cookies" after "… cookies …" points inside the fact and
stays. Pure and stdlib only.
"""

from __future__ import annotations

import re

from kenning.extract.seed.model import Proposal, statement

# "… the following targets (tox environments).", "… will not catch the following.", "…:"
_POINTS_AHEAD = re.compile(r"\b(?:the|these|those) following(?:\s+[\w()'-]+){0,3}\W*$|:\s*$",
                           re.I)
# "these platforms": a plural its statement may or may not have named before ("those" points
# inside a sentence more often than out of it: "Never edit `_version.py`; those files are …")
_THESE = re.compile(r"\bthese\s+(?P<noun>[a-z]{3,}?)(?:es|s)\b", re.I)


def points_ahead(sentence: str) -> bool:
    """The sentence ends pointing at what follows it in its file."""
    return bool(_POINTS_AHEAD.search(sentence.strip()))


# "the restriction", "the rule": a rule that names another only as that, with nothing after
# it saying which ("the restriction on …", "the rule that …"), was told before it in its file
# ("Do not try to work around the restriction with `--force` …"; judged not self-contained).
_THAT_RULE = re.compile(r"\bthe (?P<noun>restriction|limitation|rule|constraint|requirement"
                        r"|policy|exception|workaround)s?\b(?!\s+(?:of|on|that|to|for|against"
                        r"|in|which|from|about|is that)\b|\s*:)", re.I)


def points_back(text: str) -> bool:
    """"These Xs" in the text's first sentence, which never named an X before:
    what it means was said before it in its file. (Later sentences lean on the earlier ones:
    "… placeholders … Return those values under `args` instead.") So does "the restriction"
    (`_THAT_RULE`) when the sentence never said which."""
    first = re.split(r"(?<=[.!?])\s+(?=[A-Z`])", text.strip(), maxsplit=1)[0]
    for m in _THAT_RULE.finditer(first):
        if not re.search(rf"\b{m.group('noun')}", first[:m.start()], re.I):
            return True
    for m in _THESE.finditer(first):
        if not re.search(rf"\b{re.escape(m.group('noun'))}", first[:m.start()], re.I):
            return True
    return False


def reads_alone(proposals: list[Proposal]) -> list[Proposal]:
    """`proposals` without those whose statement points ahead or back out of itself."""
    return [p for p in proposals if not _leaves_its_point(statement(p))]


def _leaves_its_point(said: str) -> bool:
    return points_ahead(said) or points_back(said)
