"""Reports over a project's memory: status and `doctor`, git history and churn
(`gitlog`, `analytics`), the knowledge graph, export and import (`transfer`) and the HTML
report (`report/`).

May import: core, the lifecycle rules, store, index, search and the lifecycle jobs.
"""
