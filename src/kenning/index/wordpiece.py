"""The bundled model's tokeniser (BERT's: uncased WordPiece) in Python, so indexing and a cold
search need not import `tokenizers` and parse its tokenizer.json: that was about a tenth of the
fixed cost of every `kenning index` (issue 18).

It reproduces the `tokenizers` pipeline the model was saved with, step for step: the BERT
normaliser and pre-tokeniser (`index.bertwords`, which the prompt hook reads with too) and
greedy longest-match-first WordPiece. A text it cannot promise to read the same way (an added
token such as `[UNK]` typed in it, or a character whose Unicode properties may differ between
Python's tables and the Rust crates' older ones) is left to `tokenizers`: `words` returns None.
tests/test_embed.py checks the ids against `tokenizers` on code, prose and random Unicode.

Stdlib only.
"""

from __future__ import annotations

import re
from itertools import chain
from typing import Any

from kenning.index import bertwords

# Printable ASCII plus tab, newline and carriage return: the normaliser only lower-cases it.
_PLAIN = re.compile(r"[\t\n\r -~]*")
# BERT's pre-tokeniser on lower-cased printable ASCII: runs of letters and digits, and each
# other non-space character alone.
_PIECE = re.compile(r"[a-z0-9]+|[^\sa-z0-9]")
_CACHE_SIZE = 200_000  # distinct words' ids kept (a few MB at most)


class WordPiece:
    """One uncased BERT WordPiece tokeniser, from the model's tokenizer.json."""

    def __init__(self, vocab: dict[str, int], unk_token: str, prefix: str,
                 max_word_chars: int, added: list[str]) -> None:
        self.vocab = vocab
        self.unk_id = vocab[unk_token]
        self._prefix = prefix
        self._max_word_chars = max_word_chars
        # No piece is longer than this: longer candidates need no look-up.
        self._longest = max(map(len, vocab), default=0)  # a bound, counting "##" too
        self._added = added
        self._ids: dict[str, list[int]] = {}

    @classmethod
    def from_spec(cls, spec: dict[str, Any]) -> WordPiece | None:
        """The tokeniser a tokenizer.json describes, or None unless it is the recipe this
        module reproduces (the bundled model's)."""
        model, normaliser = spec.get("model") or {}, spec.get("normalizer") or {}
        if not (model.get("type") == "WordPiece"
                and (spec.get("pre_tokenizer") or {}).get("type") == "BertPreTokenizer"
                and normaliser.get("type") == "BertNormalizer"
                and normaliser.get("clean_text") is True
                and normaliser.get("handle_chinese_chars") is True
                and normaliser.get("lowercase") is True
                and normaliser.get("strip_accents") in (None, True)
                and model.get("unk_token") in model.get("vocab", {})):
            return None
        return cls(model["vocab"], model["unk_token"], model.get("continuing_subword_prefix",
                                                                 "##"),
                   int(model.get("max_input_chars_per_word", 100)),
                   [t["content"] for t in spec.get("added_tokens", [])])

    def words(self, text: str) -> list[str] | None:
        """`text` normalised and pre-tokenised, or None when only `tokenizers` can say."""
        if any(token in text for token in self._added):
            return None  # matched as a special token before normalisation
        if _PLAIN.fullmatch(text) is not None:  # the common case, at regex speed
            return _PIECE.findall(text.lower())
        return bertwords.words(text, strict=True)

    def ids(self, rows: list[list[str]]) -> list[list[int]]:
        """Each row of words as ids (the unknown token's among them), a word's looked up
        once: code repeats its words."""
        cache = self._ids
        if len(cache) > _CACHE_SIZE:
            cache.clear()
        for word in {w for row in rows for w in row if w not in cache}:
            cache[word] = self._word_ids(word)
        return [list(chain.from_iterable(map(cache.__getitem__, row))) for row in rows]

    def _word_ids(self, word: str) -> list[int]:
        """Greedy longest-match-first; the unknown token alone for a word too long or with
        a part no piece covers."""
        if len(word) > self._max_word_chars:
            return [self.unk_id]
        vocab, out, start = self.vocab, [], 0
        while start < len(word):
            end = min(len(word), start + self._longest)
            prefix = self._prefix if start else ""
            while end > start and prefix + word[start:end] not in vocab:
                end -= 1
            if end == start:
                return [self.unk_id]
            out.append(vocab[prefix + word[start:end]])
            start = end
        return out


def median_token_length(vocab: dict[str, int]) -> int:
    """The median length in characters of the vocabulary's tokens, as model2vec computes it
    (its character limit for a text is max_length times this)."""
    lengths = sorted(len(token) for token in vocab)
    middle = len(lengths) // 2
    if len(lengths) % 2:
        return lengths[middle]
    return int((lengths[middle - 1] + lengths[middle]) / 2)
