"""The same derived and piped runnables; their output never selects the refund, or no model
runs in the pipe at all."""

import logging

import stripe
from langchain_anthropic import ChatAnthropic
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_openai import ChatOpenAI
from pydantic import BaseModel

log = logging.getLogger(__name__)
llm = ChatOpenAI(model="gpt-4o", temperature=0)
prompt = ChatPromptTemplate.from_messages([("system", "Summarise."), ("user", "{ticket}")])
SMALL_REFUND = 20


class Summary(BaseModel):
    topic: str


def structured_summary_only_logged(ticket) -> None:
    judge = ChatAnthropic(model="claude-sonnet-4-5").with_structured_output(Summary)
    summary = judge.invoke(ticket.text)
    log.info("ticket %s is about %s", ticket.id, summary.topic)
    if ticket.amount < SMALL_REFUND:
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT-NOT: HIDDEN-AUTHORITY, UNGOVERNED-PATH


def configured_model_output_returned(ticket) -> str:
    reply = llm.with_config({"run_name": "summary"}).with_retry().invoke(ticket.text)
    if ticket.amount < SMALL_REFUND:
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT-NOT: HIDDEN-AUTHORITY, UNGOVERNED-PATH
    return reply.content


def template_and_parser_without_a_model(ticket) -> None:
    chain = prompt | StrOutputParser()
    rendered = chain.invoke({"ticket": ticket.text})
    if "refund" in rendered:  # EXPECT-NOT: HIDDEN-AUTHORITY
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT-NOT: HIDDEN-AUTHORITY, UNGOVERNED-PATH
