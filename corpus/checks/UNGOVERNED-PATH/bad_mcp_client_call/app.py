from agents import Agent, function_tool
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client

BANK = "https://bank.example/mcp"


@function_tool
async def settle(vendor: str, cents: int) -> str:
    """The model picks the payee and amount; the remote tool moves the money."""
    async with streamablehttp_client(BANK) as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("transfer_funds", {"to": vendor, "cents": cents})  # EXPECT: UNGOVERNED-PATH
    return "settled"


agent = Agent(name="treasurer", tools=[settle])
