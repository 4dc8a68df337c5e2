"""Seed 002, Provider failures: "run_stream() always emits a terminal error event". A host that
forwards chunks without testing for it shows a provider failure as a finished answer."""
from memorizz import MemAgentBuilder

agent = MemAgentBuilder().with_name("Support").with_model("gpt-4.1").build()


def stream_answer(query: str):
    for chunk in agent.run_stream(query):  # EXPECT: UNSAFE-FALLBACK
        yield chunk


def collect_answer(query: str) -> str:
    stream = agent.run_stream(query, user_id="student-42")  # EXPECT: UNSAFE-FALLBACK
    parts = []
    for chunk in stream:
        parts.append(chunk["text"])
    return "".join(parts)
