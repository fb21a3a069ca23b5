"""The canonical files and the local logs, and their only writers: fact YAML (`facts`,
`factfile`, `yamlio`), saved sessions, the fact merge driver, project set-up (`.kenning/`
and the merge-driver script), the event log (`eventlog` writes, `events` reads), the
re-index queue, the injection log, the project registry, and `forget --purge`.

May import: `kenning.core` and the lifecycle rules (`kenning.lifecycle.confidence`,
`.contradictions`, `.dedup`).
"""
