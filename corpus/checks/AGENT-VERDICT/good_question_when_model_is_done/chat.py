"""A multi-turn chat: when the model has no tool call left, the loop asks the user for the next
message. The model decides when to ask, but the answer is only the next message, which no
test reads: a question, not an approval (found auditing LangGraph's multi-turn how-to)."""

from langchain_core.messages import AIMessage
from langchain_openai import ChatOpenAI
from langgraph.func import entrypoint
from langgraph.graph import add_messages
from langgraph.types import interrupt

llm = ChatOpenAI(model="gpt-4o")


@entrypoint()
def conversation(messages: list) -> list:
    while True:
        reply = llm.invoke(messages)
        messages = add_messages(messages, [reply])
        if isinstance(reply, AIMessage) and not reply.tool_calls:
            user_input = interrupt(value="Ready for user input.")  # EXPECT-NOT: AGENT-VERDICT
            messages = add_messages(messages, [{"role": "user", "content": user_input}])
            continue
        if reply.tool_calls[-1]["name"] == "finish":
            return messages
