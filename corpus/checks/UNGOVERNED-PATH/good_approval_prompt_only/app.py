"""The shell tool's approval callback returns the operator's answer, and nothing else."""
import subprocess

from agents import Agent, ShellTool


class HostShell:
    def __call__(self, request):
        for command in request.data.action.commands:
            subprocess.run(command, shell=True)  # EXPECT-NOT: UNGOVERNED-PATH
        return "done"


def ask_operator(commands) -> bool:
    if not commands:
        return False
    reply = input(f"run {commands}? ")
    return reply.strip() == "y"


async def review(ctx, item):
    allowed = ask_operator(item.raw_item.action.commands)
    return {"approve": allowed, "reason": "operator"}


agent = Agent(name="ops", tools=[
    ShellTool(executor=HostShell(), needs_approval=True, on_approval=review),
])
