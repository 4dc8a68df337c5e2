"""MODEL-CONSENT: human consent or approval that the model supplies.

Seed 000, "Pattern 4: require a human": "After authenticating approval for that operation, pass
`InvokeOptions(human_consent=True)` … Never infer consent from model output"; "Integration
invariants": "`require_human` needs authenticated consent for the specific operation, not a
model assertion". Four shapes:
- `human_consent=` in a decision call's options carries model output;
- a consent-like parameter (`approved`, `confirm`, `force`, …) on a function registered as a
  model-invocable tool: the model fills it in (the `tool_consent` pack's approval-gate sites);
  Memrail-registered tools are excluded (their arguments come from policy, not the model) and
  so are tools that require a human approval before they run;
- a branch on a model-output field named like consent (`review["approved"]`) that selects a
  consequential executor with nothing enforced on the chain;
- a test of a record or state field named like consent (`if request.approved:`) that a
  model-invoked tool, or model output, writes elsewhere (`_consent_writes`).
A literal `human_consent=True` is not reported: it is the documented form once the
application has authenticated the approval.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from topo.analyzers.flow.callgraph import function_key
from topo.analyzers.ir import FileIR, GuardKind, Language, Value, ValueKind
from topo.analyzers.paths import last_key, root_of
from topo.audit import codes
from topo.audit.checks._consent_writes import ConsentWrite, consent_writes
from topo.audit.checks._evidence import (call_symbol, control_text, executor_text, locations,
                                         origin_text, site_of)
from topo.audit.graph.chains import Chain
from topo.audit.checks._registry import CheckContext, check
from topo.audit.checks._values import option
from topo.audit.graph.build import sites_of_kind
from topo.analyzers.model import Site, SiteKind
from topo.audit.model import Finding

__all__ = ["model_consent", "CONSENT_FIELDS"]

# Names of model-output fields that claim an approval. Tool *parameters* come from the
# `tool_consent` pack; these are the fields of a model's answer that read as consent.
CONSENT_FIELDS = frozenset({
    "approved", "approve", "approval", "confirm", "confirmed", "consent", "consented",
    "authorized", "authorised", "human_approved", "user_approved", "user_confirmed",
    "reviewer_approved", "humanApproved", "reviewerApproved", "userConfirmed"})


@check(codes.MODEL_CONSENT)
def model_consent(ctx: CheckContext) -> Iterator[Finding]:
    yield from _consent_options(ctx)
    parameters = list(_consent_parameters(ctx))
    for site in parameters:
        tool = site.attr("tool_name") or site.symbol
        yield ctx.finding(
            codes.MODEL_CONSENT, location=site.location, symbol=site.symbol,
            message=f"tool `{tool}` lets the model set the consent parameter "
                    f"`{site.attr('parameter')}`",
            snippet=str(site.attr("parameter")), path=(site.id,), inferred=True)
    asserted = {(s.symbol, str(s.attr("parameter"))) for s in parameters}
    yield from _consent_branches(ctx, asserted)
    yield from _written_consent(ctx)


def _consent_options(ctx: CheckContext) -> Iterator[Finding]:
    for decision in sites_of_kind(ctx.graph, SiteKind.DECISION_CALL):
        found = ctx.calls.get(str(decision.attr("call")))
        consent = option(ctx, *found, "human_consent") if found else None
        if consent is None:
            continue
        labels = ctx.facts.model.value_labels(consent.file, consent.scope, consent.value)
        if labels:
            yield ctx.finding(
                codes.MODEL_CONSENT, location=decision.location, symbol=decision.symbol,
                message=f"`human_consent` of {control_text(decision)} comes from model output "
                        f"of {origin_text(ctx, sorted(labels))}",
                snippet=consent.value.text, path=(*sorted(labels), decision.id),
                related=locations(ctx, sorted(labels)))


def _consent_parameters(ctx: CheckContext) -> Iterator[Site]:
    """Consent parameters of tools whose arguments the model fills in and that run without
    a human approving each call."""
    registrations = list(sites_of_kind(ctx.graph, SiteKind.TOOL_REGISTRATION))
    for gate in sites_of_kind(ctx.graph, SiteKind.APPROVAL_GATE):
        if gate.attr("parameter") is None or gate.attr("enforced") is not False:
            continue
        tools = [t for t in registrations if t.attr("definition") == gate.attr("definition")]
        knowledge = ctx.facts.knowledge
        if any(knowledge.governed(t) or knowledge.requires_approval(t) for t in tools):
            continue
        yield gate


def _consent_branches(ctx: CheckContext, asserted: set[tuple[str, str]]) -> Iterator[Finding]:
    gates = sites_of_kind(ctx.graph, SiteKind.MODEL_BRANCH, SiteKind.THRESHOLD)
    if not any(word in str(g.attr("operand")) for g in gates for word in CONSENT_FIELDS):
        return                  # a cheap pre-test: no branch mentions consent at all
    reported: set[str] = set()
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        for chain in ctx.reach.of(executor):
            if chain.governed:
                continue
            for gate in filter(None, (site_of(ctx, g) for g in chain.gates)):
                operand = str(gate.attr("operand") or "")
                tested = _tested_value(ctx, chain, gate)
                if gate.id in reported or tested is None or \
                        _field(ctx, tested) not in CONSENT_FIELDS or \
                        (gate.symbol, root_of(tested.ref or "")) in asserted:
                    continue
                reported.add(gate.id)
                yield ctx.finding(
                    codes.MODEL_CONSENT, location=gate.location, symbol=gate.symbol,
                    message=f"approval `{operand}` comes from model output of "
                            f"{origin_text(ctx, gate.attr('origins') or ())} and selects "
                            f"{executor_text(executor)}",
                    snippet=operand, path=chain.path, related=(executor.location,),
                    inferred=True)


_TESTS = frozenset({GuardKind.IF, GuardKind.EARLY_EXIT, GuardKind.TERNARY, GuardKind.BOOL_OP,
                    GuardKind.WHILE, GuardKind.MATCH_CASE})


def _written_consent(ctx: CheckContext) -> Iterator[Finding]:
    """An approval read from a record or state field the model can write (`_consent_writes`):
    `if refund.approved:` where a model-invoked tool sets `approved`. A field whose tested
    value is model output itself is `_consent_branches`' shape."""
    writes = consent_writes(ctx, CONSENT_FIELDS)
    if not writes:
        return
    reported: set[str] = set()
    model = ctx.facts.model
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        for chain in ctx.reach.of(executor):
            if chain.governed:
                continue
            for hop in chain.hops:
                key = function_key(hop.file, hop.call.scope)
                for guard in hop.call.guards:
                    if guard.kind not in _TESTS or guard.condition is None:
                        continue
                    for comparison in guard.condition.comparisons:
                        value = comparison.left
                        found = _writers(writes.get(_field(ctx, value), ()), hop.file, key)
                        place = str(comparison.location)
                        if not found or place in reported or \
                                model.value_labels(hop.file, hop.call.scope, value):
                            continue
                        reported.add(place)
                        write = found[0]
                        yield ctx.finding(
                            codes.MODEL_CONSENT, location=comparison.location,
                            symbol=call_symbol(hop.file, hop.call),
                            message=f"approval `{value.text}` reads `{write.field}`, which "
                                    f"{write.writer} writes (`{write.text}`), and selects "
                                    f"{executor_text(executor)}",
                            snippet=value.text, path=(*chain.origins, executor.id),
                            related=(*(w.location for w in found), executor.location),
                            inferred=True)


