"""The optional LLM extractor: off by default, user config only, capped, redacted, deduped.

HTTP is replayed from cassettes (pytest-recording). They were recorded against the fake
server below, never a real provider: `pytest tests/test_llm_extractor.py --record-mode=once`
after deleting a cassette re-records it. The auth headers are filtered out of every cassette
and a test checks that the key is in none of them.
"""

from __future__ import annotations

import io
import json
import os
import threading
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml

from kenning.core.config import load_config
from kenning.core.errors import KenningError
from kenning.core.paths import current_project
from kenning.core.redact import find_secrets
from kenning.extract.llm import (
    USAGE_FILE,
    LLMExtractor,
    LLMSettings,
    TokenLedger,
    parse_facts,
    settings_from_config,
)

CASSETTES = Path(__file__).parent / "cassettes" / "test_llm_extractor"
KEY_ENV = "KENNING_TEST_LLM_KEY"
KEY = "sk-ant-api03-FAKEkey0for0kenning0tests0only0000000000000"
STAGING_PASSWORD = "Zq8stagingPass44"
REPLY = {"facts": [
    {"kind": "decision", "text": "HTTP retries are shared by both transports through "
     "RetryPolicy in src/http/retry.py.", "rationale": "The transports had drifted apart."},
    {"kind": "codebase", "text": "The staging database is reached with "
     f"password={STAGING_PASSWORD} over the VPN only."},
    {"kind": "codebase",
     "text": "The retry budget must stay under 30 seconds so the CLI never looks hung."},
    {"kind": "opinion", "text": "ok"},
]}
TOKEN = "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"
SESSION = f"""\
name: retry-work
summary: Moved retries into src/http/retry.py. The staging token is {TOKEN}.
constraints:
  - The retry budget must stay under 30 seconds so the CLI never looks hung.
"""


class FakeLLM(BaseHTTPRequestHandler):
    """Answers like the two providers, and only with the right key."""

    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        if self.path == "/v1/messages":
            ok = (self.headers.get("x-api-key") == KEY
                  and self.headers.get("anthropic-version") == "2023-06-01")
            reply = {"id": "msg_fake", "type": "message", "role": "assistant",
                     "model": body["model"], "stop_reason": "end_turn",
                     "content": [{"type": "text",
                                  "text": "```json\n" + json.dumps(REPLY) + "\n```"}],
                     "usage": {"input_tokens": 812, "output_tokens": 95}}
        elif self.path == "/v1/chat/completions":
            ok = self.headers.get("authorization") == f"Bearer {KEY}"
            reply = {"id": "chatcmpl-fake", "object": "chat.completion", "model": body["model"],
                     "choices": [{"index": 0, "finish_reason": "stop", "message": {
                         "role": "assistant", "content": json.dumps(REPLY)}}],
                     "usage": {"prompt_tokens": 700, "completion_tokens": 80,
                               "total_tokens": 780}}
        else:
            self.send_error(404)
            return
        status = 200 if ok else 401
        if not ok:
            reply = {"type": "error", "error": {"type": "authentication_error",
                                                "message": "invalid x-api-key"}}
        data = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def fake_llm():
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeLLM)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def vcr_config():
    # The fake server's port changes from run to run: match on what the request asks for.
    return {"filter_headers": ["authorization", "x-api-key"],
            "match_on": ["method", "scheme", "path"]}


@pytest.fixture(scope="module")
def vcr_cassette_dir():
    return str(CASSETTES)


