import httpx
import requests
from agents import Agent, function_tool

TOKEN_URL = "https://login.crm.example/oauth2/token"


@function_tool
def find_deals(query: str) -> str:
    """POSTs that change nothing: a token request, a search and a call to the app's own model
    proxy (a body with `model` and `messages` is inference)."""
    token = requests.post(TOKEN_URL, data={"grant_type": "client_credentials"}).json()  # EXPECT-NOT: UNGOVERNED-PATH
    headers = {"Authorization": f"Bearer {token['access_token']}"}
    found = httpx.post("https://api.crm.example/v2/deals/search", json={"query": query}, headers=headers)  # EXPECT-NOT: UNGOVERNED-PATH
    summary = httpx.post(  # EXPECT-NOT: UNGOVERNED-PATH
        "http://localhost:8080/llm",
        json={"model": "small", "messages": [{"role": "user", "content": found.text}]},
    )
    return summary.text


agent = Agent(name="sales", tools=[find_deals])
