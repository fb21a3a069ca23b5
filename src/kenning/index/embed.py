"""Text embeddings: the model bundled in the package, any local model2vec model, and a fake.

Search, dedup and relevance all compare vectors, so every embedder returns float32 rows with
unit L2 norm (cosine is then a dot product); a text with no known tokens gives a zero row,
which scores 0 against everything rather than NaN.

Nothing heavy is imported at module level: hooks import this module on paths with a strict
import budget (docs/design.md), and numpy, tokenizers or model2vec load only when an embedder is
built. The bundled model is read with numpy and `tokenizers` directly because loading it
through model2vec costs a few hundred milliseconds more in a fresh process (docs/design.md).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from kenning.core.errors import KenningError
from kenning.core.textutil import strip_suffix
from kenning.index import BUNDLED_CODE, BUNDLED_NAME, CODE_NAME, embedder_key

if TYPE_CHECKING:
    import numpy as np

BUNDLED_MEDIAN_TOKEN_LENGTH = 6  # characters, of the bundled tokenizer's vocabulary
# Bounds peak memory when indexing: one batch gathers up to batch × max_length token rows.
_BATCH_SIZE = 256
_MODEL2VEC_DEFAULT_MAX_LENGTH = 512
_REQUIRED_FILES = ("config.json", "model.safetensors", "tokenizer.json")
_SAFETENSORS_DTYPES = {
    "F64": "<f8",
    "F32": "<f4",
    "F16": "<f2",
    "I64": "<i8",
    "I32": "<i4",
    "I16": "<i2",
    "I8": "i1",
    "U8": "u1",
}


@runtime_checkable
class Embedder(Protocol):
    """What the index and search need from an embedding model.

    `id` and `dim` are stored in the index's meta table; a change of either re-embeds, so the
    id must change whenever the vectors would.
    """

    id: str
    dim: int

    def encode(self, texts: list[str]) -> np.ndarray:
        """Return a (len(texts), dim) float32 matrix of L2-normalised rows (zero rows allowed)."""
        ...


class LazyEmbedder:
    """The configured embedder, by name, loaded on first call (most commands never embed)."""

    def __init__(self, name: str = "bundled"):
        self.name = name
        self.key = embedder_key(name)  # what the index records (`embedder_key`)
        self._embedder: Embedder | None = None

    def __call__(self) -> Embedder:
        if self._embedder is None:
            self._embedder = load_embedder(self.name)
        return self._embedder


def bundled_model_dir() -> Path:
    """Where the package keeps its model, so it is found without a download or a config."""
    return Path(__file__).parent.parent / "model"


def code_model_dir() -> Path:
    """The bundled model's code-tuned copy (same tokenizer), which embeds chunks."""
    return Path(__file__).parent.parent / "model_code"


def load_embedder(name: str | None = None) -> Embedder:
    """Turn a configured model name into an embedder.

    None or "bundled" is the packaged model (loaded once per process, since hooks and the
    indexer ask repeatedly); "bundled-code" its code-tuned copy (for chunks); "fake" or
    "fake-<dim>" is the weightless test embedder; anything else is a path to a local model2vec
    model.
    """
    if name is None or name == "bundled":
        return _bundled_embedder()
    if name == BUNDLED_CODE:
        return _bundled_code_embedder()
    fake = re.fullmatch(r"fake(?:-(\d+))?", name)
    if fake:
        return FakeEmbedder(int(fake.group(1)) if fake.group(1) else 64)
    return ModelEmbedder(name)


@lru_cache(maxsize=1)
def _bundled_embedder() -> BundledEmbedder:
    return BundledEmbedder()


@lru_cache(maxsize=1)
def _bundled_code_embedder() -> BundledEmbedder:
    return BundledEmbedder(code_model_dir(), name=CODE_NAME)


def _l2_normalise(matrix: np.ndarray) -> np.ndarray:
    """Scale rows to unit length in float32, leaving all-zero rows at zero (not NaN)."""
    import numpy as np

    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# --- fake -------------------------------------------------------------------------------------

_WORD = re.compile(r"\w+")