def _configure(**llm) -> None:
    home = Path(os.environ["KENNING_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    lines = ["[llm]"] + [f"{k} = {json.dumps(v)}" for k, v in llm.items()]
    (home / "config.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def save(kenning, monkeypatch):
    def run(text: str = SESSION, *args: str) -> dict:
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        result = kenning("save", "--json", *args)
        assert result.code == 0, result.err
        return json.loads(result.out)

    return run


def _ledger() -> dict | None:
    path = Path(os.environ["KENNING_HOME"]) / USAGE_FILE
    return json.loads(path.read_text()) if path.exists() else None


def _today() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d")


def _facts() -> list[dict]:
    folder = current_project().personal_facts_dir
    return [yaml.safe_load(p.read_text()) for p in sorted(folder.glob("*.yaml"))]


# --- off by default -------------------------------------------------------------------------


@pytest.mark.block_network
def test_the_llm_extractor_is_off_by_default(save, isolated):
    assert settings_from_config(load_config(current_project()).llm) is None
    out = save()
    assert "llm" not in out
    assert len(_facts()) == 1 and _ledger() is None


@pytest.mark.block_network
def test_a_committed_project_config_cannot_turn_it_on(save, kenning, repo, fake_llm):
    assert kenning("init", "--no-move-facts").code == 0
    (repo / ".kenning" / "config.toml").write_text(
        f'[llm]\nprovider = "anthropic"\nmodel = "m"\nendpoint = "{fake_llm}"\n'
        f'api_key_env = "{KEY_ENV}"\n', encoding="utf-8")
    assert load_config(current_project()).llm == {}
    assert "llm" not in save()


@pytest.mark.block_network
def test_enabled_false_keeps_it_off(save, fake_llm):
    _configure(provider="anthropic", model="m", endpoint=fake_llm, enabled=False)
    assert "llm" not in save()


# --- one call per saved session, both providers ------------------------------------------------


@pytest.mark.vcr
def test_anthropic_facts_go_through_redaction_and_dedup(save, fake_llm, monkeypatch, vcr):
    monkeypatch.setenv(KEY_ENV, KEY)
    _configure(provider="anthropic", model="claude-haiku-4-5", endpoint=fake_llm,
               api_key_env=KEY_ENV, daily_token_cap=5000)
    out = save(SESSION, "--origin", "agent")
    assert len(vcr.requests) == 1  # one call for the saved session
    sent = json.loads(vcr.requests[0].body)
    assert sent["model"] == "claude-haiku-4-5" and "ghp_" not in json.dumps(sent)
    assert "[REDACTED:github_token]" in sent["messages"][0]["content"]
    assert out["llm"]["skipped"] is None and out["llm"]["tokens"] == 907
    _check_llm_facts(out)
    assert _ledger() == {"day": _today(), "tokens": 907}


@pytest.mark.vcr
def test_openai_compatible_facts_go_through_redaction_and_dedup(save, fake_llm, monkeypatch,
                                                                 vcr):
    monkeypatch.setenv(KEY_ENV, KEY)
    _configure(provider="openai-compatible", model="gpt-test", endpoint=fake_llm + "/v1",
               api_key_env=KEY_ENV)
    out = save(SESSION, "--origin", "agent")
    assert len(vcr.requests) == 1
    sent = json.loads(vcr.requests[0].body)
    assert sent["model"] == "gpt-test" and sent["messages"][0]["role"] == "system"
    assert "ghp_" not in json.dumps(sent)
    assert out["llm"]["tokens"] == 780
    _check_llm_facts(out)
    assert _ledger() == {"day": _today(), "tokens": 780}


def _check_llm_facts(out: dict) -> None:
    llm = {f["text"]: f for f in out["llm"]["facts"]}
    assert len(llm) == 3  # "ok" is not a fact
    constraint = out["facts"][0]["id"]
    dup = llm["The retry budget must stay under 30 seconds so the CLI never looks hung."]
    assert dup["action"] == "reconfirmed" and dup["id"] == constraint
    facts = {f["id"]: f for f in _facts()}
    assert len(facts) == 3
    secret = llm["The staging database is reached with password=[REDACTED:password] over "
                 "the VPN only."]
    assert secret["action"] == "added"
    stored = facts[secret["id"]]
    assert stored["source"] == {"origin": "transcript", "rule": "llm"}
    assert stored["confidence"] == 0.70
    decision = [f for f in facts.values() if f["kind"] == "decision"]
    assert decision[0]["rationale"] == "The transports had drifted apart."
    assert facts[constraint]["confidence"] == 0.90  # re-confirmed by the second source
    record = yaml.safe_load((current_project().sessions_dir / "retry-work.yaml").read_text())
    assert set(record["facts"]) == set(facts)
    for fact in facts.values():
        assert STAGING_PASSWORD not in str(fact)


@pytest.mark.vcr
def test_a_rejected_key_is_reported_and_the_save_still_succeeds(save, fake_llm, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "wrong-key")
    _configure(provider="anthropic", model="m", endpoint=fake_llm, api_key_env=KEY_ENV)
    out = save()
    assert "HTTP 401" in out["llm"]["skipped"] and "wrong-key" not in out["llm"]["skipped"]
    assert out["name"] == "retry-work" and len(_facts()) == 1
    assert _ledger() == {"day": _today(), "tokens": 0}  # the reservation is given back


# --- the cap and the key ----------------------------------------------------------------------


@pytest.mark.block_network
def test_the_daily_token_cap_stops_the_call(save, fake_llm, monkeypatch):
    monkeypatch.setenv(KEY_ENV, KEY)
    _configure(provider="anthropic", model="m", endpoint=fake_llm, api_key_env=KEY_ENV,
               daily_token_cap=200)
    out = save()
    assert out["llm"]["skipped"].startswith("daily token cap reached (0 of 200")
    assert len(_facts()) == 1


@pytest.mark.block_network
def test_tokens_spent_today_count_against_the_cap(save, fake_llm, monkeypatch):
    monkeypatch.setenv(KEY_ENV, KEY)
    _configure(provider="anthropic", model="m", endpoint=fake_llm, api_key_env=KEY_ENV,
               daily_token_cap=5000)
    TokenLedger(Path(os.environ["KENNING_HOME"]) / USAGE_FILE)._write(_today(), 4500)
    out = save()
    assert out["llm"]["skipped"] == "daily token cap reached (4500 of 5000 used today)"


def test_the_ledger_starts_afresh_each_day(tmp_path):
    ledger = TokenLedger(tmp_path / USAGE_FILE)
    assert ledger.reserve("2026-11-28", 900, 1000)
    assert not ledger.reserve("2026-11-28", 200, 1000)
    assert ledger.reserve("2026-11-29", 900, 1000)
    ledger.adjust("2026-11-29", -400)
    assert ledger.used("2026-11-29") == 500 and ledger.used("2026-11-28") == 0


@pytest.mark.block_network
def test_a_missing_key_skips_the_call(save, fake_llm, monkeypatch):
    monkeypatch.delenv(KEY_ENV, raising=False)
    _configure(provider="anthropic", model="m", endpoint=fake_llm, api_key_env=KEY_ENV)
    out = save()
    assert out["llm"]["skipped"].startswith(f"${KEY_ENV} is not set")
    assert _ledger() is None


@pytest.mark.block_network
def test_no_llm_flag_skips_it(save, fake_llm, monkeypatch):
    monkeypatch.setenv(KEY_ENV, KEY)
    _configure(provider="anthropic", model="m", endpoint=fake_llm, api_key_env=KEY_ENV)
    assert "llm" not in save(SESSION, "--no-llm")


def test_no_cassette_holds_a_key_or_an_auth_header():
    cassettes = sorted(CASSETTES.glob("*.yaml"))
    assert len(cassettes) == 3
    for path in cassettes:
        text = path.read_text(encoding="utf-8")
        assert KEY not in text and "wrong-key" not in text
        for interaction in yaml.safe_load(text)["interactions"]:
            headers = {h.lower() for h in interaction["request"]["headers"]}
            assert not headers & {"authorization", "x-api-key"}
            body = interaction["request"]["body"]
            assert "ghp_" not in body and find_secrets(body) == []


# --- settings and parsing ---------------------------------------------------------------------


@pytest.mark.parametrize("table,message", [
    ({"provider": "gemini", "model": "m"}, "provider must be one of"),
    ({"provider": "anthropic"}, "model is required"),
    ({"provider": "openai-compatible", "model": "m"}, "endpoint is required"),
    ({"provider": "anthropic", "model": "m", "daily_token_cap": "lots"}, "whole numbers"),
    ({"provider": "anthropic", "model": "m", "api_key_env": ""}, "api_key_env"),
])
def test_bad_llm_settings_name_the_config_table(table, message):
    with pytest.raises(KenningError, match=message):
        settings_from_config(table)


@pytest.mark.parametrize("endpoint,url", [
    (None, "https://api.anthropic.com/v1/messages"),
    ("http://h:1", "http://h:1/v1/messages"),
    ("http://h:1/v1/", "http://h:1/v1/messages"),
    ("http://h:1/v1/messages", "http://h:1/v1/messages"),
])
def test_anthropic_endpoint_forms(endpoint, url):
    table = {"provider": "anthropic", "model": "m", "endpoint": endpoint}
    assert settings_from_config({k: v for k, v in table.items() if v}).endpoint == url


def test_openai_endpoint_gets_the_chat_completions_path():
    s = settings_from_config({"provider": "openai-compatible", "model": "m",
                              "endpoint": "http://localhost:11434/v1"})
    assert s.endpoint == "http://localhost:11434/v1/chat/completions"
    assert s.api_key_env is None  # a local server may need no key


@pytest.mark.parametrize("reply,texts", [
    ('```json\n{"facts": [{"kind": "codebase", "text": "Use uv for installs."}]}\n```',
     ["Use uv for installs."]),
    ('Here you go: [{"text": "The API pins httpx below 1.0."}]', ["The API pins httpx below 1.0."]),
    ("I found nothing durable.", []),
    ('{"facts": [{"text": 5}, "x", {"text": "too short"}]}', []),
])
def test_parse_facts_tolerates_fences_prose_and_junk(reply, texts):
    assert [c.text for c in parse_facts(reply)] == texts


def test_an_unreachable_endpoint_is_reported_not_raised(tmp_path):
    settings = LLMSettings(provider="anthropic", model="m",
                           endpoint="http://127.0.0.1:9/v1/messages", api_key_env=None, timeout=2)
    result = LLMExtractor(settings, None, TokenLedger(tmp_path / USAGE_FILE))("some text")
    assert result.skipped.startswith("cannot reach the LLM endpoint")
    assert result.candidates == []


def test_the_claude_cli_provider_needs_no_key_and_defaults_to_haiku():
    from kenning.extract.llm import settings_from_config

    s = settings_from_config({"provider": "claude-cli"})
    assert (s.model, s.command, s.api_key_env) == ("haiku", "claude", None)


def test_a_missing_claude_executable_is_reported_not_raised(tmp_path):
    from kenning.extract.llm import LLMExtractor, TokenLedger, settings_from_config

    s = settings_from_config({"provider": "claude-cli", "command": str(tmp_path / "nope")})
    result = LLMExtractor(s, None, TokenLedger(tmp_path / "usage.json"))("some session text")
    assert result.candidates == [] and "not installed" in (result.skipped or "")
