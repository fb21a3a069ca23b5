"""YAML as plain data, the one way kenning parses a YAML file from a repository or a home.

`safe_load` (no tags beyond YAML's own) and no aliases: the writers never emit them, and a
few hundred bytes of nested aliases ("billion laughs") expand to gigabytes. Any failure of
the parser or of YAML's own constructors (a timestamp in month 13, a 5,000-digit integer, an
offset of 99 hours) is one `FileProblemError` naming the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from kenning.core.errors import FileProblemError
from kenning.core.safeio import display, read_text


class _NoAliasLoader(yaml.SafeLoader):
    def compose_node(self, parent, index):  # type: ignore[no-untyped-def]
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise yaml.composer.ComposerError(None, None, "aliases are not allowed", mark)
        return super().compose_node(parent, index)


_CLoader = getattr(yaml, "CSafeLoader", None)


def load_yaml(raw: str) -> Any:
    """Plain data only; raises yaml.YAMLError (aliases included) or the constructors' errors.

    With libyaml (PyYAML's wheels have it) the C parser checks for aliases and the C safe
    loader builds the data: 6x faster than the pure-Python loader, which a rebuild of 10,000
    files would otherwise spend most of its time in.
    """
    if _CLoader is None:
        return yaml.load(raw, Loader=_NoAliasLoader)  # noqa: S506 - a SafeLoader subclass
    for event in yaml.parse(raw, Loader=_CLoader):
        if isinstance(event, yaml.AliasEvent):
            raise yaml.composer.ComposerError(None, None, "aliases are not allowed",
                                              event.start_mark)
    return yaml.load(raw, Loader=_CLoader)  # noqa: S506 - libyaml's safe loader


def _check_plain(value: Any) -> None:
    """Every string encodes as UTF-8 (a `"\\udcff"` escape makes a lone surrogate that SQLite
    refuses) and every integer fits SQLite's 64 bits. Raises ValueError."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            item.encode("utf-8")
        elif isinstance(item, int) and not -(2**63) <= item < 2**63:
            raise ValueError("an integer larger than 64 bits")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def parse_yaml(raw: str, path: Path | str) -> Any:
    """`load_yaml`, with every failure turned into one problem for `path`."""
    try:
        data = load_yaml(raw)
        _check_plain(data)
        return data
    except yaml.YAMLError as exc:
        problem = "aliases are not allowed" if "aliases" in str(exc) else "invalid YAML"
        raise FileProblemError(display(path), "file",
                               f"{problem} ({exc.__class__.__name__})") from exc
    except RecursionError as exc:
        raise FileProblemError(display(path), "file", "nested too deeply") from exc
    except UnicodeEncodeError as exc:
        raise FileProblemError(display(path), "file", "holds text that is not UTF-8") from exc
    except (ValueError, OverflowError, TypeError, KeyError) as exc:
        raise FileProblemError(display(path), "file", f"bad value ({exc})"[:300]) from exc


def read_yaml(path: Path, limit: int) -> Any:
    """A regular YAML file of at most `limit` bytes, parsed as plain data."""
    return parse_yaml(read_text(path, limit), path)
