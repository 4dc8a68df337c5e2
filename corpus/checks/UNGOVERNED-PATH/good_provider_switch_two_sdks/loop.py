"""A client chosen between two SDKs' classes: which API `messages.create` is cannot be said, so
the call names no model (no guess)."""

import subprocess

from anthropic import Anthropic
from replayer import RecordedClient


def step(provider: str, task: str) -> None:
    if provider == "anthropic":
        client = Anthropic()
    else:
        client = RecordedClient("fixtures/answers.json")
    reply = client.messages.create(model="claude-sonnet-4-5", max_tokens=256,
                                   messages=[{"role": "user", "content": task}])
    subprocess.run(reply.content[0].text, shell=True)  # EXPECT-NOT: UNGOVERNED-PATH
