"""AGENT-VERDICT: an approval that another model decides is used as authority.

Other-systems.md A4/H9 and seed 004 ("Memory-backed handoff"): a Mubit
`handoff(requested_action="approve", await_verdict=True)` returns whatever the reviewer agent
answered with `feedback(verdict=…)`. When that reviewer is a model (its verdict is model
output), the "approval" in front of a consequential effect is the model's own judgement.

Reported (1) at a `feedback(verdict=…)` whose verdict is model output; (2) at a handoff
whose verdict gates an executor, unless the repository shows the addressed reviewer answering
with a verdict that is not model output (a human console calling `feedback`); (3) at a human
approval call (MemoRizz `agent.approve`) that runs only when a model said so — an LLM
auto-approver (seed 002 lists it as an unsafe fallback); a request shown to a human (an
`interrupt(prompt)`) counts only when a test in its function reads the answer: one whose answer
is only stored or passed on ("Ready for user input.") is a question, and a model deciding when
to ask it approves nothing; (4) at a guardrail's verdict that is a
guardrail agent's answer: authority held by a model with no `if` in the app. The pack says
where the verdict is: a keyword of the call that builds the guardrail's output (`verdict_keyword`:
Python `GuardrailFunctionOutput(tripwire_triggered=…)`), or a key of the record the guardrail's
function returns (`verdict_key` with `definition`: TS `execute` returning `{ tripwireTriggered }`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from topo.analyzers.flow.dataflow import Seeds, propagate
from topo.audit import codes
from topo.audit.checks._memory import value_of
from topo.audit.checks._registry import CheckContext, check, executor_severity
from topo.audit.graph.build import sites_of_kind
from topo.analyzers.ir import (Assignment, Call, FileIR, Guard, GuardKind, Return, Value,
                               ValueKind, scope_chain)
from topo.analyzers.paths import root_of
from topo.analyzers.model import Location, Site, SiteKind
from topo.audit.model import Finding, Severity

__all__ = ["agent_verdict"]


@check(codes.AGENT_VERDICT)
def agent_verdict(ctx: CheckContext) -> Iterator[Finding]:
    feedbacks = [s for s in ctx.facts.sites if s.kind is SiteKind.APPROVAL_GATE
                 and s.attr("operation") == "feedback"]
    handoffs = {s.attr("call"): s for s in ctx.facts.sites if s.kind is SiteKind.APPROVAL_GATE
                and s.attr("operation") == "handoff"}
    model_reviewers = set()
    human_reviewers = set()
    for site in feedbacks:
        file, call = ctx.calls[str(site.attr("call"))]
        verdict = value_of(call, "verdict")
        if verdict is not None and ctx.facts.model.value_labels(file, call.scope, verdict):
            model_reviewers.add(site.attr("from_agent_id"))
            yield ctx.finding(
                codes.AGENT_VERDICT, location=site.location, symbol=site.symbol,
                message=f"the verdict `{verdict.text}` sent with `feedback` is model output: "
                        f"an agent decides the approval",
                snippet=verdict.text)
        else:
            human_reviewers.add(site.attr("from_agent_id"))
    yield from _model_approvers(ctx)
    yield from _model_guardrails(ctx)
    if not handoffs:
        return
    flow = propagate(ctx.facts.files, ctx.facts.graph,
                     Seeds(calls={str(c): frozenset({s.id}) for c, s in handoffs.items()}),
                     ctx.facts.flow_index)
    reported: set[str] = set()
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        for chain in ctx.reach.of(executor):
            for hop in chain.hops:
                for guard in hop.call.guards:
                    labels = flow.condition_labels(hop.file, hop.call.scope, guard.condition)
                    for handoff_id in sorted(labels - reported):
                        handoff = next(s for s in handoffs.values() if s.id == handoff_id)
                        reviewer = handoff.attr("to_agent_id")
                        if reviewer in human_reviewers and reviewer not in model_reviewers:
                            continue
                        reported.add(handoff_id)
                        yield _gate_finding(ctx, handoff, executor)


def _gate_finding(ctx: CheckContext, handoff: Site, executor: Site) -> Finding:
    reviewer = handoff.attr("to_agent_id") or handoff.attr("to_agent_id_text") or "an agent"
    return ctx.finding(
        codes.AGENT_VERDICT, location=handoff.location, symbol=handoff.symbol,
        message=f"the verdict of a handoff to `{reviewer}` "
                f"(requested_action `{handoff.attr('requested_action')}`) gates "
                f"`{executor.attr('callee') or executor.symbol}`, and no code shows a human "
                f"answering it",
        path=(handoff.id, executor.id), related=(executor.location,),
        severity=executor_severity(codes.AGENT_VERDICT, executor))


def _model_approvers(ctx: CheckContext) -> Iterator[Finding]:
    for site in ctx.facts.sites:
        if site.kind is not SiteKind.APPROVAL_GATE or site.attr("approver") != "human" or \
                not site.attr("call") or site.attr("definition"):
            continue
        file, call = ctx.calls[str(site.attr("call"))]
        if any(ctx.facts.model.condition_labels(file, call.scope, g.condition)
               for g in call.guards if g.condition is not None
               and not _stops_request(site, g)) and not _asks_only(site, file, call):
            yield ctx.finding(
                codes.AGENT_VERDICT, location=site.location, symbol=site.symbol,
                message=f"`{site.attr('callee')}` approves only when model output says so: "
                        f"the model is the approver")


def _stops_request(site: Site, guard: Guard) -> bool:
    """A request shown to a human (an interrupt's `prompt`) after `if (!state.post) throw`:
    model output that is missing stops the run, it approves nothing; the human answers."""
    return site.attr("prompt") is not None and guard.kind is GuardKind.EARLY_EXIT and \
        guard.exits == "raise"


def _asks_only(site: Site, file: FileIR, call: Call) -> bool:
    """A request shown to a human (it has a `prompt`) whose answer no test in its function (or
    a function nested in it) reads, directly or through the name it is assigned to: a question
    or a notification, not an approval. Read through anything else (the next model turn that
    the answer joins), the answer does not decide; that test is the model's."""
    if site.attr("prompt") is None:
        return False
    names = {root_of(a.target) for a in file.assignments if a.scope == call.scope
             and (a.value.call == call.id or call.id in a.value.results)}
    for item in (*file.calls, *file.assignments, *file.returns):
        if call.scope not in scope_chain(item.scope):
            continue
        tests = [g.condition for g in item.guards if g.condition is not None]
        if isinstance(item, Assignment) and item.condition is not None:
            tests.append(item.condition)    # `approved = answer == "yes"`
        if any(call.id in test.calls or any(root_of(read) in names for read in test.reads)
               for test in tests):
            return False
    return True


def _model_guardrails(ctx: CheckContext) -> Iterator[Finding]:
    """A guardrail whose verdict (its tripwire) is model output: a guardrail agent decides what
    the run may do, with no `if` in the app. Medium: a model-judged guardrail is a common,
    deliberate design, but it is a control a prompt can talk past."""
    reported: set[Location] = set()
    for site in ctx.facts.sites:
        if site.kind is not SiteKind.APPROVAL_GATE or site.attr("operation") != "guardrail" \
                or not site.attr("call"):
            continue
        file, call = ctx.calls[str(site.attr("call"))]
        for scope, verdict, location, symbol in _verdicts(file, call, site):
            if location in reported or not ctx.facts.model.value_labels(file, scope, verdict):
                continue
            reported.add(location)
            yield ctx.finding(
                codes.AGENT_VERDICT, location=location, symbol=symbol,
                message=f"the guardrail's verdict `{verdict.text}` is model output: a model "
                        f"decides what the run may do (`{symbol}`)",
                snippet=verdict.text, severity=Severity.MEDIUM)


def _verdicts(file: FileIR, call: Call, site: Site
              ) -> Iterator[tuple[str, Value, Location, str]]:
    """Where a guardrail states its verdict, with the scope it is read in: the keyword of
    the call that builds its output (Python `GuardrailFunctionOutput(tripwire_triggered=…)`,
    at the site), or the key of each record its function returns (TS `return {
    tripwireTriggered }`, at that key's line)."""
    keyword = site.attr("verdict_keyword")
    if keyword:
        verdict = value_of(call, str(keyword))
        if verdict is not None:
            yield call.scope, verdict, site.location, site.symbol
    key, function = site.attr("verdict_key"), site.attr("definition")
    if not key or not isinstance(function, str) or \
            not function.startswith(file.module + "."):
        return
    qualname = function[len(file.module) + 1:]
    for returned in file.returns:
        verdict = returned.value.entry(str(key)) if returned.scope == qualname and \
            returned.value is not None and returned.value.kind is ValueKind.DICT else None
        if verdict is not None:
            yield qualname, verdict, _key_location(returned, str(key)), function


def _key_location(returned: Return, key: str) -> Location:
    """The line of `key` in a returned object literal: the record's text counted from the
    return (the IR keeps no position per key); the return itself when the key is past the
    text the IR keeps."""
    match = re.search(rf"(?<![\w$]){re.escape(key)}\s*[:,}}\n]", returned.value.text) \
        if returned.value is not None else None
    if match is None:
        return returned.location
    before = returned.value.text[:match.start()]
    if "\n" not in before:
        return returned.location
    return Location(returned.location.file, returned.location.line + before.count("\n"),
                    len(before) - before.rfind("\n"))
