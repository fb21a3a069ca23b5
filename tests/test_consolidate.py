"""Consolidation: clear duplicates merge into the oldest fact; hard negatives never merge."""

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml

from kenning.core.paths import current_project
from kenning.core.records import Anchor
from kenning.lifecycle.consolidate import (
    AUTO_MIN_FACTS,
    FEWER_NUMBERS_COSINE,
    VALUE_COSINE,
    after_extraction,
    consolidate,
    judge,
)
from kenning.lifecycle.contradictions import find_all
from kenning.lifecycle.dedup import (
    fewer_numbers,
    names_in,
    normalise,
    numbers_in,
    same_values,
)
from kenning.memory import Memory

FIXTURE = Path(__file__).parent / "fixtures" / "lifecycle" / "consolidation_80.yaml"
PAIRS = Path(__file__).parents[1] / "bench" / "data" / "labelled_pairs.yaml"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def memory_at(now, embedder="fake"):
    return Memory(current_project(), embedder_name=embedder, clock=lambda: now)


def plant(memory, text, when, origin="transcript", about=(), kind="codebase", tags=()):
    """Write a fact as another clone would have (no dedup at write time)."""
    return memory.store.create(text, kind, origin=origin, about=tuple(about), tags=tuple(tags),
                               now=when).id


def plant_scenario(memory):
    data = yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))
    ids: dict[str, list[tuple[str, str]]] = {}
    n = 0
    for group in ("duplicates", "hard_negatives", "contradictions"):
        ids[group] = []
        for older, newer in data[group]:
            a = plant(memory, older, T0 + timedelta(minutes=n))
            b = plant(memory, newer, T0 + timedelta(days=1, minutes=n), origin="user")
            ids[group].append((a, b))
            n += 1
    for text in data["unrelated"]:
        plant(memory, text, T0 + timedelta(minutes=n))
        n += 1
    return ids


def run_scenario(embedder):
    now = T0 + timedelta(days=2)
    memory = memory_at(now, embedder)
    ids = plant_scenario(memory)
    assert len(memory.facts()) == 80
    plan = consolidate(memory)
    merged = {(m.survivor, *m.absorbed) for m in plan.merges}
    assert merged == set(ids["duplicates"])
    hard = {frozenset(pair) for pair in ids["hard_negatives"]}
    assert not any(frozenset((m.survivor, *m.absorbed)) & pair == pair
                   for m in plan.merges for pair in hard)
    found = {(c.a, c.b) for c in find_all([v.row for v in memory.facts()
                                           if v.status == "active"])}
    assert found == {tuple(sorted(pair)) for pair in ids["contradictions"]}
    return memory, ids, plan


def test_eighty_facts_merge_exactly_the_planted_duplicates():
    memory, ids, plan = run_scenario("fake")
    for older, newer in ids["duplicates"]:
        survivor, absorbed = memory.store.get(older), memory.store.get(newer)
        assert survivor.status == "active"
        assert absorbed.status == "superseded" and absorbed.superseded_by == older
        # the newer copy was a person's (1.00): the survivor takes the maximum, dated now
        assert survivor.confidence == 100
        assert survivor.confirmed == T0 + timedelta(days=2)
    assert len([v for v in memory.facts() if v.status == "active"]) == 70


@pytest.mark.model
def test_eighty_facts_merge_exactly_the_planted_duplicates_with_the_bundled_model(
        monkeypatch):
    monkeypatch.setenv("KENNING_EMBEDDER", "bundled")
    run_scenario("bundled")


def test_merge_keeps_the_oldest_id_and_unions_anchors_and_tags():
    memory = memory_at(T0 + timedelta(days=3))
    old = plant(memory, "Celery workers read their queue names from worker/queues.py.",
                T0, about=[Anchor("worker/queues.py")], tags=["celery"])
    new = plant(memory, "Celery workers read queue names from worker/queues.py.",
                T0 + timedelta(days=1), about=[Anchor("worker/queues.py", "QUEUES")],
                tags=["queues"])
    plan = consolidate(memory)
    assert [(m.survivor, m.absorbed) for m in plan.merges] == [(old, (new,))]
    survivor = memory.store.get(old)
    assert [(a.file, a.symbol) for a in survivor.about] == [
        ("worker/queues.py", None), ("worker/queues.py", "QUEUES")]
    assert survivor.tags == ("celery", "queues")
    # both were 0.70 and unused for three days: confidence and confirmed stay as they were
    assert survivor.confidence == 70 and survivor.confirmed == T0


