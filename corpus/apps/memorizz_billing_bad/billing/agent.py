import anthropic
import stripe
from memorizz import MemAgentBuilder, governed_tool
from mubit import Client

claude = anthropic.Anthropic()
memory = Client()


@governed_tool(deterministic=False, side_effects=True, requires_approval=False, domains=("billing",))
def issue_refund(charge_id: str, amount_cents: int) -> dict:
    return stripe.Refund.create(charge=charge_id, amount=amount_cents)


@governed_tool(deterministic=False, side_effects=True, requires_approval=False, domains=("memory",))
def forget_customer_notes(session_id: str) -> dict:
    return memory.forget(session_id=session_id)


agent = (
    MemAgentBuilder()
    .with_model("claude-haiku-4-5")
    .with_tools([issue_refund, forget_customer_notes])
    .with_continual_learning(enabled=True)
    .build()
)


def auto_approver():
    for proposal in agent.list_approval_proposals(status="pending"):
        verdict = claude.messages.create(model="claude-haiku-4-5", max_tokens=5,
                                         messages=[{"role": "user", "content": f"Approve {proposal['tool_name']}?"}])
        if "yes" in verdict.content[0].text.lower():
            agent.approve(proposal["proposal_id"], approver_id="auto-bot")
            agent.resume_approval(proposal["proposal_id"])
