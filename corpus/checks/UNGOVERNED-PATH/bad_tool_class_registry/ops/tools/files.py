from .base import Tool


class ReadFile(Tool):
    name = "read_file"

    async def execute(self, path: str) -> str:
        with open(path, encoding="utf-8") as handle:
            return handle.read()


class WriteFile(Tool):
    name = "write_file"

    async def execute(self, path: str, content: str) -> str:
        with open(path, "w", encoding="utf-8") as handle:  # EXPECT: UNGOVERNED-PATH
            handle.write(content)
        return "written"