def _crude_stem(word: str) -> str:
    """Strip a common English suffix, then a final "e", so "cache", "caches" and "caching"
    share a feature.

    Deliberately crude: the fake only has to make overlapping texts look similar.
    """
    return strip_suffix(word, ("ing", "ed", "es", "s"))


class FakeEmbedder:
    """Deterministic feature hashing, so unit tests need no weights and no numpy-heavy model.

    Each lower-cased word and its crude stem count into one of `dim` buckets chosen by a
    stable hash (Python's `hash` is salted per process). All counts are non-negative, so two
    texts that share a word always have a positive cosine.
    """

    def __init__(self, dim: int = 64) -> None:
        if dim < 1:
            raise ValueError(f"FakeEmbedder needs dim >= 1, got {dim}")
        self.dim = dim
        self.id = f"fake-{dim}"

    def _bucket(self, feature: str) -> int:
        digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
        return int.from_bytes(digest, "little") % self.dim

    def encode(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                out[row, self._bucket(word)] += 1.0
                stem = _crude_stem(word)
                if stem != word:
                    out[row, self._bucket(stem)] += 1.0
        return _l2_normalise(out)


# --- bundled (fast path) ----------------------------------------------------------------------


def _read_safetensors(data: bytes) -> dict[str, np.ndarray]:
    """Parse a safetensors blob into read-only numpy views, without copying the tensor data.

    The format is an 8-byte little-endian header length, a JSON header, then raw tensors;
    reading it here saves importing safetensors and lets one read serve both hashing and
    loading.
    """
    import numpy as np

    header_len = int.from_bytes(data[:8], "little")
    header = json.loads(data[8 : 8 + header_len])
    base = 8 + header_len
    tensors: dict[str, np.ndarray] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] not in _SAFETENSORS_DTYPES:
            raise KenningError(f"unsupported tensor dtype {info['dtype']} for {name!r}")
        dtype = np.dtype(_SAFETENSORS_DTYPES[info["dtype"]])
        start, end = info["data_offsets"]
        count = (end - start) // dtype.itemsize
        array = np.frombuffer(data, dtype=dtype, count=count, offset=base + start)
        tensors[name] = array.reshape(info["shape"])
    return tensors


