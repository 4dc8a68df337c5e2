import os
from pathlib import Path

from agents import Agent, ApplyPatchTool, AsyncComputer, FunctionTool
from agents.extensions.experimental.codex import codex_tool


class Editor:
    def __init__(self, root: Path) -> None:
        self.root = root

    def create_file(self, operation):
        (self.root / operation.path).write_text(operation.diff)

    def delete_file(self, operation):
        os.remove(self.root / operation.path)


class Desktop(AsyncComputer):
    async def screenshot(self) -> str:
        return ""

    async def type(self, text: str) -> None:
        return None


async def lookup(ctx, arguments: str) -> str:
    return arguments


def build(root: Path) -> Agent:
    editor = Editor(root)
    return Agent(name="patcher", tools=[
        ApplyPatchTool(editor=editor, needs_approval=True),
        FunctionTool(name="lookup_record", description="Look a record up",
                     params_json_schema={}, on_invoke_tool=lookup),
        codex_tool(),
    ])
