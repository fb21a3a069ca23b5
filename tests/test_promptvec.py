"""The hooks' stdlib prompt encoder (kenning.hooks.promptvec) against the bundled model, and
its vocabulary table against tokenizer.json."""

from __future__ import annotations

import json
import sqlite3

import pytest

from kenning.hooks import promptvec
from kenning.index import bertwords

TEXTS = [
    "What's the default timeout for requests.get?",
    "host is down and has both an A and an AAAA record; it took 20s to fail with a 10s setting",
    "Rename compute_line_total to line_total_minor in invoicing/lines.py (v2.3.0)",
    "Ünïcödé café naïve 東京 tower — “quotes” … ok",
    "x\x01y tab\there\nnew line",
    "a" * 150 + " supercalifragilisticexpialidocious",
    "!!! ??? ...",
    # a private-use character (dropped), a capital whose lower case is two characters, CJK
    # past Unicode 3.2 (spaced, as `tokenizers` does) and a code point it does not space
    "\ue000deploy İstanbul build𪜀step 𫠠x",
    " ".join(["why does the retry policy back off exponentially"] * 80),  # past 512 tokens
]


def test_the_vocabulary_table_is_the_tokenizers():
    model = promptvec.MODEL_DIR
    with open(f"{model}/tokenizer.json", encoding="utf-8") as handle:
        vocab = json.load(handle)["model"]["vocab"]
    conn = sqlite3.connect(f"{model}/{promptvec.VOCABULARY}")
    try:
        stored = dict(conn.execute("SELECT piece, id FROM vocab"))
    finally:
        conn.close()
    assert stored == vocab


@pytest.mark.model
def test_prompt_vectors_are_the_bundled_models():
    from kenning.index.embed import load_embedder

    reference = load_embedder("bundled").encode(TEXTS)
    encoder = promptvec.PromptEncoder()
    try:
        for text, expected in zip(TEXTS, reference, strict=True):
            got = encoder.encode(text)
            assert got is not None, text
            cosine = sum(a * float(b) for a, b in zip(got, expected, strict=True))
            assert cosine > 0.9999, (text, cosine)
        assert encoder.encode("") is None and encoder.encode("   ") is None
    finally:
        encoder.close()


@pytest.mark.model
def test_prompt_vectors_of_a_float16_model(tmp_path):
    """A model stored as float16 rows with no per-token weights (train_model.py's
    `--dtype float16`) is read by the prompt encoder as by the index: the bundled model's rows
    times their scales, rewritten as float16 in a copy."""
    import shutil

    import numpy as np

    from kenning.index.embed import BundledEmbedder, _read_safetensors

    source = promptvec.MODEL_DIR
    for name in ("config.json", "tokenizer.json", promptvec.VOCABULARY):
        shutil.copy(f"{source}/{name}", tmp_path / name)
    with open(f"{source}/model.safetensors", "rb") as handle:
        tensors = _read_safetensors(handle.read())
    rows = (tensors["embeddings"].astype(np.float32)
            * tensors["weights"][:, None]).astype(np.float16)
    header = json.dumps({"embeddings": {"dtype": "F16", "shape": list(rows.shape),
                                        "data_offsets": [0, rows.nbytes]}}).encode()
    header += b" " * (-len(header) % 8)
    (tmp_path / "model.safetensors").write_bytes(
        len(header).to_bytes(8, "little") + header + rows.tobytes())

    index = BundledEmbedder(tmp_path)
    assert index.dim == rows.shape[1] and index._weights is None
    reference = index.encode(TEXTS)
    int8 = BundledEmbedder().encode(TEXTS)
    encoder = promptvec.PromptEncoder(str(tmp_path))
    try:
        assert encoder.dim == rows.shape[1]
        for text, expected, before in zip(TEXTS, reference, int8, strict=True):
            got = encoder.encode(text)
            assert got is not None, text
            assert sum(a * float(b) for a, b in zip(got, expected, strict=True)) > 0.9999, text
            assert float(expected @ before) > 0.999, text  # the same model, rounded apart
    finally:
        encoder.close()


def test_wordpiece_splits_greedily_and_drops_unknown_words():
    known = {"play": 1, "##ing": 2, "##s": 3, "un": 4}
    assert promptvec._wordpiece("playing", known) == [1, 2]
    assert promptvec._wordpiece("plays", known) == [1, 3]
    assert promptvec._wordpiece("playx", known) == []  # one unknown part: the whole word
    assert bertwords.words("Don't split_me, OK?", strict=False) == [
        "don", "'", "t", "split", "_", "me", ",", "ok", "?"]


@pytest.mark.model
def test_the_hook_weighs_the_cosine_without_numpy(repo):
    """On an index of the bundled model's vectors the real hook (a fresh process, as the
    launcher runs it) reads the prompt's vector and imports no numpy."""
    from kenning.core.paths import current_project
    from kenning.core.records import Anchor
    from kenning.memory import Memory
    from test_hooks_imports import FIXTURES, NEVER, imported_modules

    memory = Memory(current_project(repo), embedder_name="bundled")
    memory.add("Retries live in src/http/retry.py with one exponential backoff policy for "
               "flaky connections.", "codebase", about=[Anchor("src/http/retry.py")])
    for n in range(60):  # a store big enough for the gate's IDF scale
        memory.add(f"Unrelated note {n} about invoice templates and tax rounding.", "codebase")
    memory.sync()
    memory.close()
    raw = (FIXTURES / "user_prompt_submit.json").read_text(encoding="utf-8")
    data = raw.replace("{cwd}", str(repo)).replace("{home}", str(repo.parent / "home"))
    names = imported_modules("user-prompt-submit", data)
    assert "kenning.hooks.promptvec" in names
    assert not NEVER & {n.split(".")[0] for n in names}
