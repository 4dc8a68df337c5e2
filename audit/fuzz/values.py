"""How probe values read in reports: DSL literal spelling, and runs of numbers as intervals.

`'settled'`, `7500`, `0.8000000000000002`, `true`, `absent`; a run of tested numbers that all
changed outcome reads `[5001, 7500]` (its neighbours outside the brackets were tested and did not
change), a single one `{5001}`, other values a set `{'USD', absent}`.
"""

from __future__ import annotations

from typing import Any

from topo.audit.dsl.lexer import quote_string
from topo.audit.triggers.atoms import ABSENT

__all__ = ["format_value", "format_values", "is_number", "json_value"]


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def format_value(value: Any) -> str:
    match value:
        case _ if value is ABSENT:
            return "absent"
        case bool():
            return "true" if value else "false"
        case int() | float():
            return repr(value)
        case str():
            return quote_string(value)
    return str(value)


def format_values(values: list[Any]) -> str:
    """A set of values: `{'USD', absent}`; a single number `{5001}`."""
    return "{" + ", ".join(format_value(v) for v in values) + "}"


def json_value(value: Any) -> Any:
    """The JSON form of a probe value: absent is null (the evaluator treats null as absent)."""
    return None if value is ABSENT else value
