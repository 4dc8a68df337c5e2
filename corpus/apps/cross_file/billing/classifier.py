"""Ask the model how sure it is that a dispute deserves a refund."""

import json

from openai import OpenAI

client = OpenAI()


def assess(dispute_text: str) -> dict:
    response = client.responses.create(model="gpt-4o-mini", input=dispute_text)
    return json.loads(response.output_text)
