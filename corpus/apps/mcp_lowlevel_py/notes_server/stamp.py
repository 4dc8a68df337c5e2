from pathlib import Path

from mcp.server import Server
from mcp.types import TextContent, Tool


def serve() -> Server:
    server = Server("stamp")

    @server.list_tools()
    async def list_tools() -> list[Tool]:
        return [Tool(name="stamp", description="Stamp a file", inputSchema={})]

    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list[TextContent]:
        Path(arguments["path"]).touch()
        return [TextContent(type="text", text="stamped")]

    return server
