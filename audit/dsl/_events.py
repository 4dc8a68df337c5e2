"""Which events of a context an event query matches: name, project, window and WHERE filters.

The rules (docs, seed 000 "Trigger DSL", unless marked *decision*):

- **Name**: the event's name equals `subject.verb.object` exactly.
- **Project**: an event without a project belongs to the current project (`ctx.project`); an
  unprefixed query reads the current project, `event.proj.s.v.o` reads project `proj`.
- **Window**: `now - window <= ts <= now`, inclusive at both ends (the docs: `'PT1.5S'` includes
  an event exactly on its boundary). *Decision*: an event after `now` is not counted: history
  cannot contain the future, and a clock-skewed producer must not satisfy a guard early. The
  window is truncated to whole microseconds, the resolution of a timestamp.
- **WHERE**: every filter must hold. A missing or null attribute matches nothing.
  - A string filter compares the attribute's string form (see `_values.stringify`: a number
    attribute 42 matches `'42'`, a bool matches `'true'`) exactly and case-sensitively.
  - A number filter compares numerically; *decision*: a numeric-looking string attribute is
    coerced, as comparison operators do.
  - A template `'{{customer.id}}'` (legacy `'{{state.customer.id}}'`) reads the **state** value
    and stringifies it. *Decision*: placeholders embedded in a longer string
    (`'cus-{{customer.id}}'`) are interpolated the same way. An unresolved placeholder (absent,
    null, or a list/object value) makes the filter match nothing, so under `NOT` the query is
    true: the ghost-guard behaviour the docs warn about.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal
from typing import Any

from topo.audit.dsl.ast import EventQuery, NumberLit, StringLit, WhereFilter
from topo.audit.dsl.context import EvalContext, Event
from topo.audit.dsl._values import as_number, exact_context, stringify

__all__ = ["count_matching", "fill_template", "resolve_string_filter"]

_PLACEHOLDER = re.compile(r"\{\{\s*([^{}]*?)\s*\}\}")
_MICROSECONDS = Decimal(1_000_000)


def count_matching(query: EventQuery, ctx: EvalContext) -> int:
    """How many events of `ctx` the query matches."""
    # int() truncates toward zero: a window is whole microseconds.
    window_us = int(exact_context().multiply(Decimal(query.window.seconds), _MICROSECONDS))
    wanted_project = query.event.project if query.event.project is not None else ctx.project
    filters = [(f.attr, _filter_value(f, ctx)) for f in query.where]
    if any(value is None for _, value in filters):
        return 0
    return sum(1 for event in ctx.events
               if event.name == query.event.name
               and (event.project if event.project is not None else ctx.project) == wanted_project
               and _in_window(event.ts, ctx.now, window_us)
               and all(_attribute_matches(event, attr, value) for attr, value in filters))


def _in_window(ts: datetime, now: datetime, window_us: int) -> bool:
    age = now - ts
    age_us = (age.days * 86_400 + age.seconds) * 1_000_000 + age.microseconds
    return 0 <= age_us <= window_us


def _filter_value(where: WhereFilter, ctx: EvalContext) -> str | Decimal | None:
    """The resolved filter value; None when a template cannot be resolved."""
    match where.value:
        case NumberLit(value=number):
            return Decimal(number)
        case StringLit() as literal:
            return resolve_string_filter(literal, ctx)


def resolve_string_filter(literal: StringLit, ctx: EvalContext) -> str | None:
    """The string a WHERE value stands for in `ctx`; see `fill_template`."""
    return fill_template(literal, ctx.state)


def fill_template(literal: StringLit, state: Mapping[str, Any]) -> str | None:
    """The string a WHERE value stands for once its `{{key}}` placeholders are filled from
    `state` (keys without `state.`); None when any placeholder is unresolved. The fuzzer builds
    its events with this same function, so generated events match exactly as evaluated."""
    if literal.is_template:
        return _state_string(literal.template_key or "", state)
    unresolved = False

    def fill(match: re.Match[str]) -> str:
        nonlocal unresolved
        text = _state_string(match.group(1), state)
        unresolved = unresolved or text is None
        return text or ""

    filled = _PLACEHOLDER.sub(fill, literal.value)
    return None if unresolved else filled


def _state_string(key: str, state: Mapping[str, Any]) -> str | None:
    key = key.removeprefix("state.")
    return stringify(state[key]) if key in state else None


def _attribute_matches(event: Event, attr: str, wanted: str | Decimal) -> bool:
    if attr not in event.attributes:
        return False
    actual: Any = event.attributes[attr]
    if isinstance(wanted, str):
        return stringify(actual) == wanted
    if isinstance(actual, bool):
        return False
    number = as_number(actual)
    return number is not None and number == wanted
