import subprocess

from mcp.server import Server
from mcp.types import Tool


def git_checkout(repo: str, branch: str) -> str:
    subprocess.run(["git", "-C", repo, "checkout", branch], check=True)  # EXPECT-NOT: UNGOVERNED-PATH
    return f"switched to {branch}"


def serve() -> Server:
    server = Server("mcp-git")

    @server.list_tools()
    async def list_tools() -> list[Tool]:
        # Describing a tool runs nothing; only `call_tool` handlers take the model's calls.
        git_checkout(".", "main")
        return [Tool(name="git_checkout", description="Switch branches", inputSchema={})]

    return server
