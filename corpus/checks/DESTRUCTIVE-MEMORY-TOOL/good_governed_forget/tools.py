from memorizz import governed_tool
from mubit import Client

client = Client()


@governed_tool(deterministic=False, side_effects=True, requires_approval=True,
               approval_reason="Deletes a lesson permanently", domains=("memory",))
def forget_lesson(lesson_id: str) -> dict:
    return client.forget(lesson_id=lesson_id)  # EXPECT-NOT: DESTRUCTIVE-MEMORY-TOOL
