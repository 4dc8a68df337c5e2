"""Consent fields the model can write: where an approval flag gets its value from a model.

An approval read from a stored record or a shared state (`if refund.approved:`,
`if state["approved"]:`) is only as good as whoever writes that field. Seed 000, "Integration
invariants": "`require_human` needs authenticated consent for the specific operation, not a
model assertion". A field is model-writable when
- a model-invocable tool that runs without a human approving each call (or a repository
  function it calls, a few levels down) writes it: an attribute or key assigned
  (`row.approved = True`), a keyword or object-literal key handed to a call
  (`.values(approved=True)`, `update({ data: { approved: true } })`), or an SQL literal that
  sets it (`UPDATE refunds SET approved = 1`); a falsy literal (`approved=False` in a new
  request) withholds consent and is no write;
- or anything writes it from model output: `state["approved"] = verdict.ok`, a returned
  state update `return {"approved": reply.approved}` (a graph node's answer), a key handed
  to a call (`Command(update={"approved": verdict.approved})`, `db.update({...})`).
Fields are matched by name (`CONSENT_FIELDS`), whatever record they sit on, within one
language (a Python tool's write is not matched with a TypeScript reader).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from topo.analyzers.flow.callgraph import function_key
from topo.analyzers.ir import LITERAL_KINDS, FileIR, Language, Value, ValueKind, keyed_entries
from topo.analyzers.model import Location, SiteKind
from topo.analyzers.paths import last_key, segments
from topo.audit.checks._registry import CheckContext
from topo.audit.graph.build import sites_of_kind

__all__ = ["ConsentWrite", "consent_writes"]

_DEPTH = 3      # repository functions followed from a tool into the code it calls


@dataclass(frozen=True, slots=True)
class ConsentWrite:
    """`field` written at `location` (`text` as written) by `writer` (how the message names
    it: tool `approve_refund`, model output); `scope` is the writing function's key and
    `python` says which side of the language divide it sits on (Python, or TS/JS)."""

    field: str
    location: Location
    text: str
    writer: str
    scope: str
    python: bool


def consent_writes(ctx: CheckContext, fields: frozenset[str]) -> dict[str, list[ConsentWrite]]:
    """Model-writable consent fields by name, each with where it is written."""
    found: dict[str, list[ConsentWrite]] = {}
    for write in (*_tool_writes(ctx, fields), *_model_writes(ctx, fields)):
        found.setdefault(write.field, []).append(write)
    return found


def _tool_writes(ctx: CheckContext, fields: frozenset[str]) -> Iterator[ConsentWrite]:
    knowledge, graph = ctx.facts.knowledge, ctx.facts.graph
    tools = [t for t in sites_of_kind(ctx.graph, SiteKind.TOOL_REGISTRATION)
             if not knowledge.governed(t) and not knowledge.requires_approval(t)
             and str(t.attr("definition") or "") in graph.definitions]
    if not tools:
        return
    callees: dict[str, set[str]] = {}
    for edge in graph.edges:
        if edge.callee in graph.definitions:
            callees.setdefault(edge.caller, set()).add(edge.callee)
    for tool in tools:
        writer = f"tool `{tool.attr('tool_name') or tool.symbol}`"
        for key in _reached(callees, str(tool.attr("definition"))):
            file, definition = graph.definitions[key]
            yield from _writes_in(file, definition.qualname, fields, writer, key)


def _reached(callees: dict[str, set[str]], start: str) -> list[str]:
    """The repository functions a tool's function runs, itself first (bounded)."""
    seen, frontier = [start], [start]
    for _ in range(_DEPTH):
        frontier = sorted({c for f in frontier for c in callees.get(f, ())} - set(seen))
        seen.extend(frontier)
    return seen


def _writes_in(file: FileIR, qualname: str, fields: frozenset[str], writer: str,
               key: str) -> Iterator[ConsentWrite]:
    def inside(scope: str) -> bool:
        return scope == qualname or scope.startswith(qualname + ".")

    def write(name: str, location: Location, text: str) -> ConsentWrite:
        return ConsentWrite(name, location, text, writer, key, _python(file))

    for assignment in file.assignments:
        field = _written_field(assignment.target)
        if field in fields and inside(assignment.scope) and _grants(assignment.value):
            yield write(field, assignment.location,
                        f"{assignment.target} = {assignment.value.text}")
    for call in file.calls:
        if not inside(call.scope):
            continue
        for name, value in call.kwargs:
            if name in fields and _grants(value):
                yield write(name, call.location, f"{name}={value.text}")
        for value in (*call.args, *(v for _, v in call.kwargs)):
            for name, entry in keyed_entries(value):
                if name in fields and _grants(entry):
                    yield write(name, call.location, f"{name}: {entry.text}")
            for name in _sql_sets(value, fields):
                yield write(name, call.location, value.text)


def _model_writes(ctx: CheckContext, fields: frozenset[str]) -> Iterator[ConsentWrite]:
    model = ctx.facts.model
    rules = ctx.facts.knowledge.intent
    logs = rules.log_patterns() if rules is not None else frozenset()
    for file in ctx.facts.files:
        for assignment in file.assignments:
            field = _written_field(assignment.target)
            if field in fields and model.value_labels(file, assignment.scope, assignment.value):
                yield ConsentWrite(field, assignment.location,
                                   f"{assignment.target} = {assignment.value.text}",
                                   _model_writer(file, assignment.scope),
                                   function_key(file, assignment.scope), _python(file))
        for call in file.calls:     # `Command(update={"approved": v})`, `db.update({...})`
            if call.callee in logs:     # a log line stores nothing anyone reads back
                continue
            for value in (*call.args, *(v for _, v in call.kwargs)):
                for name, entry in keyed_entries(value):
                    if name in fields and model.value_labels(file, call.scope, entry):
                        yield ConsentWrite(name, call.location, f"{name}: {entry.text}",
                                           _model_writer(file, call.scope),
                                           function_key(file, call.scope), _python(file))
        for ret in file.returns:
            if ret.value is None or ret.value.kind is not ValueKind.DICT:
                continue
            for name, entry in ret.value.entries:
                if name in fields and model.value_labels(file, ret.scope, entry):
                    yield ConsentWrite(name, ret.location, f"{name}: {entry.text}",
                                       _model_writer(file, ret.scope),
                                       function_key(file, ret.scope), _python(file))


def _model_writer(file: FileIR, scope: str) -> str:
    return f"model output in `{function_key(file, scope)}`"


def _grants(value: Value) -> bool:
    """A write that can grant consent: anything but a falsy literal (`approved=False` in a
    new request withholds it)."""
    return not (value.kind in LITERAL_KINDS and not value.literal)


def _python(file: FileIR) -> bool:
    return file.language is Language.PYTHON


def _written_field(target: str) -> str:
    """The field an assignment writes on a record (`row.approved`, `state["approved"]`); a
    plain local name is no field."""
    return last_key(target) if len(segments(target)) > 1 else ""


_SQL_SET = re.compile(r"\bSET\b(?P<columns>[^;]*)", re.I)


def _sql_sets(value: Value, fields: Iterable[str]) -> list[str]:
    """The consent columns an SQL string literal sets (`UPDATE t SET approved = 1`)."""
    if value.kind is not ValueKind.STRING or not isinstance(value.literal, str):
        return []
    found = _SQL_SET.search(value.literal)
    if found is None:
        return []
    return [name for name in sorted(fields)
            if re.search(rf"\b{re.escape(name)}\s*=", found["columns"])]
