from langchain_openai import ChatOpenAI
from langgraph.store.base import BaseStore

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
    store.put(RULES, "instructions", {"text": reply.content})  # EXPECT: SELF-MODIFYING-AUTHORITY
    return {}
