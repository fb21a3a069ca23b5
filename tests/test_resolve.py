"""Resolving `--about file:Symbol` against the code index (misspelled, unqualified, moved)."""

import json

import pytest

from conftest import git
from kenning.core.paths import current_project
from kenning.core.records import Anchor
from kenning.lifecycle.resolve import has_symbols, resolve
from kenning.memory import Memory

SOURCE = {
    "src/http/retry.py": "class RetryPolicy:\n    def backoff(self, n):\n        return 2 ** n\n\n"
                         "    def give_up(self, n):\n        return n > 5\n",
    "src/billing/invoices.py": "def send_invoice(invoice):\n    return invoice\n\n\n"
                               "def void_invoice(invoice):\n    invoice.void = True\n",
}


@pytest.fixture
def indexed(repo, kenning):
    for rel, text in SOURCE.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "code")
    assert kenning("index").code == 0
    memory = Memory(current_project())
    yield memory
    memory.close()


def hash_of(memory, path, qualname):
    return memory.index.conn.execute(
        "SELECT body_hash FROM symbols WHERE path = ? AND qualname = ?",
        (path, qualname)).fetchone()[0]


def test_an_exact_symbol_gets_its_body_hash(indexed):
    result = resolve(indexed.index.conn, Anchor("src/http/retry.py", "RetryPolicy.backoff"))
    assert result.status == "exact" and result.note is None
    assert result.anchor.hash == hash_of(indexed, "src/http/retry.py", "RetryPolicy.backoff")


def test_a_misspelled_symbol_is_corrected_with_a_note(indexed):
    result = resolve(indexed.index.conn, Anchor("src/http/retry.py", "RetryPolicy.backof"))
    assert result.status == "corrected"
    assert result.anchor.symbol == "RetryPolicy.backoff"
    assert "RetryPolicy.backof -> RetryPolicy.backoff" in result.note


def test_an_unqualified_method_name_gets_its_class(indexed):
    result = resolve(indexed.index.conn, Anchor("src/http/retry.py", "give_up"))
    assert result.anchor.symbol == "RetryPolicy.give_up"


def test_a_symbol_named_in_the_wrong_file_is_found_where_it_lives(indexed):
    result = resolve(indexed.index.conn, Anchor("src/http/retry.py", "send_invoice"))
    assert result.status == "moved"
    assert (result.anchor.file, result.anchor.symbol) == ("src/billing/invoices.py",
                                                          "send_invoice")


def test_a_misspelled_path_is_corrected(indexed):
    result = resolve(indexed.index.conn, Anchor("src/billing/invoice.py", "void_invoice"))
    assert result.anchor.file == "src/billing/invoices.py"
    assert result.anchor.hash


def test_an_unknown_symbol_is_kept_as_written_without_a_hash(indexed):
    result = resolve(indexed.index.conn, Anchor("src/http/retry.py", "CircuitBreaker"))
    assert result.status == "unresolved"
    assert result.anchor == Anchor("src/http/retry.py", "CircuitBreaker")
    assert "no symbol CircuitBreaker" in result.note


def test_without_a_code_index_nothing_is_resolved(repo):
    memory = Memory(current_project())
    assert not has_symbols(memory.index.conn)
    result = resolve(memory.index.conn, Anchor("src/x.py", "f"))
    assert result.status == "unchecked" and result.anchor == Anchor("src/x.py", "f")


def test_add_about_stores_the_resolved_anchor_and_reports_the_correction(indexed):
    result = indexed.add("Backoff doubles per attempt.", "codebase",
                         about=[Anchor("src/http/retry.py", "RetryPolicy.backof")])
    anchor = result.fact.about[0]
    assert anchor.symbol == "RetryPolicy.backoff" and anchor.hash
    assert any("RetryPolicy.backoff" in note for note in result.notes)


def test_cli_add_about_records_the_hash_in_the_fact_file(indexed, kenning):
    out = json.loads(kenning("add", "--json", "--about", "src/billing/invoices.py:void_invoice",
                             "Voiding an invoice only sets a flag.").out)
    fact = indexed.store.get(out["id"])
    assert fact.about[0].hash == hash_of(indexed, "src/billing/invoices.py", "void_invoice")
