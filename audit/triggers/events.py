"""Events made to order for one event query: ones it matches (inside its window, exactly on the
window's edge) and near misses (just outside, in the future, in another project, under another
name, with a `WHERE` attribute that differs).

WHERE values are filled the way the evaluator fills them (docs: a template reads the state value
and converts it to a string; bools in JSON spelling). The evaluator still has the final word on
every context the fuzzer builds, so a slip here could only make a search weaker, never a result
wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from topo.audit.dsl import Event
from topo.audit.dsl._events import fill_template
from topo.audit.dsl.ast import EventQuery, NumberLit, StringLit

__all__ = ["window_of", "matching_attributes", "matching_event", "near_misses", "OTHER_PROJECT"]

OTHER_PROJECT = "other"

_EARLIEST = datetime(1, 1, 2, tzinfo=UTC)  # `now - age` must stay a valid datetime
_MICROSECOND = timedelta(microseconds=1)


def window_of(query: EventQuery, now: datetime) -> timedelta:
    """The query's window as the evaluator measures it (whole microseconds), no longer than the
    time since year 1."""
    window = timedelta(microseconds=int(query.window.seconds * 1_000_000))
    return min(window, now - _EARLIEST)


def matching_attributes(query: EventQuery, state: Mapping[str, Any]) -> dict[str, Any] | None:
    """Attributes that satisfy every WHERE filter, or None when a template cannot be filled."""
    attributes: dict[str, Any] = {}
    for where in query.where:
        match where.value:
            case NumberLit(value=number):
                attributes[where.attr] = _json_number(number)
            case StringLit() as literal:
                text = fill_template(literal, state)
                if text is None:
                    return None
                attributes[where.attr] = text
    return attributes


def matching_event(query: EventQuery, state: Mapping[str, Any], now: datetime,
                   age: timedelta) -> Event:
    """An event `age` before `now` under the query's name and project, with matching WHERE
    attributes (or, when a template cannot be filled, attributes that match nothing)."""
    attributes = matching_attributes(query, state)
    if attributes is None:
        attributes = {where.attr: "unresolved" for where in query.where}
    return Event(query.event.name, now - age, attributes, query.event.project)


def near_misses(query: EventQuery, state: Mapping[str, Any],
                now: datetime) -> tuple[tuple[str, Event], ...]:
    """Labelled events that look like a match but are not one (`just outside PT15M`)."""
    window = window_of(query, now)
    inside = matching_event(query, state, now, window / 2)
    ref = query.event
    misses = [
        (f"just outside {query.window.raw}", matching_event(query, state, now,
                                                   min(window + _MICROSECOND, now - _EARLIEST))),
        ("in the future", matching_event(query, state, now, -timedelta(seconds=1))),
        ("in another project", Event(inside.name, inside.ts, inside.attributes,
                                     OTHER_PROJECT if ref.project is None else None)),
        ("under another name", Event(f"{ref.subject}.{ref.verb}.other", inside.ts,
                                     inside.attributes, ref.project)),
    ]
    if query.where:
        mismatched = {attr: "mismatch" for attr in inside.attributes}
        misses.append(("with a WHERE mismatch", Event(inside.name, inside.ts, mismatched, ref.project)))
    return tuple(misses)


def _json_number(number: int | Decimal) -> int | float:
    if isinstance(number, int) or number == number.to_integral_value():
        return int(number)
    return float(number)
