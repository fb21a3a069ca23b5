"""Co-access clusters (DESIGN §5, issue 6 item 6): files read or edited together.

Pure functions over event-log records (`{"type": "read"|"edit", "paths": [...],
"session": id}`): two files are linked when they were touched in the same session in at
least MIN_SESSIONS different sessions; clusters are the connected components of those links
(union-find). Search gives a hit's cluster peers a small boost (`boosts_for`).

Hub files (a README every session opens) would chain everything into one cluster, so files
touched in more than HUB_SHARE of the sessions are left out once there are enough sessions
to tell; a session touching more than MAX_FILES_PER_SESSION files (a bulk rename, a
formatter run) says nothing about which files belong together and is skipped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import combinations

from kenning.search.fusion import PEER_BOOST, boosts_for, peers_map
from kenning.store.events import Event, file_touches, iter_events

__all__ = ["PEER_BOOST", "boosts_for", "clusters", "load_clusters", "pair_counts", "peers_map",
           "session_files"]

MIN_SESSIONS = 3
MAX_FILES_PER_SESSION = 60
HUB_SHARE = 0.5
HUB_MIN_SESSIONS = 10


class UnionFind:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, item: str) -> str:
        parent = self.parent.setdefault(item, item)
        while parent != self.parent[parent]:
            self.parent[parent] = self.parent[self.parent[parent]]  # path halving
            parent = self.parent[parent]
        self.parent[item] = parent
        return parent

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            # The smaller root wins, so the result does not depend on the order of unions.
            lo, hi = (ra, rb) if ra < rb else (rb, ra)
            self.parent[hi] = lo

    def groups(self) -> list[frozenset[str]]:
        out: dict[str, set[str]] = {}
        for item in self.parent:
            out.setdefault(self.find(item), set()).add(item)
        return [frozenset(g) for g in out.values()]


def session_files(events: Iterable[Event | Mapping]) -> dict[str, set[str]]:
    """session id -> files read or edited in it (`store.events.file_touches`). Events
    without a session are ignored, and so are a subagent's: its reads say what it was sent
    to look at, not what the session works on together."""
    out: dict[str, set[str]] = {}
    for touch in file_touches(events):
        if touch.session and not touch.agent:
            out.setdefault(touch.session, set()).add(touch.path)
    return out


def pair_counts(sessions: Mapping[str, set[str]]) -> Counter[tuple[str, str]]:
    """How many sessions touched each pair of files (pairs sorted, hubs left out)."""
    file_sessions = Counter(f for files in sessions.values() for f in files)
    hubs: set[str] = set()
    if len(sessions) >= HUB_MIN_SESSIONS:
        hubs = {f for f, n in file_sessions.items() if n > HUB_SHARE * len(sessions)}
    counts: Counter[tuple[str, str]] = Counter()
    for files in sessions.values():
        kept = sorted(f for f in files if f not in hubs)
        if len(kept) > MAX_FILES_PER_SESSION:
            continue
        counts.update(combinations(kept, 2))
    return counts


def clusters(records: Iterable[Event | Mapping],
             min_sessions: int = MIN_SESSIONS) -> list[frozenset[str]]:
    """Groups of files read or edited together in >= `min_sessions` sessions, largest first."""
    links = [pair for pair, n in pair_counts(session_files(records)).items() if n >= min_sessions]
    uf = UnionFind()
    for a, b in links:
        uf.union(a, b)
    return sorted(uf.groups(), key=lambda g: (-len(g), sorted(g)))


def load_clusters(events_path, min_sessions: int = MIN_SESSIONS) -> list[frozenset[str]]:
    """Clusters from the project's event log (reads the file; everything else is pure)."""
    return clusters(iter_events(events_path), min_sessions)
