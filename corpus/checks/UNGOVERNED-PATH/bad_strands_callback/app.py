import subprocess

from strands import Agent
from strands.tools.tools import PythonAgentTool


def run_command(tool_use, **kwargs):
    """The SDK hands the callback the model's tool use: its input is the model's."""
    subprocess.run(tool_use["input"]["command"], shell=True)  # EXPECT: UNGOVERNED-PATH
    return {"toolUseId": tool_use["toolUseId"], "status": "success", "content": []}


shell = PythonAgentTool("run_command", {"name": "run_command", "inputSchema": {}}, run_command)
agent = Agent(tools=[shell])
