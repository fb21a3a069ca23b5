"""Last word wins, in other words: a claim that something is fine, overturned by what came next.

A retraction word ("wrong", "turned out", "not the cause") is how the agent takes a claim back
when it notices; more often the session simply moves on and the later words report the
opposite outcome without pointing back. The agent reads a policy page and says "the per-push
limit is opt-in, so 20k-ref batches are fine on default repos"; the next run ends in an HTTP
500, and the agent and the user go on to say "20k was too big", "10k gets an internal server
error". Nothing names the first sentence, but it is overturned: stored, it is the worst kind of
fact (a claim the session proved wrong, issue 16).

Judged by the outcome, not by the wording of one claim:

- the claim gives a favourable verdict (`_FAVOURABLE`: fine, safe, works, unaffected,
  harmless, no limit, not a problem …);
- a later sentence of the main conversation (the agent, the user or a compaction summary)
  about the same subject reports a failure (`_FAILURE`: an error, an HTTP 4xx/5xx status,
  fails, rejects, too big / too high / too many, not fine, doesn't work …);
- same subject: the sentence shares `SHARED_TERMS` content terms with the claim, one of them
  specific (it holds a digit or was written with a capital or in code: "20k", "GitHub",
  `maxRefUpdates`), so two sentences about "the tests" and "the build" are not one subject.

A claim that states a failure itself ("X fails when Y") is not judged here: a later success
is usually the fix (`conclusions.py` drops findings the session fixed). Pure, stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.extract.conclusions import content_terms
from kenning.extract.model import Candidate, Turn

_I = re.IGNORECASE
_FAVOURABLE = re.compile(
    r"\b(?:fine|safe|harmless|unaffected|ok|okay|works|work fine|succeeds|no (?:limit|problem"
    r"|issue|risk)|not (?:a problem|an issue|needed|required)|is enough)\b",
    _I,
)
_FAILURE = re.compile(
    r"\b(?:too (?:big|high|large|many|much|low|small|long|slow)|errors?|fail(?:s|ed|ing|ures?)?"
    r"|rejects?|rejected|crash(?:es|ed)?|chok(?:es|ed|ing)|breaks|broke|broken|[45]\d\d"
    r"|not (?:fine|safe|enough|ok|okay|supported|allowed)|(?:doesn't|don't|won't|didn't) work"
    r"|can't handle|cannot handle)\b"
)  # searched in lower-cased text (much faster than re.I), as _CONFIRMS
# What a later sentence quotes or puts aside is not its verdict; a confirmation is not a failure.
_ASIDE = re.compile(r'\([^()]*\)|"[^"]*"|“[^”]*”')
_CONFIRMS = re.compile(r"\b(?:confirm(?:s|ed)?|verified|valid|correct|holds)\b")
_SPECIFIC = re.compile(r"[A-Z]")
_CODE = re.compile(r"\d|`|_|\w\.\w|[a-z][A-Z]")
SHARED_TERMS = 3  # content terms a later sentence shares with the claim to be about it


def _terms(text: str) -> set[str]:
    """Content terms, a plural's "s" off ("refs" and "20k-ref" share "ref")."""
    return {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in content_terms(text)}


def _specific_terms(text: str) -> set[str]:
    """The content terms of `text` written with a digit, in code, or with a capital inside the
    sentence ("20k", `maxRefUpdates`, "GitHub"; a sentence's first word is capitalised anyway)."""
    out: set[str] = set()
    for n, token in enumerate(re.findall(r"[\w.`'-]+", text)):
        if _CODE.search(token) or (n and _SPECIFIC.search(token)):
            out |= _terms(token)
    return out


def _favourable(claim: str) -> bool:
    """True when the claim gives a favourable verdict and reports no failure itself."""
    return bool(_FAVOURABLE.search(claim)) and not _FAILURE.search(claim.lower())


def _reports_failure(sentence: str) -> bool:
    """True when the sentence (its asides out) reports a failure and confirms nothing."""
    verdict = _ASIDE.sub(" ", sentence).lower()
    return bool(_FAILURE.search(verdict)) and not _CONFIRMS.search(verdict)


def overturned(claim: str, later: Sequence[str]) -> bool:
    """True when `claim` gives a favourable verdict and a sentence of `later` on the same
    subject reports a failure."""
    if not _favourable(claim):
        return False
    terms, specific = _terms(claim), _specific_terms(claim)
    for sentence in later:
        if not _reports_failure(sentence):
            continue
        shared = terms & _terms(sentence)
        if len(shared) >= SHARED_TERMS and shared & specific:
            return True
    return False


def still_unchallenged(candidates: Sequence[Candidate], turns: Sequence[Turn],
                       prose: Sequence[tuple[int, str]]) -> list[Candidate]:
    """`candidates` without those a later sentence of the main conversation overturns.
    `prose` is `conclusions.main_prose(turns)`."""
    if not any(_favourable(c.text) for c in candidates):
        return list(candidates)  # nothing a later failure could overturn
    position = {t.uuid: i for i, t in enumerate(turns)}
    failures = [(i, s) for i, s in prose if _reports_failure(s)]
    out = []
    for c in candidates:
        i = position.get(c.evidence, len(turns))
        if not overturned(c.text, [s for j, s in failures if j > i]):
            out.append(c)
    return out
