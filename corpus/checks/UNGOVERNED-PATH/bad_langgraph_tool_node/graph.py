import smtplib

from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition


def email_customer(to: str, body: str) -> str:
    """Handed to ToolNode as a plain function: the model calls it by name."""
    with smtplib.SMTP("localhost") as smtp:
        smtp.sendmail("support@example.com", [to], body)  # EXPECT: UNGOVERNED-PATH
    return "sent"


llm = ChatOpenAI(model="gpt-4o").bind_tools([email_customer])


def agent(state: MessagesState) -> dict:
    return {"messages": [llm.invoke(state["messages"])]}


builder = StateGraph(MessagesState)
builder.add_node("agent", agent)
builder.add_node("tools", ToolNode([email_customer]))
builder.add_edge(START, "agent")
builder.add_conditional_edges("agent", tools_condition)
builder.add_edge("tools", "agent")
graph = builder.compile()
