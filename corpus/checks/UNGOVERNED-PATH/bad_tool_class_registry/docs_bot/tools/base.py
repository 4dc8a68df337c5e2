"""Another project of the monorepo, with tool classes of its own."""


class Tool:
    async def execute(self, **kwargs) -> str:
        raise NotImplementedError
