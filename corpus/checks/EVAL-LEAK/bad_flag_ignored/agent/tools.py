"""Application-owned execution of a tool specification Memrail selected."""

import requests

TOOLS_URL = "https://tools.internal.example.com/run/"


def execute_authorized_tool(tool: dict) -> dict:
    response = requests.post(TOOLS_URL + tool["tool_id"], json=tool["args"], timeout=10)
    return response.json()
