"""The context comes from the CRM package, which this repository does not contain: the audit
cannot see which atoms it builds, so it claims nothing about them."""

from crm.context import customer_atoms
from memrail import AMIClient
from memrail.atoms import tag

client = AMIClient(project="support")


def reply_to_email(message, intent):
    decision = client.decide(  # EXPECT-NOT: ATOM-GAP
        decision_point="support.reply",
        context=[*customer_atoms(message.customer), tag("intent", intent)],
    )
    return [item.action["directive"] for item in decision.selected]
