"""A chat model derived in one expression or several, or piped (LCEL), still decides refunds."""

import stripe
from langchain_anthropic import ChatAnthropic
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_openai import ChatOpenAI
from pydantic import BaseModel

from tools import lookup_order

llm = ChatOpenAI(model="gpt-4o", temperature=0)
prompt = ChatPromptTemplate.from_messages([("system", "Decide the refund."), ("user", "{ticket}")])


class Verdict(BaseModel):
    refund: bool
    reason: str


def structured_in_one_expression(ticket) -> None:
    judge = ChatAnthropic(model="claude-sonnet-4-5").with_structured_output(Verdict)
    verdict = judge.invoke(ticket.text)
    if verdict.refund:  # EXPECT: HIDDEN-AUTHORITY
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT: UNGOVERNED-PATH


def tools_bound_and_configured(ticket) -> None:
    reply = llm.bind_tools([lookup_order]).with_config({"run_name": "triage"}).invoke(ticket.text)
    if reply.tool_calls:  # EXPECT: HIDDEN-AUTHORITY
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT: UNGOVERNED-PATH


def bound_with_retry_and_fallbacks(ticket) -> None:
    backup = ChatAnthropic(model="claude-haiku-4-5")
    judge = llm.bind(stop=["\n"]).with_retry(stop_after_attempt=3).with_fallbacks([backup])
    answer = judge.invoke(ticket.text)
    if answer.content.strip() == "REFUND":  # EXPECT: HIDDEN-AUTHORITY
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT: UNGOVERNED-PATH


def piped_sequence(ticket) -> None:
    chain = prompt | llm | StrOutputParser()
    answer = chain.invoke({"ticket": ticket.text})
    if "refund" in answer.lower():  # EXPECT: HIDDEN-AUTHORITY
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT: UNGOVERNED-PATH


async def piped_structured(ticket) -> None:
    chain = prompt | llm.with_structured_output(Verdict)
    verdict = await chain.ainvoke({"ticket": ticket.text})
    if verdict.refund:  # EXPECT: HIDDEN-AUTHORITY
        stripe.Refund.create(charge=ticket.charge_id)  # EXPECT: UNGOVERNED-PATH


def piped_by_method(ticket) -> None:
    # Not followed yet (HIDDEN-AUTHORITY Limits): Python's `prompt.pipe(llm)`.
    answer = prompt.pipe(llm).invoke({"ticket": ticket.text})
    if "refund" in answer.content:  # TODO-EXPECT: HIDDEN-AUTHORITY
        stripe.Refund.create(charge=ticket.charge_id)  # TODO-EXPECT: UNGOVERNED-PATH
