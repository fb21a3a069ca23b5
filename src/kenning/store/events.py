"""The one reader of the local event log, `events.jsonl` (written by `store/eventlog.py`):
its typed record (`Event`), and the one definition of file activity (`file_touches`,
`FileTouch`) every reader counts with.

SessionStart reads the hot files through this, so it stays on cheap imports: the records are
named tuples (no `collections`, `dataclasses`, `typing` or `pathlib` on that path).
"""

from __future__ import annotations

import os

from kenning.core import fastjson
from kenning.core.lines import MAX_LINE_BYTES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping


try:  # namedtuple's own field accessor (C, in a module Python starts with)
    from _collections import _tuplegetter as _field
except ImportError:  # another implementation
    def _field(index: int, doc: str) -> property:
        return property(lambda self: self[index], doc=doc)


class _Record(tuple):
    """A named tuple without `collections` (whose import costs SessionStart a third of a bare
    interpreter's start): fields by name and by position, defaults for the trailing ones."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _defaults: tuple = ()

    def __new__(cls, *args: object, **kwargs: object):
        fields = cls._fields
        if not kwargs and len(args) == len(fields):  # the readers' calls: every field given
            return tuple.__new__(cls, args)
        if not args and len(kwargs) == len(fields):
            try:
                return tuple.__new__(cls, [kwargs[name] for name in fields])
            except KeyError:
                pass  # a wrong name: the message below
        values = list(args) + [None] * (len(cls._fields) - len(args))
        given = len(args)
        for i, name in enumerate(cls._fields):
            if name in kwargs:
                if i < given:
                    raise TypeError(f"{cls.__name__}() got multiple values for {name!r}")
                values[i] = kwargs.pop(name)
            elif i >= given:
                first_default = len(cls._fields) - len(cls._defaults)
                if i < first_default:
                    raise TypeError(f"{cls.__name__}() missing argument {name!r}")
                values[i] = cls._defaults[i - first_default]
        if kwargs or len(args) > len(cls._fields):
            raise TypeError(f"{cls.__name__}() got unexpected arguments")
        return tuple.__new__(cls, values)

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        for i, name in enumerate(cls._fields):
            setattr(cls, name, _field(i, name))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(" + ", ".join(
            f"{name}={value!r}" for name, value in zip(self._fields, self, strict=True)) + ")"


class Event(_Record):
    """One line of the event log: what happened (`type`: read | edit | search | tool | mcp |
    use | gap | change: a watched file changed outside the agent's edits), when (`ts`, ISO),
    in which `session`, to which files (`paths`), how a tool call ended (`outcome`: ok |
    error | interrupted), whether a subagent did it (`agent`). Fields of one kind only (a
    search's `pattern`, a use's `facts`, a gap's `query`) are in `data` (a dict); on disk
    they are keys of the same JSON object."""

    __slots__ = ()
    _fields = ("type", "ts", "session", "paths", "outcome", "agent", "data")
    _defaults = ("", None, (), None, None, None)


class FileTouch(_Record):
    """File activity, the one definition every reader counts: a read or an edit that did not
    fail, of a file inside the project (`path`: POSIX, relative to the root), once per file
    the event names."""

    __slots__ = ()
    _fields = ("path", "kind", "ts", "session", "agent")


FILE_KINDS = ("read", "edit")
FIELDS = ("type", "ts", "session", "paths", "outcome", "agent")
TAIL_BYTES = 2 * 1024 * 1024  # SessionStart's hot files read only the log's newest part


def to_event(record: Mapping) -> Event:
    """A parsed line as an Event; fields of the wrong type are dropped, not trusted."""
    paths = record.get("paths")
    return Event(  # type, ts, session, paths, outcome, agent, data (every field: the fast way)
        _text(record.get("type")) or "",
        str(record.get("ts") or ""),
        _text(record.get("session")),
        tuple(p for p in paths if isinstance(p, str) and p) if isinstance(paths, list) else (),
        _text(record.get("outcome")),
        _text(record.get("agent")),
        {k: v for k, v in record.items() if k not in FIELDS},
    )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def iter_events(path: str | os.PathLike[str]) -> Iterator[Event]:
    return (to_event(record) for record in iter_records(path))


def read_from(path: str | os.PathLike[str], offset: int = 0) -> tuple[list[Event], int]:
    """Complete events after byte `offset`, and the offset to resume from.

    A trailing line without its newline is still being written: left for the next read.
    """
    from kenning.core.errors import FileProblemError
    from kenning.core.safeio import open_regular

    try:
        with open_regular(path) as handle:
            handle.seek(offset)
            data = handle.read()
    except (FileNotFoundError, FileProblemError):
        return [], 0
    end = data.rfind(b"\n") + 1
    return [to_event(r) for r in _parse_lines(data[:end])], offset + end


def tail_events(path: str | os.PathLike[str], max_bytes: int = TAIL_BYTES,
                containing: bytes = b"") -> list[Event]:
    """The events in the last `max_bytes` of the log (the first, partial line dropped);
    `containing`: only lines holding these bytes are parsed (SessionStart's budget)."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as handle:
            if size > max_bytes:
                handle.seek(size - max_bytes)
                handle.readline()  # drop the partial first line
            data = handle.read()
    except OSError:
        return []
    lines = b"\n".join(line for line in data.splitlines() if containing in line)
    return [to_event(r) for r in _parse_lines(lines)]


def iter_records(path: str | os.PathLike[str]) -> Iterator[dict]:
    """Each line as parsed JSON (lines that are not a JSON object are skipped)."""
    from kenning.core.errors import FileProblemError
    from kenning.core.safeio import open_regular

    try:
        handle = open_regular(path)
    except (FileNotFoundError, FileProblemError):
        return
    with handle:
        while raw := handle.readline(MAX_LINE_BYTES + 1):
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                # longer than any line kenning writes: skip the rest of it, a piece at a time
                while (rest := handle.readline(MAX_LINE_BYTES)) and not rest.endswith(b"\n"):
                    pass
                continue
            yield from _parse_lines(raw)


def _parse_lines(data: bytes) -> Iterator[dict]:
    for raw in data.splitlines():
        try:
            record = fastjson.loads(raw)
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(record, dict):
            yield record


def file_touches(events: Iterable[Event | Mapping],
                 since: str | None = None) -> Iterator[FileTouch]:
    """File activity (`FileTouch`): reads and edits that did not fail, per project file.

    Paths are made POSIX without a leading `./`; paths outside the project (absolute) are
    left out. `since`: an ISO time; older events are left out.
    """
    cutoff = since[:19] if since else None
    for event in events:
        if not isinstance(event, Event):
            event = to_event(event)
        if event.type not in FILE_KINDS or event.outcome == "error":
            continue
        if cutoff and event.ts[:19] < cutoff:
            continue
        for raw in dict.fromkeys(event.paths):
            path = raw.replace("\\", "/").removeprefix("./")
            if path and not _outside(path):
                yield FileTouch(path, event.type, event.ts, event.session, event.agent)


def _outside(path: str) -> bool:
    return path.startswith("/") or (len(path) > 1 and path[1] == ":")


def hot_files(path: str | os.PathLike[str], since: str, limit: int) -> list[tuple[str, int]]:
    """(file, touches) for the files read or edited most since `since`, from the log's tail."""
    counts: dict[str, int] = {}
    for touch in file_touches(tail_events(path, containing=b'"paths"'), since):
        counts[touch.path] = counts.get(touch.path, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
