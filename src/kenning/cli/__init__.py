"""The `kenning` command: parse, make one library call, render. No logic lives here.

`app` holds the main group and the helpers every command shares; `facts` the fact verbs
(add, search, show, list, edit, confirm, restore, forget); `admin`, `lifecycle`, `insight`,
`extract` and `seed` register the upkeep and feature commands. The group imports a command's
module when the command runs (`app.COMMAND_MODULES`). This module holds `main`, which turns
every failure a user caused into one `Error: ...` line.

May import: every layer but hooks and mcp (it is an entry point); nothing imports it but
`kenning.__main__`.
"""

from __future__ import annotations

import sys

import click

from kenning.cli.app import cli
from kenning.core.errors import KenningError


def main(argv: list[str] | None = None) -> None:
    """Every failure a user caused becomes one `Error: ...` line and exit status 1.

    An index found damaged mid-command (a bad page SQLite only meets when it reads it) is
    thrown away with a one-line notice and the command runs once more on a fresh index,
    rebuilt from the fact files: the index is derived, the YAML is the truth.
    """
    import sqlite3

    try:
        _main(argv)
    except sqlite3.DatabaseError as exc:
        from kenning.core.paths import current_project
        from kenning.index.db import is_damaged, throw_away

        if not is_damaged(exc):
            _fail(_unwritable_message(exc))
        path = current_project(_project_option(argv)).index_path
        throw_away(path)
        click.echo(f"kenning: the index at {path} was damaged ({exc}); rebuilding it from "
                   "the fact files (`kenning index` re-indexes code)", err=True)
        _main(argv)


def _fail(message: str) -> None:
    click.echo(f"Error: {message}", err=True)
    sys.exit(1)


def _unwritable_message(exc: BaseException) -> str:
    """A full disk or a read-only place is said as such; the index and logs stay as they are."""
    import errno

    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC or "full" in str(exc):
        return (f"the disk is full ({exc}); nothing was changed. Free some space and run the "
                "command again")
    if isinstance(exc, OSError) and exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        where = f" {exc.filename}" if exc.filename else ""
        return (f"cannot write{where} ({exc.strerror}); make it writable or point "
                "KENNING_HOME at a writable folder")
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}{f': {exc.filename}' if exc.filename else ''}"
    return f"the index cannot be used ({exc}); check the disk and permissions of KENNING_HOME"


def _project_option(argv: list[str] | None) -> str | None:
    """`-C DIR` / `--project DIR`, which come before the command."""
    args = list(sys.argv[1:] if argv is None else argv)
    for n, arg in enumerate(args):
        if arg in ("-C", "--project") and n + 1 < len(args):
            return args[n + 1]
        if arg.startswith("--project="):
            return arg.split("=", 1)[1]
        if not arg.startswith("-"):
            break
    return None


def _main(argv: list[str] | None) -> None:
    try:
        cli.main(args=argv, prog_name="kenning", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Error: aborted", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        click.echo(f"Error: {exc.format_message()}", err=True)
        sys.exit(1)
    except KenningError as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(1)
    except OSError as exc:  # a full disk, a read-only repository or KENNING_HOME
        _fail(_unwritable_message(exc))
