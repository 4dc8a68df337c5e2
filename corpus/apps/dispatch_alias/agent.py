import json

import stripe
from openai import OpenAI

llm = OpenAI()


class Agent:
    def __init__(self):
        self._routes = {"refund": self.refund, "status": self.status}
        self.tools = {}

    def refund(self, order=None, amount=None):
        stripe.Refund.create(charge=order, amount=amount)

    def status(self, order=None, amount=None):
        return {"order": order}

    def step(self, message):
        reply = llm.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": message}])
        call = json.loads(reply.choices[0].message.content)
        action = call["action"]
        args = call["args"]
        handler = self._routes[action]
        handler(**args)

    def by_key(self, message, order):
        reply = llm.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": message}])
        choice = reply.choices[0].message.content
        handler = self._routes[choice]
        handler(order)

    def fixed(self, order):
        handler = self._routes["status"]
        handler(order)

    def looked_up(self, message):
        reply = llm.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": message}])
        name = reply.choices[0].message.content
        self.tools.get(name).run({"q": message})

    def fixed_lookup(self, message):
        self.tools.get("search").run({"q": message})
