"""UNVALIDATED-TAG: model output sent to the decision engine as a tag, unchecked.

Seed 000, "The authority boundary": "Use fixed taxonomies for model-derived tags … Validate
actual runtime output; a type annotation alone does not do this", and "Control failures to
test": "Unknown classifier output: free-form or new labels bypass expected branches". A
trigger `tag.refund_intent == 'fraud'` is only as good as the set of values the tag can take;
free-form text makes every branch on it a guess.

A tag atom (`tag(kind, value)`) is reported when its value carries model output and none of
the validations in `_validation` applies: a validator call upstream (`TypeAdapter(Literal[…])`,
an `Enum` class), a dominating membership guard, or a clamp to a constant collection.

Provenance, the same boundary ("Label model-derived values with `source="ml"`, and ensure they
cannot impersonate trusted application facts"): a model-derived value is also reported, validated
or not, when the code labels its atom, state or tag, `source="system"` (TypeScript `'system'`):
the model's output is sent as a trusted application fact. The SDK's default label is `system`
too, but the seed's own examples send validated tool arguments as unlabelled state ("validate
its proposed arguments and translate them into typed state"), so only the written label counts.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.analyzers.flow.dataflow import Flow
from topo.analyzers.ir import Call, Value
from topo.audit import codes
from topo.audit.checks._evidence import locations, origin_text
from topo.audit.checks._registry import CheckContext, check
from topo.audit.checks._validation import clamped, membership_guarded, validated_model_flow
from topo.audit.graph.build import sites_of_kind
from topo.analyzers.model import Site, SiteKind
from topo.audit.model import Finding

__all__ = ["unvalidated_tag"]

# The Memrail atom source (`AtomSource`) that says the application vouches for the value.
_SYSTEM_SOURCE = "system"


@check(codes.UNVALIDATED_TAG)
def unvalidated_tag(ctx: CheckContext) -> Iterator[Finding]:
    validated: Flow | None = None       # computed once, and only when a tag needs it
    for atom in sites_of_kind(ctx.graph, SiteKind.ATOM):
        found = ctx.calls.get(str(atom.attr("call")))
        if atom.attr("kind") not in ("tag", "state") or found is None:
            continue
        file, call = found
        value = _tag_value(call)
        labels = ctx.facts.model.value_labels(file, call.scope, value) if value else None
        if not labels or value is None:
            continue
        origins = sorted(labels)
        message = _impersonation(ctx, atom, value, origins)
        if message is None and atom.attr("kind") == "tag":
            validated = validated or validated_model_flow(ctx)
            if not validated.value_labels(file, call.scope, value) or \
                    membership_guarded(ctx, file, call, value) or \
                    clamped(ctx, file, call.scope, value):
                continue
            message = f"tag `{atom.attr('key')}` takes `{value.text}` from model output of " \
                      f"{origin_text(ctx, origins)} without validation against a fixed set"
        if message is None:
            continue
        yield ctx.finding(
            codes.UNVALIDATED_TAG, location=atom.location, symbol=atom.symbol,
            message=message, snippet=value.text, path=(*origins, atom.id),
            related=locations(ctx, origins), inferred=True)


def _impersonation(ctx: CheckContext, atom: Site, value: Value,
                   origins: list[str]) -> str | None:
    """A model-derived value the code labels as a trusted application fact (`system`)."""
    if atom.attr("source_declared") != _SYSTEM_SOURCE:
        return None
    return (f"{atom.attr('kind')} `{atom.attr('key')}` takes `{value.text}` from model output "
            f"of {origin_text(ctx, origins)} and labels its source `system`: a "
            f"model-derived value sent as a trusted application fact (label it `ml`)")


def _tag_value(call: Call) -> Value | None:
    """The value of `tag(kind, value)` / `tag(kind=…, value=…)` / TS `tag({ kind, value })`."""
    value = call.kwarg("value")
    if value is None and len(call.args) > 1:
        value = call.args[1]
    if value is None and call.args:
        value = call.args[0].entry("value")
    return value
