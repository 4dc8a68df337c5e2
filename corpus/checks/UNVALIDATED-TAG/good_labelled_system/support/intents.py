"""The classifier: one word from the model."""

from typing import Literal

from anthropic import Anthropic
from pydantic import TypeAdapter

Intent = Literal["refund_request", "billing", "other", "unknown"]
llm = Anthropic()


def classify_intent(message: str) -> str:
    reply = llm.messages.create(
        model="claude-haiku-4-5",
        max_tokens=10,
        messages=[{"role": "user", "content": f"Classify: {message}"}],
    )
    return TypeAdapter(Intent).validate_python(reply.content[0].text.strip())
