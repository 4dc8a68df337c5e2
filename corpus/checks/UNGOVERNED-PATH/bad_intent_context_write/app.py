from dataclasses import dataclass

from agents import Agent, RunContextWrapper, function_tool


@dataclass
class TripContext:
    booking_id: str | None = None
    status: str | None = None


@function_tool
async def cancel_booking(ctx: RunContextWrapper[TripContext], booking_id: str) -> str:  # EXPECT: UNGOVERNED-PATH
    """The model cancels whichever booking it was told about: the effect is the run context."""
    ctx.context.booking_id = booking_id
    ctx.context.status = "cancelled"
    return "ok"


agent = Agent(name="trips", tools=[cancel_booking])
