"""engram's MCP server (FEATURES I4): memory tools for agents over stdio or HTTP.

``create_mcp_server(memory, namespace=...)`` builds the server; ``engram mcp`` serves it
over stdio and ``engram serve`` mounts its streamable HTTP app at ``/mcp``.
"""

from engram.mcp.server import TOOL_NAMES, create_mcp_server

__all__ = ["TOOL_NAMES", "create_mcp_server"]
