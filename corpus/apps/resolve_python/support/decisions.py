from memrail import AsyncAMIClient
from memrail.atoms import state

from support.control import CHANGING, GREETING_POINT, REFUND_POINT, client, make_client, open_client


def imported_instance(order):
    return client.decide(decision_point=REFUND_POINT, context=[state("order.id", order)])


def factory_result(order):
    ami = make_client()
    return ami.decide(decision_point="billing.factory", context=[state("order.id", order)])


def factory_in_one_expression(order):
    return make_client().decide(decision_point="billing.inline", context=[state("order.id", order)])


async def annotated_factory(order):
    async with open_client("support") as ami:
        return await ami.decide(decision_point="billing.annotated", context=[state("order.id", order)])


class Desk:
    def __init__(self):
        self.ami = make_client()

    def review(self, order):
        return self.ami.decide(decision_point="billing.desk", context=[state("order.id", order)])


async def run(client, *, tier="enterprise"):
    return await client.decide_and_execute(
        decision_point=GREETING_POINT,
        context=[state("customer.name", "Ada"), state("customer.tier", tier)],
    )


async def main():
    async with AsyncAMIClient(project="support") as client:
        return await run(client, tier="free")


# --- twins that must not be found ----------------------------------------------------------

class Planner:
    def decide(self, decision_point, context):
        return {"plan": decision_point}


def planner_decides(order):
    return Planner().decide(decision_point="not.memrail", context=[state("order.id", order)])


def route(client, order):
    return client.decide(decision_point="billing.route", context=[state("order.id", order)])


def route_both(order):
    route(make_client(), order)
    route(Planner(), order)


def orphan(client, order):
    return client.decide(decision_point="billing.orphan", context=[state("order.id", order)])


def changing_constant(order):
    return client.decide(decision_point=CHANGING, context=[state("order.id", order)])
