"""Knowledge extraction: reading Claude Code transcripts (and the notes and plans they point
to), the deterministic rules and the optional LLM extractor that turn them into candidate
facts, and the pipeline that redacts, deduplicates and writes them through the fact store.

May import: core, the lifecycle rules, store, index, search and the lifecycle jobs.
"""
