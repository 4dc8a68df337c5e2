"""Intent executors: model-callable tools that are consequential by name, not by a known API.

Agent apps write tools whose effect is a stub or in-memory (`update_seat` writes the run
context and returns "Updated seat", `send_email` returns "Email sent to …", a `cancelOrder`
whose `execute` is empty). No pack names their effect, yet a reviewer wants them on the map. A
registered tool becomes an EXECUTOR site here, `inferred`, with `stub_or_in_memory`, when:

- its exposed name (the registration's `tool_name`, else the function's name, or for a
  function value of an object literal the key path's last name: `cancelOrder` of
  `cancelOrder.execute`) begins with a write verb of the packs' `[tools.intent]`, and not
  with an excluded phrase (`transfer_to_billing` is a handoff, not a money transfer);
- nothing it runs, directly or through repo functions it calls, is an executor or a model call
  (a recognised effect is reported by itself; a tool that asks a model is not a write);
- its body (nested functions included) shows the intent, the first of:
  `writes_state`: it assigns to, deletes (`del`, `delete`) or mutates (`.append`, `.pop`, …)
  an attribute or item of a parameter (the run context `ctx.context.seat = …`), of `self`/`this`, or of a module-level
  name (`ORDERS[order_id] = …`); locals do not count (`changes.append(op)` builds a value);
  `returns_confirmation`: it returns a text whose words confirm the write (`f"deleted
  {path}"`), or a literal with a `true` success key or a confirming status
  (`{"status": "cancelled"}`, `{ success: true }`);
  `empty_body` / `logs_only`: it does nothing, or only logs (`print("Purchasing flight")`):
  a stub, which the dev set's reviewers label consequential by intent.
  A body that only reads or echoes its arguments (`return f"The weather in {city}"`) never
  qualifies, nor does a read-named tool (`get_order_status` writing the run context).

The site sits at the tool function's definition (its `definition` is the function key), has
the verb's tier and `tier_drop` from the packs (`Tier.lowered`), and is an executor like any
other: the chain query starts its walk at that function.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Container, Iterable, Iterator, Sequence
from dataclasses import dataclass

from topo.analyzers.flow.callgraph import CallGraph, function_key
from topo.analyzers.flow.dataflow import MUTATING_METHODS
from topo.analyzers.ir import MODULE_SCOPE, Definition, FileIR, Return, Value, ValueKind
from topo.analyzers.model import Location, Site, SiteKind
from topo.analyzers.packs import IntentRules, Knowledge

__all__ = ["IntentInput", "intent_executors", "exposed_name", "name_words"]

SYSTEM = "intent"
ENTRY = "intent.tool"
# Methods that remove what a container holds, beside the ones that add (dataflow's).
_REMOVING_METHODS = frozenset({"pop", "popitem", "remove", "discard", "clear", "delete",
                               "splice", "shift"})
_RECEIVER_NAMES = frozenset({"self", "cls", "this"})
_MAX_DEPTH = 6             # repo call hops followed when looking for a recognised effect
_EVIDENCE_TEXT = 120
# Word boundaries of an exposed name: `cancel_booking`, `sendEmail`, `submit-order`.
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
# Holes of an f-string or template literal, left out of a returned text's words.
_HOLE = re.compile(r"\$?\{[^{}]*\}")


@dataclass(frozen=True, slots=True)
class IntentInput:
    files: tuple[FileIR, ...]
    sites: tuple[Site, ...]          # pack sites: registrations, executors, model calls
    graph: CallGraph
    knowledge: Knowledge


@dataclass(frozen=True, slots=True)
class _Evidence:
    kind: str        # writes_state | returns_confirmation | empty_body | logs_only
    text: str


def intent_executors(data: IntentInput) -> tuple[Site, ...]:
    """One EXECUTOR site per registered tool function that is consequential by intent."""
    rules = data.knowledge.intent
    if rules is None:
        return ()
    verbs = dict(rules.verbs)
    logs = rules.log_patterns()
    reach = _Reach.of(data.graph, data.sites)
    found: dict[str, Site] = {}
    for tool in data.sites:
        # A branch of a handler that serves every tool (flow/dispatched_tools.py) shares its
        # body with the others: what that body writes or returns says nothing of one tool.
        if tool.kind is not SiteKind.TOOL_REGISTRATION or tool.attr("dispatch_case"):
            continue
        key = str(tool.attr("definition") or "")
        located = data.graph.definitions.get(key)
        if located is None:
            continue
        file, definition = located
        name = exposed_name(tool, definition)
        words = name_words(name)
        tier = verbs.get(words[0]) if words and not _excluded(words, rules) else None
        if tier is None or reach.has_effect(key):
            continue
        evidence = _evidence(file, definition, rules, logs)
        if evidence is not None:
            site = _site(file, definition, key, name, words[0], tier, rules, evidence)
            found.setdefault(site.id, site)
    return tuple(sorted(found.values(), key=lambda s: s.id))


def exposed_name(tool: Site, definition: Definition) -> str:
    """The name the model calls the tool by: the registration's literal `tool_name`, else the
    function's name, or for a function value of an object literal (`const cancelOrder =
    tool({ execute })` defines `cancelOrder.execute`) the name its key path gives it."""
    name = tool.attr("tool_name")
    if isinstance(name, str) and name:
        return name
    own = definition.name if definition.scope == MODULE_SCOPE else \
        f"{definition.scope}.{definition.name}"
    parts = definition.qualname.split(".")
    return parts[-2] if definition.qualname != own and len(parts) > 1 else definition.name


def _excluded(words: tuple[str, ...], rules: IntentRules) -> bool:
    """The name begins with an excluded phrase (`transfer to`: a handoff)."""
    return any(words[:len(phrase)] == phrase
               for phrase in (tuple(text.split()) for text in rules.excluded_names))


def name_words(name: str) -> tuple[str, ...]:
    """The lowercase words of a name: `sendEmail` → (`send`, `email`)."""
    return tuple(word.lower() for word in _WORD.findall(name))


@dataclass(frozen=True, slots=True)
class _Reach:
    """Which functions hold a recognised effect or a model call, and who calls whom; a
    function's nested functions (`handler.inner`, a lambda) count as part of it."""

    effects: tuple[str, ...]                  # sorted symbols of executor and inference sites
    callers: tuple[str, ...]                  # sorted caller keys
    callees: dict[str, frozenset[str]]

    @classmethod
    def of(cls, graph: CallGraph, sites: Iterable[Site]) -> _Reach:
        callees: dict[str, set[str]] = {}
        for edge in graph.edges:
            callees.setdefault(edge.caller, set()).add(edge.callee)
        effects = {site.symbol for site in sites
                   if site.kind in (SiteKind.EXECUTOR, SiteKind.INFERENCE)}
        return cls(tuple(sorted(effects)), tuple(sorted(callees)),
                   {key: frozenset(value) for key, value in callees.items()})

    def has_effect(self, key: str) -> bool:
        """`key`, or a repo function it calls (at most `_MAX_DEPTH` hops), holds an effect."""
        seen, frontier = {key}, [key]
        for _ in range(_MAX_DEPTH):
            if any(_within(self.effects, function) for function in frontier):
                return True
            frontier = [callee for function in frontier
                        for caller in _within(self.callers, function)
                        for callee in sorted(self.callees[caller]) if callee not in seen]
            seen.update(frontier)
            if not frontier:
                return False
        return False


def _within(keys: Sequence[str], function: str) -> list[str]:
    """The sorted `keys` that are `function` or nested in it (`function.inner`)."""
    found = [function] if _contains(keys, function) else []
    prefix = function + "."
    for key in keys[bisect.bisect_left(keys, prefix):]:
        if not key.startswith(prefix):
            break
        found.append(key)
    return found


def _contains(keys: Sequence[str], key: str) -> bool:
    at = bisect.bisect_left(keys, key)
    return at < len(keys) and keys[at] == key


# ---- the body's evidence ---------------------------------------------------------------------

def _evidence(file: FileIR, definition: Definition, rules: IntentRules,
              logs: Container[str]) -> _Evidence | None:
    inside = _Body(file, definition)
    return (inside.state_write() or inside.confirmation(rules) or inside.stub(logs))


@dataclass(frozen=True, slots=True)
class _Body:
    file: FileIR
    definition: Definition

    def _holds(self, scope: str) -> bool:
        own = self.definition.qualname
        return scope == own or scope.startswith(own + ".")

    def _roots(self) -> frozenset[str]:
        """Names whose attributes and items are state beyond this call: the parameters,
        `self`/`this`, and module-level names the body does not rebind."""
        parameters = {p.name for p in self.definition.parameters}
        rebound = {a.target for a in self.file.assignments
                   if self._holds(a.scope) and a.target.isidentifier()
                   and a.target not in parameters}
        module = {a.target for a in self.file.assignments
                  if a.scope == MODULE_SCOPE and a.target.isidentifier()}
        return frozenset(parameters | _RECEIVER_NAMES | (module - rebound))

    def state_write(self) -> _Evidence | None:
        roots = self._roots()
        for assignment in self.file.assignments:
            if self._holds(assignment.scope) and not assignment.element and \
                    _root(assignment.target) in roots and _is_member(assignment.target):
                return _Evidence("writes_state",
                                 f"{assignment.target} = {assignment.value.text}")
        for deletion in self.file.deletions:
            if self._holds(deletion.scope) and _root(deletion.target) in roots:
                return _Evidence("writes_state", f"del {deletion.target}")
        for call in self.file.calls:
            if self._holds(call.scope) and call.receiver and \
                    call.name in MUTATING_METHODS | _REMOVING_METHODS and \
                    _root(call.receiver) in roots and not call.receiver.endswith("()"):
                return _Evidence("writes_state", f"{call.receiver}.{call.name}(…)")
        return None

    def confirmation(self, rules: IntentRules) -> _Evidence | None:
        for returned in self._returns():
            if returned.value is not None and _confirms(returned.value, rules):
                return _Evidence("returns_confirmation", returned.value.text)
        return None

    def stub(self, logs: Container[str]) -> _Evidence | None:
        calls = [c for c in self.file.calls if self._holds(c.scope)]
        if any(c.callee not in logs for c in calls):
            return None
        if any(r.value is not None and r.value.kind is not ValueKind.NONE
               for r in self._returns()):
            return None
        if calls:
            return _Evidence("logs_only", calls[0].name)
        return _Evidence("empty_body", "")

    def _returns(self) -> Iterator[Return]:
        own = self.definition.qualname
        return (r for r in self.file.returns if r.scope == own)


def _root(path: str) -> str:
    return re.split(r"[.\[]", path, maxsplit=1)[0]


def _is_member(path: str) -> bool:
    return "." in path or "[" in path


def _confirms(value: Value, rules: IntentRules) -> bool:
    """A returned value that says the write happened."""
    match value.kind:
        case ValueKind.STRING | ValueKind.FORMAT:
            text = _HOLE.sub(" ", value.text) if value.kind is ValueKind.FORMAT else value.text
            return bool(set(name_words(text)) & set(rules.confirmations))
        case ValueKind.DICT:
            return any(_confirming_entry(key, entry, rules) for key, entry in value.entries)
    return False


def _confirming_entry(key: str | None, entry: Value, rules: IntentRules) -> bool:
    if key is None:
        return False
    if key.lower() in rules.success_keys:
        return entry.kind is ValueKind.BOOL and entry.literal is True
    return entry.kind is ValueKind.STRING and isinstance(entry.literal, str) and \
        bool(set(name_words(entry.literal)) & set(rules.confirmations))


def _site(file: FileIR, definition: Definition, key: str, name: str, verb: str, tier: str,
          rules: IntentRules, evidence: _Evidence) -> Site:
    where = definition.location
    location = Location(where.file, where.line, where.column)
    attrs = {"role": "execution", "entry": ENTRY, "definition": key, "tool_name": name,
             "tier": tier, "tier_drop": rules.tier_drop, "stub_or_in_memory": True,
             "intent_verb": verb, "intent_evidence": evidence.kind}
    if evidence.text:
        attrs["evidence_text"] = evidence.text[:_EVIDENCE_TEXT]
    return Site(id=f"executor:{where.file}:{where.line}:{where.column}:intent",
                kind=SiteKind.EXECUTOR, system=SYSTEM, language=file.language.value,
                location=location, symbol=function_key(file, definition.qualname),
                attrs=tuple(sorted(attrs.items())), inferred=True)
