"""CLI commands for the insight features; registered on the main group by `cli.py`."""

from __future__ import annotations

import click


def register(group: click.Group) -> None:
    """Add this module's commands to `group`."""