def test_decayed_duplicates_merge_at_the_best_current_confidence():
    now = T0 + timedelta(weeks=4, days=1)
    memory = memory_at(now)
    old = plant(memory, "The release branch is cut from main every Thursday.", T0)
    plant(memory, "Every Thursday the release branch is cut from main.",
          T0 + timedelta(weeks=3))
    plan = consolidate(memory)
    # old: 0.70 - 4 weeks = 0.50; new: 0.70 - 1 week = 0.65
    assert plan.merges[0].confidence == 65
    survivor = memory.store.get(old)
    assert (survivor.confidence, survivor.confirmed) == (65, now)


def test_dry_run_writes_nothing(kenning, repo):
    memory = memory_at(T0 + timedelta(days=2))
    plant(memory, "Passwords are hashed with argon2id in auth/hashing.py.", T0)
    plant(memory, "Passwords are hashed with argon2id, in auth/hashing.py.", T0)
    before = {p: p.read_bytes() for p in memory.project.personal_facts_dir.glob("*.yaml")}
    result = kenning("consolidate", "--dry-run")
    assert result.code == 0 and "would merge into" in result.out
    assert "1 fact(s) would be superseded" in result.out
    after = {p: p.read_bytes() for p in memory.project.personal_facts_dir.glob("*.yaml")}
    assert before == after
    out = json.loads(kenning("consolidate", "--json").out)
    assert len(out["merges"]) == 1 and out["dry_run"] is False


def test_duplicates_of_different_kinds_or_stores_are_not_merged(kenning, repo):
    kenning("init", "--no-move-facts")
    memory = memory_at(T0 + timedelta(days=2))
    a = plant(memory, "The user prefers small pull requests that change one thing each.", T0,
              kind="interaction")
    b = plant(memory, "The user prefers small pull requests, each changing one thing.", T0,
              kind="decision")
    plan = consolidate(memory)
    assert plan.merges == []
    assert {(p.a, p.b) for p in plan.borderline} in (set(), {tuple(sorted((a, b)))})


def test_opposites_and_different_numbers_are_never_duplicates():
    assert judge("The request cache is enabled in production.",
                 "The request cache is disabled in production.", 0.99)[0] == "distinct"
    assert judge("The worker pool runs 8 processes.",
                 "The worker pool runs 2 processes.", 0.99)[0] == "distinct"


def test_consolidation_runs_after_extraction_only_past_fifty_facts():
    memory = memory_at(T0 + timedelta(days=1))
    for n in range(AUTO_MIN_FACTS):
        plant(memory, f"Distinct fact number {n} about module m{n}.", T0)
    assert after_extraction(memory) is None
    plant(memory, "One more distinct fact about the billing module.", T0)
    assert after_extraction(memory) is not None


def _calibration(embedder_name):
    from kenning.index.embed import load_embedder

    embedder = load_embedder(embedder_name)
    pairs = yaml.safe_load(PAIRS.read_text(encoding="utf-8"))["pairs"]
    tp = fp = queued = 0
    for pair in pairs:
        vectors = embedder.encode([pair["a"], pair["b"]])
        verdict = judge(pair["a"], pair["b"], float(vectors[0] @ vectors[1]))[0]
        dup = pair["label"] == "duplicate"
        tp += dup and verdict == "duplicate"
        fp += not dup and verdict == "duplicate"
        queued += dup and verdict != "distinct"
    dups = sum(p["label"] == "duplicate" for p in pairs)
    return tp / max(1, tp + fp), tp / dups, queued / dups


def test_labelled_pairs_never_merge_distinct_facts_with_the_fake_embedder():
    precision, recall, _ = _calibration("fake")
    assert precision == 1.0
    # 0.4 before a swapped word or other polarity words always went to review (issue 17)
    assert recall >= 0.3


@pytest.mark.model
def test_labelled_pairs_calibration_with_the_bundled_model():
    """Calibration data (the thresholds were chosen here; the test split's assertions are in
    test_lifecycle_test_splits.py). A rewording that swaps a word is queued for review rather
    than merged (issue 17), and so is one whose polarity words differ, so 14 of the 30
    duplicates merge (15 before a swapped word always went to review) and all are offered."""
    precision, recall, reviewed = _calibration("bundled")
    assert precision == 1.0
    assert recall >= 0.45
    assert reviewed == 1.0  # every duplicate is merged or queued for review


