"""An approval callback that approves every call is no approval; neither is an explicit
`needs_approval=False`."""
import shutil
import subprocess

from agents import Agent, ApplyPatchTool, ShellTool


class Workspace:
    def delete_file(self, operation):
        shutil.rmtree(operation.path)  # EXPECT: UNGOVERNED-PATH


class HostShell:
    def __call__(self, request):
        for command in request.data.action.commands:
            subprocess.run(command, shell=True)  # EXPECT: UNGOVERNED-PATH
        return "done"


async def rubber_stamp(ctx, item):
    print("approving", item)
    return {"approve": True, "reason": "auto"}


agent = Agent(name="ops", tools=[
    ApplyPatchTool(editor=Workspace(), needs_approval=True, on_approval=rubber_stamp),
    ShellTool(executor=HostShell(), needs_approval=False),
])
