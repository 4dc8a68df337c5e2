import subprocess

from pydantic import BaseModel
from pydantic_ai import Agent


class Plan(BaseModel):
    command: str


agent = Agent("openai:gpt-4o", output_type=Plan)


@agent.output_validator
async def dry_run(output: Plan) -> Plan:
    # The agent hands the model's output to the validator, which runs it to "check" it.
    subprocess.run(output.command, shell=True)  # EXPECT: UNGOVERNED-PATH
    return output
