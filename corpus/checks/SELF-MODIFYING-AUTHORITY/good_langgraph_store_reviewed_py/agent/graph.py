from langchain_openai import ChatOpenAI
from langgraph.store.base import BaseStore
from langgraph.types import interrupt

RULES = ("memories", "rules")
llm = ChatOpenAI(model="gpt-4o")


def respond(state: dict, *, store: BaseStore) -> dict:
    rules = store.get(RULES, "instructions")
    text = rules.value["text"] if rules else ""
    reply = llm.invoke([("system", f"Follow these instructions: {text}"),
                        ("user", state["question"])])
    return {"answer": reply.content}


def reflect(state: dict, *, store: BaseStore) -> dict:
    reply = llm.invoke([("system", "Rewrite your instructions from this conversation."),
                        ("user", state["transcript"])])
    # A human reads the proposed instructions and accepts them before they are stored.
    verdict = interrupt({"proposed_instructions": reply.content})
    if verdict == "accept":
        store.put(RULES, "instructions", {"text": reply.content})
    return {}
