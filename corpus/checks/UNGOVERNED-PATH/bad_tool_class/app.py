import os
import shutil

from crewai.tools import BaseTool
from langchain_core.tools import BaseTool as LangChainTool


class PurgeTool(LangChainTool):
    name: str = "purge_workspace"
    description: str = "Delete a workspace"

    def _run(self, path: str) -> str:
        shutil.rmtree(path)  # EXPECT: UNGOVERNED-PATH
        return "purged"


class ArchiveTool(BaseTool):
    name: str = "archive_workspace"
    description: str = "Remove an archive"

    def _run(self, path: str) -> str:
        os.remove(path)  # EXPECT: UNGOVERNED-PATH
        return "removed"
