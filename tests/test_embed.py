"""Embedders: the weightless fake for unit tests, and the bundled model (marked `model`)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kenning.core.errors import KenningError
from kenning.index import BUNDLED_NAME, BUNDLED_WEIGHTS, embedder_key
from kenning.index.embed import (
    BundledEmbedder,
    Embedder,
    FakeEmbedder,
    ModelEmbedder,
    bundled_model_dir,
    load_embedder,
)

SRC = Path(__file__).resolve().parent.parent / "src"

# Each first sentence's nearest neighbour among the second sentences should be its partner.
RELATED_PAIRS = [
    ("How do I rotate the API keys?", "Steps for rolling over credentials and secrets"),
    ("The database connection pool is exhausted", "Too many open connections to Postgres"),
    ("Run the unit tests with pytest", "pytest executes the test suite"),
    ("The cache is invalidated on every write", "Writes clear the cached entries"),
    ("Use tabs for indentation in Makefiles", "Makefile recipes must be indented with tabs"),
    ("The login page throws a 500 error", "Users see a server error when signing in"),
]

EQUIVALENCE_TEXTS = [
    "How do I rotate the API keys?",
    "def parse_config(path): return tomllib.load(open(path, 'rb'))",
    "ünïcödé text, 日本語, and emoji 🙂",
    "",
    "[UNK] [PAD] tokens typed by a user",
    "a long document " * 2000,
]


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any network attempt fail loudly: the model must come from the package."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("network access attempted in an offline test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)


def _norms(matrix: np.ndarray) -> np.ndarray:
    return np.linalg.norm(matrix, axis=1)


def _python(code: str, **env: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(SRC), **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout


# --- fake embedder ----------------------------------------------------------------------------


def test_fake_embedder_is_deterministic_across_instances() -> None:
    texts = ["Rotate the API keys monthly", "the cache is warm"]
    first = FakeEmbedder().encode(texts)
    second = FakeEmbedder().encode(texts)
    assert np.array_equal(first, second)


def test_fake_embedder_does_not_depend_on_the_hash_seed() -> None:
    code = (
        "from kenning.index.embed import FakeEmbedder; "
        "print(FakeEmbedder(16).encode(['abc def']).tolist())"
    )
    assert _python(code, PYTHONHASHSEED="1") == _python(code, PYTHONHASHSEED="2")


def test_fake_embedder_returns_unit_float32_rows_and_zero_rows_for_empty_text() -> None:
    vectors = FakeEmbedder(dim=32).encode(["some words here", "", "   ", "more"])
    assert vectors.dtype == np.float32
    assert vectors.shape == (4, 32)
    assert np.allclose(_norms(vectors), [1.0, 0.0, 0.0, 1.0], atol=1e-6)


def test_fake_embedder_gives_positive_cosine_to_texts_sharing_a_word_or_stem() -> None:
    fake = FakeEmbedder()
    shared_word = fake.encode(["invalidate the cache", "cache"])
    shared_stem = fake.encode(["caches", "cache", "caching", "tests", "testing"])
    assert float(shared_word[0] @ shared_word[1]) > 0
    assert float(shared_stem[0] @ shared_stem[1]) > 0
    assert float(shared_stem[1] @ shared_stem[2]) > 0
    assert float(shared_stem[3] @ shared_stem[4]) > 0


def test_fake_embedder_scores_identical_texts_at_one() -> None:
    vectors = FakeEmbedder().encode(["Same text", "same TEXT"])
    assert float(vectors[0] @ vectors[1]) == pytest.approx(1.0)


def test_fake_embedder_encodes_an_empty_list() -> None:
    assert FakeEmbedder(8).encode([]).shape == (0, 8)


def test_fake_embedder_id_names_its_dimension() -> None:
    fake = FakeEmbedder(dim=128)
    assert (fake.id, fake.dim) == ("fake-128", 128)
    assert isinstance(fake, Embedder)


def test_load_embedder_resolves_fake_names() -> None:
    assert load_embedder("fake").id == "fake-64"
    assert load_embedder("fake-16").dim == 16


def test_load_embedder_explains_a_missing_model_directory(tmp_path: Path) -> None:
    with pytest.raises(KenningError, match="local directory"):
        load_embedder(str(tmp_path / "no-such-model"))


def test_bundled_embedder_explains_missing_model_files(tmp_path: Path) -> None:
    with pytest.raises(KenningError, match="Reinstall kenning"):
        BundledEmbedder(tmp_path)


def test_importing_kenning_embed_loads_no_numpy_or_tokenizers() -> None:
    code = (
        "import sys, kenning.index.embed; "
        "print(sorted(m for m in ('numpy', 'tokenizers', 'model2vec') if m in sys.modules))"
    )
    assert _python(code).strip() == "[]"


# --- bundled model files (no model load) ------------------------------------------------------


def test_bundled_model_fits_the_size_budget_and_carries_its_notice() -> None:
    model_dir = bundled_model_dir()
    total = sum(p.stat().st_size for p in model_dir.rglob("*") if p.is_file())
    assert total <= 10 * 1024 * 1024
    notice = (model_dir / "NOTICE").read_text(encoding="utf-8")
    assert "Apache License, Version 2.0" in notice
    assert "sentence-transformers/all-MiniLM-L6-v2" in notice


def test_bundled_model_config_names_no_local_path() -> None:
    config = json.loads((bundled_model_dir() / "config.json").read_text(encoding="utf-8"))
    assert config["tokenizer_name"] == "sentence-transformers/all-MiniLM-L6-v2"
    for path in bundled_model_dir().glob("*.json"):
        assert "site-packages" not in path.read_text(encoding="utf-8"), path.name


# --- the real model ---------------------------------------------------------------------------


@pytest.mark.model
def test_bundled_model_loads_offline_and_returns_256_dim_unit_vectors(offline: None) -> None:
    embedder = BundledEmbedder()
    vectors = embedder.encode(["Where is the retry policy configured?", "", "hello"])
    assert embedder.dim == 256
    assert embedder.id.startswith("bundled:minilm-l6-pca256-int8:")
    assert vectors.dtype == np.float32
    assert vectors.shape == (3, 256)
    assert np.allclose(_norms(vectors), [1.0, 0.0, 1.0], atol=1e-5)
    assert embedder.encode([]).shape == (0, 256)


@pytest.mark.model
def test_bundled_model_ranks_each_related_sentence_above_unrelated_ones(offline: None) -> None:
    embedder = load_embedder()
    left = embedder.encode([a for a, _ in RELATED_PAIRS])
    right = embedder.encode([b for _, b in RELATED_PAIRS])
    scores = left @ right.T
    assert list(scores.argmax(axis=1)) == list(range(len(RELATED_PAIRS)))
    related = np.diag(scores)
    unrelated = scores[~np.eye(len(RELATED_PAIRS), dtype=bool)]
    assert related.mean() > unrelated.mean() + 0.15


@pytest.mark.model
def test_bundled_embedder_matches_model2vec(offline: None) -> None:
    from model2vec import StaticModel

    ours = BundledEmbedder().encode(EQUIVALENCE_TEXTS)
    theirs = StaticModel.from_pretrained(str(bundled_model_dir())).encode(EQUIVALENCE_TEXTS)
    theirs_norms = _norms(theirs)
    for row, text in enumerate(EQUIVALENCE_TEXTS):
        if theirs_norms[row] == 0:
            assert not ours[row].any(), text
        else:
            cosine = float(ours[row] @ theirs[row]) / theirs_norms[row]
            assert cosine > 0.999, text


@pytest.mark.model
def test_load_embedder_reuses_one_bundled_embedder_per_process(offline: None) -> None:
    assert load_embedder() is load_embedder("bundled")


@pytest.mark.model
def test_model_embedder_loads_a_local_model2vec_directory(offline: None) -> None:
    embedder = ModelEmbedder(bundled_model_dir())
    vectors = embedder.encode(["Where is the retry policy configured?"])
    bundled = BundledEmbedder().encode(["Where is the retry policy configured?"])
    assert embedder.dim == 256
    assert embedder.id.startswith("model2vec:model:")
    assert float(vectors[0] @ bundled[0]) > 0.999


def _tokenizers_ids(texts: list[str]) -> list[list[int]]:
    """The ids `tokenizers` itself gives, as model2vec asks for them (no special tokens,
    truncated at max_length after the character cut, the unknown token dropped)."""
    from kenning.index.embed import BUNDLED_MEDIAN_TOKEN_LENGTH

    tokenizer = _tokenizer()
    unk = tokenizer.token_to_id("[UNK]")
    cut = [t[:512 * BUNDLED_MEDIAN_TOKEN_LENGTH] if len(t) > 512 else t for t in texts]
    return [[i for i in e.ids if i != unk]
            for e in tokenizer.encode_batch(cut, add_special_tokens=False)]


CODE_AND_PROSE = [
    *EQUIVALENCE_TEXTS, "def parseHTTPResponse(self):\n\treturn self._raw[0]\r\n",
    "a\x0bvertical tab", "bell\x07inside", "[PAD] and [UNK] typed", "MiXeD CaSe",
    # a word past WordPiece's 100 characters, texts past 512 tokens, repeats
    "x" * 150 + " tail", "a-b, " * 300, "get_u16(self) " * 60, "é" * 120,
    # final sigma, dotted capital I, ligatures, wide forms, separators, a BOM, joiners
    "ΣΊΣΥΦΟΣ σοφός", "İstanbul ǅemal ﬁnal ß ẞ", "ｆｕｌｌ　ｗｉｄｔｈ", "a\u2028b\u2029c\u00a0d",
    "\ufeffimport os", "x\u200dy\u200bz", "\ufffd replaced bytes", "Ⅻ ① ²³ ½",
    "🎉 released 🥰 thanks✅", "naïve café — “quotes” … done", "한국어, 日本語の文章, 中文。",
    "Привет, мир", "مرحبا بالعالم", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𠀀𪜀", "\x0c\x7f\x00tail",
]


@pytest.mark.model
def test_bundled_embedder_tokenises_as_tokenizers_does() -> None:
    """Texts are tokenised in Python (kenning.index.wordpiece); the ids must be those of
    `tokenizers`, whatever the text holds."""
    assert BundledEmbedder()._token_ids(CODE_AND_PROSE) == _tokenizers_ids(CODE_AND_PROSE)


@pytest.mark.model
@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=40), min_size=1, max_size=8))
def test_bundled_embedder_tokenises_any_unicode_as_tokenizers_does(texts: list[str]) -> None:
    assert _bundled()._token_ids(texts) == _tokenizers_ids(texts)


@pytest.mark.model
def test_every_symbol_new_since_unicode_3_2_is_read_as_tokenizers_reads_it() -> None:
    """The one exception to "a character new since Unicode 3.2 goes to `tokenizers`":
    symbols (emoji among them), checked one by one, glued to letters and alone."""
    import unicodedata

    symbols = [chr(c) for c in range(0xA0, 0x30000)
               if unicodedata.category(chr(c))[0] == "S"
               and unicodedata.ucd_3_2_0.category(chr(c)) == "Cn"]
    texts = [text for c in symbols for text in (f"ab{c}cd", f"x {c} y")]
    assert len(symbols) > 3000
    assert BundledEmbedder()._token_ids(texts) == _tokenizers_ids(texts)


def test_indexing_code_and_prose_with_accents_and_emoji_loads_no_tokenizers() -> None:
    code = (
        "import sys; from kenning.index.embed import BundledEmbedder; "
        "BundledEmbedder().encode(['def naïve_café(): return \"🎉 done\"', 'ΣΊΣΥΦΟΣ', "
        "'plain ascii', '日本語']); print('tokenizers' in sys.modules)"
    )
    assert _python(code).strip() == "False"


@lru_cache(maxsize=1)
def _bundled() -> BundledEmbedder:
    return BundledEmbedder()


@lru_cache(maxsize=1)
def _tokenizer():
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(bundled_model_dir() / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(512)
    return tokenizer


@pytest.mark.model
def test_the_bundled_median_token_length_is_the_vocabularys() -> None:
    from kenning.index.embed import BUNDLED_MEDIAN_TOKEN_LENGTH
    from kenning.index.wordpiece import median_token_length

    spec = json.loads((bundled_model_dir() / "tokenizer.json").read_text(encoding="utf-8"))
    assert median_token_length(spec["model"]["vocab"]) == BUNDLED_MEDIAN_TOKEN_LENGTH


def test_the_bundled_weights_are_pinned_where_indexes_record_them() -> None:
    # A release that ships other weights must change BUNDLED_WEIGHTS: stores then re-embed.
    import hashlib

    data = (bundled_model_dir() / "model.safetensors").read_bytes()
    assert hashlib.sha256(data).hexdigest()[:12] == BUNDLED_WEIGHTS
    assert embedder_key("bundled") == f"bundled:{BUNDLED_NAME}:{BUNDLED_WEIGHTS}"
    assert embedder_key("fake-32") == "fake-32"


@pytest.mark.model
def test_the_code_model_is_pinned_and_shares_the_bundled_tokenizer() -> None:
    # Chunks are embedded with it (Memory.code_embedder); new weights must change CODE_WEIGHTS.
    import hashlib

    from kenning.index import BUNDLED_CODE, CODE_NAME, CODE_WEIGHTS
    from kenning.index.embed import code_model_dir, load_embedder

    data = (code_model_dir() / "model.safetensors").read_bytes()
    assert hashlib.sha256(data).hexdigest()[:12] == CODE_WEIGHTS
    assert embedder_key(BUNDLED_CODE) == f"bundled:{CODE_NAME}:{CODE_WEIGHTS}"
    assert (code_model_dir() / "tokenizer.json").read_bytes() == \
        (bundled_model_dir() / "tokenizer.json").read_bytes()
    assert sum(p.stat().st_size for p in code_model_dir().iterdir()) <= 10 * 1024 * 1024
    code, prose = load_embedder(BUNDLED_CODE), load_embedder("bundled")
    assert code.id == f"bundled:{CODE_NAME}:{CODE_WEIGHTS}" and code.id != prose.id
    # Trained from the bundled vectors, not apart from them: the same text stays close.
    text = ["Return the completions under the cursor."]
    assert float(code.encode(text)[0] @ prose.encode(text)[0]) > 0.5


def test_a_store_embedded_by_other_bundled_weights_is_embedded_again(kenning, repo,
                                                                      offline: None) -> None:
    from kenning.core.paths import current_project
    from kenning.index.db import set_meta
    from kenning.memory import Memory

    kenning("add", "Release 2.3.0 removed the legacy sync command.")
    kenning("add", "Run the linter with make lint before pushing.")
    memory = Memory(current_project(repo), "bundled")
    memory.sync()
    assert memory.index.meta("embedder") == embedder_key("bundled")
    set_meta(memory.index.conn, "embedder", "bundled")  # what kenning before the pin recorded
    memory.close()
    memory = Memory(current_project(repo), "bundled")
    report = memory.sync()
    hits = memory.search("how do I lint before a push", types=("fact",))
    memory.close()
    assert report.embedded == 2
    assert hits and "make lint" in hits[0].snippet