def _writers(writes: Iterable[ConsentWrite], file: FileIR, key: str) -> list[ConsentWrite]:
    """The writes a reader in `file` (function `key`) may see: same language, another
    function, those in the reader's own file first."""
    python = file.language is Language.PYTHON
    found = [w for w in writes if w.python == python and w.scope != key]
    return sorted(found, key=lambda w: (w.location.file != file.path, w.location.file,
                                        w.location.line, w.location.column))


def _tested_value(ctx: CheckContext, chain: Chain, gate: Site) -> Value | None:
    """The model-derived side of the comparison a gate site stands for."""
    for hop in chain.hops:
        for guard in hop.call.guards:
            for comparison in guard.condition.comparisons if guard.condition else ():
                if comparison.location != gate.location:
                    continue
                model = ctx.facts.model
                sides = (comparison.left, comparison.right)
                return next((v for v in sides if v is not None and
                             model.value_labels(hop.file, hop.call.scope, v)), None)
    return None


def _field(ctx: CheckContext, value: Value) -> str:
    """The field a value names last: `approved` for `review["approved"]`, `review.approved`,
    `approved` and `review.get("approved")`."""
    if value.kind is ValueKind.CALL:
        found = ctx.calls.get(value.call or "")
        key = found[1].args[0] if found and found[1].name == "get" and found[1].args else None
        return str(key.literal) if key is not None and key.kind is ValueKind.STRING else ""
    return last_key(value.ref or "")
