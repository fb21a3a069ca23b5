"""kenning: persistent, project-scoped memory for coding agents.

The root holds the entry points (`__main__` for `python -m kenning`, `launch` behind the
plugin's `hooks/run`) and the composition root `memory`; everything else lives in the layer
packages that docs/architecture.md describes. Importing this package has no side effects.
"""

__version__ = "0.1.0"
