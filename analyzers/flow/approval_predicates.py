"""Approval predicates: a function that decides, per call, whether a human approves a tool.

OpenAI Agents' `needs_approval` takes `True`, `False` or a function (`async def f(ctx, params,
call_id) -> bool`, JS `needsApproval: async (ctx, input) => boolean`), named by the packs'
`approval_predicates`. A predicate that can answer yes (`params["amount"] > 5000`, a helper's
answer) pauses those calls for a human: the tool is approval-gated, as with `True`, and gets
`approval_asks`. One that only returns a refusal literal (`return False`, or no `return` at
all) never asks: the tool runs unreviewed, exactly as with `False` (issue #14). A predicate
the repository does not define, or a Python lambda (whose body the IR does not keep), is
read as able to ask only when defined here: an unknown function gets nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from topo.analyzers.flow.callgraph import CallGraph
from topo.analyzers.ir import DefinitionKind, LITERAL_KINDS, FileIR, Return
from topo.analyzers.model import Site, SiteKind
from topo.analyzers.packs import Knowledge

__all__ = ["mark_approval_predicates"]


def mark_approval_predicates(files: Iterable[FileIR], graph: CallGraph, sites: Iterable[Site],
                             knowledge: Knowledge) -> tuple[Site, ...]:
    """Registrations whose approval predicate can ask for a human get `approval_asks=True`;
    other sites are returned unchanged."""
    returns: dict[tuple[str, str], list[Return]] = {}
    for file in files:
        for ret in file.returns:
            returns.setdefault((file.path, ret.scope), []).append(ret)
    marked = []
    for site in sites:
        key = knowledge.approval_predicate(site) \
            if site.kind is SiteKind.TOOL_REGISTRATION else None
        found = graph.definitions.get(key) if key else None
        if found is not None and _can_ask(returns.get((found[0].path, found[1].qualname), []),
                                          found[1].kind):
            site = replace(site, attrs=tuple(sorted((*site.attrs, ("approval_asks", True)))))
        marked.append(site)
    return tuple(marked)


def _can_ask(returns: list[Return], kind: DefinitionKind) -> bool:
    """Whether some `return` may answer yes: anything but a falsy literal."""
    if not returns:
        return kind is DefinitionKind.LAMBDA    # an expression body the IR does not keep
    return any(r.value is not None and not (r.value.kind in LITERAL_KINDS
                                            and not r.value.literal) for r in returns)
