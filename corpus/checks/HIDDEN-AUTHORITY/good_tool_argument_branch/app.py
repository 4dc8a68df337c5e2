"""Seen in modelcontextprotocol/servers (filesystem `edit_file`): a branch on an argument the
model passed to the tool it invoked is the tool's own logic, not hidden authority; the exposure
of the deleting tool is what UNGOVERNED-PATH reports."""

import os

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("files")


@mcp.tool()
def remove_file(path: str, dry_run: bool = True) -> str:
    if not dry_run:  # EXPECT-NOT: HIDDEN-AUTHORITY
        os.remove(path)  # EXPECT: UNGOVERNED-PATH
    return path
