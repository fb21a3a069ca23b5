"""The plugin path on a machine whose `python3` is too old: every hook exits 0 and the first
context block says what to install. Its own module so the e2e tests spread over both workers.
"""

from __future__ import annotations

import os
import sys

import pytest

from .mock_api import MockAPI, request_text, text
from .test_plugin_path import User, assert_hooks_clean, clone_without_venv, new_project

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("plugin-old-python")
    return {"root": root, "plugin": clone_without_venv(root / "kenning")}


def test_an_old_python3_first_on_path_is_told_what_to_install(world, tmp_path):
    # PATH: every tool of the machine except its Pythons, and a python3 that is 3.9
    tools = tmp_path / "tools"
    tools.mkdir()
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not folder or not os.path.isdir(folder) or "pyenv" in folder:
            continue
        for entry in os.scandir(folder):
            if entry.name.startswith("python") or (tools / entry.name).exists():
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
    user = User(world["root"], "old", world["plugin"], path=str(tools))
    project = new_project(world["root"] / "old-proj")
    with MockAPI([[text("Hi.")]]) as api:
        events, output, _ = user.session(api, project, "Hello")
    first = request_text(api.main_requests()[0])
    assert "needs Python 3.11 or newer" in first and "Python 3.9" in first, first[:3000]
    assert_hooks_clean(events, output)
    assert not (user.data / "venv").exists()
