from .base import Tool


class ReadFile(Tool):
    name = "read_file"

    async def execute(self, path: str) -> str:
        with open(path, encoding="utf-8") as handle:
            return handle.read()


class ListFiles(Tool):
    name = "list_files"

    async def execute(self, folder: str) -> str:
        return folder
