"""Where the e2e tests find their real clients, and what happens when one is missing.

Outside CI a missing client skips its module with the command that installs it. In CI
(`CI=true`) it is a failure: a green run must not hide e2e tests that never ran. `.ci/run`
installs both: the pinned Claude Code CLI into `<repo>/.e2e/` and Debian's chromium.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CLAUDE_PIN = "2.1.332"
CLAUDE_LOCAL = REPO / ".e2e" / "node_modules" / ".bin" / "claude"


def missing(what: str, how: str) -> None:
    """Skip the calling module (fail it in CI) because a client is not installed."""
    message = f"{what} is not installed: {how}"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI runs every e2e test, but {message}", pytrace=False)
    pytest.skip(message, allow_module_level=True)


def find_claude() -> str:
    """The pinned Claude Code CLI: $KENNING_CLAUDE_BIN, `<repo>/.e2e/`, then PATH."""
    how = (f"`npm install --prefix .e2e @anthropic-ai/claude-code@{CLAUDE_PIN}` in the repo "
           "(or set KENNING_CLAUDE_BIN)")
    explicit = os.environ.get("KENNING_CLAUDE_BIN")
    candidates = [explicit] if explicit else [str(CLAUDE_LOCAL), shutil.which("claude")]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            version = _version(candidate)
            if version == CLAUDE_PIN:
                return candidate
            if explicit or os.environ.get("CI") == "true":
                missing(f"Claude Code {CLAUDE_PIN} (found {version or 'nothing'} at "
                        f"{candidate})", how)
    missing(f"the claude CLI {CLAUDE_PIN}", how)
    raise AssertionError("unreachable")


def _version(binary: str) -> str | None:
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True,
                             timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.split()[0] if out.split() else None


def find_chromium() -> str:
    found = (os.environ.get("KENNING_CHROMIUM") or shutil.which("chromium")
             or shutil.which("chromium-browser"))
    if found is None:
        missing("chromium", "`apt-get install -y chromium` (or set KENNING_CHROMIUM)")
    return found
