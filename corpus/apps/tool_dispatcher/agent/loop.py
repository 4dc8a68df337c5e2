"""Run the model until it stops asking for tools."""

import anthropic

from agent.tools import delete_account, lookup_order

TOOLS = {"delete_account": delete_account, "lookup_order": lookup_order}
client = anthropic.Anthropic()


def run(messages: list) -> list:
    while True:
        response = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024,
                                          messages=messages)
        if response.stop_reason != "tool_use":
            return messages
        for block in response.content:
            if block.type == "tool_use":
                output = TOOLS[block.name](**block.input)
                messages.append({"role": "user", "content": output})
