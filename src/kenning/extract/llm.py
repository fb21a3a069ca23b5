"""Optional LLM extractor: one call per saved session, off unless the user's config says so.

A paid call must never be switched on for a whole team by a committed file, so the settings
come from the `[llm]` table of `$KENNING_HOME/config.toml` only (DESIGN §4.4):

    [llm]
    provider = "anthropic"            # or "openai-compatible"
    model = "claude-haiku-4-5"
    api_key_env = "ANTHROPIC_API_KEY" # the NAME of the variable; the key never sits in a file
    endpoint = "https://api.anthropic.com/v1/messages"   # optional for anthropic
    daily_token_cap = 50000

Without an API key, `provider = "claude-cli"` runs the user's own Claude Code (`claude -p`, their
login) instead: `model` defaults to "haiku" and `command` to "claude"; it gets no tools, no MCP
servers, no session file, and `KENNING_DISABLE=1` so kenning's own hooks stay out of it.

The input is redacted before it leaves the machine; the facts that come back are plain
`Candidate`s that the pipeline redacts and deduplicates like the rules' output. A daily
token ledger under KENNING_HOME enforces the cap (reserved before the call, settled after).
Stdlib `urllib` only: no SDK, nothing extra to install.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from kenning.core import clock
from kenning.core.atomic import write_atomic
from kenning.core.errors import KenningError
from kenning.core.records import KINDS
from kenning.core.redact import redact
from kenning.extract.model import Candidate

PROVIDERS = ("anthropic", "openai-compatible", "claude-cli")
CLAUDE_CLI_MODEL = "haiku"
ANTHROPIC_ENDPOINT = "https://api.anthropic.com/v1/messages"
ANTHROPIC_VERSION = "2023-06-01"
DEFAULT_DAILY_CAP = 50_000
DEFAULT_MAX_OUTPUT = 1024
USAGE_FILE = "llm-usage.json"
MAX_FACTS = 20
MAX_FACT_CHARS = 400
MAX_INPUT_CHARS = 24_000

SYSTEM_PROMPT = """\
You extract durable knowledge from a record of one coding session, for a project memory \
that later sessions will read. Return only JSON: {"facts": [{"kind": "...", "text": "...", \
"rationale": "..."}]}.
- kind is "codebase" (how this code works or must be worked on), "decision" (a choice made, \
with its reason in rationale) or "interaction" (how the user wants the assistant to behave).
- text is one self-contained sentence a newcomer understands without the session; name \
files and identifiers exactly.
- Keep only what stays true after this session: no status updates, no one-off commands, no \
guesses, nothing already disproved. Fewer, precise facts beat many. At most 12.
- Never include secrets, keys, passwords or tokens.
If nothing qualifies, return {"facts": []}."""


@dataclass(frozen=True)
class LLMSettings:
    provider: str
    model: str
    endpoint: str
    api_key_env: str | None
    daily_token_cap: int = DEFAULT_DAILY_CAP
    max_output_tokens: int = DEFAULT_MAX_OUTPUT
    timeout: float = 60.0
    command: str | None = None  # claude-cli: the `claude` executable


@dataclass
class LLMResult:
    candidates: list[Candidate] = field(default_factory=list)
    tokens: int = 0
    skipped: str | None = None  # why no call was made, or why it failed


def _endpoint(provider: str, endpoint: str | None) -> str:
    if provider == "claude-cli":
        return ""
    if provider == "anthropic":
        url = (endpoint or ANTHROPIC_ENDPOINT).rstrip("/")
        if url.endswith("/messages"):
            return url
        return url + ("/messages" if url.endswith("/v1") else "/v1/messages")
    if not endpoint:
        raise KenningError("[llm] endpoint is required for provider 'openai-compatible' "
                           "(e.g. https://api.openai.com/v1)")
    url = endpoint.rstrip("/")
    return url if url.endswith("/chat/completions") else url + "/chat/completions"


def settings_from_config(table: Mapping[str, Any] | None) -> LLMSettings | None:
    """The `[llm]` table of the user config as settings; None (off) when it is absent,
    empty or says `enabled = false`."""
    if not table or table.get("enabled") is False:
        return None
    where = "$KENNING_HOME/config.toml [llm]"
    provider = table.get("provider")
    if provider not in PROVIDERS:
        raise KenningError(f"{where}: provider must be one of {', '.join(PROVIDERS)}")
    model = table.get("model", CLAUDE_CLI_MODEL if provider == "claude-cli" else None)
    if not isinstance(model, str) or not model:
        raise KenningError(f"{where}: model is required")
    command = table.get("command", "claude") if provider == "claude-cli" else None
    if command is not None and (not isinstance(command, str) or not command.strip()):
        raise KenningError(f"{where}: command must name the claude executable")
    key_env = table.get("api_key_env")
    if key_env is not None and (not isinstance(key_env, str) or not key_env.strip()):
        raise KenningError(f"{where}: api_key_env must name an environment variable")
    cap = table.get("daily_token_cap", DEFAULT_DAILY_CAP)
    max_out = table.get("max_output_tokens", DEFAULT_MAX_OUTPUT)
    if not isinstance(cap, int) or cap < 0 or not isinstance(max_out, int) or max_out < 1:
        raise KenningError(f"{where}: daily_token_cap and max_output_tokens are whole numbers")
    timeout = table.get("timeout", 60.0)
    if not isinstance(timeout, int | float) or timeout <= 0:
        raise KenningError(f"{where}: timeout is a number of seconds")
    return LLMSettings(
        provider=provider, model=model, endpoint=_endpoint(provider, table.get("endpoint")),
        api_key_env=key_env, daily_token_cap=cap, max_output_tokens=max_out,
        timeout=float(timeout), command=command,
    )


# --- the daily token ledger --------------------------------------------------------------------


class TokenLedger:
    """Tokens spent today (UTC), kept in one small JSON file; updated under a lock."""

    def __init__(self, path: Path):
        self.path = path

    def _read(self, day: str) -> int:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return 0
        return int(data.get("tokens", 0)) if isinstance(data, dict) and data.get("day") == day \
            else 0

    def used(self, day: str) -> int:
        return self._read(day)

    def reserve(self, day: str, tokens: int, cap: int) -> bool:
        """Book `tokens` for today unless that would pass `cap`."""
        from kenning.core.locks import exclusive_lock

        with exclusive_lock(self.path.with_name(self.path.name + ".lock")):
            used = self._read(day)
            if used + tokens > cap:
                return False
            self._write(day, used + tokens)
            return True

    def adjust(self, day: str, delta: int) -> None:
        from kenning.core.locks import exclusive_lock

        with exclusive_lock(self.path.with_name(self.path.name + ".lock")):
            self._write(day, max(0, self._read(day) + delta))

    def _write(self, day: str, tokens: int) -> None:
        write_atomic(self.path, json.dumps({"day": day, "tokens": tokens}))


# --- one call ------------------------------------------------------------------------------


def build_request(settings: LLMSettings, api_key: str | None, text: str
                  ) -> tuple[str, dict[str, str], bytes]:
    headers = {"content-type": "application/json", "user-agent": "kenning"}
    if settings.provider == "anthropic":
        body: dict[str, Any] = {
            "model": settings.model, "max_tokens": settings.max_output_tokens,
            "temperature": 0, "system": SYSTEM_PROMPT,
            "messages": [{"role": "user", "content": text}],
        }
        headers["anthropic-version"] = ANTHROPIC_VERSION
        if api_key:
            headers["x-api-key"] = api_key
    else:
        body = {
            "model": settings.model, "max_tokens": settings.max_output_tokens,
            "temperature": 0,
            "messages": [{"role": "system", "content": SYSTEM_PROMPT},
                         {"role": "user", "content": text}],
        }
        if api_key:
            headers["authorization"] = f"Bearer {api_key}"
    return settings.endpoint, headers, json.dumps(body).encode("utf-8")


def parse_response(provider: str, data: Any) -> tuple[str, int | None]:
    """(the model's text, tokens used or None) from either provider's reply."""
    if not isinstance(data, dict):
        raise KenningError("the LLM endpoint returned something other than a JSON object")
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    if provider == "anthropic":
        blocks = data.get("content") or []
        text = "".join(b.get("text", "") for b in blocks
                       if isinstance(b, dict) and b.get("type") == "text")
        parts = [usage.get("input_tokens"), usage.get("output_tokens")]
    else:
        choices = data.get("choices") or [{}]
        message = choices[0].get("message", {}) if isinstance(choices[0], dict) else {}
        text = (message.get("content") or "") if isinstance(message, dict) else ""
        total = usage.get("total_tokens")
        parts = [total] if isinstance(total, int) else [usage.get("prompt_tokens"),
                                                         usage.get("completion_tokens")]
    numbers = [p for p in parts if isinstance(p, int)]
    return str(text), (sum(numbers) if numbers else None)


def parse_facts(text: str) -> list[Candidate]:
    """The facts in the model's answer (JSON, maybe fenced); anything malformed is skipped."""
    start, end = text.find("{"), text.rfind("}")
    list_start = text.find("[")
    try:
        if start >= 0 and end > start and not (0 <= list_start < start):
            data: Any = json.loads(text[start : end + 1])
        else:
            data = json.loads(text[list_start : text.rfind("]") + 1])
    except ValueError:
        return []
    items = data.get("facts") if isinstance(data, dict) else data
    out: list[Candidate] = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            continue
        fact = " ".join(item["text"].split())
        if len(fact.split()) < 3 or len(fact) > MAX_FACT_CHARS:
            continue
        kind = item.get("kind") if item.get("kind") in KINDS else "codebase"
        why = item.get("rationale")
        why = " ".join(why.split())[:MAX_FACT_CHARS] if isinstance(why, str) and why.strip() \
            else None
        out.append(Candidate(kind=kind, text=fact, rationale=why, evidence="", rule="llm"))
        if len(out) >= MAX_FACTS:
            break
    return out


def _post(url: str, headers: dict[str, str], body: bytes, timeout: float) -> Any:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        detail = redact(exc.read(500).decode("utf-8", "replace")) if exc.fp else ""
        raise KenningError(f"LLM endpoint {url} answered HTTP {exc.code}: {detail[:200]}; "
                           "check the model name and the key") from None
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise KenningError(f"cannot reach the LLM endpoint {url}: {reason}") from None
    except ValueError as exc:
        raise KenningError(f"LLM endpoint {url} returned invalid JSON: {exc}") from None


def run_claude_cli(settings: LLMSettings, text: str) -> tuple[str, int | None]:
    """One `claude -p` call with the user's own login: (the answer, tokens used or None).

    Nothing but the prompt goes in: no tools, no MCP servers, no slash commands, no session
    file, and kenning's hooks switched off (`KENNING_DISABLE=1`) so a plugin install of
    kenning does not inject into, or extract from, its own extractor's session.
    """
    import os
    import subprocess
    import tempfile

    argv = [settings.command or "claude", "-p", "--model", settings.model,
            "--output-format", "json", "--tools", "", "--strict-mcp-config",
            "--no-session-persistence", "--disable-slash-commands",
            "--system-prompt", SYSTEM_PROMPT]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_PROJECT_DIR",
                                                                    "CLAUDECODE"))}
    env["KENNING_DISABLE"] = "1"
    try:
        with tempfile.TemporaryDirectory(prefix="kenning-llm-") as cwd:
            done = subprocess.run(argv, input=text, capture_output=True, text=True,
                                  encoding="utf-8", timeout=settings.timeout, env=env, cwd=cwd)
    except FileNotFoundError:
        raise KenningError(f"`{argv[0]}` is not installed or not on PATH; set [llm] command "
                           "to the claude executable") from None
    except subprocess.TimeoutExpired:
        raise KenningError(f"`claude -p` did not answer within {settings.timeout:.0f} s") \
            from None
    try:
        data = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else {}
    except ValueError:
        data = {}
    if done.returncode != 0 or not isinstance(data, dict) or data.get("is_error"):
        detail = redact((str(data.get("result", "")) if isinstance(data, dict) else "")
                        or done.stderr)[:200]
        raise KenningError(f"`claude -p` failed (exit {done.returncode}): {detail}; check that "
                           "`claude` is logged in")
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    numbers = [usage.get(k) for k in ("input_tokens", "output_tokens",
                                      "cache_creation_input_tokens")]
    used = sum(n for n in numbers if isinstance(n, int)) or None
    return str(data.get("result") or ""), used


