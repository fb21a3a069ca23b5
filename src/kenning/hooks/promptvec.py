"""The bundled model's vector of one prompt, in the standard library (issue 17).

UserPromptSubmit's gate weighs the cosine between the prompt and each fact it found by
keywords: the vectors tell a question about a fact from a request that merely shares its
words. numpy and `tokenizers` cost a fresh hook ~0.2 s to import, so this reads the bundled
model2vec model directly: BERT normalisation and pre-tokenisation (`index.bertwords`, the
index's own reading of a text), WordPiece against a
vocabulary table shipped beside the model (`model/vocab.sqlite`, built from tokenizer.json
by `build_vocabulary`; tests/test_promptvec.py checks both against `BundledEmbedder`), and the
int8 (or float16) rows of the distinct tokens read from model.safetensors at their offsets.
For a prompt and thirty facts that is about a millisecond.
"""

from __future__ import annotations

import os
import struct

try:
    import _sqlite3 as sqlite3
except ImportError:  # an interpreter without the C module alone
    import sqlite3

from kenning.core import fastjson as json
from kenning.index import bertwords

MODEL_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "model")
VOCABULARY = "vocab.sqlite"
# model2vec's truncation (index.embed): max_length tokens, after cutting the text to
# max_length × the vocabulary's median token length in characters.
MAX_TOKENS = 512
MAX_CHARS = 512 * 6
MAX_WORD_CHARS = 100  # WordPiece: a longer word is the unknown token
# safetensors dtype -> struct code and bytes per value, for the embedding rows.
_ROW_FORMATS = {"I8": ("b", 1), "F16": ("e", 2)}


def token_ids(conn: sqlite3.Connection, text: str) -> list[int]:
    """WordPiece ids of `text` as model2vec encodes it (no special tokens, unknown dropped)."""
    words = bertwords.words(text[:MAX_CHARS], strict=False) or []  # as the index reads
    # Every piece greedy longest-match could try, asked of the vocabulary at once.
    wanted: set[str] = set()
    for word in set(words):
        if len(word) > MAX_WORD_CHARS:
            continue
        for start in range(len(word)):
            prefix = "##" if start else ""
            wanted.update(prefix + word[start:end] for end in range(start + 1, len(word) + 1))
    known: dict[str, int] = {}
    wanted_list = list(wanted)
    for at in range(0, len(wanted_list), 900):
        chunk = wanted_list[at:at + 900]
        marks = ",".join("?" * len(chunk))
        known.update(conn.execute(f"SELECT piece, id FROM vocab WHERE piece IN ({marks})",
                                  chunk).fetchall())
    ids: list[int] = []
    count = 0  # tokens before dropping the unknown ones: truncation counts them
    for word in words:
        pieces = _wordpiece(word, known)
        count += len(pieces) if pieces else 1
        if count > MAX_TOKENS:
            ids.extend(pieces[:len(pieces) - (count - MAX_TOKENS)])
            break
        ids.extend(pieces)
    return ids


def _wordpiece(word: str, known: dict[str, int]) -> list[int]:
    """Greedy longest-match-first; [] when a part has no piece (the word is unknown)."""
    if len(word) > MAX_WORD_CHARS:
        return []
    out = []
    start = 0
    while start < len(word):
        end = len(word)
        prefix = "##" if start else ""
        while end > start and prefix + word[start:end] not in known:
            end -= 1
        if end == start:
            return []
        out.append(known[prefix + word[start:end]])
        start = end
    return out


class PromptEncoder:
    """The bundled model, read lazily: a vocabulary connection and the tensor file."""

    def __init__(self, model_dir: str = MODEL_DIR):
        path = os.path.join(model_dir, "model.safetensors")
        self._file = open(path, "rb")  # noqa: SIM115 - closed by close()
        size = int.from_bytes(self._file.read(8), "little")
        header = json.loads(self._file.read(size))
        base = 8 + size
        emb = header["embeddings"]
        if emb["dtype"] not in _ROW_FORMATS:
            raise ValueError("the prompt encoder reads int8 or float16 embeddings only")
        self.dim = int(emb["shape"][1])
        code, size = _ROW_FORMATS[emb["dtype"]]
        self._row = struct.Struct(f"<{self.dim}{code}")
        self._row_bytes = self.dim * size
        self._rows = base + emb["data_offsets"][0]
        weights = header.get("weights")
        self._weights = None if weights is None else base + weights["data_offsets"][0]
        if "mapping" in header:
            raise ValueError("the prompt encoder does not read a vocabulary mapping")
        self._vocab = sqlite3.connect(
            "file:" + os.path.join(model_dir, VOCABULARY) + "?mode=ro&immutable=1", uri=True)

    def close(self) -> None:
        self._file.close()
        self._vocab.close()

    def encode(self, text: str) -> list[float] | None:
        """The unit vector of `text`, or None when it has no known token."""
        from array import array

        ids = token_ids(self._vocab, text)
        if not ids:
            return None
        counts: dict[int, int] = {}
        for i in ids:
            counts[i] = counts.get(i, 0) + 1
        total = [0.0] * self.dim
        for i, n in sorted(counts.items()):
            self._file.seek(self._rows + i * self._row_bytes)
            row = self._row.unpack(self._file.read(self._row_bytes))
            factor = float(n)
            if self._weights is not None:
                self._file.seek(self._weights + i * 4)
                weight = array("f", self._file.read(4))
                factor *= weight[0]
            total = [t + factor * x for t, x in zip(total, row, strict=True)]
        norm = sum(t * t for t in total) ** 0.5
        if not norm:
            return None
        return [t / norm for t in total]


def cosines(conn: sqlite3.Connection, vector: list[float], ids: list[str]) -> dict[str, float]:
    """Cosine of `vector` with each stored fact vector of `ids` (unit vectors: a dot)."""
    from array import array

    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    out = {}
    for fid, blob in conn.execute(f"SELECT id, vec FROM fact_vectors WHERE id IN ({marks})",
                                  ids):
        stored = array("f", blob)
        if len(stored) == len(vector):
            out[fid] = sum(a * b for a, b in zip(vector, stored, strict=True))
    return out


def build_vocabulary(model_dir: str = MODEL_DIR) -> str:
    """Write `vocab.sqlite` (piece -> id) from the model's tokenizer.json; returns its path."""
    with open(os.path.join(model_dir, "tokenizer.json"), encoding="utf-8") as handle:
        vocab = json.loads(handle.read())["model"]["vocab"]
    path = os.path.join(model_dir, VOCABULARY)
    tmp = path + ".tmp"
    if os.path.exists(tmp):
        os.remove(tmp)
    conn = sqlite3.connect(tmp)
    try:
        conn.execute("CREATE TABLE vocab (piece TEXT PRIMARY KEY, id INTEGER) WITHOUT ROWID")
        conn.executemany("INSERT INTO vocab VALUES (?, ?)", sorted(vocab.items()))
        conn.commit()
        conn.execute("VACUUM")
    finally:
        conn.close()
    os.replace(tmp, path)
    return path
