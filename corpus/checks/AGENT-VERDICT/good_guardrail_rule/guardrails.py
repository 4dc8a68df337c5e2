import re

from agents import (Agent, GuardrailFunctionOutput, RunContextWrapper, TResponseInputItem,
                    input_guardrail, output_guardrail)

CARD_NUMBER = re.compile(r"\b\d{13,16}\b")


@input_guardrail
async def card_number_guardrail(ctx: RunContextWrapper[None], agent: Agent,
                                input: str | list[TResponseInputItem]) -> GuardrailFunctionOutput:
    # A fixed rule over the user's input decides: no model is asked.
    text = input if isinstance(input, str) else str(input)
    found = CARD_NUMBER.search(text) is not None
    return GuardrailFunctionOutput(output_info={"card_number": found}, tripwire_triggered=found)


@output_guardrail
async def no_card_in_answer(ctx: RunContextWrapper[None], agent: Agent,
                            output: str) -> GuardrailFunctionOutput:
    # A fixed rule over the answer: the rule decides, not a model's judgement.
    found = CARD_NUMBER.search(output) is not None
    return GuardrailFunctionOutput(output_info={"card_number": found}, tripwire_triggered=found)


refund_agent = Agent(
    name="Refund agent",
    instructions="Help customers with refunds.",
    input_guardrails=[card_number_guardrail],
    output_guardrails=[no_card_in_answer],
)
