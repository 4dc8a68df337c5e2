import resend
from openai import OpenAI

llm = OpenAI()


class Loop:
    def __init__(self):
        self.handlers = []

    async def start(self, on_message, address):
        text = await on_message("hello")
        resend.Emails.send({"to": address, "subject": "re", "html": text})


async def draft(message):
    response = llm.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": message}])
    return response.choices[0].message.content


async def template(message):
    return "Thanks, we got: " + message


class Mailroom:
    async def start(self, on_message, address):
        text = await on_message("hello")
        resend.Emails.send({"to": address, "subject": "re", "html": text})


async def serve(address):
    await Loop().start(draft, address)
    await Mailroom().start(template, address)


class Outbox:
    def _open_clients(self):
        return OpenAI(), resend.Emails

    def relay(self, address):
        model, mailer = self._open_clients()
        reply = model.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "draft"}])
        mailer.send({"to": address, "subject": "re", "html": reply.choices[0].message.content})

    def relay_constant(self, address):
        model, mailer = self._open_clients()
        mailer.send({"to": address, "subject": "re", "html": "We will get back to you."})


import stripe  # noqa: E402 - placed here to keep the lines above stable


def send_refund(**kwargs):
    stripe.Refund.create(charge=kwargs["charge"], amount=kwargs["amount"])


def refund_by_keywords(charge):
    answer = llm.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "how much"}])
    send_refund(charge=charge, amount=answer.choices[0].message.content)


def refund_fixed_keywords(charge):
    send_refund(charge=charge, amount=100)
