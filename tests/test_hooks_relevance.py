"""UserPromptSubmit relevance on a labelled set written before tuning (DESIGN §7).

200 facts; 20 prompts that each have one relevant fact, 20 that have none. The right fact
must be injected for at least 80 % of the first, nothing for at least 80 % of the second.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kenning.facts import FactStore
from kenning.hooks import factdb
from kenning.memory import Memory
from kenning.paths import current_project
from kenning.records import Anchor

LABELLED = Path(__file__).parent / "fixtures" / "hooks" / "relevance.json"


@pytest.fixture(scope="module")
def labelled(tmp_path_factory: pytest.TempPathFactory):
    data = json.loads(LABELLED.read_text(encoding="utf-8"))
    home = tmp_path_factory.mktemp("relevance")
    monkey = pytest.MonkeyPatch()
    monkey.setenv("KENNING_HOME", str(home / "home"))
    (home / "proj").mkdir()
    project = current_project(home / "proj")
    store = FactStore(project)
    keys = {}
    for fact in data["facts"]:
        created = store.create(fact["text"], fact["kind"], origin="agent",
                               about=tuple(Anchor(a) for a in fact["about"]))
        keys[created.id] = fact["key"]
    memory = Memory(project, embedder_name="fake")
    memory.sync()
    memory.close()
    conn = factdb.connect(str(project.index_path))
    yield data, keys, conn
    conn.close()
    monkey.undo()


def injected(conn, prompt: str, keys: dict[str, str]) -> list[str]:
    rows = factdb.relevant(factdb.prompt_matches(conn, prompt, factdb.now_utc()))
    return [keys[r.id] for r in rows[:4]]


def test_the_labelled_set_has_the_promised_shape(labelled):
    data, keys, _ = labelled
    assert len(data["facts"]) == 200 and len(keys) == 200
    assert len(data["relevant"]) == 20 and len(data["irrelevant"]) == 20


def test_relevant_prompts_get_their_fact(labelled):
    data, keys, conn = labelled
    hits = [item["target"] in injected(conn, item["prompt"], keys) for item in data["relevant"]]
    missed = [i["prompt"] for i, h in zip(data["relevant"], hits, strict=True) if not h]
    assert sum(hits) >= 16, missed


def test_irrelevant_prompts_get_nothing(labelled):
    data, keys, conn = labelled
    quiet = [not injected(conn, prompt, keys) for prompt in data["irrelevant"]]
    assert sum(quiet) >= 16, [p for p, q in zip(data["irrelevant"], quiet, strict=True) if not q]


def test_facts_need_two_shared_terms_not_one_rare_word(labelled):
    _, keys, conn = labelled
    assert injected(conn, "Translate this paragraph into French.", keys) == []
    assert "i18n" in injected(conn, "Where do the translations for each locale live?", keys)


@pytest.mark.model
def test_hybrid_leg_on_the_labelled_set(tmp_path, monkeypatch):
    """With the bundled model, FTS ∪ cosine keeps both 80 % bars."""
    from kenning.hooks import semantic
    from kenning.hooks.base import Ctx

    data = json.loads(LABELLED.read_text(encoding="utf-8"))
    monkeypatch.setenv("KENNING_EMBEDDER", "bundled")
    project_dir = tmp_path / "proj"
    project_dir.mkdir()
    project = current_project(project_dir)
    store = FactStore(project)
    keys = {store.create(f["text"], f["kind"], origin="agent").id: f["key"]
            for f in data["facts"]}
    memory = Memory(project, embedder_name="bundled")
    memory.sync()
    memory.close()
    conn = factdb.connect(str(project.index_path))
    ctx = Ctx({"cwd": str(project_dir)}, "user-prompt-submit")
    now = factdb.now_utc()

    def hybrid(prompt: str) -> list[str]:
        rows = factdb.relevant(factdb.prompt_matches(conn, prompt, now))
        chosen = [keys[r.id] for r in rows]
        chosen += [keys[r.id] for r, _ in semantic.cosine_rows(ctx, conn, prompt, now)]
        return chosen[:4]

    hits = sum(item["target"] in hybrid(item["prompt"]) for item in data["relevant"])
    quiet = sum(not hybrid(prompt) for prompt in data["irrelevant"])
    conn.close()
    assert hits >= 16 and quiet >= 16, (hits, quiet)