class LLMExtractor:
    """Callable: redacted session text in, candidate facts out. Never raises; a skipped or
    failed call says why in `LLMResult.skipped`."""

    def __init__(self, settings: LLMSettings, api_key: str | None, ledger: TokenLedger,
                 clock: Callable[[], datetime] = clock.now):
        self.settings = settings
        self.api_key = api_key
        self.ledger = ledger
        self.clock = clock

    def __call__(self, text: str) -> LLMResult:
        s = self.settings
        if s.api_key_env and not self.api_key:
            return LLMResult(skipped=f"${s.api_key_env} is not set; the LLM extractor needs "
                                     "the key in that environment variable")
        text = redact(text)[:MAX_INPUT_CHARS]
        estimate = (len(SYSTEM_PROMPT) + len(text)) // 3 + s.max_output_tokens
        day = self.clock().strftime("%Y-%m-%d")
        if not self.ledger.reserve(day, estimate, s.daily_token_cap):
            return LLMResult(skipped=f"daily token cap reached ({self.ledger.used(day)} of "
                                     f"{s.daily_token_cap} used today)")
        try:
            if s.provider == "claude-cli":
                reply, used = run_claude_cli(s, text)
            else:
                url, headers, body = build_request(s, self.api_key, text)
                reply, used = parse_response(s.provider, _post(url, headers, body, s.timeout))
        except KenningError as exc:
            self.ledger.adjust(day, -estimate)
            return LLMResult(skipped=str(exc))
        tokens = used if used is not None else estimate
        self.ledger.adjust(day, tokens - estimate)
        return LLMResult(candidates=parse_facts(reply), tokens=tokens)


def extractor_from_config(table: Mapping[str, Any] | None, environ: Mapping[str, str],
                          home: Path, clock: Callable[[], datetime] = clock.now
                          ) -> LLMExtractor | None:
    """For entry points: the configured extractor, or None when the user has not turned it
    on. `environ` supplies the key by the name the config gives."""
    settings = settings_from_config(table)
    if settings is None:
        return None
    key = environ.get(settings.api_key_env) if settings.api_key_env else None
    return LLMExtractor(settings, key, TokenLedger(home / USAGE_FILE), clock)


def configured_extractor(project: Any, clock: Callable[[], datetime] = clock.now
                         ) -> LLMExtractor | None:
    """For entry points: read the user's config and environment (nothing below does)."""
    import os

    from kenning.core.config import load_config

    return extractor_from_config(load_config(project).llm, os.environ, project.home, clock)
