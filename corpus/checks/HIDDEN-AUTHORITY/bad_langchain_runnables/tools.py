from langchain_core.tools import tool


@tool
def lookup_order(order_id: str) -> str:
    """Look an order up."""
    return order_id
