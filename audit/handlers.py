"""Whether the function that handles a selected action can complete it.

Seed 000 §6: "Inspect real handlers, not only registrations. A stub, unconfigured credential,
nonexistent destination, or swallowed error is a partial connection." A registration (or an
`on_route` decorator) says a handler exists; its body says whether the action can happen:

- a stub: the body does nothing (`pass`, `return None`, only logging) or only raises
  (`raise NotImplementedError`, `throw new Error(…)`);
- a swallowed error: an `except`/`catch` around the handler's calls that does not end by
  raising, so the executor reports success (and acknowledges) whatever happened;
- an absent credential: a call in the handler, or the module-level construction of the client
  it calls, passes an empty or placeholder literal (`api_key=""`, `token=None`, `"changeme"`);
- an absent destination (routes): the handler looks its destination up in a module-level
  table (`QUEUES[destination]`, `QUEUES.get(destination)`), so a destination the table lacks
  has nowhere to go. Which destinations is the EMU's business: `destinations` lists the table.

Only the handler's own body is read (nested functions included), not the functions it calls.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Iterator, Sequence
from dataclasses import dataclass

from topo.analyzers.flow.callgraph import function_key
from topo.analyzers.ir import MODULE_SCOPE, Call, Definition, FileIR, Guard, GuardKind, \
    Value, ValueKind
from topo.analyzers.model import Site, SiteKind
from topo.analyzers.packs import Knowledge
from topo.audit.policy import Emu

__all__ = ["Handler", "handlers_by_key", "unfinished", "emu_destination"]

# Parameter and option names that carry a credential (`api_key`, `apiKey`, `auth_token`), in
# snake case; not a paging or request token (`page_token`, `idempotency_key` is no match).
_CREDENTIAL = re.compile(r"(?:^|_)(?:api_?key|secret_?key|access_?key|private_?key|token|secret|"
                         r"password|passwd|credentials?)$")
_NOT_CREDENTIAL = re.compile(r"(?:^|_)(?:page|next|continuation|sync|cursor|csrf)_token$")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# Literal texts that stand in for a credential nobody configured.
_PLACEHOLDER = re.compile(r"^\s*$|^(?:todo|tbd|fixme|changeme|change[-_ ]me|x{3,}|placeholder|"
                          r"dummy|<.*>|\.\.\.)$|\byour[-_ ]", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Handler:
    """The function a registration or decorator hands the action to, and what its body says."""

    key: str                       # function key (`billing.tools.refund`), as sites' symbol
    file: str
    line: int
    defects: tuple[str, ...]       # why it cannot complete the action, worded for a reader
    destination_table: str | None = None      # the module-level table it routes through
    destinations: frozenset[str] | None = None   # that table's literal keys


def handlers_by_key(files: Iterable[FileIR], sites: Iterable[Site],
                    knowledge: Knowledge) -> dict[str, Handler]:
    """Every function a tool registration or action handler site names (its `definition`),
    read once. A definition the audited code does not hold is left out (`unknown`)."""
    wanted = {str(s.attr("definition")) for s in sites
              if s.kind in (SiteKind.TOOL_REGISTRATION, SiteKind.ACTION_HANDLER)
              and s.attr("definition")}
    effects: dict[str, set[str]] = {}
    for site in sites:
        if site.kind is SiteKind.EXECUTOR and site.attr("call"):
            effects.setdefault(site.symbol, set()).add(str(site.attr("call")))
    logs: Container[str] = knowledge.intent.log_patterns() if knowledge.intent else ()
    found: dict[str, Handler] = {}
    for file in files:
        for definition in file.definitions:
            key = function_key(file, definition.qualname)
            if key in wanted and key not in found:
                found[key] = _read(_Body(file, definition), effects.get(key, set()), logs)
    return found


def emu_destination(emu: Emu) -> str | None:
    """Where a `route` EMU sends work: `destination` (docs), or the legacy `route` key."""
    if emu.action.get("type") != "route":
        return None
    for key in ("destination", "route"):
        if isinstance(emu.action.get(key), str):
            return emu.action[key]
    return None


def unfinished(found: Sequence[Handler | None], destination: str | None = None
               ) -> tuple[Handler, tuple[str, ...]] | None:
    """The partial connection: handlers exist and each one cannot complete an action sent to
    `destination` (a route's, or None); the first handler and why. A handler whose body the
    audit does not hold (None) is given the benefit of the doubt."""
    if not found or any(h is None for h in found):
        return None
    reasons = [(h, _defects(h, destination)) for h in found if h is not None]
    if any(not why for _, why in reasons):
        return None
    return reasons[0]


def _defects(handler: Handler, destination: str | None) -> tuple[str, ...]:
    if handler.destinations is None or destination is None or \
            destination in handler.destinations:
        return handler.defects
    known = ", ".join(f"`{d}`" for d in sorted(handler.destinations)) or "none"
    return (*handler.defects, f"its destination `{destination}` is not in "
                              f"`{handler.destination_table}` ({known})")


@dataclass(frozen=True, slots=True)
class _Body:
    file: FileIR
    definition: Definition

    def holds(self, scope: str) -> bool:
        own = self.definition.qualname
        return scope == own or scope.startswith(own + ".")

    def calls(self) -> list[Call]:
        return [c for c in self.file.calls if self.holds(c.scope)]

    def values(self) -> Iterator[Value]:
        for call in self.calls():
            yield from (*call.args, *(v for _, v in call.kwargs))
        for assignment in self.file.assignments:
            if self.holds(assignment.scope):
                yield assignment.value
        for returned in self.file.returns:
            if self.holds(returned.scope) and returned.value is not None:
                yield returned.value


def _read(body: _Body, effects: set[str], logs: Container[str]) -> Handler:
    table, keys = _destination_table(body)
    defects = [d for d in (_stub(body, logs), _swallowed(body, effects), _credential(body))
               if d]
    where = body.definition.location
    return Handler(function_key(body.file, body.definition.qualname), body.file.path,
                   where.line, tuple(defects), table, keys)


def _raises(call: Call) -> bool:
    """An exception being built (`NotImplementedError(…)`, `new Error(…)`): by convention of
    both languages, a class whose name ends in Error or Exception."""
    return call.name.endswith(("Error", "Exception"))


def _stub(body: _Body, logs: Container[str]) -> str | None:
    calls = body.calls()
    if any(not _raises(c) and c.callee not in logs for c in calls):
        return None
    if any(body.holds(a.scope) for a in body.file.assignments) or \
            any(body.holds(d.scope) for d in body.file.deletions):
        return None
    if any(r.value is not None and r.value.kind is not ValueKind.NONE
           for r in body.file.returns if body.holds(r.scope)):
        return None
    raised = [c for c in calls if _raises(c)]
    if raised:
        return f"a stub: it only raises `{raised[0].name}`"
    return "a stub: its body does nothing (`pass`, `return None` or only logging)"


def _swallowed(body: _Body, effects: set[str]) -> str | None:
    """An except/catch in the handler around its effect that does not end by raising. With no
    recognised effect, one around any call that ends the handler: it returns, or nothing of
    the handler runs after it (a fallback that carries on, `except ValueError: data = {}`,
    is not a swallowed failure)."""
    names = {c.id: c for c in body.calls()}
    for block in body.file.blocks:
        guard = block.guard
        if guard.kind is not GuardKind.EXCEPT or not body.holds(block.scope) or \
                guard.exits == "raise":
            continue
        covered = [names[c] for c in guard.try_calls if c in names]
        if any(c.id in effects and guard in c.guards for c in names.values()):
            continue     # the handler tries the effect again: a retry, not a swallowed failure
        if effects:
            hit = [c for c in covered if c.id in effects]
        else:
            hit = covered if guard.exits == "return" or not _after(body, guard) else []
        if hit:
            caught = f"`except {guard.handler}`" if guard.handler else "the `except`/`catch`"
            return (f"swallows the errors of `{hit[0].callee or hit[0].name}`: {caught} at "
                    f"line {guard.location.line} does not raise again, so the executor reports "
                    f"success whatever happened")
    return None


def _after(body: _Body, guard: Guard) -> bool:
    """Whether the handler calls or returns anything after the except/catch `guard`, outside
    it."""
    later = [*((c.location, c.guards) for c in body.calls()),
             *((r.location, r.guards) for r in body.file.returns if body.holds(r.scope))]
    return any(where.line > guard.location.line and guard not in guards
               for where, guards in later)


def _credential(body: _Body) -> str | None:
    calls = body.calls()
    receivers = {c.receiver.split(".", 1)[0] for c in calls if c.receiver}
    module = {a.value.call for a in body.file.assignments
              if a.scope == MODULE_SCOPE and a.target in receivers and a.value.call}
    outside = [c for c in body.file.calls if c.id in module]
    constants = {a.target: a.value for a in body.file.assignments if a.scope == MODULE_SCOPE}
    for call in (*calls, *outside):
        for name, value in _options(call):
            held = constants.get(value.ref or "") if value.kind is ValueKind.NAME else value
            if _is_credential(name) and held is not None and _unset(held):
                shown = value.text if _in_place(value) else f"{value.text} = {_written(held)}"
                return f"its credential is not configured: `{call.name}(…)` gets " \
                       f"`{name}={shown}`"
    return None


def _is_credential(name: str) -> bool:
    snake = _CAMEL.sub("_", name).lower()
    return bool(_CREDENTIAL.search(snake)) and not _NOT_CREDENTIAL.search(snake)


def _in_place(value: Value) -> bool:
    """The literal is written where it is passed (not a constant's name)."""
    return value.text[:1] in "'\"`" or value.text in ("None", "null", "undefined")


def _written(value: Value) -> str:
    """A literal as source writes it (a constant the reader resolved keeps its name as text)."""
    if value.kind is ValueKind.STRING and isinstance(value.literal, str):
        return f'"{value.literal}"'
    return value.text if value.kind is not ValueKind.NONE or value.text in ("None", "null",
                                                                            "undefined") \
        else "None"


def _options(call: Call) -> Iterator[tuple[str, Value]]:
    """Keyword arguments, and the keys of an object literal argument (TypeScript options)."""
    yield from ((k, v) for k, v in call.kwargs if k != "**")
    for arg in call.args:
        if arg.kind is ValueKind.DICT:
            yield from ((k, v) for k, v in arg.entries if k)


def _unset(value: Value) -> bool:
    if value.kind is ValueKind.NONE:
        return True
    return value.kind is ValueKind.STRING and isinstance(value.literal, str) and \
        bool(_PLACEHOLDER.search(value.literal))


def _destination_table(body: _Body) -> tuple[str | None, frozenset[str] | None]:
    """The module-level dict the handler indexes with its first parameter (the destination an
    `on_route` handler is given)."""
    if not body.definition.parameters:
        return None, None
    given = body.definition.parameters[0].name
    tables = {a.target: a.value for a in body.file.assignments
              if a.scope == MODULE_SCOPE and a.value.kind is ValueKind.DICT}
    for name in _lookups(body, given):
        if name in tables:
            return name, frozenset(k for k, _ in tables[name].entries if k)
    return None, None


def _lookups(body: _Body, given: str) -> Iterator[str]:
    for value in body.values():
        if value.ref and value.ref.endswith("[*]") and given in value.reads:
            yield value.ref.removesuffix("[*]")
    for call in body.calls():
        if call.name == "get" and call.receiver and call.args and \
                call.args[0].kind is ValueKind.NAME and call.args[0].ref == given:
            yield call.receiver
