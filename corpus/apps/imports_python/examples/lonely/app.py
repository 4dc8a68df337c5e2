import helpers
from openai import OpenAI

client = OpenAI()


def reply(address, message):
    answer = client.responses.create(model="gpt-4o", input=message).output_text
    helpers.send(address, answer)
