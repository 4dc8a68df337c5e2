"""Names that collide with Memrail's but are not Memrail: none of these is a site."""

from otherlib.clients import AsyncAMIClient
from statelib import state


def decide(options):
    return sorted(options)[0]


async def pick(values):
    choice = decide(values)
    client = AsyncAMIClient()
    await client.decide(decision_point="not.memrail", context=[])
    return state("refund.amount", choice)
