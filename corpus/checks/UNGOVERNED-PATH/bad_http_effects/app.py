import httpx
import requests
from agents import Agent, function_tool
from x402.clients.requests import x402_requests

TOKEN_URL = "https://login.crm.example/oauth2/token"
CRM = "https://api.crm.example"


@function_tool
def close_deal(deal_id: str, amount: int) -> str:
    """The model picks the deal; the token request beside the write changes nothing."""
    token = requests.post(TOKEN_URL, data={"grant_type": "client_credentials"}).json()
    headers = {"Authorization": f"Bearer {token['access_token']}"}
    httpx.post(f"{CRM}/v2/deals/{deal_id}/close", json={"amount": amount}, headers=headers)  # EXPECT: UNGOVERNED-PATH
    return "closed"


@function_tool
def buy_report(topic: str) -> str:
    """A payment client pays on a GET: the model spends money by asking for a report."""
    session = x402_requests(wallet)
    return session.get(f"https://reports.example/paid/{topic}").text  # EXPECT: UNGOVERNED-PATH


wallet = None
agent = Agent(name="sales", tools=[close_deal, buy_report])
