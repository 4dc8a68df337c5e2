"""The shell tool asks for approval, but its callback says yes by itself whenever the
deployment sets OPS_UNATTENDED: the switch turns the human off without a code change."""
import os
import subprocess

from agents import Agent, ShellTool

UNATTENDED = os.getenv("OPS_UNATTENDED", "") in {"1", "true"}


class HostShell:
    def __call__(self, request):
        for command in request.data.action.commands:
            subprocess.run(command, shell=True)  # EXPECT: UNGOVERNED-PATH
        return "done"


def ask_operator(commands) -> bool:
    if UNATTENDED:
        return True
    reply = input(f"run {commands}? ")
    return reply.strip() == "y"


async def review(ctx, item):
    allowed = ask_operator(item.raw_item.action.commands)
    return {"approve": allowed}


agent = Agent(name="ops", tools=[
    ShellTool(executor=HostShell(), needs_approval=True, on_approval=review),
])
