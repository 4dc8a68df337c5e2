import subprocess

from crewai.tools import BaseTool
from mcp.server import Server
from pydantic import BaseModel
from pydantic_ai import Agent, Tool


class Archive(BaseTool):
    name: str = "archive_records"
    description: str = "Archive records"

    def _run(self, table: str) -> str:
        return table


def search(query: str) -> str:
    return query


class Answer(BaseModel):
    sql: str


agent = Agent("openai:gpt-4o", output_type=Answer, tools=[Tool(search), Tool(search, name="find")])


@agent.output_validator
async def check(output: Answer) -> Answer:
    return output


def serve() -> Server:
    server = Server("git")

    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list:
        subprocess.run(["git", "status"])
        return []

    return server
