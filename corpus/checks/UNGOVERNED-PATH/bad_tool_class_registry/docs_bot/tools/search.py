from .base import Tool


class SearchDocs(Tool):
    async def execute(self, query: str) -> str:
        return f"results for {query}"
