"""Guardrail verdicts derived from a guardrail agent's answer through `not`, a comparison or
a helper: still the model deciding what passes."""

from pydantic import BaseModel

from agents import (Agent, GuardrailFunctionOutput, RunContextWrapper, Runner,
                    TResponseInputItem, input_guardrail, output_guardrail)


class SafetyCheck(BaseModel):
    is_safe: bool
    risk: float


checker = Agent(name="Safety checker", instructions="Is this safe?", output_type=SafetyCheck)


def too_risky(check: SafetyCheck) -> bool:
    return check.risk > 0.7


@input_guardrail
async def safety_guardrail(ctx: RunContextWrapper[None], agent: Agent,
                           input: str | list[TResponseInputItem]) -> GuardrailFunctionOutput:
    result = await Runner.run(checker, input, context=ctx.context)
    return GuardrailFunctionOutput(output_info=result.final_output,  # EXPECT: AGENT-VERDICT
                                   tripwire_triggered=not result.final_output.is_safe)


@input_guardrail
async def risk_guardrail(ctx: RunContextWrapper[None], agent: Agent,
                         input: str | list[TResponseInputItem]) -> GuardrailFunctionOutput:
    result = await Runner.run(checker, input, context=ctx.context)
    risky = result.final_output.risk >= 0.5
    return GuardrailFunctionOutput(output_info=None, tripwire_triggered=risky)  # EXPECT: AGENT-VERDICT


@output_guardrail
async def helper_guardrail(ctx: RunContextWrapper[None], agent: Agent,
                           output: str) -> GuardrailFunctionOutput:
    result = await Runner.run(checker, output, context=ctx.context)
    return GuardrailFunctionOutput(output_info=None,  # EXPECT: AGENT-VERDICT
                                   tripwire_triggered=too_risky(result.final_output_as(SafetyCheck)))


refund_agent = Agent(name="Refund agent", instructions="Help customers with refunds.",
                     input_guardrails=[safety_guardrail, risk_guardrail],
                     output_guardrails=[helper_guardrail])
