"""The model's label becomes an Enum member before it becomes a tag."""

import enum

from memrail import AMIClient
from memrail.atoms import state, tag
from openai import OpenAI


class Sentiment(str, enum.Enum):
    POSITIVE = "positive"
    NEUTRAL = "neutral"
    NEGATIVE = "negative"


client = OpenAI()
ami = AMIClient(workspace="production", project="support")


def follow_up(ticket) -> list[dict]:
    reply = client.responses.create(model="gpt-4o-mini", input=f"Sentiment, one word: {ticket.body}")
    sentiment = Sentiment(reply.output_text.strip().lower())
    decision = ami.decide(
        decision_point="support.follow_up",
        context=[state("ticket.id", ticket.id),
                 tag("sentiment", sentiment.value, source="ml")],  # EXPECT-NOT: UNVALIDATED-TAG
    )
    return [item.action for item in decision.selected]
