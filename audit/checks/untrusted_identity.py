"""UNTRUSTED-IDENTITY: the identity that scopes memory or signs an approval comes from the
request body, the model, or a constant.

Seed 003, "Never let an untrusted browser or client choose the `userId` directly" (MemexAI
"does not authenticate your end user", X2/X7); seed 002, approvals record the approver
(`approve(…, approver_id=…)`, M6) and must name an authenticated operator; other-systems.md
O5/H8. A client that picks the user id reads and writes another user's memory; a model or a
hard-coded string as approver makes the approval log meaningless.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.analyzers.ir import LITERAL_KINDS
from topo.audit import codes
from topo.audit.checks._memory import is_request_value, request_flow, value_of
from topo.audit.checks._registry import CheckContext, check
from topo.analyzers.model import SiteKind
from topo.audit.model import Finding

__all__ = ["untrusted_identity"]

_IDENTITY_KEYS = ("user_id", "userId", "approver_id")


@check(codes.UNTRUSTED_IDENTITY)
def untrusted_identity(ctx: CheckContext) -> Iterator[Finding]:
    request = None
    for site in ctx.facts.sites:
        key = next((name for name in ctx.facts.knowledge.identity_attributes(site.system)
                    if site.kind.declares(name) and site.attr(name) is not None), None)
        if key is None:
            continue
        file, call = ctx.calls[str(site.attr("call"))]
        value = value_of(call, *((key,) if key == "approver_id" else _IDENTITY_KEYS))
        if value is None and site.attr("operation") == "scope" and call.args:
            value = call.args[0]
        if value is None:
            continue
        request = request if request is not None else request_flow(ctx)
        if is_request_value(request, file, call.scope, value):
            trust = "the request body or query"
        elif ctx.facts.model.value_labels(file, call.scope, value):
            trust = "model output"
        elif key == "approver_id" and value.kind in LITERAL_KINDS and \
                site.kind is SiteKind.APPROVAL_GATE:
            trust = "a constant"
        else:
            continue
        yield ctx.finding(
            codes.UNTRUSTED_IDENTITY, location=site.location, symbol=site.symbol,
            message=f"`{site.attr('callee')}` takes its {key.replace('Id', '_id')} "
                    f"`{value.text}` from {trust}",
            snippet=value.text)
