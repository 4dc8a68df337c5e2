"""Account tools for the support agent; the model says whether the user confirmed."""

import requests
from agents import Agent, function_tool

KEYS_API = "https://iam.internal.example.com/users"


@function_tool
def revoke_key(user_id: str, key_id: str, confirmed: bool) -> str:  # EXPECT: MODEL-CONSENT
    """Revoke an API key once the user has confirmed."""
    if not confirmed:  # EXPECT-NOT: HIDDEN-AUTHORITY (MODEL-CONSENT on the parameter says it)
        return "ask the user to confirm first"
    requests.delete(f"{KEYS_API}/{user_id}/keys/{key_id}", timeout=10)  # EXPECT: UNGOVERNED-PATH
    return "deleted"


agent = Agent(name="accounts", instructions="Help users manage their keys.",
              tools=[revoke_key])
