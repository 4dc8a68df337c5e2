"""A large tool set shown to the model directly, with the runtime's tool router turned off.

Seed 002, "Progressive tool disclosure": the router "applies agent, user, and Toolbox scope
before selecting top-k tools", invocation "is allowlisted", the signature "bound strictly" and
"duplicate/retry budgets are enforced"; `ContextPolicy(progressive_tool_disclosure=False)`
"restores direct schema exposure for a small, trusted tool set. It should be an explicit
compatibility choice" (other-systems.md M4). The switch is a `prompt_policy` site with
`direct_exposure` and the pack's `exposure_limit`; the tools counted are the registrations
made in the statement that receives the policy (the builder chain): functions listed inline,
and those of a toolbox it is handed by name.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.analyzers.ir import Call, FileIR, Value
from topo.analyzers.model import Site, SiteKind
from topo.audit.checks._registry import CheckContext
from topo.audit.graph.build import sites_of_kind

__all__ = ["oversized_direct_exposure"]


def oversized_direct_exposure(ctx: CheckContext) -> Iterator[tuple[Site, int]]:
    """(switch, number of tools) where more tools than the limit are exposed directly."""
    registrations = list(sites_of_kind(ctx.graph, SiteKind.TOOL_REGISTRATION))
    for switch in sites_of_kind(ctx.graph, SiteKind.PROMPT_POLICY):
        limit = switch.attr("exposure_limit")
        found = ctx.calls.get(str(switch.attr("call")))
        if switch.attr("direct_exposure") is not True or not isinstance(limit, int) \
                or found is None:
            continue
        file, call = found
        count = len(_tools_in(ctx, file, _receivers(file, call), registrations))
        if count > limit:
            yield switch, count


def _receivers(file: FileIR, policy: Call) -> set[tuple[int, int]]:
    """The statements (start line, column) that take the policy: its own (the builder chain it
    is written in) and those of calls handed the name it is assigned to."""
    names = {a.target for a in file.assignments
             if a.scope == policy.scope and a.value.call == policy.id}
    statements = {_start(policy)}
    for call in file.calls:
        if call.scope == policy.scope and any(_names(v, names) for v in _arguments(call)):
            statements.add(_start(call))
    return statements


def _tools_in(ctx: CheckContext, file: FileIR, statements: set[tuple[int, int]],
              registrations: list[Site]) -> set[str]:
    """Tool definitions registered by calls in `statements`, or listed in their arguments
    (a function its own decorator registers), and likewise for the calls that built a value
    those calls are handed by name (`toolbox = Toolbox.from_functions([...])`)."""
    calls = [c for c in file.calls if _start(c) in statements]
    built = {a.value.call for a in file.assignments if a.value.call and
             any(_names(v, {a.target}) for c in calls for v in _arguments(c))}
    calls += [c for c in file.calls if c.id in built]
    ids = {c.id for c in calls}
    listed = {f"{file.module}.{item.ref}" for c in calls for v in _arguments(c)
              for _, item in v.entries if item.ref}
    return {str(site.attr("definition")) for site in registrations
            if site.attr("definition") and site.location.file == file.path
            and (str(site.attr("call")) in ids or site.attr("definition") in listed)}


def _start(call: Call) -> tuple[int, int]:
    return call.statement.line, call.statement.column


def _arguments(call: Call) -> tuple[Value, ...]:
    return (*call.args, *(value for _, value in call.kwargs))


def _names(value: Value, names: set[str]) -> bool:
    return value.ref in names or bool(names & set(value.reads))
