"""Seed 002, Sandboxes and delegation: "Multi-agent planning and decomposition use the
configured LLMProvider and model". Without a deterministic plan the model picks which
delegate acts (the billing agent can refund)."""
from memorizz import MemAgentBuilder

from ops.agents import billing_agent, research_agent

coordinator = (
    MemAgentBuilder()  # EXPECT: HIDDEN-AUTHORITY
    .with_name("Coordinator")
    .with_model("gpt-4.1")
    .with_delegation([billing_agent, research_agent])
    .build()
)

triage = MemAgentBuilder().with_model("gpt-4.1").with_delegation([billing_agent], mode="planned").build()  # EXPECT: HIDDEN-AUTHORITY
