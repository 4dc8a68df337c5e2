from memorizz import governed_tool
from mubit import Client

client = Client()


@governed_tool(deterministic=False, side_effects=True, requires_approval=False, domains=("memory",))
def forget_lesson(lesson_id: str) -> dict:
    return client.forget(lesson_id=lesson_id)  # EXPECT: DESTRUCTIVE-MEMORY-TOOL
