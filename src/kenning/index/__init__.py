"""The derived index: disposable, rebuilt from fact YAML, source files and local logs."""