def test_once_is_not_a_number_but_twice_is():
    assert numbers_in(normalise("Config is read once at startup.")) == []
    assert numbers_in(normalise("Retry twice, then give up.")) == ["2"]


@pytest.mark.model
def test_development_paraphrases_in_other_words_are_offered_and_nothing_wrong_merges():
    """bench/data/hard_pairs_dev.yaml chose BORDER_COSINE (a development set): 12 of its 16
    paraphrases are merged or offered for review; no scope, number, generalisation, near-miss
    or opposite pair merges."""
    from kenning.index.embed import load_embedder

    embedder = load_embedder("bundled")
    pairs = yaml.safe_load((PAIRS.parent / "hard_pairs_dev.yaml").read_text(
        encoding="utf-8"))["pairs"]
    verdicts = []
    for pair in pairs:
        va, vb = embedder.encode([pair["a"], pair["b"]])
        verdicts.append((pair, judge(pair["a"], pair["b"], float(va @ vb))[0]))
    assert sum(v != "distinct" for p, v in verdicts if p["duplicate"]) >= 12
    assert not [p["a"] for p, v in verdicts if not p["duplicate"] and v == "duplicate"]


@pytest.mark.parametrize("a, b", [
    # other polarity words: "keeps ... on" / "turns ... off" is an inversion at cosine 0.97
    ("The sync daemon keeps the cache on during backups.",
     "The sync daemon turns the cache off during backups."),
    ("The sync daemon compresses snapshots.", "The sync daemon never compresses snapshots."),
    # a word swapped, even one the stopword list holds ("US" / "EU": "us" is a pronoun)
    ("The US sync daemon stores snapshots in us-west-2.",
     "The EU sync daemon stores snapshots in us-west-2."),
    ("The phone layout of the sync app uses tabs.", "The tablet layout of the sync app uses tabs."),
    # a rule for all things and one case of it
    ("All sync endpoints use cursor pagination.",
     "The /jobs sync endpoint uses cursor pagination."),
    # a second negation inverts the first ("without" on both sides, "cannot" on one)
    ("The sync daemon can start without a licence key in demo mode.",
     "The sync daemon cannot start without a licence key, even in demo mode."),
])
def test_a_merge_never_inverts_or_rescopes_a_fact_however_close_the_vectors(a, b):
    verdict, _, reason = judge(a, b, 0.99)
    assert verdict != "duplicate", reason  # a person decides, or it is a contradiction


def test_a_rewording_that_only_adds_words_still_merges():
    assert judge("Outgoing calls go through the shared client in sync/http.py.",
                 "All outgoing calls go through the shared client in sync/http.py.",
                 0.99)[0] == "duplicate"
    assert judge("Snapshots are cached for 60 seconds after they are read.",
                 "Snapshots read are cached for 60 seconds.", 0.95)[0] == "duplicate"


def test_numbers_said_in_words_or_other_units_are_the_same_values():
    assert numbers_in(normalise("Uploads over twenty-five megabytes are refused.")) == ["25"]
    assert numbers_in(normalise("Devices older than iOS sixteen.")) == ["16"]
    assert same_values(normalise("Tokens expire after 24 hours."),
                       normalise("A token stops working one day after it was minted."))
    assert same_values(normalise("Messages larger than 25 MB are rejected."),
                       normalise("Anything over twenty-five megabytes is refused."))
    # a status code and its reason phrase, read only against the other text's number
    assert same_values(normalise("The healthcheck returns 503 when the database is down."),
                       normalise("/healthz responds with Service Unavailable without Postgres."))
    assert not same_values(normalise("Uploads over 25 MB are rejected."),
                           normalise("Uploads over 25 GB are rejected."))
    assert not same_values(normalise("Login answers 401."), normalise("Login answers 403."))


def test_a_rewording_in_other_words_with_the_same_values_is_offered_not_merged():
    a, b = ("Postwick rejects messages larger than 25 MB.",
            "Anything over twenty-five megabytes is refused by the mail relay.")
    assert judge(a, b, VALUE_COSINE + 0.05)[0] == "borderline"
    assert judge(a, b, VALUE_COSINE - 0.05)[0] == "distinct"
    # a name with a digit in it is no value ("urllib3", "UART0")
    assert judge("keelson writes its debug log to UART0.", "keelson's GPS is wired to UART0.",
                 VALUE_COSINE + 0.05)[0] == "distinct"
    # other values in other words stay apart
    assert judge("Postwick rejects messages larger than 25 MB.",
                 "Anything over thirty-five megabytes is refused by the mail relay.",
                 0.99)[0] == "distinct"


