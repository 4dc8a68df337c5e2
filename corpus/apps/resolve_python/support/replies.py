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
