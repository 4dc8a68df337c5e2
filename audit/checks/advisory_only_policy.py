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
approval", "above $N"…) — or that receives memory-delivered rules: a Mubit `rule` entry
(`remember(intent="rule")`, delivered by `get_context` or `mubit.learn.init()`/middleware) or
MemexAI's `shared/**` prose (the prompt block), the observation edges from those sites into
the model (other-systems.md A8, H3, X18).

Also reported: a decorative verdict (issue #14), a model's or a decision's verdict assigned to
a verdict-named local that nothing reads, beside an effect that runs on another test
(`_decorative_verdicts`): authority asked for and then not enforced.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from topo.audit import codes
from topo.audit.checks._decorative_verdicts import decorative_verdicts
from topo.audit.checks._evidence import (control_text, executor_text, origin_text,
                                         scope_symbol, site_of)
from topo.audit.checks._selection import CONTROLS
from topo.audit.checks._prompts import (Prompt, ToolHolder, constraint_in, prompts_of,
                                        tool_holders)
from topo.audit.checks._registry import CheckContext, check, executor_severity
from topo.audit.graph.build import sites_of_kind
from topo.analyzers.model import Location, Site, SiteKind
from topo.audit.model import Finding

__all__ = ["advisory_only_policy"]

_MARKUP = re.compile(r"^\s*(?:[-*+>#]+|\d+[.)])\s*")    # a Markdown bullet, heading or quote


@check(codes.ADVISORY_ONLY_POLICY)
def advisory_only_policy(ctx: CheckContext) -> Iterator[Finding]:
    yield from _decorative(ctx)
    rules = dict(_rules(ctx))
    if not rules:
        return
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        for chain in ctx.reach.of(executor):
            found = next((rules[o] for o in chain.origins if o in rules), None)
            if not chain.influenced or chain.governed or found is None:
                continue
            sentence, prompt = found
            yield ctx.finding(
                codes.ADVISORY_ONLY_POLICY, location=executor.location, symbol=executor.symbol,
                message=f"the only rule over {executor_text(executor)} is the instruction "
                        f"\"{sentence}\" given to `{prompt.carrier}`",
                snippet=sentence, path=chain.path, related=(prompt.location,),
                severity=executor_severity(codes.ADVISORY_ONLY_POLICY, executor),
                inferred=True)
            break


def _decorative(ctx: CheckContext) -> Iterator[Finding]:
    """A verdict asked for and then ignored by the effect (`_decorative_verdicts`)."""
    for found in decorative_verdicts(ctx):
        executor, name = found.chain.executor, found.assignment.target
        sources = [s for s in (site_of(ctx, label) for label in found.labels) if s is not None]
        control = next((s for s in sources if s.kind in CONTROLS), None)
        source = control_text(control) if control is not None else \
            f"model output of {origin_text(ctx, found.labels)}"
        guard = found.guard.condition.text if found.guard and found.guard.condition else None
        runs = f"runs on `{guard}` instead" if guard else "runs without it"
        yield ctx.finding(
            codes.ADVISORY_ONLY_POLICY, location=found.assignment.location,
            symbol=scope_symbol(found.file, found.assignment.scope),
            message=f"the verdict `{name}` from {source} is never read: "
                    f"{executor_text(executor)} {runs}",
            snippet=f"{name} = {found.assignment.value.text}",
            path=(*found.labels, executor.id),
            related=(*(s.location for s in sources), executor.location),
            severity=executor_severity(codes.ADVISORY_ONLY_POLICY, executor), inferred=True)


def _rules(ctx: CheckContext) -> Iterator[tuple[str, tuple[str, Prompt]]]:
    """(origin site id, (constraint sentence, prompt)) for each model call or model-invoked
    tool whose instructions state a rule, or whose model receives memory-delivered rules."""
    holders = tool_holders(ctx)
    memory = _memory_rules(ctx)
    for origin in sites_of_kind(ctx.graph, SiteKind.INFERENCE, SiteKind.TOOL_REGISTRATION):
        found = None
        for prompt in prompts_of(ctx, origin, holders):
            sentence = constraint_in(prompt.text)
            if sentence is not None:
                found = (sentence, prompt)
                break
        if found is None:
            found = memory.get(origin.id) or next(
                (memory[m] for h in holders if origin.kind is SiteKind.TOOL_REGISTRATION
                 and (origin.attr("call") in h.calls or str(origin.attr("definition") or "")
                      .rsplit(".", 1)[-1] in h.names)
                 for m in memory if ctx.graph.nodes[m]["site"].attr("call") == h.call.id),
                None)
        if found is None and origin.kind is SiteKind.TOOL_REGISTRATION:
            found = next((rule for h in holders if _holds(h, origin)
                          for rule in [_held_rule(ctx, h)] if rule is not None), None)
        if found is not None:
            yield origin.id, found


def _holds(holder: ToolHolder, tool: Site) -> bool:
    return tool.attr("call") in holder.calls or \
        str(tool.attr("definition") or "").rsplit(".", 1)[-1] in holder.names


def _held_rule(ctx: CheckContext, holder: ToolHolder) -> tuple[str, Prompt] | None:
    """The prompt block handed to the call that holds the tool, as its instructions
    (`Agent(instructions=await user.get_system_prompt(...), tools=[refund])`): the agent's
    run, a call further on, is where the model reads it."""
    if ctx.facts.memory is None:
        return None
    for label in sorted(ctx.facts.memory.argument_labels(holder.file, holder.call)):
        site = ctx.graph.nodes[label].get("site") if label in ctx.graph else None
        if site is not None and site.kind.declares("policy") and \
                site.attr("policy") == "shared_prose":
            return _prose_rule(ctx, site) or _block_rule(site)
    return None


def _block_rule(block: Site) -> tuple[str, Prompt]:
    return ("the shared/** policy prose of the MemexAI prompt block",
            Prompt("", block.location, str(block.attr("callee"))))


def _memory_rules(ctx: CheckContext) -> dict[str, tuple[str, Prompt]]:
    """Model calls observed by a memory system that delivers rules: inference site id ->
    (the rule, where it is written)."""
    written = [s for s in ctx.facts.sites if s.kind is SiteKind.PROMPT_POLICY
               and s.attr("policy") == "memory_rule"]
    found: dict[str, tuple[str, Prompt]] = {}
    for model in sites_of_kind(ctx.graph, SiteKind.INFERENCE):
        for source, _, data in sorted(ctx.graph.in_edges(model.id, data=True),
                                      key=lambda edge: edge[0]):
            site = ctx.graph.nodes[source].get("site")
            if data.get("kind") != "observation" or site is None:
                continue
            if site.kind.declares("policy") and site.attr("policy") == "shared_prose":
                found[model.id] = _prose_rule(ctx, site) or _block_rule(site)
            elif site.kind.declares("delivers_rules") and site.attr("delivers_rules") is True:
                for rule in (r for r in written if r.system == site.system):
                    sentence = constraint_in(str(rule.attr("content") or "").strip("\"'"))
                    if sentence is not None:
                        found[model.id] = (sentence, Prompt("", rule.location,
                                                            str(site.attr("callee"))))
                        break
            if model.id in found:
                break
    return found


def _prose_rule(ctx: CheckContext, block: Site) -> tuple[str, Prompt] | None:
    """The first rule written in the repository's policy prose that the prompt block delivers
    (`shared/ops/support-playbook.md`: "Escalate to a human agent if …"), where it is written."""
    for prose in ctx.facts.configs.prose:
        if prose.store != block.attr("store"):
            continue
        for number, line in enumerate(prose.text.splitlines(), 1):
            sentence = constraint_in(_MARKUP.sub("", line))
            if sentence is not None:
                return sentence, Prompt(line, Location(prose.file, number),
                                        str(block.attr("callee")))
    return None
