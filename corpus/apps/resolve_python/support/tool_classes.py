from support.tool_bases import LookupBase, Plain


class OrderLookup(LookupBase):
    name: str = "order_lookup"
    description: str = "look an order up"


class NotATool(Plain):
    name = "not_a_tool"
