"""ACTION-GAP: the action an EMU selects cannot happen, because nothing in the code handles it.

Seed 000, "Action connectivity": "Trigger reachability asks, 'Can this policy match?' Action
connectivity asks, 'Can the selected outcome actually happen?'" — "the action type has a
handler; a `tool_call` has a matching registered tool and runtime executor; route and prompt
destinations exist". At run time the SDK executor fails with "No route handler registered" or
"Tool 'x' is not available"; statically we look for what would have handled the action:
- a `tool_call`: a Memrail tool registered under the EMU's `tool_id`, or a custom dispatcher
  that compares with that id or maps it to a function (`{"refund_payment": refund}`);
- a `route` / `decision_prompt` / `context_directive`: an `on_route` / `on_decision_prompt` /
  `on_context_directive` handler (for the EMU's decision point), or a custom dispatcher branch
  on the action type (`action["type"] == "route"`), or code reading the directive text;
- a generic `tool_call` branch (`if action["type"] == "tool_call"`) dispatches whatever tool
  the action names through the app's own registry, so it handles every tool the code
  registers under that name with any framework (or defines as a function of that name).

A handler that exists but cannot complete the action is a partial connection, and an action
gap too ("a selected action has no complete handler"): every handler found is a stub, swallows
its effect's errors, has no configured credential, or (a route) looks its destination up in a
table that lacks the EMU's destination (`topo.audit.handlers`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from topo.analyzers.ir import Condition, FileIR, Value, ValueKind
from topo.audit import codes
from topo.audit.checks._integration import MEMRAIL, emu_tool_id, has_app_code, memrail_tools
from topo.audit.checks._registry import CheckContext, check
from topo.audit.handlers import Handler, emu_destination, handlers_by_key, unfinished
from topo.audit.graph.build import sites_of_kind
from topo.analyzers.model import Site, SiteKind
from topo.audit.model import Finding
from topo.audit.policy import Emu

__all__ = ["action_gap"]

_HANDLER_DECORATOR = {"route": "on_route", "decision_prompt": "on_decision_prompt",
                      "context_directive": "on_context_directive"}
# Payload fields only one action type carries: reading them is handling that type.
_PAYLOAD_FIELDS = {"context_directive": ("directive",), "route": ("destination",)}


@dataclass(frozen=True, slots=True)
class _Dispatch:
    """What custom dispatch code shows: string literals compared against, dict keys mapped to
    functions, and payload fields read (`["directive"]`, `.get("directive")`)."""

    compared: frozenset[str]
    mapped: frozenset[str]
    fields: frozenset[str]


@check(codes.ACTION_GAP)
def action_gap(ctx: CheckContext) -> Iterator[Finding]:
    if not ctx.emus or not has_app_code(ctx):
        return      # the evidence below is read only for the actions EMUs select
    dispatch = _dispatch(ctx.facts.files)
    tools = memrail_tools(ctx)
    handlers = [s for s in sites_of_kind(ctx.graph, SiteKind.ACTION_HANDLER)
                if s.system == MEMRAIL]
    bodies = handlers_by_key(ctx.facts.files, ctx.facts.sites, ctx.facts.knowledge)
    exposed = _exposed_tools(ctx)
    for emu in ctx.emus:
        kind = emu.action.get("type")
        if kind == "tool_call":
            message = _tool_gap(emu, tools, dispatch, exposed)
            if message is None:
                message = _incomplete(emu, [t for t in tools
                                            if t.attr("tool_name") == emu_tool_id(emu)],
                                      bodies, f"tool `{emu_tool_id(emu)}`")
        elif kind in _HANDLER_DECORATOR:
            message = _handler_gap(emu, str(kind), handlers, dispatch)
            if message is None and kind not in dispatch.compared and \
                    not set(_PAYLOAD_FIELDS.get(str(kind), ())) & dispatch.fields:
                message = _incomplete(emu, [h for h in handlers
                                            if h.attr("action_type") == kind],
                                      bodies, f"`{kind}` action")
        else:
            message = None
        if message:
            yield ctx.finding(codes.ACTION_GAP, location=emu.location, symbol=emu.label,
                              emu_key=emu.emu_key, message=message, snippet=f"action {kind}")


def _exposed_tools(ctx: CheckContext) -> frozenset[str]:
    """Names a generic dispatcher can look a tool up by: tools registered with any framework,
    and functions defined under that name."""
    names = {str(s.attr("tool_name")) for s in sites_of_kind(ctx.graph, SiteKind.TOOL_REGISTRATION)
             if s.attr("tool_name")}
    names.update(d.name for f in ctx.facts.files for d in f.definitions)
    return frozenset(names)


def _tool_gap(emu: Emu, tools: list[Site], dispatch: _Dispatch,
              exposed: frozenset[str]) -> str | None:
    tool_id = emu_tool_id(emu)
    if tool_id is None:
        return None     # EMU-SCHEMA reports a tool_call without a tool
    if any(t.attr("tool_name_literal") is False for t in tools):
        return None     # a tool registered under a computed name may be this one
    if any(t.attr("tool_name") == tool_id for t in tools):
        return None
    if tool_id in dispatch.compared or tool_id in dispatch.mapped:
        return None
    if "tool_call" in dispatch.compared and tool_id in exposed:
        return None     # a generic tool_call branch looks the tool up by its name
    return (f"EMU `{emu.label}` selects tool `{tool_id}`, which no Memrail tool registration "
            f"or dispatcher branch in the code handles")


def _handler_gap(emu: Emu, kind: str, registered: list[Site], dispatch: _Dispatch) -> str | None:
    if kind in dispatch.compared or set(_PAYLOAD_FIELDS.get(kind, ())) & dispatch.fields:
        return None
    handlers = [s for s in registered if s.attr("action_type") == kind]
    if kind != "context_directive":
        if handlers:
            return None
        return (f"EMU `{emu.label}` selects a `{kind}` action, and the code has no "
                f"`{_HANDLER_DECORATOR[kind]}` handler or dispatcher branch on `{kind}`")
    # Directive handlers are keyed `*`, `dp` or `dp:project`: one for another point is no help.
    keys = [h.attr("decision_point") for h in handlers]
    if any(k is None or h.attr("decision_point_literal") is False or k == emu.decision_point
           for k, h in zip(keys, handlers)):
        return None
    others = f" (handlers exist for {', '.join(f'`{k}`' for k in sorted(map(str, keys)))})" \
        if keys else ""
    point = f"decision point `{emu.decision_point}`" if emu.decision_point else "its decision"
    return (f"EMU `{emu.label}` selects a `context_directive` action, and the code has no "
            f"`on_context_directive` handler for {point} or dispatcher branch on it{others}")


def _incomplete(emu: Emu, registered: list[Site], bodies: dict[str, Handler],
                what: str) -> str | None:
    found = unfinished([bodies.get(str(s.attr("definition"))) for s in registered],
                       emu_destination(emu))
    if found is None:
        return None
    handler, why = found
    return (f"EMU `{emu.label}` selects the {what}, and its handler `{handler.key}` cannot "
            f"complete it (partially connected): {'; '.join(why)}")


# ---- custom dispatch evidence ----------------------------------------------------------------

def _dispatch(files: Iterable[FileIR]) -> _Dispatch:
    compared: set[str] = set()
    mapped: set[str] = set()
    fields: set[str] = set()
    for file in files:
        for condition in _conditions(file):
            for comparison in condition.comparisons:
                for side in (comparison.left, comparison.right):
                    compared.update(_strings(side))
            fields.update(_fields(condition.reads))
        for value in _values(file):
            mapped.update(k for k, v in _dict_entries(value)
                          if k and v.kind in (ValueKind.NAME, ValueKind.LAMBDA))
            fields.update(_fields(value.reads))
            if value.kind is ValueKind.OTHER:
                # A comprehension's reads leave out its own variables (`item.action[…]`).
                fields.update(f for names in _PAYLOAD_FIELDS.values() for f in names
                              if any(q in value.text for q in (f'["{f}"]', f"['{f}']",
                                                               f".action.{f}")))
        for call in file.calls:
            if call.name == "get" and call.args and call.args[0].kind is ValueKind.STRING:
                fields.add(str(call.args[0].literal))
    return _Dispatch(frozenset(compared), frozenset(mapped), frozenset(fields))


def _conditions(file: FileIR) -> Iterator[Condition]:
    holders = (*file.calls, *file.assignments, *file.returns)
    guards = [g for h in holders for g in h.guards] + [b.guard for b in file.blocks]
    return (g.condition for g in guards if g.condition is not None)


def _values(file: FileIR) -> Iterator[Value]:
    for call in file.calls:
        yield from (*call.args, *(v for _, v in call.kwargs))
    for assignment in file.assignments:
        yield assignment.value
    for returned in file.returns:
        if returned.value is not None:
            yield returned.value


def _strings(value: Value | None) -> Iterator[str]:
    if value is None:
        return
    if value.kind is ValueKind.STRING and isinstance(value.literal, str):
        yield value.literal
    for _, entry in value.entries:
        yield from _strings(entry)


def _dict_entries(value: Value) -> Iterator[tuple[str | None, Value]]:
    if value.kind is ValueKind.DICT:
        yield from value.entries
    for _, entry in value.entries:
        yield from _dict_entries(entry)


def _fields(reads: Iterable[str]) -> Iterator[str]:
    """`action["directive"]` -> `directive`: the last literal subscript of each access path;
    `item.action.directive` (a TypeScript property read) likewise."""
    for path in reads:
        if path.endswith('"]'):
            start = path.rfind('["')
            if start >= 0:
                yield path[start + 2:-2]
        elif ".action." in path:
            yield path.rsplit(".", 1)[-1]
