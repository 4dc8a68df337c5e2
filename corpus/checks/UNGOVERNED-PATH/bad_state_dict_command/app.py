"""The same app keeping the model's answer in a dict of its own, then running it: a write into
a value (not a module) carries the answer."""

import subprocess

from anthropic import Anthropic

client = Anthropic()
state: dict = {}


def answer(prompt: str) -> None:
    reply = client.messages.create(model="claude-sonnet-4-5", max_tokens=256,
                                   messages=[{"role": "user", "content": prompt}])
    state["command"] = reply.content[0].text
    subprocess.run(state["command"], shell=True)  # EXPECT: UNGOVERNED-PATH
