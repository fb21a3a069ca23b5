"""The MCP tools' names, shared by the server that defines them and the hooks that name them
to the agent (`tests/test_mcp.py` checks the server offers exactly these)."""

# What Claude Code calls the plugin's tools: this prefix, then the tool's name.
MCP_PREFIX = "mcp__plugin_kenning_kenning__"
MCP_TOOLS = ("knowledge_search", "knowledge_add", "knowledge_forget", "code_search",
             "session_save", "session_recall", "knowledge_seed")
