"""Last word wins in other words (`overturned.py`): a claim that something is fine, followed by
later words of the session that report it failing, is never stored. Real transcript files
through the real reader and the rules."""

from __future__ import annotations

from pathlib import Path

from tests.transcript_writer import Transcript

from kenning.extract.overturned import overturned
from kenning.extract.rules import extract_candidates
from kenning.extract.transcript import read_transcript

CLAIM = ("The `receive.maxRefs` setting of Forgejo is opt-in, so 20k-ref batches are fine "
         "on default repositories.")


def _findings(path: Path) -> list[str]:
    return [c.text for c in extract_candidates(read_transcript(path).turns)
            if c.rule == "conclusion"]


def test_a_claim_that_something_is_fine_is_dropped_when_a_later_run_reports_it_failing(
        tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("mirror the big repository to forgejo")
    t.assistant(CLAIM)
    t.bash("git-sync replicate --all-refs", "error: HTTP 500 Internal Server Error", True)
    # Nothing points back at the claim: the outcome is said in other words.
    t.assistant("Forgejo answers 500 at 20k refs per push, that batch is too big for it.")
    assert _findings(t.path) == []


def test_the_claim_stands_when_nothing_later_reports_a_failure_of_its_subject(tmp_path: Path):
    t = Transcript(tmp_path / "s.jsonl")
    t.user("mirror the big repository to forgejo")
    t.assistant(CLAIM)
    t.bash("git-sync replicate --all-refs", "ok")
    # A failure of something else, a confirmation that quotes an error, a failure said
    # before the claim.
    t.assistant("The lint step fails on an unused import in `cmd/main.go`.")
    t.assistant("Confirmed: 20k-ref batches on default Forgejo repositories never hit the "
                "\"too many refs\" error.")
    assert _findings(t.path) == [CLAIM]


def test_only_a_favourable_verdict_on_the_same_specific_subject_is_overturned():
    later = ["Forgejo answers 500 at 20k refs per push."]
    assert overturned(CLAIM, later)
    # A claim of a failure is not judged here (a later success is usually its fix).
    assert not overturned("The `receive.maxRefs` setting of Forgejo fails 20k-ref batches.",
                          ["20k-ref batches are fine on Forgejo."])
    # Shared words, but no specific one: "the tests", "the build".
    assert not overturned("The tests are fine because the build runs them in order.",
                          ["The tests failed, the build runs them in order."])
