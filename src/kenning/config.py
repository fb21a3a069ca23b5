"""Configuration: the user's file under KENNING_HOME and the project's `.kenning/config.toml`.

Only entry points read config; everything below them takes plain arguments. A paid LLM call
is switched on in the user file only, never by a file a team commits.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import KenningError
from .paths import Project

DEFAULT_IGNORES = (
    "*.lock", "package-lock.json", "*.min.js", "*.map", "node_modules/**", ".venv/**",
    "dist/**", "build/**", ".kenning/**",
)


@dataclass(frozen=True)
class Config:
    embedder: str = "bundled"
    ignore: tuple[str, ...] = DEFAULT_IGNORES
    max_file_kb: int = 512
    llm: dict[str, Any] = field(default_factory=dict)
    ask_agent: str = "interactive"  # [extract] ask_agent: interactive | always | never


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        return {}
    except (tomllib.TOMLDecodeError, OSError) as exc:
        raise KenningError(f"{path}: cannot read config ({exc}); fix or remove the file") from exc


def _llm_table(value: Any, path: Path) -> dict[str, Any]:
    """`[llm]` as a table, or the short form `llm = "anthropic"` (provider only)."""
    if value is None:
        return {}
    if isinstance(value, str):
        return {"provider": value}
    if isinstance(value, dict):
        return dict(value)
    raise KenningError(f"{path}: `llm` must be a provider name or an [llm] table")


def load_config(project: Project) -> Config:
    """User settings, then project settings for the keys a team may share, then env."""
    user = _read_toml(project.home / "config.toml")
    team = _read_toml(project.config_path) if project.initialised else {}
    index = {**user.get("index", {}), **team.get("index", {})}
    embedder = os.environ.get("KENNING_EMBEDDER") or user.get("embedder") or "bundled"
    ignore = tuple(DEFAULT_IGNORES) + tuple(index.get("ignore", ()))
    return Config(
        embedder=str(embedder),
        ignore=ignore,
        max_file_kb=int(index.get("max_file_kb", 512)),
        llm=_llm_table(user.get("llm"), project.home / "config.toml"),
        ask_agent=_ask_agent({**user.get("extract", {}), **team.get("extract", {})},
                             project.home / "config.toml"),
    )


ASK_AGENT = ("interactive", "always", "never")


def _ask_agent(table: Any, path: Path) -> str:
    """`[extract] ask_agent`: when the Stop hook asks the agent to record what it learnt."""
    value = table.get("ask_agent", "interactive") if isinstance(table, dict) else "interactive"
    if value is True:
        value = "always"
    if value is False:
        value = "never"
    if value not in ASK_AGENT:
        raise KenningError(f"{path}: extract.ask_agent must be one of {', '.join(ASK_AGENT)}")
    return str(value)
