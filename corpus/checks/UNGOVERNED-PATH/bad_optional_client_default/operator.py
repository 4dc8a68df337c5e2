"""A client taken as an optional parameter with a default (`client or Anthropic()`), the way
SDK quickstarts write it: the messages call is the model's, and its text runs as a command."""

import subprocess
from typing import Optional

from anthropic import Anthropic


class Operator:
    def __init__(self, client: Optional[Anthropic] = None):
        self.client = client or Anthropic()

    def run(self, task: str) -> None:
        reply = self.client.messages.with_raw_response.create(
            model="claude-sonnet-4-5", max_tokens=512,
            messages=[{"role": "user", "content": task}]).parse()
        subprocess.run(reply.content[0].text, shell=True)  # EXPECT: UNGOVERNED-PATH


def review(task: str, client: Anthropic | None = None) -> None:
    reply = client.messages.create(model="claude-sonnet-4-5", max_tokens=512,
                                   messages=[{"role": "user", "content": task}])
    subprocess.run(["git", "commit", "-m", reply.content[0].text])  # EXPECT: UNGOVERNED-PATH
