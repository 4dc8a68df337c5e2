from agents import Agent, ShellTool

from tools.shell import LocalShell

# ...but registered again without approval: the same executor is a second way in.
fast = Agent(name="fast", tools=[ShellTool(executor=LocalShell())])
