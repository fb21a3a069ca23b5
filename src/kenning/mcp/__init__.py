"""The MCP server: the tools (`server`), the stdlib front Claude Code starts (`front`) and
the tool list the front answers with before the real server is up (`spec`, generated from
the server and tested against it).

May import: every layer but hooks and cli. Nothing imports it but `kenning.launch`.
"""
