"""Twin of bad_memorizz_direct_tool_exposure: the large toolbox keeps the router
(`ContextPolicy(tool_top_k=5)`); direct exposure is chosen only for a small, trusted set."""
from memorizz import ContextPolicy, MemAgentBuilder, SQLiteApprovalStore, governed_tool
from memorizz.long_term.procedural.toolbox import Toolbox


@governed_tool(deterministic=True, side_effects=False, requires_approval=False)
def lookup_customer(customer_id: str) -> dict: ...
@governed_tool(deterministic=True, side_effects=False, requires_approval=False)
def list_invoices(customer_id: str) -> list: ...
@governed_tool(deterministic=True, side_effects=False, requires_approval=False)
def list_tickets(customer_id: str) -> list: ...
@governed_tool(deterministic=True, side_effects=False, requires_approval=False)
def search_docs(query: str) -> list: ...
@governed_tool(deterministic=True, side_effects=False, requires_approval=False)
def get_order(order_id: str) -> dict: ...
@governed_tool(deterministic=True, side_effects=False, requires_approval=False)
def get_shipment(order_id: str) -> dict: ...


toolbox = Toolbox.from_functions([list_tickets, search_docs, get_order, get_shipment],
                                 agent_id="ops-agent", augment=False)

agent = (
    MemAgentBuilder()
    .with_name("Operations")
    .with_model("gpt-4.1")
    .with_tools([lookup_customer, list_invoices])
    .with_toolbox(toolbox)
    .with_context_policy(ContextPolicy(tool_top_k=5))
    .with_approval_store(SQLiteApprovalStore("/var/lib/memorizz/approvals.db"))
    .build()
)

# A small, trusted set: direct exposure is the documented compatibility choice.
lookup = (
    MemAgentBuilder()
    .with_model("gpt-4.1")
    .with_tools([lookup_customer, list_invoices])
    .with_context_policy(ContextPolicy(progressive_tool_disclosure=False))
    .build()
)
