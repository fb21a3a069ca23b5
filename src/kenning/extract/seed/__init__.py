"""`kenning seed`: facts proposed from what a project already wrote down.

One module per source, each a pure reader that turns text into `Proposal`s with provenance
(file and lines, or commit): `commits` (decisions and their reasons in `git log`, merged-PR
titles), `changelogs` (breaking changes, deprecations, removals and changed defaults with
their version; `formats` reads a pointer to the real changelog and Sphinx's changelog
directives), `documents` (ADRs, design docs, CONTRIBUTING conventions) and `agents`
(CLAUDE.md, AGENTS.md, .cursor/rules, copilot instructions). `later` (pure) says which
entries newer history overtook, `trivia` (pure) which are only release trivia; `current`
asks HEAD, once per run, whether a deprecated or chosen name is still in the code. `run`
holds the per-source cursors, redaction, deduplication, the pending queue and `--accept`.

Precision over recall: each rule fires only on explicit phrasing, and a proposal must read
on its own (it carries its version, date or file). May import: core, rules (dedup), store,
extract; Claude Code's auto-memory importer (insight) is called by the CLI beside it.
"""
