"""An operations agent that may restart production services."""

import subprocess

from agents import Agent, Runner, function_tool


@function_tool
def restart_service(name: str) -> str:
    """Restart a systemd unit."""
    subprocess.run(["systemctl", "restart", name], check=True)  # EXPECT: ADVISORY-ONLY-POLICY, UNGOVERNED-PATH
    return f"restarted {name}"


agent = Agent(
    name="ops",
    instructions=(
        "You help the on-call engineer. Only restart a service when the engineer has "
        "asked for that exact service. Do not restart the database."
    ),
    tools=[restart_service],
)


def answer(question: str) -> str:
    return Runner.run_sync(agent, question).final_output
