"""Authority that is not a model: branches on configuration, roles or tiers, and database rows.

Seed 000's audit scope lists "feature flags, experiments, configuration policy, and
database-driven rules" beside the model's thresholds. A test in a branch condition is such a
gate (`config_gate`, inferred, with its `authority_kind`) when neither side is model-derived and
one side is:
- `config`: a read the packs' `[[policy_reads]]` paths name (`settings.AUTO_REFUND`,
  `process.env.AUTO_APPROVE === "true"`, `os.environ["X"]`);
- `role`: a field they name (`user.role == "admin"`, `customer.tier in (...)`,
  `request.user.is_superuser`) or a permission method (`user.has_perm("billing.refund")`), unless the value compared is one they list as something else
  (a chat message's `role == "assistant"`);
- `rule`: a value of a row read from a store they name (`rule = db.query(Rule).first()` then
  `if amount <= rule.max_auto_refund:`); a bare existence test (`if not row:`) is a lookup,
  not a rule.
A read may be a call they name (`os.getenv("AUTO_APPROVE")`), and may reach the test through
one local name (`auto = os.getenv(...) == "true"` then `if auto:`). A bare presence test of a
setting the same function passes on as data (`if not token: exit()` then `Client(token)`) asks
whether the app is configured, not whether to act: it is no gate. Feature-flag SDK reads
(`ld.variation(...)`) are pack sites already; the `policy` flow follows their values into
conditions (flow/facts.py).
Such gates select effects; they do not decide on what a model proposes, so they never govern a
model's chain (audit/graph/chains.py keeps them apart from `enforced_by`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from topo.analyzers.flow.dataflow import Flow
from topo.analyzers.flow.derived import guards_of
from topo.analyzers.ir import (MODULE_SCOPE, Assignment, Comparison, FileIR, GuardKind, Value,
                               ValueKind, scope_chain)
from topo.analyzers.model import Site, SiteKind
from topo.analyzers.packs import PolicyRead

__all__ = ["PolicyInput", "policy_gates", "SYSTEM"]

SYSTEM = "code"
_EXISTENCE = frozenset({"truthy", "falsy", "is", "is not"})
_LAST_FIELD = re.compile(r"(?:\.|^)([A-Za-z_$][\w$]*)$|\[\s*['\"]([A-Za-z_$][\w$]*)['\"]\s*\]$")


@dataclass(frozen=True, slots=True)
class PolicyInput:
    files: tuple[FileIR, ...]
    sites: tuple[Site, ...]          # pack sites (memory reads name their store)
    model: Flow                      # model-derived values: such a test is the model's gate
    memory: Flow | None              # labels: memory-read site ids
    rules: tuple[PolicyRead, ...]    # the packs' `[[policy_reads]]`


def policy_gates(data: PolicyInput) -> tuple[Site, ...]:
    """One inferred `config_gate` per test of configuration, a role or a database row."""
    if not data.rules:
        return ()
    stores = {store for rule in data.rules if rule.kind == "rule" for store in rule.stores}
    rows = frozenset(s.id for s in data.sites if s.kind is SiteKind.MEMORY_READ
                     and s.attr("store") in stores)
    found: dict[str, Site] = {}
    for file in data.files:
        local = _Local(file)
        for scope, guard in guards_of(file):
            if guard.condition is None or guard.kind in (GuardKind.LOOP, GuardKind.TRY,
                                                         GuardKind.EXCEPT, GuardKind.FINALLY):
                continue
            for comparison in guard.condition.comparisons:
                site = _gate(data, rows, local, scope, comparison)
                if site is not None:
                    found.setdefault(site.id, site)
    return tuple(found[key] for key in sorted(found))


class _Local:
    """A file's calls by id, and the value each local name is bound to (for one hop:
    `auto = os.getenv("AUTO_REFUND") == "true"` then `if auto:`)."""

    def __init__(self, file: FileIR) -> None:
        self.file = file
        self.calls = {call.id: call for call in file.calls}
        self.bound: dict[tuple[str, str], list[Assignment]] = {}
        for assignment in file.assignments:
            if assignment.target.isidentifier() and not assignment.element:
                self.bound.setdefault((assignment.scope, assignment.target), []).append(
                    assignment)

    def uses_as_data(self, scope: str, tested: Value, key: str | None) -> bool:
        """Whether the scope passes the tested value on (`if not token: exit()` then
        `Client(token)`; `if path := os.environ.get("OUT"): open(path)`): then the test asks
        whether a value the code needs is configured, not whether to act."""
        names = {tested.ref} if tested.kind is ValueKind.NAME and tested.ref else set()
        names |= {a.target for a in self.file.assignments if a.scope == scope
                  and tested.kind is ValueKind.CALL and a.value.call == tested.call}
        quoted = {f"'{key}'", f'"{key}"'} if key else set()
        for call in self.file.calls:
            if call.scope != scope or call.id == tested.call:
                continue
            for value in (*call.args, *(v for _, v in call.kwargs)):
                roots = {r.split(".", 1)[0].split("[", 1)[0] for r in value.reads}
                if value.ref:
                    roots.add(value.ref.split(".", 1)[0].split("[", 1)[0])
                if roots & names or any(q in value.text for q in quoted):
                    return True
        return False

    def assigned(self, scope: str, name: str) -> list[Assignment]:
        for candidate in scope_chain(scope):
            found = self.bound.get((candidate, name))
            if found:
                return found
        return []


def _gate(data: PolicyInput, rows: frozenset[str], local: _Local, scope: str,
          comparison: Comparison) -> Site | None:
    file = local.file
    sides = [v for v in (comparison.left, comparison.right) if v is not None]
    if any(data.model.value_labels(file, scope, side) for side in sides):
        return None        # a test of model output is the model's gate (derived.py)
    for tested in sides:
        other = comparison.right if tested is comparison.left else comparison.left
        for rule in data.rules:
            if not (rule.calls or rule.methods or rule.paths or rule.fields):
                continue    # names no read (a `rule` kind names stores, asked below)
            attrs = _read(rule, local, scope, tested, other)
            if attrs is None:
                continue
            if rule.kind == "config" and comparison.op in ("truthy", "falsy") and \
                    local.uses_as_data(scope, tested, _text(attrs.get("flag"))):
                return None     # a required setting's presence check, not a switch
            return _site(file, scope, comparison, tested, other, rule.kind, attrs)
    if comparison.op in _EXISTENCE or data.memory is None or not rows:
        return None
    for tested in sides:
        sources = data.memory.value_labels(file, scope, tested) & rows
        if sources and tested.kind is not ValueKind.CALL:
            other = comparison.right if tested is comparison.left else comparison.left
            return _site(file, scope, comparison, tested, other, "rule",
                         {"sources": tuple(sorted(sources))})
    return None


def _read(rule: PolicyRead, local: _Local, scope: str, tested: Value,
          other: Value | None) -> dict | None:
    """The gate's attributes when `tested` is a read `rule` names, directly or through one
    local name bound to such a read (or to a test of one), else None."""
    found = _reads(rule, local, tested, other)
    if found is not None or tested.kind is not ValueKind.NAME or not tested.ref \
            or not tested.ref.isidentifier():
        return found
    for assignment in local.assigned(scope, tested.ref):
        values = [assignment.value]
        if assignment.condition is not None:
            values += [v for c in assignment.condition.comparisons
                       for v in (c.left, c.right) if v is not None]
        for value in values:
            found = _reads(rule, local, value, other if value is assignment.value else None)
            if found is not None:
                return found
    return None


def _reads(rule: PolicyRead, local: _Local, tested: Value, other: Value | None) -> dict | None:
    """The gate's attributes when `tested` itself is a read `rule` names, else None."""
    if tested.kind is ValueKind.CALL and (rule.calls or rule.methods):
        call = local.calls.get(tested.call or "")
        if call is not None and call.receiver and call.name in rule.methods:
            return {}
        if call is not None and call.callee in rule.calls:
            key = call.kwarg("key") or (call.args[0] if call.args else None)
            name = key.literal if key is not None and key.kind is ValueKind.STRING else None
            return {"flag": name if name is not None else (key.text if key else call.name)}
        return None
    path = tested.ref if tested.kind is ValueKind.NAME else None
    if not path:
        return None
    if rule.paths and any(_paths_pattern(rule.paths).fullmatch(candidate)
                          for candidate in (path, tested.resolved or "")):
        return {"flag": _last_field(path) or path}
    field = _last_field(path)
    if rule.fields and field in rule.fields and not _excepted(rule, other):
        return {}
    return None


