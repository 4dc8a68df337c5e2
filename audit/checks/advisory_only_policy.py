"""ADVISORY-ONLY-POLICY: the only rule between the model and the effect is prompt text.

Seed 000, "The authority boundary": model inference "becomes unsafe authority when an unbounded
output, hidden confidence threshold, or prompt instruction is allowed to mutate external state
directly"; "Pattern 1": "Do not treat a directive as a hard execution barrier; the model can
still produce unexpected text" (other-systems.md H3: an executor whose only upstream authority
is advisory). A system prompt saying "never refund more than $500 without approval" states a
policy that nothing enforces: a prompt injection, a paraphrase or a plain mistake bypasses it.

Reported once per executor: an ungoverned chain that carries model output (the UNGOVERNED-PATH
condition) whose model call, or the agent handing the model its tool, is instructed with
imperative constraint vocabulary ("never", "must not", "do not", "only if", "require
approval", "above $N"…). Memory rules (MemoRizz, MemexAI, Mubit) come with their packs.
"""

from __future__ import annotations

from collections.abc import Iterator

from audit import codes
from audit.checks._evidence import executor_text
from audit.checks._prompts import Prompt, constraint_in, prompts_of, tool_holders
from audit.checks._reach import chains
from audit.checks._registry import CheckContext, check, severity_for
from audit.graph import sites_of_kind
from audit.model import Finding, SiteKind

__all__ = ["advisory_only_policy"]


@check(codes.ADVISORY_ONLY_POLICY)
def advisory_only_policy(ctx: CheckContext) -> Iterator[Finding]:
    rules = dict(_rules(ctx))
    if not rules:
        return
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        for chain in chains(ctx, executor):
            found = next((rules[o] for o in chain.origins if o in rules), None)
            if not chain.influenced or chain.governed or found is None:
                continue
            sentence, prompt = found
            yield ctx.finding(
                codes.ADVISORY_ONLY_POLICY, location=executor.location, symbol=executor.symbol,
                message=f"the only rule over {executor_text(executor)} is the instruction "
                        f"\"{sentence}\" given to `{prompt.carrier}`",
                snippet=sentence, path=chain.path, related=(prompt.location,),
                severity=severity_for(codes.ADVISORY_ONLY_POLICY, executor.attr("tier")),
                inferred=True)
            break


def _rules(ctx: CheckContext) -> Iterator[tuple[str, tuple[str, Prompt]]]:
    """(origin site id, (constraint sentence, prompt)) for each model call or model-invoked
    tool whose instructions state a rule."""
    holders = tool_holders(ctx)
    for origin in sites_of_kind(ctx.graph, SiteKind.INFERENCE, SiteKind.TOOL_REGISTRATION):
        for prompt in prompts_of(ctx, origin, holders):
            sentence = constraint_in(prompt.text)
            if sentence is not None:
                yield origin.id, (sentence, prompt)
                break
