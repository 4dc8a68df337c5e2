"""The same loop, but the prompt forbids an action ("You cannot…"): a rule only the model
reads, which nothing enforces."""

from anthropic import Anthropic

client = Anthropic()
PROMPT = """Use the tools to complete the task.
- You cannot call a tool that deletes or changes data
- Always wrap your final response in <response> tags"""


def lookup_order(order_id: str) -> str:
    return f"order {order_id}"


def agent_loop(task: str) -> None:
    response = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, system=PROMPT,
                                      messages=[{"role": "user", "content": task}])
    for block in response.content:
        if block.type == "tool_use":
            eval(f"{block.name}(**block.input)")  # EXPECT: ADVISORY-ONLY-POLICY, UNGOVERNED-PATH
