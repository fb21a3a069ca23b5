"""PreCompact and SessionEnd: mark the session and spawn the detached extractor.

Well inside SessionEnd's 1.5 s: one mark file and one `Popen`. The spawned wrapper
(`kenning.hooks.extract_runner`) takes the per-machine extraction lock and runs
`kenning extract <transcript> --session <id>`; when that command is missing or fails, the
mark stays for the next SessionStart's catch-up. Stdlib only; nothing on stdout.
"""

from __future__ import annotations

import sys

from kenning.core.spawn import spawn_detached
from kenning.hooks.base import Ctx
from kenning.hooks.marks import mark


def handle(ctx: Ctx) -> None:
    if ctx.agent_id:
        return
    if mark(ctx) is None:
        return
    spawn_detached(
        [sys.executable, "-I", "-c", RUNNER, ctx.local_dir, ctx.session or ""],
        log_path=ctx.local("extract.log"), cwd=ctx.root,
    )


# -I drops PYTHONPATH, so the child puts the plugin's src/ back itself.
RUNNER = (
    "import os, sys; sys.path.insert(0, os.environ['PYTHONPATH'].split(os.pathsep)[0]); "
    "from kenning.hooks.extract_runner import main; main(sys.argv[1:])"
)
