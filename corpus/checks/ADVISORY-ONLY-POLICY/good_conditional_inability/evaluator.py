"""A tool-evaluation loop: the system prompt's "If you cannot…" tells the model how to answer
when it fails, not what it may do, so it is no rule over the effect (found auditing
anthropic-cookbook). The eval of a model-chosen tool is still ungoverned."""

from anthropic import Anthropic

client = Anthropic()
PROMPT = """Use the tools to complete the task.
- Always wrap your final response in <response> tags
- If you cannot solve the task return <response>NOT_FOUND</response>
- If you do not know an ID, say so"""


def lookup_order(order_id: str) -> str:
    return f"order {order_id}"


def agent_loop(task: str) -> None:
    response = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, system=PROMPT,
                                      messages=[{"role": "user", "content": task}])
    for block in response.content:
        if block.type == "tool_use":
            eval(f"{block.name}(**block.input)")  # EXPECT: UNGOVERNED-PATH
