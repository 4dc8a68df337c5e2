"""Shared reading of memory-system sites (MemoRizz, MemexAI, Mubit, database lookups).

- `read_labels`: which memory reads a guard condition tests;
- `is_negative`: whether a guard lets its body run when the read found nothing;
- `value_of`: the argument behind a pack attribute (keyword, or TS options key);
- `request_flow`: values derived from a request body or query (`await request.json()`,
  `req.body.userId`), for identity and verdict provenance;
- `retention_settings`: deployment settings that make a store's records leave retrieval
  after they were written (for GHOST-NEGATIVE's retention cause; the rules are pack data,
  `[[retention]]`).
"""

from __future__ import annotations

from topo.analyzers.discovery.configs import Setting
from topo.analyzers.flow.dataflow import Flow, Seeds, propagate
from topo.analyzers.ir import Call, Comparison, FileIR, Guard, GuardKind, Value, ValueKind
from topo.audit.checks._registry import CheckContext
from topo.analyzers.model import SiteKind

__all__ = ["read_labels", "is_negative", "value_of", "request_flow", "is_request_value",
           "memory_reads", "retention_settings"]

_REQUEST_ROOTS = ("request", "req")
_REQUEST_READERS = frozenset({"json", "get_json", "form", "body"})
_REQUEST_PATHS = ("req.body", "request.body", "req.query", "request.query", "req.params",
                  "request.args", "request.form", "request.query_params", "request.path_params")
_NEGATIVE_OPS = frozenset({"falsy"})
_POSITIVE_OPS = frozenset({"truthy"})


def memory_reads(ctx: CheckContext) -> dict:
    """Memory read sites that look something up (not a scope handle, not an injection)."""
    return {s.id: s for s in ctx.facts.sites if s.kind is SiteKind.MEMORY_READ
            and s.attr("operation") not in ("scope", "inject", "context")}


def read_labels(ctx: CheckContext, file: FileIR, scope: str, guard: Guard,
                reads: dict) -> dict[str, Comparison]:
    """The memory reads a guard tests, each with the comparison that tests it."""
    memory = ctx.facts.memory
    found: dict[str, Comparison] = {}
    if memory is None or guard.condition is None:
        return found
    for comparison in guard.condition.comparisons:
        labels = set(memory.value_labels(file, scope, comparison.left))
        if comparison.left.kind is ValueKind.OTHER:
            labels |= {label for call_id in guard.condition.calls
                       for label in memory.calls.get(call_id, ())}
        for label in sorted(labels & reads.keys()):
            found.setdefault(label, comparison)
    return found


def is_negative(guard: Guard, comparison: Comparison) -> bool:
    """True when the guarded code runs on *absence*: `if not x`, `x is None`, `len(x) == 0`,
    or the else / early-exit side of `if x`."""
    op, right = comparison.op, comparison.right
    empty = right is not None and right.kind in (ValueKind.NONE, ValueKind.NUMBER) and \
        right.literal in (None, 0)
    absent = op in _NEGATIVE_OPS or (op in ("is", "==") and empty)
    present = op in _POSITIVE_OPS or (op in ("is not", "!=") and empty) or \
        (op == ">" and empty)
    if guard.kind in (GuardKind.IF, GuardKind.BOOL_OP, GuardKind.TERNARY):
        return absent if guard.polarity else present
    if guard.kind is GuardKind.EARLY_EXIT:
        return present
    return False


def value_of(call: Call, *names: str) -> Value | None:
    """A keyword argument, or a key of the first-argument options object (TS)."""
    for name in names:
        value = call.kwarg(name)
        if value is not None:
            return value
    if call.args and call.args[0].kind is ValueKind.DICT:
        for name in names:
            value = call.args[0].entry(name)
            if value is not None:
                return value
    return None


def request_flow(ctx: CheckContext) -> Flow:
    """Values read from an HTTP request body or query string, followed like model output."""
    seeds = {call.id: frozenset({"request"}) for _, call in ctx.calls.values()
             if call.name in _REQUEST_READERS and call.receiver
             and call.receiver.split(".")[0] in _REQUEST_ROOTS}
    return propagate(ctx.facts.files, ctx.facts.graph, Seeds(calls=seeds),
                     ctx.facts.flow_index)


def is_request_value(flow: Flow, file: FileIR, scope: str, value: Value | None) -> bool:
    if value is None:
        return False
    if any(read.startswith(_REQUEST_PATHS) for read in (*value.reads, value.ref or "")):
        return True
    return bool(flow.value_labels(file, scope, value))


def retention_settings(ctx: CheckContext, store: str) -> tuple[Setting, ...]:
    """The enabled config settings (`.env*`, compose `environment:`, MCP server `env`) under
    which `store` drops or rewrites records after they were written, so that a lookup finding
    nothing no longer means nothing happened. A rule's enabled keep setting
    (`MUBIT_CL_UNFORGET=1`) cancels its forgetting."""
    configs = ctx.facts.configs
    return tuple(s for rule in ctx.facts.knowledge.retention_rules(store)
                 if not any(k.enabled for name in rule.keep_settings
                            for k in configs.setting(name))
                 for name in rule.forget_settings for s in configs.setting(name) if s.enabled)
