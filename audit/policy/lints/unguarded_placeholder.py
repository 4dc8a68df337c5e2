"""UNGUARDED-PLACEHOLDER: a `{{a.b}}` template whose state key the trigger does not require.

Seed 000 ("Write and validate EMUs"): "Interpolated values have matching `EXISTS` guards"; the
production checklist: "Action interpolation values are guarded with `EXISTS`", including IDs
interpolated into event `WHERE` filters. Without the guard the EMU can be selected while the
value is absent, and the handler receives an empty or literal `{{…}}` argument; in a negated
event filter a missing id makes the clause vacuously true.

The whole action is scanned (tool args, directive text, route metadata), legacy
`{{state.a.b}}` included. One finding per unguarded key: one guard fixes every use of it.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.audit import codes
from topo.audit.policy.lints._lint import Issue, Lint, LintContext
from topo.audit.policy.paths import dotted
from topo.audit.policy.templates import placeholders

__all__ = ["LINTS"]


def unguarded_placeholders(context: LintContext) -> Iterator[Issue]:
    facts = context.trigger
    if facts is None or facts.ast is None:
        return  # without a parsed trigger the guards are unknown; EMU-TRIGGER-SYNTAX says why
    reported: set[str] = set()
    for placeholder in placeholders(context.emu.action, ("action",)):
        if placeholder.key in facts.guarded or placeholder.key in reported:
            continue
        reported.add(placeholder.key)
        yield Issue(f"`{dotted(placeholder.path)}` interpolates `{placeholder.text}` but the "
                    f"trigger has no `state.{placeholder.key} EXISTS` guard", placeholder.path)
    for where in facts.where_placeholders:
        if where.key in facts.guarded or where.key in reported:
            continue
        reported.add(where.key)
        yield Issue(f"the trigger's WHERE filter on `{where.event}` interpolates "
                    f"`{{{{{where.key}}}}}` but the trigger has no `state.{where.key} EXISTS` "
                    "guard", ("trigger",))


LINTS: tuple[Lint, ...] = (
    Lint("unguarded_placeholders", codes.UNGUARDED_PLACEHOLDER, ("trigger",),
         unguarded_placeholders),
)