class BundledEmbedder:
    """The packaged static model, read without model2vec for a fast cold start.

    It reproduces `model2vec.StaticModel.encode` (0.10): tokenise without special tokens,
    drop the unknown token, truncate as model2vec does, mean-pool the token rows (applying
    a vocabulary-quantisation mapping and weights if the file has them), normalise if the
    config says so, then L2-normalise. model2vec stores int8 weights with no scale (one
    global factor, dropped at quantisation), which the normalisation makes irrelevant.
    A test checks the output against model2vec itself.
    """

    def __init__(self, model_dir: Path | None = None, name: str = BUNDLED_NAME) -> None:
        import numpy as np

        from kenning.index.wordpiece import WordPiece

        self.model_dir = Path(model_dir) if model_dir is not None else bundled_model_dir()
        missing = [f for f in _REQUIRED_FILES if not (self.model_dir / f).is_file()]
        if missing:
            raise KenningError(
                f"The bundled embedding model is missing {', '.join(missing)} in "
                f"{self.model_dir}. Reinstall kenning (pip install --force-reinstall kenning); "
                "from a source checkout, run scripts/distill_model.py to rebuild it; or "
                "configure a local model2vec model instead."
            )
        try:
            config = json.loads((self.model_dir / "config.json").read_text(encoding="utf-8"))
            data = (self.model_dir / "model.safetensors").read_bytes()
            tensors = _read_safetensors(data)
            spec = json.loads((self.model_dir / "tokenizer.json").read_text(encoding="utf-8"))
        except (OSError, ValueError, KeyError) as exc:
            raise _unreadable(self.model_dir, exc) from exc

        self._np = np
        self._vectors = tensors["embeddings"]
        self._weights = tensors.get("weights")
        self._mapping = tensors.get("mapping")
        self._normalize = bool(config.get("normalize", False))
        self._max_length: int | None = config.get("max_length", _MODEL2VEC_DEFAULT_MAX_LENGTH)
        # Known for the bundled tokenizer (a test recomputes it): listing a vocabulary of 30k
        # tokens cost 20-70 ms of every indexing run.
        self._median_token_length: int | None = (
            BUNDLED_MEDIAN_TOKEN_LENGTH
            if self.model_dir in (bundled_model_dir(), code_model_dir()) else None)
        # Texts are tokenised in Python (kenning.index.wordpiece); `tokenizers` is loaded
        # only for a text that module leaves to it, or for a tokenizer it does not reproduce.
        self._wordpiece = WordPiece.from_spec(spec)
        self._tokenizer: Any = None
        self._unk_id: int | None = self._wordpiece.unk_id if self._wordpiece else None
        self._lock = threading.Lock()

        self.dim = int(self._vectors.shape[1])
        self._data = data  # the tensors are views of it; hashed for `id` on first need
        self._name = name
        self._id: str | None = None

    @property
    def id(self) -> str:
        """Names the model's weights (a retrained model gets another id); hashing 8 MB was
        a tenth of a small project's indexing, which stores only the embedder's name."""
        if self._id is None:
            self._id = f"bundled:{self._name}:{hashlib.sha256(self._data).hexdigest()[:12]}"
        return self._id

    def _char_limit(self) -> int | None:
        """model2vec cuts texts to max_length × the median vocabulary token length in chars.

        Computed on first need: texts shorter than max_length characters can never hit it.
        """
        if self._max_length is None:
            return None
        if self._median_token_length is None:
            from kenning.index.wordpiece import median_token_length

            vocab = self._wordpiece.vocab if self._wordpiece else self._hf().get_vocab()
            self._median_token_length = median_token_length(vocab)
        return self._max_length * self._median_token_length

    def _token_ids(self, texts: list[str]) -> list[list[int]]:
        if self._max_length is not None and any(len(t) > self._max_length for t in texts):
            limit = self._char_limit()
            texts = [t[:limit] for t in texts]
        ids: list[list[int]] = [[] for _ in texts]
        with self._lock:  # the word cache is shared by the search's threads
            words = ([self._wordpiece.words(t) for t in texts] if self._wordpiece
                     else [None] * len(texts))
            known = [n for n, row in enumerate(words) if row is not None]
            if known:
                rows = self._wordpiece.ids([words[n] for n in known])  # type: ignore[misc]
                for n, row in zip(known, rows, strict=True):
                    # As the tokenizer truncates: max_length tokens, the unknown among them.
                    ids[n] = row if self._max_length is None else row[:self._max_length]
            rest = [n for n, row in enumerate(words) if row is None]
            if rest:
                for n, row in zip(rest, self._encode([texts[n] for n in rest]), strict=True):
                    ids[n] = row
        unk = self._unk_id
        if unk is not None:  # a row is scanned in C first: few hold the unknown token
            ids = [[i for i in row if i != unk] if unk in row else row for row in ids]
        return ids

    def _hf(self) -> Any:
        """The model's tokenizer through `tokenizers`, loaded on first need."""
        if self._tokenizer is None:
            from tokenizers import Tokenizer

            try:
                tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
            except Exception as exc:  # tokenizers raises its own Exception subclass
                raise _unreadable(self.model_dir, exc) from exc
            # As model2vec does: no padding, truncation at max_length tokens.
            tokenizer.no_padding()
            if self._max_length is None:
                tokenizer.no_truncation()
            else:
                tokenizer.enable_truncation(self._max_length)
            if self._unk_id is None:
                self._unk_id = _unk_token_id(tokenizer)
            self._tokenizer = tokenizer
        return self._tokenizer

    def _encode(self, texts: list[str]) -> list[list[int]]:
        tokenizer = self._hf()
        encode = getattr(tokenizer, "encode_batch_fast", tokenizer.encode_batch)
        return [e.ids for e in encode(texts, add_special_tokens=False)]

    def _pool(self, ids: list[list[int]]) -> np.ndarray:
        """Mean of each row's (weighted) token vectors, as a count matrix times the vectors
        of the distinct tokens in a block of rows: one BLAS product instead of gathering a
        row per token (a gather and reduce over every token was half of indexing time)."""
        np = self._np
        out = np.zeros((len(ids), self.dim), dtype=np.float32)
        for start in range(0, len(ids), _POOL_BLOCK):
            block = ids[start : start + _POOL_BLOCK]
            rows = [r for r, row in enumerate(block) if row]
            if not rows:
                continue
            lengths = np.array([len(block[r]) for r in rows], dtype=np.int64)
            flat = np.fromiter(chain.from_iterable(block[r] for r in rows), dtype=np.int64,
                               count=int(lengths.sum()))
            distinct, column = np.unique(flat, return_inverse=True)
            cell = np.repeat(np.arange(len(rows)) * len(distinct), lengths) + column
            counts = np.bincount(cell, minlength=len(rows) * len(distinct)).astype(np.float32)
            counts = counts.reshape(len(rows), len(distinct))
            counts /= lengths[:, None].astype(np.float32)
            index = distinct if self._mapping is None else self._mapping[distinct]
            # float32: int8 rows would overflow in their own dtype; float64 (as model2vec
            # does) changes no ranking (cosine to model2vec > 0.9999).
            table = self._vectors[index].astype(np.float32)
            if self._weights is not None:
                table *= self._weights[distinct][:, None]
            out[[start + r for r in rows]] = counts @ table
        return out

    def encode(self, texts: list[str]) -> np.ndarray:
        np = self._np
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = []
        for start in range(0, len(texts), _BATCH_SIZE):
            pooled = self._pool(self._token_ids(texts[start : start + _BATCH_SIZE]))
            if self._normalize:
                # model2vec's own normalisation, kept so un-normalised configs match it too.
                pooled = pooled / (np.linalg.norm(pooled, axis=1, keepdims=True) + 1e-32)
            parts.append(pooled)
        return _l2_normalise(np.concatenate(parts, axis=0))


