"""ABSENCE-PERMITS: a consequential EMU whose trigger holds when an input it reads is missing,
although some value of that input would stop it.

Seed 000, "Presence": "With user.banned missing, the first expression is true", and "Do not
treat absence as an authorization decision"; the docs' missing-atom rule: a positive predicate
on an absent atom is false, "outer `NOT` can invert this, and `OR` can match another branch".

Sound by construction: a finding carries a context, found by `topo fuzz`'s absence search and
re-evaluated here, where the input is absent and the trigger is true, and a value of the input
that makes the same context false. That second half is what makes absence a *permission*: an
input read only positively (`amount > 500 OR tag.intent == 'fraud'`) can never block when
present, so its absence permits nothing and is not reported. Events are GHOST-EVENT's
business; when the search finds no context, nothing is reported.

Consequential (decided here, for the spec is silent on routes): an `auto`-mode EMU (the default
mode; `require_human` and `advisory` put a person in between) whose action is a side-effecting
`tool_call` (POLICY-GAP's rule: unless `tool.side_effect` is false) or a `route`, since routing
is one of seed 000's consequential outcomes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from topo.audit import codes, dsl
from topo.audit.checks._emus import ParsedEmu, emu_place, parsed_emus
from topo.audit.checks._registry import CheckContext, check
from topo.audit.triggers.atoms import ABSENT, Atom, value_of, with_value
from topo.audit.triggers.boundaries import TRUTHINESS_TRAPS, probes
from topo.audit.triggers.evaluation import FUZZ_MATCH_TIMEOUT, TriggerUnderTest
from topo.audit.triggers.plans import branch_plans
from topo.audit.model import Finding
from topo.audit.policy import Emu
from topo.audit.policy.lints.policy_gap import is_side_effecting

__all__ = ["absence_permits", "consequence"]

_SHOWN = 3  # witness values named in a message
_NONE = object()  # no blocking value found


@check(codes.ABSENCE_PERMITS)
def absence_permits(ctx: CheckContext) -> Iterator[Finding]:
    for parsed in parsed_emus(ctx.emus):
        effect = consequence(parsed.emu)
        if effect is None:
            continue
        for atom, witness, blocker in _permissions(parsed):
            yield ctx.finding(
                codes.ABSENCE_PERMITS, **emu_place(parsed.emu), snippet=atom.accessor,
                message=f"EMU `{parsed.emu.label}` selects {effect} while `{atom.accessor}` is "
                        f"absent ({_describe(witness)}), though `{atom.accessor}` = "
                        f"{_literal(blocker)} makes its trigger false")


def consequence(emu: Emu) -> str | None:
    """The consequential action an EMU selects, in words, or None (see the module docstring)."""
    if emu.policy.get("mode", "auto") != "auto":
        return None
    action = emu.action
    if is_side_effecting(action):
        tool = action.get("tool")
        tool_id = tool.get("tool_id") if isinstance(tool, dict) else None
        return f"side-effecting tool `{tool_id if isinstance(tool_id, str) else '?'}`"
    if action.get("type") == "route":
        return f"route `{action.get('destination') or action.get('route') or '?'}`"
    return None


def _permissions(parsed: ParsedEmu) -> Iterator[tuple[Atom, dsl.EvalContext, Any]]:
    """(input, context where it is absent and the trigger true, value that blocks).

    Only inputs read under a negation can block when present: the trigger is monotone in its
    positive predicates, and every predicate on an absent input is false. So only those are
    searched, with the fuzzer's absence search (`branch_plans(…, absent=atom)`)."""
    # Imported here: the search runs on hypothesis, a quarter of a second to import, which
    # only a consequential EMU reading an input under a negation needs.
    from topo.audit.triggers.search import Budget, find_minimal
    from topo.audit.triggers.strategies import CONTEXT_NOW, planned_contexts
    from topo.audit.triggers.witness import is_absent
    negated = {Atom(d.kind, d.key) for d in parsed.dependencies
               if d.kind != "event" and d.holds_when_absent}
    if not negated:
        return
    own = probes(parsed.ast)
    trigger = TriggerUnderTest(parsed.ast, FUZZ_MATCH_TIMEOUT)
    for atom in (a for a in own.atoms if a in negated):
        plans = branch_plans(parsed.ast, own, absent=atom)
        found = find_minimal(planned_contexts(plans, now=CONTEXT_NOW),
                             lambda ctx, atom=atom: is_absent(ctx, atom) and trigger.matches(ctx),
                             Budget(), f"absent:{atom.name}:{parsed.emu.label}") if plans else None
        if found is None or not isinstance(found.value, dsl.EvalContext):
            continue
        blockers = (*own.values.get(atom, ()), True, *TRUTHINESS_TRAPS)
        for witness in _variants(parsed, found.value, own.values):
            if value_of(witness, atom) is not ABSENT or _evaluate(parsed, witness) is not True:
                continue
            blocker = next((v for v in blockers
                            if _evaluate(parsed, with_value(witness, atom, v)) is False), _NONE)
            if blocker is not _NONE:
                yield atom, witness, blocker
                break


def _variants(parsed: ParsedEmu, witness: dsl.EvalContext,
              values: dict[Atom, tuple[Any, ...]]) -> Iterator[dsl.EvalContext]:
    """The witness, then the witness with as few other inputs as still match, then that one
    with one other input changed: the search's witness may satisfy the trigger through a
    branch that does not need the absent input (`intent == 'x' OR NOT blocked`), where no
    value of it can block."""
    yield witness
    smaller = witness
    for atom in values:
        fewer = with_value(smaller, atom, ABSENT)
        if _evaluate(parsed, fewer) is True:
            smaller = fewer
    yield smaller
    for atom, options in values.items():
        for value in (ABSENT, *options):
            yield with_value(smaller, atom, value)


def _evaluate(parsed: ParsedEmu, context: dsl.EvalContext) -> bool | None:
    try:
        return dsl.evaluate(parsed.ast, context, match_timeout=FUZZ_MATCH_TIMEOUT)
    except dsl.EvaluationError:
        return None


def _describe(context: dsl.EvalContext) -> str:
    parts = [f"`state.{key}` = {_literal(value)}" for key, value in sorted(context.state.items())]
    parts += [f"`tag.{kind}` = {_literal(value)}" for kind, value in sorted(context.tags.items())]
    names = sorted({event.name for event in context.events})
    parts += [f"{sum(e.name == n for e in context.events)} `{n}` event(s)" for n in names]
    if not parts:
        return "on an otherwise empty context"
    more = f" and {len(parts) - _SHOWN} more input(s)" if len(parts) > _SHOWN else ""
    return "e.g. with " + ", ".join(parts[:_SHOWN]) + more


def _literal(value: Any) -> str:
    """A value as the DSL writes it: `true`, `'gold'`, `5`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return "'" + value.replace("'", "\\'") + "'"
    return str(value)
