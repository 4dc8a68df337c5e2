"""LangChain's human-in-the-loop middleware pauses for a human before each call of the tools it
names (found in vercel/ai's next-langchain example, reported as ungoverned before)."""

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langgraph.checkpoint.memory import InMemorySaver

from tools import delete_folder, send_email

agent = create_agent(
    model="openai:gpt-4o",
    tools=[send_email, delete_folder],
    middleware=[
        HumanInTheLoopMiddleware(
            interrupt_on={
                "send_email": True,
                "delete_folder": {"allowed_decisions": ["approve", "reject"]},
            },
        ),
    ],
    checkpointer=InMemorySaver(),
)
