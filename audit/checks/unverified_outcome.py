"""UNVERIFIED-OUTCOME: an outcome is recorded from the model's own grading, or as a constant.

Seed 004, "Never let the model grade itself": "Do not route the model's self-assessment …
into `record_outcome()`", "If no objective verdict exists, record nothing"; `verified_in_
production` is "reserved for genuinely live verification" (other-systems.md U1–U3, H7).
`record_outcome` moves `knowledge_confidence` and promotes lessons, so a self-graded or
always-"success" outcome teaches every later run that whatever happened was right.

The verdict's source is read from the value's flow: `model` (the outcome, signal, `good` or
rationale is model output), `constant` (a literal outcome, with no other outcome recorded by the
same function: nothing ever records a failure), otherwise `objective` or `unknown` (not reported).
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.analyzers.ir import LITERAL_KINDS
from topo.audit import codes
from topo.audit.checks._memory import value_of
from topo.audit.checks._registry import CheckContext, check
from topo.analyzers.model import SiteKind
from topo.audit.model import Finding

__all__ = ["unverified_outcome", "verdict_source"]

_VERDICT_KEYS = ("outcome", "good", "score", "reward", "signal", "rationale")


def verdict_source(ctx: CheckContext, site) -> tuple[str, str]:
    """(`model` | `constant` | `objective` | `unknown`, the value's text)."""
    file, call = ctx.calls[str(site.attr("call"))]
    values = [(k, value_of(call, k)) for k in _VERDICT_KEYS]
    values = [(k, v) for k, v in values if v is not None]
    for key, value in values:
        if ctx.facts.model.value_labels(file, call.scope, value):
            return "model", f"{key}={value.text}"
    verdicts = [(k, v) for k, v in values if k in ("outcome", "good", "score", "reward")]
    if not verdicts:
        return "unknown", ""
    key, value = verdicts[0]
    if value.kind in LITERAL_KINDS and not _alternatives(ctx, site, value.literal):
        return "constant", f"{key}={value.text}"
    return ("objective" if value.kind not in LITERAL_KINDS else "unknown"), value.text


def _alternatives(ctx: CheckContext, site, literal) -> bool:
    """Another outcome recorded by the same function with a different literal (a failure
    branch next to the success one)."""
    for other in ctx.facts.sites:
        if other.id != site.id and other.kind is SiteKind.EVENT_EMIT and \
                other.symbol == site.symbol and other.attr("operation") == "outcome":
            value = other.attr("outcome", other.attr("outcome_text"))
            if value != literal:
                return True
    return False


@check(codes.UNVERIFIED_OUTCOME)
def unverified_outcome(ctx: CheckContext) -> Iterator[Finding]:
    for site in ctx.facts.sites:
        if site.kind is not SiteKind.EVENT_EMIT or site.attr("operation") != "outcome":
            continue
        source, text = verdict_source(ctx, site)
        if source not in ("model", "constant"):
            continue
        graded = "the model's own output" if source == "model" else "a constant"
        yield ctx.finding(
            codes.UNVERIFIED_OUTCOME, location=site.location, symbol=site.symbol,
            message=f"`{site.attr('callee')}` records an outcome from {graded} "
                    f"(`{text}`, verdict source {source})",
            snippet=text)
