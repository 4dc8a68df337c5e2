"""An agent that forwards work to remote MCP servers."""

import httpx
import requests
from fastmcp import Client
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client

MCP_URL = "https://treasury.example.com/mcp"


async def pay_vendor(vendor: str, cents: int):
    async with streamablehttp_client(MCP_URL) as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            await session.call_tool("transfer_funds", {"to": vendor, "cents": cents})


async def balance(account: str):
    async with streamablehttp_client(MCP_URL) as (read, write, _):
        async with ClientSession(read, write) as session:
            return await session.call_tool("get_balance", arguments={"account": account})


async def run_tool(session: ClientSession, name: str, arguments: dict):
    return await session.call_tool(name, arguments)


async def purge(path: str):
    async with Client(MCP_URL) as client:
        await client.call_tool("delete_file", {"path": path})
        await client.list_tools()


def notify_raw(text: str):
    payload = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "send_email", "arguments": {"body": text}}}
    return requests.post(MCP_URL, json=payload)


def list_raw():
    return httpx.post(MCP_URL, json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"})


def search_raw(query: str):
    return httpx.post(MCP_URL, json={"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                                     "params": {"name": "search_docs",
                                                "arguments": {"q": query}}})
