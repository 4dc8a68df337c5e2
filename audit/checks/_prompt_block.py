"""Memory tools handed to a model without the prompt block they assume.

Seed 003, "Prompt Block", "Common failure mode": "Passing tools without the prompt block can
create a misleading demo"; "Treat `tools` plus `system` as the pair that makes memory useful"
(other-systems.md X1). MemexAI's `shared/**` policy (the memory write policy, the tool
selection guide, the escalation playbook) reaches the model only through the prompt block: a
model call that gets the memory tools without it writes and acts on memory with none of that
policy. Which toolsets need the block is pack data (`needs_prompt_block` on the registration);
the block is the system's `prompt_policy` site with policy `shared_prose`.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.analyzers.flow.dataflow import Seeds, propagate
from topo.analyzers.model import Site, SiteKind
from topo.audit.checks._registry import CheckContext
from topo.audit.graph.build import sites_of_kind

__all__ = ["tools_without_prompt_block"]


def tools_without_prompt_block(ctx: CheckContext) -> Iterator[tuple[Site, Site]]:
    """(model call, toolset) for each model call that receives a toolset needing the prompt
    block and receives no prompt block of that system."""
    toolsets = {s.id: s for s in sites_of_kind(ctx.graph, SiteKind.TOOL_REGISTRATION)
                if s.attr("needs_prompt_block") is True and s.attr("call")}
    if not toolsets:
        return
    blocks = {s.id: s.system for s in sites_of_kind(ctx.graph, SiteKind.PROMPT_POLICY)
              if s.attr("policy") == "shared_prose"}
    flow = propagate(ctx.facts.files, ctx.facts.graph, Seeds(calls={
        str(s.attr("call")): frozenset({s.id}) for s in toolsets.values()}),
        ctx.facts.flow_index)
    for model in sites_of_kind(ctx.graph, SiteKind.INFERENCE):
        found = ctx.calls.get(str(model.attr("call")))
        if found is None:
            continue
        held = sorted(flow.argument_labels(*found) & toolsets.keys())
        if not held:
            continue
        given = ctx.facts.memory.argument_labels(*found) if ctx.facts.memory else frozenset()
        systems = {blocks[label] for label in given if label in blocks}
        for toolset in (toolsets[label] for label in held):
            if toolset.system not in systems:
                yield model, toolset
                break
