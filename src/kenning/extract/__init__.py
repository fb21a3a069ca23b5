"""Knowledge extraction: transcript parsing, deterministic rules, optional LLM, pipeline."""
