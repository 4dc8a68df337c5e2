"""A shop assistant's tools: most effects are stubs or in-memory, as in framework examples."""

import logging
from dataclasses import dataclass, field

from agents import Agent, RunContextWrapper, function_tool
from pydantic_ai import Agent as PydanticAgent

log = logging.getLogger(__name__)
CARTS: dict[str, list[str]] = {}
planner = PydanticAgent("openai:gpt-4o")


@dataclass
class ShopContext:
    seat: str | None = None
    refunds: list[str] = field(default_factory=list)


@function_tool
def update_seat(ctx: RunContextWrapper[ShopContext], seat: str) -> str:
    ctx.context.seat = seat
    return f"Seat is now {seat}"


@function_tool
def refund_order(ctx: RunContextWrapper[ShopContext], order_id: str) -> str:
    ctx.context.refunds.append(order_id)
    return "queued"


@function_tool
def remove_item(cart_id: str, item: str) -> str:
    CARTS[cart_id].remove(item)
    return "ok"


@function_tool(name_override="submit_order")
def place(cart_id: str) -> dict:
    return {"success": True, "cart": cart_id}


@function_tool
def issue_voucher(code: str) -> str:
    return f"Voucher {code} issued"


@function_tool
def purchase_upgrade(seat: str) -> None:
    print(f"Purchasing upgrade for {seat}")


@function_tool
def grant_access(user: str) -> None:
    log.info("granting %s", user)


# Must not be found: read verbs, echoes, model calls, locals, and real effects.

@function_tool
def get_cart(ctx: RunContextWrapper[ShopContext], cart_id: str) -> list[str]:
    ctx.context.seat = None
    return CARTS.get(cart_id, [])


@function_tool
def send_feedback(text: str) -> str:
    return text


@function_tool
async def book_table(request: str) -> str:
    result = await planner.run(f"Book a table: {request}")
    return result.output


@function_tool
def save_draft(text: str) -> dict:
    draft = {}
    draft["text"] = text
    return draft


@function_tool
def delete_log(path: str) -> str:
    import os
    os.remove(path)
    return "deleted"


@function_tool
def lookup_refunds(ctx: RunContextWrapper[ShopContext]) -> str:
    return "refunded: " + ", ".join(ctx.context.refunds)


@function_tool
def transfer_to_support() -> str:
    return "Transferred to support"


agent = Agent(name="shop", tools=[update_seat, refund_order, remove_item, place, issue_voucher,
                                  purchase_upgrade, grant_access, get_cart, send_feedback,
                                  book_table, save_draft, delete_log, lookup_refunds,
                                  transfer_to_support])
