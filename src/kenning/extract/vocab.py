"""The shared judgement of the extraction rules: does a phrase look like code, and is it
specific enough to be a fact on its own?

Both the sentence rules (`sentences.py`) and the anchors (`anchors.py`) ask these
questions, and the command-fix rule (`commands.py`) shares the program families, so the
word lists live here once rather than drifting apart in each. Pure, stdlib only.
"""

from __future__ import annotations

import re

from kenning.core.textutil import STOPWORDS, words

VAGUE = frozenset(
    """it this that these those one ones other same option options suggestion approach thing
    things stuff way above below before previous whichever whatever something anything
    everything mine yours first second third last both again there here idea version""".split()
)
KNOWN_TOOLS = frozenset(
    """uv pip pipx poetry pdm conda npm pnpm yarn bun npx node deno pytest unittest tox nox
    ruff black isort flake8 pylint mypy pyright make cmake cargo go gradle maven mvn docker
    podman kubectl helm terraform git gh jest vitest mocha eslint prettier tsc webpack vite
    postgres postgresql mysql sqlite redis mongodb httpx requests click argparse typer django
    flask fastapi celery mix pathlib""".split()
)
_FILE_EXT = (
    r"py|pyi|js|jsx|ts|tsx|mjs|cjs|toml|json|ya?ml|md|rst|cfg|ini|sh|rs|go|rb|java|kt|ex|exs"
    r"|heex|sql|lock|txt|env|html|css|scss|c|h|cc|cpp|hpp|cs|swift|php|lua|proto|tf|gradle"
)
PATH = re.compile(
    r"(?<![\w/.:\\-])((?:/|~/|[A-Za-z]:[/\\])?(?:[\w.-]+[/\\])*[\w-][\w.-]*\.(?:"
    + _FILE_EXT
    + r"))(?![\w/])"
)
# Flags, calls, snake_case, dotted calls, and directories (`tests/unit`, `services/`).
_CODE_HINT = re.compile(r"(?:^|\s)--?\w|\w\(\)|\w_\w|\w\.\w+\(|[\w.-]+/(?:[\w.-]|\s|$)")
# Programs that stand in for each other: a failed `pip` is fixed by `uv`, not by `git`.
FAMILIES = (
    frozenset({"npm", "pnpm", "yarn", "bun"}),
    frozenset({"pip", "pip3", "uv", "poetry", "pdm", "pipenv"}),
    frozenset({"python", "python3", "py"}),
)


def code_like(text: str) -> bool:
    """A path, flag, call, backticked span or known tool name: about the code, not chat."""
    if "`" in text or PATH.search(text) or _CODE_HINT.search(text):
        return True
    return any(w.lower() in KNOWN_TOOLS for w in words(text))


def substantive(phrase: str) -> bool:
    """Specific enough to stand alone: code-like, or two content words that are not vague."""
    if code_like(phrase):
        return True
    content = [w for w in words(phrase.lower()) if w not in STOPWORDS and w not in VAGUE]
    return len(content) >= 2 and not {w.lower() for w in words(phrase)} & {"other", "same"}
