"""The loop looks the model's tool up by name and runs its `execute`."""

from anthropic import Anthropic

from .tools.base import Tool
from .tools.files import ReadFile, WriteFile

client = Anthropic()


async def run_tool(call, tool_dict: dict) -> str:
    return await tool_dict[call.name].execute(**call.input)


async def agent_loop(task: str, tools: list[Tool]) -> list:
    tool_dict = {tool.name: tool for tool in tools}
    messages = [{"role": "user", "content": task}]
    while True:
        response = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024,
                                          messages=messages)
        if response.stop_reason != "tool_use":
            return messages
        tool_calls = [block for block in response.content if block.type == "tool_use"]
        results = [await run_tool(call, tool_dict) for call in tool_calls]
        messages.append({"role": "user", "content": str(results)})


AGENT_TOOLS = [ReadFile(), WriteFile()]
