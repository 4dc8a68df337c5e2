"""The tools the model may call."""

import requests


def delete_account(user_id: str) -> str:
    requests.delete(f"https://api.internal/users/{user_id}")
    return "deleted"


def lookup_order(order_id: str) -> str:
    return requests.get(f"https://api.internal/orders/{order_id}").text
