import subprocess

from pydantic import BaseModel
from pydantic_ai import Agent


class Plan(BaseModel):
    command: str


agent = Agent("openai:gpt-4o", output_type=Plan)


@agent.system_prompt
async def repository_state() -> str:
    # A system prompt function runs before the model answers: no model output reaches it.
    status = subprocess.run(["git", "status"], capture_output=True, text=True)  # EXPECT-NOT: UNGOVERNED-PATH
    return status.stdout
