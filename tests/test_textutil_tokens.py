"""The hook-path tokenisers (no `re`, so a hook need not import it) find exactly what the
patterns they replace find, and the JSON the hooks use reads and writes what `json` does."""

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from kenning.core import fastjson, textutil

# Mostly the characters the patterns care about, with some that they do not.
TEXT = st.text(alphabet=st.sampled_from("aZv V9 0_.-/é日\u0130\n`") | st.characters(),
               max_size=40)


@given(TEXT)
def test_words_are_what_the_word_pattern_finds(text):
    assert textutil.words(text) == re.findall(r"[A-Za-z0-9_]+", text)


@given(TEXT)
def test_dotted_numbers_are_what_the_version_pattern_finds(text):
    found = re.finditer(r"(?<![A-Za-z0-9.])[vV]?([0-9]+(?:\.[0-9]+)+)(?![0-9])", text)
    assert textutil.version_terms(text) == [m.group(1).replace(".", "dot") for m in found]


@given(TEXT)
def test_identifier_parts_are_what_the_camel_pattern_finds(text):
    camel = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
    expected = tuple(p for piece in text.split("_")
                     for p in (m.group(0).lower() for m in camel.finditer(piece)) if p)
    assert tuple(textutil.split_identifier(text)) == expected


@given(TEXT)
def test_prompt_tokens_are_what_the_dotted_word_pattern_finds(text):
    assert textutil._dotted_words(text) == re.findall(r"[A-Za-z0-9_]+(?:\.[0-9]+)*", text)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12)


@given(JSON, st.booleans(), st.sampled_from([None, (",", ":")]))
def test_fastjson_writes_and_reads_what_json_does(value, ascii_only, separators):
    text = fastjson.dumps(value, ensure_ascii=ascii_only, separators=separators)
    assert text == json.dumps(value, ensure_ascii=ascii_only, separators=separators)
    assert fastjson.loads(text) == json.loads(text)
    assert fastjson.loads(f" \n{text}\t".encode()) == json.loads(text)


def test_fastjson_rejects_what_json_rejects():
    for bad in ("", "{", "{} x", "[1,]", "\ufeff{}"):
        try:
            fastjson.loads(bad)
        except json.JSONDecodeError:
            continue
        raise AssertionError(f"accepted {bad!r}")
