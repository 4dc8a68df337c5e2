"""Dunning: the model reviews a retry and Memrail is asked, but the charge runs on the retry
count alone."""
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
    model_approved = review["approved"]  # EXPECT: ADVISORY-ONLY-POLICY
    auto_pay = attempts > 1
    if auto_pay:
        stripe.PaymentIntent.create(amount=invoice.amount_cents, currency="usd",
                                    customer=invoice.customer_id, confirm=True)


def refund_duplicate(charge) -> None:
    decision = ami.decide(decision_point="billing.refund",  # EXPECT: ADVISORY-ONLY-POLICY
                          context=[state("refund.amount_cents", charge.amount)])
    if charge.duplicate:
        stripe.Refund.create(charge=charge.id)
