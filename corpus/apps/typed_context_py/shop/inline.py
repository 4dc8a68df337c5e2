"""The dependencies declared beside the tools, and a LangGraph node's runtime context."""

from dataclasses import dataclass
from typing import Any

import asyncpg
from langgraph.runtime import Runtime
from pydantic_ai import Agent, RunContext


@dataclass
class LocalDeps:
    conn: asyncpg.Connection
    loose: Any


local_agent = Agent("openai:gpt-4o", deps_type=LocalDeps)


@local_agent.tool
async def write_local(ctx: RunContext[LocalDeps], sql: str) -> str:
    await ctx.deps.conn.execute(sql)
    return "ok"


@local_agent.tool
async def loose_local(ctx: RunContext[LocalDeps], sql: str) -> str:
    await ctx.deps.loose.execute(sql)
    return "?"


@local_agent.tool
async def rebound(ctx: RunContext[LocalDeps], sql: str) -> str:
    ctx = make_context()
    await ctx.deps.conn.execute(sql)
    return "?"


def make_context():
    return None


async def save_node(state: dict, runtime: Runtime[LocalDeps]) -> dict:
    await runtime.context.conn.execute(state["sql"])
    return state
