import requests
import stripe
from openai import OpenAI

llm = OpenAI()


def verdict(ticket):
    return llm.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": ticket}]).choices[0].message.content


def refund_if_told(ticket, charge):
    if llm.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": ticket}]).choices[0].message.content == "refund":
        stripe.Refund.create(charge=charge)


def refund_by_helper(ticket, charge):
    if verdict(ticket).strip() == "refund":
        stripe.Refund.create(charge=charge)


def refund_if_service_says(ticket, charge):
    if requests.get("https://rules.internal/refund", params={"t": ticket}).json()["decision"] == "refund":
        stripe.Refund.create(charge=charge)


def refund_if_claude_says(ticket, charge):
    import anthropic
    if anthropic.Anthropic().messages.create(model="claude-sonnet-4-5", max_tokens=10, messages=[{"role": "user", "content": ticket}]).content[0].text == "refund":
        stripe.Refund.create(charge=charge)
