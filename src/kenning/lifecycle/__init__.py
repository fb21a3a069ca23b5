"""Keeping knowledge true. Two layers share this package:

- the rules, pure functions with no I/O: `confidence` (current confidence and decay;
  `decay`, its rule on epoch microseconds for the hooks),
  `contradictions` (with the words it reads, `claimwords`), `dedup`. They may import only
  `kenning.core` and each other.
- the jobs that apply them: `review`, `stale`, `anchors`, `consolidate`, `resolve`,
  `coaccess`. They may import core, the rules, store, index and search.

A rule never imports a job (docs/architecture.md).
"""
