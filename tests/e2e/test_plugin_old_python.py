"""The plugin path on a machine whose `python3` is too old: every hook exits 0 and the first
context block says what to install; with uv on PATH, the venv is built with a Python uv
provides. Its own module so the e2e tests spread over both workers.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

from .clients import missing
from .mock_api import MockAPI, request_text, text
from .test_plugin_path import User, assert_hooks_clean, clone_without_venv, new_project, wait_for

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("plugin-old-python")
    return {"root": root, "plugin": clone_without_venv(root / "kenning")}


def old_python_tools(tmp_path: Path) -> Path:
    """PATH: every tool of the machine except its Pythons (and uv), and a python3 that is 3.9."""
    tools = tmp_path / "tools"
    tools.mkdir()
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not folder or not os.path.isdir(folder) or "pyenv" in folder:
            continue
        for entry in os.scandir(folder):
            if entry.name.startswith(("python", "uv")) or (tools / entry.name).exists():
                continue
            if entry.is_file() and os.access(entry.path, os.X_OK):
                (tools / entry.name).symlink_to(entry.path)
    fake = tmp_path / "fake_old.py"
    fake.write_text("import sys\nargs = sys.argv[1:]\ncode = args[args.index('-c') + 1]\n"
                    "sys.argv = ['-c'] + args[args.index('-c') + 2:]\n"
                    "sys.version_info = (3, 9, 18, 'final', 0)\n"
                    "exec(compile(code, '<string>', 'exec'))\n", encoding="utf-8")
    real = os.path.realpath(sys.executable)
    (tools / "python3").write_text(f'#!/bin/sh\nexec {real} {fake} "$@"\n', encoding="utf-8")
    (tools / "python3").chmod(0o755)
    return tools


def test_an_old_python3_first_on_path_is_told_what_to_install(world, tmp_path):
    user = User(world["root"], "old", world["plugin"], path=str(old_python_tools(tmp_path)))
    project = new_project(world["root"] / "old-proj")
    with MockAPI([[text("Hi.")]]) as api:
        events, output, _ = user.session(api, project, "Hello")
    first = request_text(api.main_requests()[0])
    assert "needs Python 3.11 or newer" in first and "Python 3.9" in first, first[:3000]
    assert_hooks_clean(events, output)
    assert not (user.data / "venv").exists()


def uv_binary() -> str:
    found = shutil.which("uv") or str(Path(sys.executable).with_name("uv"))
    if not os.access(found, os.X_OK):
        missing("uv", "`./install.sh --dev` installs it (the dev extra)")
    return found


def test_with_uv_the_venv_is_built_with_a_python_only_uv_knows(world, tmp_path):
    """The old python3 first on PATH, uv beside it, and a Python >= 3.11 that only uv can
    find (a uv-managed install, as `uv python install` leaves it): the hooks run with it,
    and the plugin's venv is built by uv with it."""
    tools = old_python_tools(tmp_path)
    (tools / "uv").symlink_to(uv_binary())
    version = sys.version_info
    if sys.platform != "linux" or os.uname().machine != "x86_64":
        pytest.skip("the uv-managed install below is laid out for linux-x86_64")
    managed = tmp_path / "uv-python" / (f"cpython-{version.major}.{version.minor}."
                                        f"{version.micro}-linux-x86_64-gnu") / "bin"
    managed.mkdir(parents=True)
    (managed / f"python{version.major}.{version.minor}").symlink_to(
        os.path.realpath(sys.executable))
    user = User(world["root"], "uv", world["plugin"], path=str(tools))
    # uv's own cache is the caller's (only the first run on a machine downloads); never a
    # Python download: the one uv knows is the managed install above
    user.env.update({"UV_PYTHON_INSTALL_DIR": str(managed.parents[1]),
                     "UV_PYTHON_DOWNLOADS": "never",
                     "UV_CACHE_DIR": os.environ.get("UV_CACHE_DIR")
                     or str(Path.home() / ".cache" / "uv")})
    project = new_project(world["root"] / "uv-proj")
    with MockAPI([[text("Hi.")]]) as api:
        events, output, _ = user.session(api, project, "Hello")
    assert "needs Python" not in request_text(api.main_requests()[0])
    assert_hooks_clean(events, output)
    stamp = user.data / "venv" / ".kenning-stamp"
    started = time.monotonic()
    assert wait_for(stamp.exists, timeout=240), (user.data / "install.log").read_text()
    print(f"\nuv venv ready {time.monotonic() - started:.1f} s after session 1 ended")
    log = (user.data / "install.log").read_text(encoding="utf-8")
    assert f"with uv (Python {managed}" in log, log
    config = (user.data / "venv" / "pyvenv.cfg").read_text(encoding="utf-8")
    assert f"home = {managed}" in config, config
    built = re.search(r"version_info = (\d+)\.(\d+)", config)
    assert built and (int(built[1]), int(built[2])) >= (3, 11), config
    # the next session runs on that venv: the block, not the "needs Python" line
    with MockAPI([[text("Hi again.")]]) as api:
        events, output, _ = user.session(api, project, "Hello again")
    first = request_text(api.main_requests()[0])
    assert "kenning project memory for uv-proj" in first, first[:2000]
    assert_hooks_clean(events, output)
