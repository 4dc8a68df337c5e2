"""Dunning: the charge runs only when the model's review and Memrail both allow it."""
import json

import stripe
from memrail import AMIClient
from memrail.atoms import state
from openai import OpenAI

llm = OpenAI()
ami = AMIClient(workspace="production", project="billing")


def review_invoice(invoice) -> dict:
    reply = llm.chat.completions.create(
        model="gpt-4o",
        messages=[{"role": "user", "content": f"Should we retry charging invoice {invoice.id}? "
                                              "Answer as JSON {\"approved\": bool}."}],
        response_format={"type": "json_object"},
    )
    return json.loads(reply.choices[0].message.content)


def retry_charge(invoice, attempts: int) -> None:
    review = review_invoice(invoice)
    model_approved = review["approved"]  # EXPECT-NOT: ADVISORY-ONLY-POLICY
    decision = ami.decide(decision_point="billing.retry_charge",  # EXPECT-NOT: ADVISORY-ONLY-POLICY
                          context=[state("invoice.attempts", attempts),
                                   state("invoice.model_approved", bool(model_approved))])
    if decision.selected and attempts > 1:
        stripe.PaymentIntent.create(amount=invoice.amount_cents, currency="usd",
                                    customer=invoice.customer_id, confirm=True)
        ami.ack(decision.selected[0].activation_id, "acknowledged", code="SUCCESS")


def refund_duplicate(charge) -> None:
    decision = ami.decide(decision_point="billing.refund",  # EXPECT-NOT: ADVISORY-ONLY-POLICY
                          context=[state("refund.amount_cents", charge.amount)])
    for item in decision.selected:
        stripe.Refund.create(charge=charge.id)
        ami.ack(item.activation_id, "acknowledged", code="SUCCESS")
