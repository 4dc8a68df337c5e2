"""A chat model proposes a refund as a tool call; the next node reads the call's arguments
from the message list in the graph state and refunds, with no review."""

import stripe
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, MessagesState, StateGraph

llm = ChatOpenAI(model="gpt-4o")


def agent(state: MessagesState) -> dict:
    response = llm.invoke(state["messages"])
    return {"messages": [response]}


def issue_refund(state: MessagesState) -> dict:
    call = state["messages"][-1].tool_calls[0]["args"]
    stripe.Refund.create(charge=call["charge_id"], amount=call["amount"])  # EXPECT: UNGOVERNED-PATH
    return {"messages": []}


builder = StateGraph(MessagesState)
builder.add_node("agent", agent)
builder.add_node("issue_refund", issue_refund)
builder.add_edge(START, "agent")
builder.add_edge("agent", "issue_refund")
builder.add_edge("issue_refund", END)
graph = builder.compile()
