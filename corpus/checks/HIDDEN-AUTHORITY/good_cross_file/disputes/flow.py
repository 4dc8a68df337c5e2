from memrail import AMIClient
from memrail.atoms import state

from disputes.assess import assess
from disputes.payments import refund
from disputes.rules import should_refund

ami = AMIClient()


def handle(dispute) -> str:
    recommended = should_refund(assess(dispute.text))
    decision = ami.decide(decision_point="disputes.refund",
                          context=[state("dispute.id", dispute.id),
                                   state("dispute.model_recommends", recommended)])
    if decision.selected:
        refund(dispute.charge_id)
        return "refunded"
    return "escalated"
