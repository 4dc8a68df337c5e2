from openai import OpenAI

from app.tools.pay import refund

client = OpenAI()


def charge_back(charge, message):
    amount = client.responses.create(model="gpt-4o", input=message).output_text
    refund(charge, amount)
