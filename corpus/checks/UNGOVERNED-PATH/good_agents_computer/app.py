import subprocess


class DesktopTyper:
    """The same method on a class no computer tool holds: the program types fixed text."""

    async def type(self, text: str) -> None:
        subprocess.run(["xdotool", "type", text])  # EXPECT-NOT: UNGOVERNED-PATH


async def main() -> None:
    await DesktopTyper().type("hello")
