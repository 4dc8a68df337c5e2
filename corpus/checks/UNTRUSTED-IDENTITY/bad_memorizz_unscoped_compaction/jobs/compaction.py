"""Seed 002, Explicit compaction scope: "Never let a background task infer its tenant from
whichever request happened to run most recently. Pass the complete scope"."""
from memorizz import MemAgentBuilder

agent = MemAgentBuilder().with_name("Tutor").with_model("gpt-4.1").build(validate=True)


def nightly_compaction():
    return agent.generate_summaries(days_back=7)  # EXPECT: UNTRUSTED-IDENTITY


def thread_compaction(thread_id: str):
    return agent.generate_summaries(thread_id=thread_id, days_back=1)  # EXPECT: UNTRUSTED-IDENTITY
