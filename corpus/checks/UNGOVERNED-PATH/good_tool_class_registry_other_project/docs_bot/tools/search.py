from .base import Tool


class SearchDocs(Tool):
    async def execute(self, query: str) -> str:
        return f"results for {query}"


class PublishDocs(Tool):
    async def execute(self, path: str, content: str) -> str:
        with open(path, "w", encoding="utf-8") as handle:  # EXPECT-NOT: UNGOVERNED-PATH
            handle.write(content)
        return "published"