_POOL_BLOCK = 128  # rows pooled per product: the count matrix stays small


def _unreadable(model_dir: Path, exc: Exception) -> KenningError:
    return KenningError(
        f"The bundled embedding model in {model_dir} is unreadable ({exc}). "
        "Reinstall kenning (pip install --force-reinstall kenning)."
    )


def _unk_token_id(tokenizer: Any) -> int | None:
    """The id model2vec drops from every text (it carries no meaning in a static model)."""
    model = tokenizer.model
    if hasattr(model, "unk_token"):
        token = model.unk_token
        return None if token is None else tokenizer.token_to_id(token)
    unk = json.loads(tokenizer.to_str())["model"].get("unk_id")
    return None if unk is None else int(unk)


# --- any model2vec model ----------------------------------------------------------------------


class ModelEmbedder:
    """A user-configured model2vec model, loaded through model2vec itself.

    Only local directories are accepted: kenning never downloads a model at run time, and a
    hub name would make model2vec try the network.
    """

    def __init__(self, name_or_path: str | Path) -> None:
        path = Path(name_or_path).expanduser()
        if not path.is_dir():
            raise KenningError(
                f"No model2vec model directory at {path}. Set the embedding model to a local "
                "directory holding a model2vec model (config.json, model.safetensors, "
                "tokenizer.json), or to 'bundled' for the model that ships with kenning; "
                "kenning never downloads models."
            )
        try:
            from model2vec import StaticModel
        except ImportError as exc:
            raise KenningError(
                "model2vec is not installed; install it (pip install 'model2vec>=0.10,<0.11') "
                "or use the bundled model."
            ) from exc
        try:
            self._model = StaticModel.from_pretrained(str(path))
        except Exception as exc:  # model2vec raises ValueError, OSError, KeyError, ...
            raise KenningError(f"Could not load the model2vec model at {path}: {exc}") from exc
        self.path = path
        self.dim = int(self._model.dim)
        candidates = [path / "model.safetensors", path / "0_StaticEmbedding" / "model.safetensors"]
        weights = next((p for p in candidates if p.is_file()), None)
        # The content hash makes a retrained model at the same path trigger a re-embed.
        suffix = f":{_sha256_file(weights)[:12]}" if weights is not None else ""
        self.id = f"model2vec:{path.name}{suffix}"

    def encode(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _l2_normalise(self._model.encode(list(texts), show_progress_bar=False))
