"""A CRM client as agent apps write them: credentials, search and a model proxy beside writes."""

import json

import httpx
import requests
from x402.clients.requests import x402_requests

TOKEN_URL = "https://login.crm.example/oauth2/v2.0/token"
API = "https://api.crm.example/v3"


def access_token(client_id: str, secret: str) -> str:
    response = requests.post(TOKEN_URL, data={"grant_type": "client_credentials",
                                              "client_id": client_id, "client_secret": secret})
    return response.json()["access_token"]


def search_contacts(token: str, query: str) -> list:
    response = httpx.post(f"{API}/objects/contacts/search", json={"query": query},
                          headers={"Authorization": f"Bearer {token}"})
    return response.json()["results"]


def summarize(notes: str) -> str:
    payload = {"model": "small", "messages": [{"role": "user", "content": notes}]}
    response = requests.post("http://localhost:8080/llm", data=json.dumps(payload))
    return response.json()["text"]


def update_deal(token: str, deal_id: str, stage: str) -> None:
    requests.request("PATCH", f"{API}/objects/deals/{deal_id}", json={"stage": stage},
                     headers={"Authorization": f"Bearer {token}"})


def call(token: str, method: str, path: str) -> dict:
    return requests.request(method, f"{API}/{path}",
                            headers={"Authorization": f"Bearer {token}"}).json()


def read_deal(token: str, deal_id: str) -> dict:
    return requests.request("GET", f"{API}/objects/deals/{deal_id}",
                            headers={"Authorization": f"Bearer {token}"}).json()


def buy_enrichment(wallet, domain: str) -> dict:
    session = x402_requests(wallet)
    return session.get(f"https://enrich.example/paid/{domain}").json()
