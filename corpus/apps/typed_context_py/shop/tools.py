"""Tools that reach their clients through the run context's dependencies."""

from agents import RunContextWrapper, function_tool
from pydantic_ai import Agent, RunContext

from shop.deps import AppContext, Deps, Settings

agent = Agent("openai:gpt-4o", deps_type=Deps)


@agent.tool
async def record_order(ctx: RunContext[Deps], sql: str) -> str:
    await ctx.deps.conn.execute(sql)
    return "ok"


@agent.tool
async def notify(ctx: RunContext[Deps], url: str) -> str:
    deps = ctx.deps
    await deps.http.post(url, json={"done": True})
    return "sent"


@agent.tool
async def lookup(ctx: RunContext[Deps], order_id: int) -> list:
    return await ctx.deps.conn.fetch("SELECT * FROM orders WHERE id = $1", order_id)


@agent.tool
async def loose_write(ctx: RunContext[Deps], sql: str) -> str:
    await ctx.deps.loose.execute(sql)
    return "?"


@agent.tool
async def maybe_write(ctx: RunContext[Deps], sql: str) -> str:
    await ctx.deps.maybe.execute(sql)
    await ctx.deps.later.execute(sql)
    return "?"


@agent.tool
async def quoted_context(ctx: "RunContext[Deps]", sql: str) -> str:
    await ctx.deps.conn.execute(sql)
    return "?"


async def nested(settings: Settings, sql: str) -> None:
    await settings.deps.conn.execute(sql)


@function_tool
async def archive(ctx: RunContextWrapper[AppContext], sql: str) -> str:
    await ctx.context.conn.executemany(sql, [])
    await ctx.context.store.conn.execute(sql)
    return "archived"


@agent.tool
async def count_orders(ctx: RunContext[Deps]) -> str:
    await ctx.deps.conn.execute("  SELECT count(*) FROM orders")
    await ctx.deps.conn.execute("UPDATE orders SET seen = true")
    return "counted"


@agent.tool
async def either_write(ctx: RunContext[Deps], sql: str) -> str:
    await ctx.deps.either.execute(sql)
    return "?"
