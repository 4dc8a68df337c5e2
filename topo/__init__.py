"""topo: static audit of the decision topology of AI-agent applications.

Installed, the project's folders live under this one namespace (`pyproject.toml` maps them):
`topo.analyzers` reads source code, `topo.audit` decides, `topo.reports` renders and
`topo.cli` is the command line, each floor importing only the ones below it.
"""

__version__ = "0.1.0"
