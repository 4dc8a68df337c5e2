import smtplib

from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition


def lookup_order(order_id: str) -> str:
    """The only tool the graph runs: a read."""
    return f"order {order_id}: shipped"


def email_customer(to: str, body: str) -> str:
    """Not handed to ToolNode or the model: the program calls it itself."""
    with smtplib.SMTP("localhost") as smtp:
        smtp.sendmail("support@example.com", [to], body)  # EXPECT-NOT: UNGOVERNED-PATH
    return "sent"


llm = ChatOpenAI(model="gpt-4o").bind_tools([lookup_order])


def agent(state: MessagesState) -> dict:
    return {"messages": [llm.invoke(state["messages"])]}


builder = StateGraph(MessagesState)
builder.add_node("agent", agent)
builder.add_node("tools", ToolNode([lookup_order]))
builder.add_edge(START, "agent")
builder.add_conditional_edges("agent", tools_condition)
builder.add_edge("tools", "agent")
graph = builder.compile()

if __name__ == "__main__":
    email_customer("ops@example.com", "nightly report")
