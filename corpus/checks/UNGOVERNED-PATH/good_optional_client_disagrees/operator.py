"""The same shapes where the alternatives name different classes (an Anthropic client or a
local replay of recorded answers): which one runs is not known, so the call is no model's."""

import subprocess
from typing import Optional, Union

from anthropic import Anthropic


class Replay:
    """Recorded answers, played back in tests."""

    def __init__(self, answers):
        self.messages = answers


class Operator:
    def __init__(self, client: Optional[Anthropic] = None):
        self.client = client or Replay([])

    def run(self, task: str) -> None:
        reply = self.client.messages.create(model="claude-sonnet-4-5", max_tokens=512,
                                            messages=[{"role": "user", "content": task}])
        subprocess.run(reply.content[0].text, shell=True)  # EXPECT-NOT: UNGOVERNED-PATH


def review(task: str, client: Union[Anthropic, Replay]) -> None:
    reply = client.messages.create(model="claude-sonnet-4-5", max_tokens=512,
                                   messages=[{"role": "user", "content": task}])
    subprocess.run(["git", "commit", "-m", reply.content[0].text])  # EXPECT-NOT: UNGOVERNED-PATH
