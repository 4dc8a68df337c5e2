from pydantic import BaseModel

from agents import (Agent, GuardrailFunctionOutput, RunContextWrapper, Runner,
                    TResponseInputItem, input_guardrail)


class RefundCheck(BaseModel):
    reasoning: str
    is_fraudulent: bool


checker = Agent(
    name="Fraud checker",
    instructions="Decide whether this refund request looks fraudulent.",
    output_type=RefundCheck,
)


@input_guardrail
async def fraud_guardrail(ctx: RunContextWrapper[None], agent: Agent,
                          input: str | list[TResponseInputItem]) -> GuardrailFunctionOutput:
    result = await Runner.run(checker, input, context=ctx.context)
    verdict = result.final_output_as(RefundCheck)
    return GuardrailFunctionOutput(  # EXPECT: AGENT-VERDICT
        output_info=verdict,
        tripwire_triggered=verdict.is_fraudulent,
    )


refund_agent = Agent(
    name="Refund agent",
    instructions="Help customers with refunds.",
    input_guardrails=[fraud_guardrail],
)
