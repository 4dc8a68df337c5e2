"""Functions named like jobs and handlers that nothing registers: none is an entry point."""

import modal
import stripe

app = modal.App("billing")


def issue_refund(charge_id: str, amount_cents: int) -> None:
    stripe.Refund.create(charge=charge_id, amount=amount_cents)


def nightly_refund_job() -> None:
    """Named like a job, scheduled by nothing in the code."""
    issue_refund("ch_nightly", 500)


def handle_webhook(payload: dict) -> None:
    """Named like a webhook; no route serves it and no signature is verified."""
    issue_refund(payload["charge"], 100)


@app.function()
def on_demand_refund(charge_id: str) -> None:
    """A Modal function with no schedule runs when called, not on a timer."""
    issue_refund(charge_id, 100)
