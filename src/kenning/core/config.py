"""Configuration: the user's file under KENNING_HOME and the project's `.kenning/config.toml`,
merged into one typed `Config`. The schema (keys, checks, the reader) is `settings`.

Only entry points read config; everything below them takes plain arguments. A paid LLM call
is switched on in the user file only, never by a file a team commits.

Both files are read through the one read path (a regular file of at most 64 KB) and every
key is checked for type and range, with a message naming the file and the key. The user's
own file is the user's to fix: a problem there is an error. The project's file arrives with a
clone and may be hostile: a problem there is reported and the key falls back to its default,
so the project's facts stay usable.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from kenning.core.paths import Project
from kenning.core.settings import ConfigError, check, read_toml, user_settings

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
    prompt_search: str = "fts"
    problems: tuple[str, ...] = ()  # what was wrong in the project's file (defaults used)
    ask_agent: str = "interactive"  # [extract] ask_agent: interactive | always | never
    findings: str = "durable"  # [extract] findings: durable | off


def project_settings(project: Project) -> tuple[dict[tuple[str | None, str], Any], list[str]]:
    """The committed file's checked keys a team may share, and its problems as lines."""
    if not project.initialised:
        return {}, []
    try:
        data = read_toml(project.config_path)
    except ConfigError as exc:
        return {}, [f"{exc} (using the defaults)"]
    values, errors = check(data, project.config_path)
    shared = {k: v for k, v in values.items() if k[0] in ("index", "extract")}
    return shared, [f"{e} (using the default)" for e in errors]


def load_config(project: Project) -> Config:
    """User settings, then project settings for the keys a team may share, then env."""
    user = user_settings(project.home)
    team, problems = project_settings(project)
    merged = {**user, **team}
    embedder = os.environ.get("KENNING_EMBEDDER") or user.get((None, "embedder"), "bundled")
    return Config(
        embedder=embedder,
        ignore=DEFAULT_IGNORES + merged.get(("index", "ignore"), ()),
        max_file_kb=merged.get(("index", "max_file_kb"), 512),
        llm=user.get((None, "llm"), {}),
        prompt_search=user.get(("hooks", "prompt_search"), "fts"),
        problems=tuple(problems),
        ask_agent=merged.get(("extract", "ask_agent"), "interactive"),
        findings=merged.get(("extract", "findings"), "durable"),
    )

