"""Approval predicates: a function that decides, per call, whether a human approves a tool.

OpenAI Agents' `needs_approval` takes `True`, `False` or a function (`async def f(ctx, params,
call_id) -> bool`, JS `needsApproval: async (ctx, input) => boolean`), named by the packs'
`approval_predicates`. Only a predicate that asks on every call (each of its `return`s is a
truthy literal) gates the tool like `True` (`approval_asks`). One that answers no for some
calls (`params["amount"] > 5000`, `subject.includes('spam')`) lets those calls run without a
human: the tool stays unreviewed, as with `False`, and is marked `approval_conditional` so
the finding can say why; one that never asks (`return False`, no `return`) is `False`
(issue #14). A predicate the repository does not define, or a Python lambda (whose body the
IR does not keep), is not read: no approval.
"""

from __future__ import annotations

from collections.abc import Iterable

from topo.analyzers.flow.callgraph import CallGraph
from topo.analyzers.ir import LITERAL_KINDS, FileIR, Return
from topo.analyzers.model import Site, SiteKind
from topo.analyzers.packs import Knowledge

__all__ = ["mark_approval_predicates"]


def mark_approval_predicates(files: Iterable[FileIR], graph: CallGraph, sites: Iterable[Site],
                             knowledge: Knowledge) -> tuple[Site, ...]:
    """Registrations whose approval predicate always asks for a human get
    `approval_asks=True`, those whose predicate asks only sometimes `approval_conditional`;
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
        answers = _answers(returns.get((found[0].path, found[1].qualname), [])) \
            if found is not None else set()
        if answers == {True}:
            site = site.with_attrs(approval_asks=True)
        elif True in answers or None in answers:
            site = site.with_attrs(approval_conditional=True)
        marked.append(site)
    return tuple(marked)


def _answers(returns: list[Return]) -> set[bool | None]:
    """What the predicate's `return`s answer: True / False for a literal, None when the
    answer depends on the call."""
    found: set[bool | None] = set()
    for ret in returns:
        value = ret.value
        found.add(bool(value.literal) if value is not None and value.kind in LITERAL_KINDS
                  else None if value is not None else False)
    return found
