import os
from pathlib import Path

from agents import Agent, ApplyPatchTool


class Editor:
    """The model's patch operations call these methods."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def create_file(self, operation):
        return f"would create {operation.path}"

    def delete_file(self, operation):
        os.remove(self.root / operation.path)  # EXPECT: UNGOVERNED-PATH
        return "deleted"


def build(root: Path) -> Agent:
    editor = Editor(root)
    return Agent(name="patcher", tools=[ApplyPatchTool(editor=editor)])
