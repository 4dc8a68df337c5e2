import os
import shutil
from enum import Enum
from pathlib import Path

from mcp.server import Server
from mcp.types import TextContent, Tool

from notes_server.names import PURGE

ROOT = Path("notes")


class NoteTools(str, Enum):
    WRITE = "write_note"
    READ = "read_note"
    ARCHIVE = "archive_note"
    RESTORE = "restore_note"


def serve() -> Server:
    server = Server("notes")

    @server.list_tools()
    async def list_tools() -> list[Tool]:
        return [Tool(name=NoteTools.WRITE, description="Write a note", inputSchema={}),
                Tool(name=NoteTools.READ, description="Read a note", inputSchema={}),
                Tool(name=PURGE, description="Delete every note", inputSchema={})]

    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list[TextContent]:
        path = Path(ROOT, arguments["title"])
        match name:
            case NoteTools.WRITE:
                path.write_text(arguments["text"])
                return [TextContent(type="text", text="written")]
            case NoteTools.READ:
                return [TextContent(type="text", text=path.read_text())]
            case NoteTools.ARCHIVE | NoteTools.RESTORE:
                return [TextContent(type="text", text=str(path.exists()))]
        if name == PURGE:
            shutil.rmtree(ROOT)
            return [TextContent(type="text", text="purged")]
        raise ValueError(f"unknown tool {name}")

    return server
