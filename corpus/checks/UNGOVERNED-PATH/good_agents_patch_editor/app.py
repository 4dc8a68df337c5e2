import os
from pathlib import Path

from agents import Agent, ApplyPatchTool


class Editor:
    """needs_approval=True: a human approves each operation."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def create_file(self, operation):
        return f"would create {operation.path}"

    def delete_file(self, operation):
        os.remove(self.root / operation.path)  # EXPECT-NOT: UNGOVERNED-PATH
        return "deleted"


def build(root: Path) -> Agent:
    editor = Editor(root)
    return Agent(name="patcher", tools=[ApplyPatchTool(editor=editor, needs_approval=True)])
