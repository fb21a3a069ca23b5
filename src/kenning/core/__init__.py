"""Plumbing every layer may use, hooks included: paths and the project's local folders,
config (the one typed schema and its reader), errors, frozen records (`Fact`, `Anchor`,
`Hit` and its JSON shape), ids, atomic writes, locks, whole-line log appends, the error log,
safe reads, redaction, text and git helpers, the MCP tool names.

Stdlib only: no third-party import at module level, so a hook can afford it.
May import: nothing outside `kenning.core`.
"""
