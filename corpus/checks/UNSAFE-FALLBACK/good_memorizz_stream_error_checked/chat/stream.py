"""Twin of bad_memorizz_stream_error_ignored: the host tests each chunk for the terminal error
event, or opts into exception propagation (`raise_on_provider_error=True`)."""
from memorizz import MemAgentBuilder

agent = MemAgentBuilder().with_name("Support").with_model("gpt-4.1").build()


class ProviderFailure(RuntimeError):
    pass


def stream_answer(query: str):
    for chunk in agent.run_stream(query):
        if chunk.get("type") == "error":
            raise ProviderFailure(chunk["error_code"])
        yield chunk


def collect_answer(query: str) -> str:
    parts = []
    for chunk in agent.run_stream(query, raise_on_provider_error=True):
        parts.append(chunk["text"])
    return "".join(parts)
