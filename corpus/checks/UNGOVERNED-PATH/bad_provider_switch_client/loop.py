"""The client is one of an SDK's classes, chosen by provider (anthropics/claude-quickstarts'
computer-use loop): its methods are the SDK's whichever runs, and the model's text runs as a
command."""

import subprocess

from anthropic import Anthropic, AnthropicBedrock, AnthropicVertex


def step(provider: str, task: str) -> None:
    if provider == "anthropic":
        client = Anthropic()
    elif provider == "vertex":
        client = AnthropicVertex()
    else:
        client = AnthropicBedrock()
    reply = client.messages.create(model="claude-sonnet-4-5", max_tokens=256,
                                   messages=[{"role": "user", "content": task}])
    subprocess.run(reply.content[0].text, shell=True)  # EXPECT: UNGOVERNED-PATH