def test_a_rewording_that_leaves_out_a_version_is_offered_only_when_close():
    a = ("Uvicorn closes idle keep-alive connections after 5 seconds by default "
         "(--timeout-keep-alive 5; added in 0.20.0).")
    b = "An idle keep-alive connection is closed by uvicorn after five seconds."
    assert fewer_numbers(normalise(a), normalise(b))
    assert judge(a, b, FEWER_NUMBERS_COSINE + 0.05)[0] == "borderline"
    assert judge(a, b, FEWER_NUMBERS_COSINE - 0.05)[0] == "distinct"
    # a number of its own on each side is a conflict, and no number on one side is not offered
    assert judge("Keep-alive connections close after 5 seconds (0.20.0).",
                 "Keep-alive connections close after 10 seconds.", 0.99)[0] == "distinct"
    assert judge("Keep-alive connections close after 5 seconds.",
                 "Keep-alive connections close when idle.", 0.99)[0] == "distinct"


def test_an_amount_of_one_unit_and_thousands_are_values():
    assert same_values("Sessions expire after an hour.", "Sessions expire after 60 minutes.")
    assert same_values("Batches hold 1,000 rows.", "Batches hold 1000 rows.")
    # "once a day" is how often, not an amount: it does not meet "every 24 hours" as a value
    assert not same_values("The index is rebuilt once a day.",
                           "The index is rebuilt every 24 hours.")


@pytest.mark.model
def test_whole_stores_review_their_paraphrases_without_flooding_the_queue():
    """consolidate.plan on real stores, as `kenning review` runs it: the 300 tessera facts hold
    no duplicate and queued 46 pairs before issue 17's sixth round (42 since: the same values
    from cosine 0.35 added 3, texts naming other things in code took 7 away); fact_test to
    fact_test4 (80 facts each) hide 5 paraphrases each, of which 9 were found before and 13
    since (a rewording that leaves out a version)."""
    from itertools import combinations
    from types import SimpleNamespace

    import numpy as np

    from kenning.index.embed import load_embedder
    from kenning.lifecycle.consolidate import plan

    embedder = load_embedder("bundled")
    data = PAIRS.parent

    def queued_and_merged(texts):
        ids = [f"F{n:04d}" for n in range(len(texts))]
        views = [SimpleNamespace(row=SimpleNamespace(id=i, store="project", kind="codebase",
                                                     text=t, created=i), current=100)
                 for i, t in zip(ids, texts, strict=True)]
        result = plan(views, ids, embedder.encode(texts).astype(np.float32))
        text = dict(zip(ids, texts, strict=True))
        merged = {frozenset((text[a], text[b])) for m in result.merges
                  for a, b in combinations((m.survivor, *m.absorbed), 2)}
        return {frozenset((text[p.a], text[p.b])) for p in result.borderline}, merged

    tessera = [f["text"] for f in yaml.safe_load(
        (data / "retrieval_facts.yaml").read_text(encoding="utf-8"))]
    queued, merged = queued_and_merged(list(dict.fromkeys(tessera)))
    assert not merged
    assert len(queued) <= 45
    found = 0
    for name in ("fact_test", "fact_test2", "fact_test3", "fact_test4"):
        facts = yaml.safe_load((data / name / "facts.yaml").read_text(encoding="utf-8"))
        text = {f["id"]: f["text"] for f in facts}
        queued, merged = queued_and_merged(list(text.values()))
        paraphrases = {frozenset((text[f["paraphrase_of"]], f["text"])) for f in facts
                       if f.get("paraphrase_of")}
        assert not merged - paraphrases
        found += len(paraphrases & (queued | merged))
    assert found >= 13


def test_texts_naming_other_things_in_code_are_not_offered_as_duplicates():
    assert names_in("Unit tests for orders live in tests/orders/.") == {"tests/orders"}
    assert not names_in("It will not retry on read/write errors, e.g. a reset.")
    for a, b in [("Unit tests for orders live in tests/orders/.",
                  "Unit tests for shipping live in tests/shipping/."),
                 ("Orders events are published to the orders.events Kafka topic.",
                  "Refunds events are published to the refunds.events Kafka topic.")]:
        assert judge(a, b, 0.95) == ("distinct", judge(a, b, 0.95)[1], "names other things")
    # one name within the other is one thing
    assert judge("Session.should_strip_auth drops the Authorization header on redirects.",
                 "On redirects should_strip_auth drops the Authorization header.",
                 0.9)[0] != "distinct"
