"""Account tools for the support agent; a human approves each key deletion."""

import requests
from agents import Agent, function_tool

KEYS_API = "https://iam.internal.example.com/users"


@function_tool(needs_approval=True)
def revoke_key(user_id: str, key_id: str) -> str:  # EXPECT-NOT: MODEL-CONSENT
    """Revoke an API key; the run pauses for a human before it happens."""
    requests.delete(f"{KEYS_API}/{user_id}/keys/{key_id}", timeout=10)  # EXPECT-NOT: UNGOVERNED-PATH
    return "deleted"


agent = Agent(name="accounts", instructions="Help users manage their keys.",
              tools=[revoke_key])
