"""The facts' full-text ranking, shared by search and the hooks' prompt gate. Stdlib only,
no imports: a hook on the prompt path imports it."""

# bm25 column weights: text, rationale, tags, identifier terms + anchors
FACT_BM25_WEIGHTS = (1.0, 0.5, 0.8, 0.6)
# The one BM25 expression over facts_fts.
FACT_BM25 = f"bm25(facts_fts, {', '.join(str(w) for w in FACT_BM25_WEIGHTS)})"
