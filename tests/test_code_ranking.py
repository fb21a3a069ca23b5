"""Code search ranking: what a chunk is, tests and prose demoted softly, fusion that lets a
clear single-leg #1 win, and a method always its own chunk."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import commit_file, git
from kenning.index.chunking import chunk_file
from kenning.index.scan import generated_reason
from kenning.search.coderank import (
    LIKENED_FACTOR,
    PARAMS_FACTOR,
    RECEIVER_FACTOR,
    TYPE_WORD_FACTOR,
    VARIANT_FACTOR,
    boosts,
    chunk_type,
    described,
    documented_params,
    factors,
    intent,
    likened_to,
    role,
    signature_params,
)
from kenning.search.fusion import RRF_K, fuse, rrf_term
from kenning.search.hybrid import chunk_leg_weights


def test_test_example_and_bench_code_is_told_by_path_and_language_convention():
    assert role("tests/test_api.py") == "test"
    assert role("pkg/server_test.go") == "test"
    assert role("src/__tests__/cart.js") == "test"
    assert role("web/cart.spec.ts") == "test"
    assert role("spec/models/user_spec.rb") == "test"
    assert role("src/lib.rs", "tests.parses_empty_input") == "test"  # #[cfg(test)] mod tests
    assert role("examples/demo.rs") == "example"
    assert role("benches/speed.rs") == "bench"
    assert role("src/contest.py") is None and role("src/latest.py") is None
    assert role("src/testing_utils_free.py") is None


def test_data_and_config_files_are_their_own_type_not_doc():
    assert chunk_type("yml", True) == "config"
    assert chunk_type("toml", False) == "config"
    assert chunk_type("markdown", True) == "doc"
    assert chunk_type("python", False) == "code"


def test_a_question_lets_prose_compete_and_naming_tests_lifts_their_demotion():
    statement = intent("Return the parsed config as a dict.")
    assert ("doc", 0.4) in factors("doc", "README.md", "", statement)
    assert ("config", 0.4) in factors("config", "ci.yml", "", statement)
    assert ("test", 0.5) in factors("code", "tests/test_config.py", "", statement)
    question = intent("how do I configure the retry policy?")
    assert factors("doc", "README.md", "", question) == []
    # a statement asking for the documentation lets prose compete too, not config
    asks_docs = intent("retry policy documentation")
    assert factors("doc", "docs/retry.md", "", asks_docs) == []
    assert ("config", 0.4) in factors("config", "retry.toml", "", asks_docs)
    assert ("doc", 0.4) in factors("doc", "docs/retry.md", "", intent("Documented under `x`."))
    # not a word inside a URL, nor the verb "install" a statement about code uses
    for sentence in ("Uses [the Fetch API](https://example.org/docs/fetch) to make a request.",
                     "Install packages from PyPI into the same environment."):
        assert ("doc", 0.4) in factors("doc", "docs/retry.md", "", intent(sentence))
    asks_tests = intent("tests for the config parser")
    assert factors("code", "tests/test_config.py", "", asks_tests) == []
    assert factors("code", "src/config.py", "", statement) == []


def test_an_identifier_lookup_boosts_its_definition_but_a_sentence_does_not():
    assert boosts("src/retry.py", "RetryPolicy.backoff", intent("RetryPolicy.backoff"))
    assert boosts("src/retry.py", "RetryPolicy", intent("RetryPolicy"))
    assert boosts("src/retry.py", "RetryPolicy.backoff", intent("RetryPolicy")) == []
    # a sentence describing something in terms of another name is no lookup
    sentence = intent("Like `backoff` but the wait is capped at a maximum.")
    assert boosts("src/retry.py", "RetryPolicy.backoff", sentence) == []


def test_a_function_whose_name_the_sentence_spells_out_leads_the_keyword_leg():
    from kenning.search.chunks import named_first
    from kenning.search.code import ChunkRow

    want = intent("Check whether all elements compare equal.")
    assert described("src/lib.rs", "Itertools.all_equal", "method", want)
    assert not described("src/lib.rs", "AllEqual", "struct", want)  # a type: no
    assert not described("tests/quick.rs", "all_equal", "function", want)  # a test: no
    assert not described("src/lib.rs", "equal", "function", want)  # one part: too common
    assert not described("src/lib.rs", "all_unique", "function", want)
    assert described("src/parse.py", "parse_line", "function",  # stems
                     intent("Parses the arguments given on the command line."))
    assert described("src/lib.rs", "position_min", "method",  # an abbreviation
                     intent("Return the position of the minimum element in the iterator."))

    def row(cid: int, symbol: str, kind: str = "function") -> ChunkRow:
        return ChunkRow(cid, "src/lib.rs", cid, cid, kind, symbol, "rust", False)

    rows = {1: row(1, "dedup"), 2: row(2, "AllEqual", "struct"), 3: row(3, "all_equal"),
            4: row(4, "tests.all_equal")}
    assert named_first([1, 2, 3, 4], rows, want) == [3, 1, 2, 4]
    assert named_first([1, 2], rows, want) == [1, 2]


def test_generated_lock_and_data_files_are_told_by_name_and_content():
    assert generated_reason("web/package-lock.json", "{}") == "lock file"
    assert generated_reason("api_pb2.py", "# Generated by the protocol buffer compiler.  "
                            "DO NOT EDIT!\nimport x\n") == "generated"
    assert generated_reason("bench/results.csv", "1,2,3\n" * 2000) == "data"
    assert generated_reason("table.py", "T = [\n" + "1, 2, 3, 4, 5, 6,\n" * 800 + "]\n") \
        == "data"
    assert generated_reason("README.md", "Auto-generated docs are in docs/.\n") is None
    assert generated_reason("app.py", "def main():\n    return run()\n" * 300) is None
    # web pages a documentation tool built, by their generator tag or footer, anywhere
    page = "<html><head><title>each</title></head><body>" + "<p>Runs each item.</p>\n" * 200
    assert generated_reason("docs/v3/each.js.html", page + "Documentation generated by "
                            "<a href=\"https://github.com/jsdoc3/jsdoc\">JSDoc 4.0.3</a>") \
        == "generated"
    assert generated_reason("api/index.html", page.replace(
        "<head>", '<head><meta name="generator" content="rustdoc">')) == "generated"
    assert generated_reason("_build/html/api.html", page.replace(
        "<head>", '<head><meta content="Docutils 0.21" name="generator" />')) == "generated"
    assert generated_reason("site/guide.htm", page + "Created using <a href=\"https://www."
                            "sphinx-doc.org/\">Sphinx</a> 7.2.") == "generated"
    assert generated_reason("public/about.html", page) is None  # a page someone wrote
    theme = page.replace("<head>", '<head><meta name="generator" content="mkdocs-{{ v }}">')
    assert generated_reason("themes/base.html", theme) is None  # a theme's template: source
    assert generated_reason("docs/notes.md", "Docs generated by Sphinx live in _build/.\n") \
        is None


def test_pages_a_documentation_tool_built_are_not_indexed(kenning, repo):
    """A committed JSDoc site repeats every doc comment beside the source: it is output, and
    a query describing a function finds the function, not its generated page."""
    commit_file(repo, "lib/retry.js",
                "export function retry(times, task) {\n  for (let i = 0; i < times; i++) {\n"
                "    try { return task(); } catch (e) { if (i === times - 1) throw e; }\n"
                "  }\n}\n")
    commit_file(repo, "docs/retry.js.html",
                "<html><body><h1>retry</h1><p>Attempts to get a successful response from task "
                "no more than times times before returning an error.</p>\n<footer>"
                "Documentation generated by <a href=\"https://github.com/jsdoc3/jsdoc\">JSDoc "
                "4.0.3</a></footer></body></html>\n")
    commit_file(repo, "docs/about.html",
                "<html><body><p>How retry attempts a task again before returning an error.</p>"
                "</body></html>\n")
    report = json.loads(kenning("index", "--json").out)
    assert report["skipped"] >= 1
    hits = json.loads(kenning("search", "attempts a task again before returning an error",
                              "--json").out)
    paths = [h["path"] for h in hits]
    assert "docs/retry.js.html" not in paths
    assert {"lib/retry.js", "docs/about.html"} <= set(paths)  # a page someone wrote stays


def test_a_clear_semantic_first_beats_chunks_both_legs_rank_thirteenth():
    legs = {"code keyword": [f"c:{i}" for i in range(100, 112)] + ["c:both"],
            "code semantic": ["c:sure"] + [f"c:{i}" for i in range(200, 211)] + ["c:both"]}
    plain = [r.key for r in fuse(legs)]
    assert plain.index("c:both") < plain.index("c:sure")  # plain RRF: the old behaviour
    steep = [r.key for r in fuse(legs, leg_k={"code keyword": 10, "code semantic": 10})]
    assert steep.index("c:sure") < steep.index("c:both")



def test_a_code_chunks_vector_leg_outweighs_its_keyword_leg_but_not_in_javascript():
    # keyword #1 and vectors #5 against vectors #1 alone (keyword #12): equal legs put the
    # chunk both legs found first; a Python chunk's vector leg (2.5 to 1) puts the vectors' #1
    # first; JavaScript's near-equal legs (1.1 to 1) do not; every pair of weights sums to 2.
    legs = {"code keyword": ["c:both"] + [f"c:{i}" for i in range(100, 110)] + ["c:vec"],
            "code semantic": ["c:vec", "c:x", "c:y", "c:z", "c:both"]}
    leg_k = {"code keyword": 10, "code semantic": 10}

    def first(lang: str | None, code: bool = True) -> str:
        weights = {key: chunk_leg_weights(lang, code) for key in ("c:both", "c:vec")}
        return fuse(legs, leg_k=leg_k, key_weights=weights)[0].key

    assert fuse(legs, leg_k=leg_k)[0].key == "c:both"
    assert first("python") == first("rust") == "c:vec"
    assert first("javascript") == first("typescript") == "c:both"
    assert first("markdown", code=False) == "c:both"  # prose keeps equal legs
    for lang in ("python", "javascript", None):
        assert abs(sum(chunk_leg_weights(lang, True).values()) - 2) < 1e-12

@given(st.integers(1, 200), st.integers(1, 200), st.integers(1, 100))
def test_a_leg_k_keeps_rank_one_worth_the_same_and_falls_off_monotonically(rank, leg_k, k):
    assert abs(rrf_term(1, leg_k, k) - 1 / (k + 1)) < 1e-12
    assert rrf_term(rank + 1, leg_k, k) < rrf_term(rank, leg_k, k)
    assert abs(rrf_term(rank, k, k) - 1 / (k + rank)) < 1e-12


def test_fusion_without_leg_k_or_scale_is_plain_rrf():
    legs = {"fact keyword": ["f:a", "f:b"], "fact semantic": ["f:b", "f:c"]}
    ranked = fuse(legs)
    assert [r.key for r in ranked] == ["f:b", "f:a", "f:c"]
    assert abs(ranked[0].score - (1 / (RRF_K + 2) + 1 / (RRF_K + 1))) < 1e-12
    scaled = fuse(legs, scale={"f:b": [("test", 0.5)]})
    assert [r.key for r in scaled][0] == "f:a"
    assert "test x0.5" in next(r.why for r in scaled if r.key == "f:b")


def test_every_method_of_a_short_class_is_its_own_chunk_beside_a_header():
    text = ("class Cart:\n    items = []\n\n    def add(self, item):\n"
            "        self.items.append(item)\n\n    def total(self):\n"
            "        return sum(self.items)\n")
    chunks = {(c.symbol, c.kind) for c in chunk_file("cart.py", text).chunks}
    assert {("Cart", "class"), ("Cart.add", "method"), ("Cart.total", "method")} <= chunks
    rust = ("struct Shape { w: f64 }\n\nimpl Shape {\n    fn area(&self) -> f64 {\n"
            "        self.w * self.w\n    }\n}\n")
    symbols = [c.symbol for c in chunk_file("shape.rs", rust).chunks]
    assert "Shape.area" in symbols


def test_a_trait_implementation_ranks_below_the_code_a_query_names():
    """`impl Iterator for Shape { fn next … }` implements what the trait documents: its own
    chunk, of kind "trait impl", demoted softly; inherent and trait-declared methods are not."""
    rust = ("impl Shape {\n    fn area(&self) -> f64 {\n        1.0\n    }\n}\n\n"
            "trait Sized2 {\n    fn size(&self) -> usize {\n        0\n    }\n}\n\n"
            "impl Iterator for Shape {\n    type Item = u8;\n    fn next(&mut self) -> "
            "Option<u8> {\n        None\n    }\n}\n")
    kinds = {c.symbol: c.kind for c in chunk_file("shape.rs", rust).chunks}
    assert kinds["Shape.area"] == "method" and kinds["Sized2.size"] == "method"
    assert kinds["Shape.next"] == "trait impl"
    want = intent("advance to the next shape")
    assert factors("code", "src/shape.rs", "Shape.next", want, "trait impl") == \
        [("trait impl", 0.6)]
    assert factors("code", "src/shape.rs", "Shape.area", want, "method") == []
    # the lines between definitions (imports, constants) name what they do not define
    assert factors("code", "src/shape.rs", "", want, "module") == [("module-level code", 0.7)]
    assert factors("doc", "guide.md", "", intent("how do shapes work?"), "module") == []
    # a type's own chunk names its members without being one, unless a type is asked for
    assert factors("code", "src/shape.rs", "Shape", want, "struct") == \
        [("a type, not a function", 0.6)]
    assert factors("code", "src/shape.rs", "Shape", intent("the struct holding a shape"),
                   "struct") == []
    assert factors("code", "src/shape.rs", "ShapeSet", intent("ShapeSet"), "impl") == []


def test_code_before_its_tests_and_prose_before_nothing(kenning, repo):
    (repo / "src").mkdir()
    (repo / "tests").mkdir()
    (repo / "src" / "invoice.py").write_text(
        "def invoice_total(lines):\n    return sum(line.amount for line in lines)\n",
        encoding="utf-8")
    (repo / "tests" / "test_invoice.py").write_text(
        "from src.invoice import invoice_total\n\n\ndef test_invoice_total(lines):\n"
        "    assert invoice_total(lines) == sum(line.amount for line in lines)\n",
        encoding="utf-8")
    (repo / "guide.md").write_text("# Invoices\n\nThe invoice total sums the line amounts.\n",
                                   encoding="utf-8")
    (repo / "ci.yml").write_text("jobs:\n  invoice_total:\n    run: pytest\n",
                                 encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "invoice")
    kenning("index")
    hits = json.loads(kenning("search", "sum the invoice line amounts", "--json").out)
    assert hits[0]["path"] == "src/invoice.py"
    paths = [h["path"] for h in hits]
    assert paths.index("src/invoice.py") < paths.index("tests/test_invoice.py")
    types = {h["path"]: h["type"] for h in hits}
    assert types.get("ci.yml", "config") == "config" and types.get("guide.md", "doc") == "doc"
    config = json.loads(kenning("search", "invoice_total", "--type", "config", "--json").out)
    assert [h["path"] for h in config] == ["ci.yml"]
    asked = json.loads(kenning("search", "how are invoice totals computed?", "--type", "doc",
                               "--json").out)
    assert asked and asked[0]["path"] == "guide.md"


def test_a_statement_finds_the_function_before_the_page_repeating_its_docs(kenning, repo):
    """A hand-written API page says what the function does in the same words as the query
    (both legs' #1); the function, #1 on one leg, still comes first for a statement, and the
    page for a query that asks for the documentation."""
    commit_file(repo, "src/cache.py",
                "def lru_cached(maxsize=128):\n    def wrap(func):\n        store = {}\n"
                "        def inner(*args):\n            if args not in store:\n"
                "                store[args] = func(*args)\n            return store[args]\n"
                "        return inner\n    return wrap\n")
    commit_file(repo, "docs/api.rst",
                "API\n===\n\n.. decorator:: lru_cached(maxsize=128)\n\n"
                "   Decorator to wrap a function with a memoizing callable that saves up to "
                "maxsize\n   results based on a least recently used algorithm.\n")
    kenning("index")
    query = "Decorator to wrap a function with a memoizing callable that saves results."
    hits = json.loads(kenning("search", query, "--json").out)
    assert [h["path"] for h in hits[:2]] == ["src/cache.py", "docs/api.rst"]
    assert "doc x0.4" in hits[1]["why"]
    asked = json.loads(kenning("search", "memoizing decorator documentation", "--json").out)
    assert asked[0]["path"] == "docs/api.rst"


def test_a_sentence_likening_its_subject_to_a_function_names_that_function():
    assert likened_to("The same as [`concat`]{@link module:Collections.concat} but runs "
                      "only a single async operation at a time.") == "concat"
    assert likened_to("Like :meth:`.Script.goto`, but does it for the current name.") \
        == "script.goto"
    assert likened_to("Like dict.update() but add counts instead.") == "dict.update"
    assert likened_to("A specialized version of `baseAggregator` for arrays.") \
        == "baseaggregator"
    assert likened_to("Same as self.netmask, but in integer format") == "netmask"
    assert likened_to("Short version of `NodeIndex::new`") == "nodeindex.new"
    assert likened_to("The same as [[MarkdownIt.parse]] but skip all block rules.") \
        == "markdownit.parse"
    # a plain word is no name; a sentence that does not liken names nothing
    assert likened_to("Like the parser, but faster.") == ""
    assert likened_to("Similar to validate, but untyped.") == ""
    assert likened_to("Return the same as `concat`.") == ""


def test_the_function_a_query_likens_to_goes_down_and_its_variant_up():
    want = intent("The same as `concat` but runs only a single operation at a time.")
    likened = ("the function it is likened to", LIKENED_FACTOR)
    variant = ("a variant of the function it is likened to", VARIANT_FACTOR)
    assert likened in factors("code", "lib/concat.js", "concat", want, "function")
    assert variant in factors("code", "lib/concatSeries.js", "concatSeries", want, "function")
    assert variant in factors("code", "lib/concatLimit.js", "concatLimit", want, "function")
    assert factors("code", "lib/concatenate.js", "concatenate", want, "function") == []
    mask = intent("Same as self.netmask, but in integer format")
    assert variant in factors("code", "ip.py", "IPNetwork._netmask_int", mask, "method")
    assert factors("code", "lib/map.js", "map", want, "function") == []
    # qualified as written: the method of another class with the same name is the subject
    other = intent("Like :meth:`.Script.goto`, but does it for the current name.")
    assert likened in factors("code", "api/script.py", "Script.goto", other, "method")
    assert factors("code", "api/classes.py", "BaseName.goto", other, "method") == []
    assert LIKENED_FACTOR < 1 < VARIANT_FACTOR


def test_a_variant_is_found_before_the_function_its_docs_liken_it_to(kenning, repo):
    commit_file(repo, "lib/each.js",
                "export default function each(coll, iteratee, callback) {\n"
                "    return eachOf(coll, withoutIndex(iteratee), callback);\n}\n")
    commit_file(repo, "lib/eachSeries.js",
                "export default function eachSeries(coll, iteratee, callback) {\n"
                "    return eachLimit(coll, 1, iteratee, callback);\n}\n")
    kenning("index")
    query = "The same as `each` but runs only a single async operation at a time."
    hits = json.loads(kenning("search", query, "--type", "code", "--json").out)
    assert [h["path"] for h in hits[:2]] == ["lib/eachSeries.js", "lib/each.js"]
    assert "likened to x0.5" in hits[1]["why"]


def test_an_abbreviated_name_is_found_by_the_word_it_stands_for(repo):
    """`rev` and `len` say "reverse" and "length" to the keyword leg and to the embedder."""
    from kenning.core.paths import current_project
    from kenning.core.textutil import fts_or_query
    from kenning.index.chunktypes import name_words
    from kenning.memory import Memory
    from kenning.search.code import ChunkSearcher

    assert name_words("Bytes.len") == "Bytes.length"
    assert name_words("fmt_str") == "format string"
    assert name_words("lengthen") == "lengthen"  # whole parts only
    commit_file(repo, "seq.rs", (
        "pub fn rev<I: Iterator>(it: I) -> Vec<I::Item> {\n    let mut v: Vec<_> = it.collect();"
        "\n    v.flip();\n    v\n}\n\npub fn sort_elements(elements: &mut [u8]) {\n"
        "    elements.sort();\n}\n"), "seq")
    memory = Memory(current_project(repo), "fake")
    memory.index_code()
    searcher = ChunkSearcher(memory.index.conn)
    found = [searcher.rows([cid])[cid].symbol
             for cid in searcher.keyword(fts_or_query("reverse a sequence"), 10)]
    assert found == ["rev"]
    hits = memory.search("reverse a sequence", types=("code",), record=None)
    assert hits[0].symbol == "rev"
    memory.close()


def test_a_numeric_type_in_a_name_is_found_by_the_words_a_description_uses(repo):
    """`get_u16_le` says "an unsigned 16 bit integer in little-endian byte order" to the
    keyword leg and the embedder; `get_int`, which only says "integer", no longer wins."""
    from kenning.core.paths import current_project
    from kenning.index.chunktypes import identifier_words, name_words, spelled_out
    from kenning.memory import Memory

    assert name_words("get_u16_le").endswith("unsigned 16 bit integer little endian")
    assert spelled_out("to_be_bytes") == ["big endian"]
    assert spelled_out("put_f64") == ["64 bit float"]
    assert name_words("be_quiet") == "be quiet"  # no number type, no bytes: a plain word
    # in a body too, for the embedder: `get_u16` reads big-endian without saying so
    assert identifier_words("u16::from_be_bytes(b)") == "u 16::from be bytes big endian(b)"
    assert identifier_words("be_quiet()") == "be quiet()"
    commit_file(repo, "buf.rs", (
        "impl Buf {\n"
        "    pub fn get_int(&mut self, n: usize) -> i64 {\n        self.read(n)\n    }\n\n"
        "    pub fn get_u16_le(&mut self) -> u16 {\n        self.read(2)\n    }\n\n"
        "    pub fn get_u16(&mut self) -> u16 {\n        self.read(2)\n    }\n}\n"))
    memory = Memory(current_project(repo), "fake")
    memory.index_code()
    hits = memory.search("Gets an unsigned 16 bit integer in little-endian byte order",
                         types=("code",), record=None)
    assert hits[0].symbol.endswith("get_u16_le")
    memory.close()


def test_an_index_cut_by_an_older_chunker_is_rechunked_once(repo):
    from kenning.core.paths import current_project
    from kenning.index.db import set_meta
    from kenning.memory import Memory

    commit_file(repo, "cart.py", "class Cart:\n    def add(self, item):\n        return item\n",
                "cart")
    memory = Memory(current_project(repo), "fake")
    assert memory.index_code().indexed >= 1
    assert memory.index_code().indexed == 0
    set_meta(memory.index.conn, "code_chunk_recipe", "1")
    assert memory.index_code().indexed >= 1  # every file re-chunked once
    assert memory.index_code().indexed == 0
    memory.close()


def _unit(*weights: float):
    import numpy as np

    v = np.zeros(8, dtype=np.float32)
    v[: len(weights)] = weights
    return v / np.linalg.norm(v)


def test_a_chunk_in_a_crowded_corner_yields_to_a_lone_one_the_query_is_nearly_as_near():
    """A hub (twelve chunks named mostly for the project's main type) sits near every query
    that names the type; its slightly higher cosine no longer beats the one chunk that is
    about the rest of the query."""
    import sqlite3

    import numpy as np

    from kenning.search.code import HUB_NEIGHBOURS, ChunkSearcher

    hub = [_unit(1.0, 0.0, 0.02 * n, 0.01) for n in range(12)]
    lone = _unit(0.0, 1.0)
    matrix = np.stack([*hub, lone])
    ids = list(range(100, 113))
    query = _unit(0.70, 0.66)
    assert float(matrix[0] @ query) > float(lone @ query)  # by cosine alone the hub wins
    searcher = ChunkSearcher(sqlite3.connect(":memory:"))
    ranked = searcher.nearest(ids, matrix, query, depth=5)
    assert ranked[0][0] == 112
    assert ranked[0][1] == pytest.approx(float(lone @ query))  # the cosine itself is kept
    assert len(ranked) == 5 and HUB_NEIGHBOURS < len(hub)


def test_crowding_is_the_mean_cosine_to_the_nearest_others_never_to_itself():
    import numpy as np

    from kenning.search.topk import neighbourhood

    matrix = np.stack([_unit(1.0), _unit(1.0, 0.1), _unit(0.0, 1.0), _unit(0.0, 0.0, 1.0)])
    rows = np.arange(4)
    whole = neighbourhood(matrix, rows, k=1, sample=8)
    assert whole[0] == pytest.approx(float(matrix[0] @ matrix[1]))  # not 1.0, itself
    assert whole[3] == pytest.approx(0.0, abs=1e-6)
    # beyond `sample` rows, every n-th row is the reference: still never the row itself
    sampled = neighbourhood(matrix, rows, k=1, sample=2)
    assert sampled[0] == pytest.approx(0.0, abs=1e-6)  # rows 0 and 2 compared; 0 skipped
    assert sampled[1] == pytest.approx(float(matrix[1] @ matrix[0]))


def test_a_rust_method_of_the_type_the_query_names_ranks_above_another_types():
    """Rust's doc comments name the type a method belongs to ("Creates an empty `Graph`"):
    its methods (`Graph.empty`, from the impl block's type) move up; a Python method, a free
    function and a sentence's capitalised first word are left alone."""
    rust = ("pub struct Graph {\n    nodes: Vec<u32>,\n}\n\n"
            "impl Graph {\n    pub fn empty() -> Self {\n        Self { nodes: Vec::new() }\n"
            "    }\n}\n\nimpl Default for Graph {\n    fn default() -> Self {\n"
            "        Self::empty()\n    }\n}\n")
    kinds = {c.symbol: c.kind for c in chunk_file("graph.rs", rust).chunks}
    assert kinds["Graph.empty"] == "method" and kinds["Graph.default"] == "trait impl"
    want = intent("Creates an empty `Graph<N, E>` with no nodes.")
    assert want.types == frozenset({"Graph"})
    assert factors("code", "src/graph.rs", "Graph.empty", want, "method", "rust") == \
        [("its type named", RECEIVER_FACTOR)]
    trait_impl = factors("code", "src/graph.rs", "Graph.default", want, "trait impl", "rust")
    assert ("its type named", RECEIVER_FACTOR) in trait_impl
    assert factors("code", "src/graph.rs", "Tree.empty", want, "method", "rust") == []
    assert factors("code", "src/graph.py", "Graph.empty", want, "method", "python") == []
    assert factors("code", "src/graph.rs", "empty", want, "function", "rust") == []
    assert intent("Graph the nodes").types == frozenset()  # first word, not a type


def test_a_query_naming_a_rust_type_finds_that_types_method_first(repo):
    from kenning.core.paths import current_project
    from kenning.memory import Memory

    commit_file(repo, "shapes.rs", (
        "pub struct Graph {\n    nodes: Vec<u32>,\n}\n\npub struct Tree {\n    nodes: Vec<u32>,\n}"
        "\n\nimpl Tree {\n    pub fn empty_nodes() -> Tree {\n        Tree { nodes: Vec::new() }\n"
        "    }\n}\n\nimpl Graph {\n    pub fn empty() -> Self {\n        Self { nodes: vec![] }\n"
        "    }\n}\n"), "shapes")
    memory = Memory(current_project(repo), "fake")
    memory.index_code()
    hits = memory.search("Creates an empty `Graph` with no nodes", types=("code",), record=None)
    assert [h.symbol for h in hits[:2]] == ["Graph.empty", "Tree.empty_nodes"]
    memory.close()


def test_a_rust_method_whose_types_last_word_the_query_says_moves_up_a_little():
    """Prose says "the map" for `HashMap`, "the graph" for `StableGraph`: that type's methods
    move up a little; a type named whole keeps the larger factor, and other languages, free
    functions and other types are left alone."""
    want = intent("Returns the number of elements in the map.")
    assert factors("code", "src/map.rs", "HashMap.len", want, "method", "rust") == \
        [("its type's last word named", TYPE_WORD_FACTOR)]
    assert factors("code", "src/map.rs", "HashMap.len", want, "trait impl", "rust")[-1] == \
        ("its type's last word named", TYPE_WORD_FACTOR)
    assert factors("code", "src/set.rs", "HashSet.len", want, "method", "rust") == []
    assert factors("code", "src/map.py", "HashMap.len", want, "method", "python") == []
    assert factors("code", "src/map.rs", "len", want, "function", "rust") == []
    named = intent("Returns the number of elements in the `HashMap`.")
    assert factors("code", "src/map.rs", "HashMap.len", named, "method", "rust") == \
        [("its type named", RECEIVER_FACTOR)]
    assert intent("Removes all nodes from the graphs.").stems >= {"graph"}  # plural too


def test_a_query_saying_a_rust_types_last_word_finds_that_types_method_first(repo):
    """Both legs put `HashSet.len` first (its body says "number"); "the map" lifts
    `HashMap.len` above it."""
    from kenning.core.paths import current_project
    from kenning.memory import Memory

    commit_file(repo, "tables.rs", (
        "impl HashSet {\n    pub fn len(&self) -> usize {\n        self.number\n    }\n}\n\n"
        "impl HashMap {\n    pub fn len(&self) -> usize {\n        self.table.len()\n    }\n}\n"),
        "tables")
    memory = Memory(current_project(repo), "fake")
    memory.index_code()
    hits = memory.search("Returns the number of elements in the map.", types=("code",),
                         record=None)
    assert [h.symbol for h in hits[:2]] == ["HashMap.len", "HashSet.len"]
    assert "its type's last word named" in hits[0].why
    assert "code keyword #1" in hits[1].why and "code semantic #1" in hits[1].why
    memory.close()


def test_a_docstring_parameter_list_in_the_query_names_parameters():
    """Sphinx's `:param name:` and Google's `Args:` entries (`name (type):`, `**kwargs:`)
    name parameters; a sentence with a colon does not."""
    assert documented_params(":param path: The base path for this project.") == {"path"}
    assert documented_params(":param str only_modules: Whether ...") == {"only_modules"}
    assert documented_params(
        "Sets the styling of an edge Args: src (str): Name of the source state "
        "dst (str): Name of the destination") == {"src", "dst"}
    assert documented_params("Args: **kwargs: If kwargs contains `tags`, assign them.") == \
        {"kwargs"}
    assert documented_params("Returns the value: a list of names.") == frozenset()
    assert signature_params("def __init__(self, func, target=True, *args, **kwargs):") == \
        {"self", "func", "target", "args", "kwargs"}
    assert signature_params("def f(a: Dict[str, int] = {}, b=(1, 2), *, c) -> X:") == \
        {"a", "b", "c"}
    want = intent("Args: func (str or callable): Name of the callable target (bool): ...")
    assert factors("code", "core.py", "Condition.__init__", want, "method", "python",
                   frozenset({"self", "func", "target"})) == \
        [("its parameters documented", PARAMS_FACTOR)]
    assert factors("code", "core.py", "Condition.check", want, "method", "python",
                   frozenset({"self", "func"})) == []  # every named parameter, or none
    assert factors("code", "core.py", "Condition", want, "class", "python",
                   frozenset({"func", "target"})) == [("a type, not a function", 0.6)]


def test_a_query_documenting_parameters_finds_the_function_that_declares_them(repo):
    """Both legs put `Condition.check` first (its body says "name" and "callable"); the
    query's parameter list names `func` and `target`, which only `Condition.__init__`
    declares."""
    from kenning.core.paths import current_project
    from kenning.memory import Memory

    commit_file(repo, "conditions.py", (
        "class Condition:\n"
        "    def check(self, name, callable_name):\n"
        "        return self.callable_name(name) == callable_name\n\n"
        "    def __init__(self, func, target=True):\n"
        "        self.func = func\n        self.target = target\n"), "conditions")
    memory = Memory(current_project(repo), "fake")
    memory.index_code()
    query = "Args: func (str): Name of the callable target (bool): the result to expect"
    hits = memory.search(query, types=("code",), record=None)
    assert [h.symbol for h in hits[:2]] == ["Condition.__init__", "Condition.check"]
    assert "its parameters documented" in hits[0].why
    assert "its parameters documented" not in hits[1].why
    memory.close()
