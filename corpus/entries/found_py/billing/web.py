"""HTTP ways in: a Stripe webhook verified by its signature, a webhook named by its path,
and a command an operator runs."""

import click
import stripe
from fastapi import FastAPI, Request
from flask import Flask, request

from billing.payments import issue_refund

api = FastAPI()
admin = Flask(__name__)


@api.post("/stripe/events")
async def stripe_events(request: Request) -> dict:
    event = stripe.Webhook.construct_event(await request.body(),
                                           request.headers["stripe-signature"], "whsec_x")
    issue_refund(event["data"]["object"]["charge"], 100)
    return {"ok": True}


@admin.post("/webhooks/chargeback")
def chargeback_webhook() -> str:
    issue_refund(request.json["charge"], 100)
    return "ok"


@admin.post("/refunds")
def manual_refund() -> str:
    issue_refund(request.json["charge"], request.json["amount"])
    return "ok"


@click.command()
@click.argument("charge")
def refund_cli(charge: str) -> None:
    issue_refund(charge, 100)
