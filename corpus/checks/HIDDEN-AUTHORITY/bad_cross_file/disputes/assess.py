import json

from openai import OpenAI

client = OpenAI()


def assess(text: str) -> dict:
    response = client.responses.create(model="gpt-4o-mini", input=text)
    return json.loads(response.output_text)
