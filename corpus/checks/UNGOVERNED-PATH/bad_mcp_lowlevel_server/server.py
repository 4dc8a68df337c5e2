import subprocess

from mcp.server import Server
from mcp.types import TextContent, Tool


def git_checkout(repo: str, branch: str) -> str:
    subprocess.run(["git", "-C", repo, "checkout", branch], check=True)  # EXPECT: UNGOVERNED-PATH
    return f"switched to {branch}"


def serve() -> Server:
    server = Server("mcp-git")

    @server.list_tools()
    async def list_tools() -> list[Tool]:
        return [Tool(name="git_checkout", description="Switch branches", inputSchema={})]

    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list[TextContent]:
        # Every tool call of the client model lands here: its name and its arguments.
        if name == "git_checkout":
            result = git_checkout(arguments["repo_path"], arguments["branch_name"])
            return [TextContent(type="text", text=result)]
        raise ValueError(name)

    return server