def _excepted(rule: PolicyRead, other: Value | None) -> bool:
    """The compared value is one the rule says means something else (a message's role)."""
    if other is None or not rule.except_values:
        return False
    values = [other] if other.kind is not ValueKind.LIST else [v for _, v in other.entries]
    literals = [v.literal for v in values if v.kind is ValueKind.STRING]
    return bool(literals) and all(str(v).lower() in rule.except_values for v in literals)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


@lru_cache(maxsize=4096)
def _last_field(path: str) -> str | None:
    """Kept per path: every rule asks it of every tested name."""
    found = _LAST_FIELD.search(path)
    return (found.group(1) or found.group(2)) if found else None


@lru_cache(maxsize=64)
def _paths_pattern(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One expression for a rule's paths, so that a tested value is matched once, not once
    per path: a full match of the alternation is a full match of one of them."""
    return re.compile("|".join(f"(?:{_path_pattern(pattern)})" for pattern in patterns))


def _path_pattern(pattern: str) -> str:
    """`process.env.*` → any one segment after `process.env.`; `os.environ[*]` → any key."""
    parts = [re.escape(part) for part in pattern.split("*")]
    return r"[^.]*?".join(parts).replace(r"\[[^.]*?\]", r"\[[^\]]*\]")


def _site(file: FileIR, scope: str, comparison: Comparison, tested: Value, other: Value | None,
          kind: str, attrs: dict) -> Site:
    symbol = file.module if scope == MODULE_SCOPE else f"{file.module}.{scope}"
    value = None if other is None else (other.literal if other.literal is not None
                                        else other.text)
    found = {"role": "authority", "authority_kind": kind, "op": comparison.op,
             "operand": tested.text, **attrs}
    if value is not None:
        found["value"] = value
    if other is not None and other is comparison.left:
        found["value_side"] = "left"
    where = comparison.location
    return Site(id=f"{SiteKind.CONFIG_GATE.value}:{where.file}:{where.line}:{where.column}",
                kind=SiteKind.CONFIG_GATE, system=SYSTEM, language=file.language.value,
                location=where, symbol=symbol, attrs=tuple(sorted(found.items())),
                inferred=True)
