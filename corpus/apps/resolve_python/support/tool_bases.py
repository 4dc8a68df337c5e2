from crewai.tools import BaseTool


class LookupBase(BaseTool):
    name: str = "lookup"
    description: str = "look a record up"

    def _run(self, key):
        return key


class Plain:
    name = "plain"
