"""Search: fusion and boosts as pure functions (`fusion`), the hybrid ranking of facts and
chunks (`hybrid`), the chunk legs (`code`), the code ranking rules (`coderank`), and search
across projects.

May import: core, the lifecycle rules, store and index.
"""
