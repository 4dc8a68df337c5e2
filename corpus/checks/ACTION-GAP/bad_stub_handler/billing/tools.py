"""Registered executors of the billing project: the refund tool is registered before it works."""

from memrail.tools import ToolRegistry

registry = ToolRegistry()


@registry.tool(name="refund_payment", description="Refund a settled charge", projects=["billing"])
async def refund_payment(args: dict) -> dict:
    raise NotImplementedError("refunds go live with the new payment provider")
