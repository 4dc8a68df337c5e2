"""Twin of bad_memorizz_llm_delegation: the code's plan routes the delegates (seed 002:
`with_delegation(delegates, mode="deterministic", plan=workflow_plan)`)."""
from memorizz import MemAgentBuilder

from ops.agents import billing_agent, research_agent

WORKFLOW_PLAN = [
    {"delegate": "research", "task": "collect the customer's open tickets"},
    {"delegate": "billing", "task": "draft a refund proposal for review"},
]
MODE = "deterministic"

coordinator = (
    MemAgentBuilder()
    .with_name("Coordinator")
    .with_model("gpt-4.1")
    .with_delegation([billing_agent, research_agent], mode="deterministic", plan=WORKFLOW_PLAN)
    .build(validate=True, persist=True)
)

triage = MemAgentBuilder().with_model("gpt-4.1").with_delegation([billing_agent], mode=MODE, plan=WORKFLOW_PLAN).build()
