"""A hand-written agent's tool classes (found in anthropics/claude-quickstarts' agents)."""


class Tool:
    name = "tool"

    async def execute(self, **kwargs) -> str:
        raise NotImplementedError
