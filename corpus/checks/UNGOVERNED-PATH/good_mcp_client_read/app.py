from agents import Agent, function_tool
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client

BANK = "https://bank.example/mcp"


@function_tool
async def balance(account: str) -> str:
    """The model asks a read-named remote tool: nothing changes."""
    async with streamablehttp_client(BANK) as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            result = await session.call_tool("get_balance", {"account": account})
    return str(result)


agent = Agent(name="teller", tools=[balance])
