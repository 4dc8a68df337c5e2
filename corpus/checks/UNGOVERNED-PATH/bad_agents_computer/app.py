import subprocess

from agents import Agent, AsyncComputer, ComputerTool


class DesktopComputer(AsyncComputer):
    """Whichever ComputerTool holds it, the model's actions call these methods."""

    async def screenshot(self) -> str:
        return ""

    async def type(self, text: str) -> None:
        subprocess.run(["xdotool", "type", text])  # EXPECT: UNGOVERNED-PATH


def build(computer: AsyncComputer) -> Agent:
    return Agent(name="desktop", tools=[ComputerTool(computer=computer)])
