"""The Claude Code hooks: one module per event (`session_start`, `user_prompt`,
`pre_tool`, `post_tool`, `stop`, `extraction`), what they share (`base`, `context`,
`inject`, `state`, `marks`, `factdb`, `factfiles`, `semantic`), the `runner` that calls
them, the detached catch-up and the extraction runner.

Each event keeps to its own import list (docs/design.md, "The hook contract";
`tests/test_hooks_imports.py`), far narrower than the layer allows.
May import: core, the lifecycle rules, store, index, the lifecycle jobs, plugin and the
services. Nothing imports the hooks but `kenning.launch`.
"""
