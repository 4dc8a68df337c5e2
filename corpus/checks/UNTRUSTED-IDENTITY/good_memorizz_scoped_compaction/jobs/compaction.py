"""Twin of bad_memorizz_unscoped_compaction: each job names the complete scope it compacts
(`user_id=None` explicitly selects anonymous/legacy rows, which is a choice, not an inference)."""
from memorizz import MemAgentBuilder

agent = MemAgentBuilder().with_name("Tutor").with_model("gpt-4.1").build(validate=True)


def nightly_compaction(run):
    return agent.generate_summaries(memory_id=run.memory_id, user_id=run.user_id,
                                    thread_id=run.thread_id, days_back=7)


def legacy_compaction(memory_id: str):
    return agent.generate_summaries(memory_id=memory_id, user_id=None, days_back=30)
