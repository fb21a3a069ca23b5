"""Frozen records passed between modules. Stdlib only: hooks import this."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

KINDS = ("codebase", "interaction", "decision")
STATUSES = ("active", "superseded", "forgotten", "archived")
ORIGINS = ("transcript", "user", "agent", "import")


@dataclass(frozen=True)
class Anchor:
    """A HAS_KNOWLEDGE edge: a fact is about this file (and maybe this symbol)."""

    file: str
    symbol: str | None = None
    hash: str | None = None


@dataclass(frozen=True)
class Source:
    """Where a fact came from, so a reader can go back to the exact turn."""

    origin: str = "user"
    session: str | None = None
    evidence: str | None = None
    rule: str | None = None


@dataclass(frozen=True)
class Fact:
    """One fact, as stored in `.kenning/facts/<id>.yaml`.

    `confidence` is kept in integer hundredths so week boundaries are exact.
    `extra` holds keys this code does not know, so a rewrite keeps them.
    """

    id: str
    kind: str
    text: str
    created: datetime
    confirmed: datetime
    confidence: int
    rationale: str | None = None
    about: tuple[Anchor, ...] = ()
    tags: tuple[str, ...] = ()
    topic: str | None = None
    source: Source = field(default_factory=Source)
    status: str = "active"
    superseded_by: str | None = None
    format: int = 1
    extra: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class Chunk:
    """A searchable slice of a source or markdown file.

    `symbol` is the qualified name (`Class.method`, `Type.method` for Go receivers,
    `Heading > Sub` for markdown) or None for module-level code and line windows.
    Lines are 1-based and inclusive.
    """

    path: str
    start_line: int
    end_line: int
    kind: str  # function | method | class | module | heading | window | ...
    text: str
    lang: str
    symbol: str | None = None


@dataclass(frozen=True)
class Symbol:
    """A definition that `about:` anchors resolve against."""

    name: str
    qualname: str
    kind: str  # function | method | class | struct | interface | enum | ...
    path: str
    start_line: int
    end_line: int
    body_hash: str


@dataclass(frozen=True)
class Hit:
    """One search result; every hit says where it is and why it ranked."""

    type: str  # fact | code | doc
    path: str | None
    start_line: int | None
    end_line: int | None
    score: float
    snippet: str
    why: str
    symbol: str | None = None
    id: str | None = None
    kind: str | None = None
    confidence: float | None = None
    anchored_facts: tuple[str, ...] = ()
