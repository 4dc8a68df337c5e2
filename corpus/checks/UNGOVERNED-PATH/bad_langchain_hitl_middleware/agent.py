"""The middleware is there, but it asks about no tool that acts: the email is set to False
(auto-approved), the deletion only when a predicate says so (`when`), and the refund is not
named at all."""

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware

from tools import delete_folder, refund, send_email

agent = create_agent(
    model="openai:gpt-4o",
    tools=[send_email, delete_folder, refund],
    middleware=[
        HumanInTheLoopMiddleware(
            interrupt_on={
                "send_email": False,
                "delete_folder": {"allowed_decisions": ["approve", "reject"],
                                  "when": lambda request: "/prod" in request.tool_call["args"]["path"]},
            },
        ),
    ],
)
