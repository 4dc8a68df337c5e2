"""Triage a support message: the model classifies it and proposes a refund."""

import json

from openai import OpenAI

llm = OpenAI()


def assess(message: str) -> dict:
    response = llm.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": message}],
        response_format={"type": "json_object"},
    )
    return json.loads(response.choices[0].message.content)
