"""The typed schema of the config files: each key, its check, and the reader. Stdlib only and
light (the UserPromptSubmit hook reads `[hooks]` through it); `config.load_config` is what
entry points call.

Files are read through the one read path (a regular file of at most 64 KB); every known key
is checked for type and range, with a message naming the file and the key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kenning.core.errors import FileProblemError, KenningError
from kenning.core.safeio import display, read_text

MAX_CONFIG_BYTES = 64 * 1024
MAX_IGNORES = 1000
PROMPT_SEARCH = ("fts", "hybrid")
ASK_AGENT = ("interactive", "always", "never")
FINDINGS = ("durable", "off")


class ConfigError(KenningError):
    """A key of a config file with the wrong type or an out-of-range value."""

    def __init__(self, path: Path, key: str, problem: str):
        self.key = key
        super().__init__(f"{display(path)}: {key}: {problem}; fix or remove it")


# ---- value checks: each returns the clean value or raises ValueError with the problem ----
def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 4096:
        raise ValueError("must be a non-empty string")
    return value


def _patterns(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(p, str) and p for p in value):
        raise ValueError('must be a list of glob patterns, e.g. ["*.md", "docs/**"]')
    if len(value) > MAX_IGNORES:
        raise ValueError(f"at most {MAX_IGNORES} patterns")
    return tuple(value)


def _kilobytes(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1024 * 1024:
        raise ValueError("must be a whole number of kilobytes from 1 to 1048576")
    return value


def _llm(value: Any) -> dict[str, Any]:
    """`[llm]` as a table, or the short form `llm = "anthropic"` (provider only)."""
    if isinstance(value, str):
        return {"provider": value}
    if isinstance(value, dict):
        return dict(value)
    raise ValueError("must be a provider name or an [llm] table")


def _prompt_search(value: Any) -> str:
    if value not in PROMPT_SEARCH:
        raise ValueError(f"must be one of {', '.join(PROMPT_SEARCH)}")
    return value


def _ask_agent(value: Any) -> str:
    """`[extract] ask_agent`: when the Stop hook asks the agent to record what it learnt;
    true and false stand for "always" and "never"."""
    if isinstance(value, bool):
        value = "always" if value else "never"
    if value not in ASK_AGENT:
        raise ValueError(f"must be one of {', '.join(ASK_AGENT)}")
    return value


def _findings(value: Any) -> str:
    """`[extract] findings`: whether the offline rules keep the agent's durable findings
    (extract/conclusions.py); true and false stand for "durable" and "off"."""
    if isinstance(value, bool):
        value = "durable" if value else "off"
    if value not in FINDINGS:
        raise ValueError(f"must be one of {', '.join(FINDINGS)}")
    return value


# (table, key) -> check; None for top-level keys. Which file may set each is in `load_config`.
SCHEMA: dict[tuple[str | None, str], Callable[[Any], Any]] = {
    (None, "embedder"): _text,
    (None, "llm"): _llm,
    ("index", "ignore"): _patterns,
    ("index", "max_file_kb"): _kilobytes,
    ("hooks", "prompt_search"): _prompt_search,
    ("extract", "ask_agent"): _ask_agent,
    ("extract", "findings"): _findings,
}
TABLES = ("index", "hooks", "llm", "extract")


def read_toml(path: Path) -> dict[str, Any]:
    """A config file's tables through the read path; {} when absent. Raises ConfigError."""
    try:
        return tomllib.loads(read_text(path, MAX_CONFIG_BYTES))
    except FileNotFoundError:
        return {}
    except FileProblemError as exc:
        raise ConfigError(path, exc.field, exc.problem) from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, "file", f"not valid TOML ({exc})") from exc


def check(data: dict[str, Any], path: Path) -> tuple[dict[tuple[str | None, str], Any],
                                                     list[ConfigError]]:
    """The known keys' checked values, and a ConfigError for each bad one (unknown keys are
    ignored: a newer kenning may add some)."""
    values: dict[tuple[str | None, str], Any] = {}
    errors: list[ConfigError] = []
    for table in TABLES:
        if table in data and table != "llm" and not isinstance(data[table], dict):
            errors.append(ConfigError(path, table, f"must be a table ([{table}])"))
    for (table, key), validate in SCHEMA.items():
        holder = data if table is None else data.get(table)
        if not isinstance(holder, dict) or key not in holder:
            continue
        name = key if table is None else f"{table}.{key}"
        try:
            values[(table, key)] = validate(holder[key])
        except ValueError as exc:
            errors.append(ConfigError(path, name, str(exc)))
    return values, errors


def user_settings(home: Path) -> dict[tuple[str | None, str], Any]:
    """The user's file, checked; raises ConfigError on the first problem."""
    path = home / "config.toml"
    values, errors = check(read_toml(path), path)
    if errors:
        raise errors[0]
    return values


