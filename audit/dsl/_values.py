"""Value semantics of the trigger evaluator: numbers, truthiness, equality, ordering, membership.

Kept apart from the AST walk so that each rule is one small function with its reason next to
it. Values are what a context holds (JSON values, plus Decimal) or what a literal denotes.

The rules (docs, seed 000 "Trigger DSL", unless marked *decision*):

- **Numbers** are int, float and Decimal (finite, exponent within ±10**12); a bool is *not* a
  number (*decision*: `1 == true` is false and `true + 1` is an error), because JSON and the
  DSL keep the two types apart. All
  numeric work is on exact Decimals; a float is read through its shortest repr (`0.1` is
  `Decimal('0.1')`). Non-finite floats are not numbers.
- **Numeric-looking strings** (`'10'`, `' -2.5 '`, `'1e3'`; not `'NaN'`, `'1_000'`, `'0x10'`)
  are coerced by comparison operators when the other side is a number, and by ordering when
  both sides are numeric-looking strings. Two strings are never *equal* numerically (*decision*:
  `'007' == '7'` is false, identifiers stay identifiers).
- **Truthiness** (the bare-accessor shorthand): bools as themselves; numbers when nonzero;
  strings except `''`, `'false'`, `'no'`, `'0'` (case-insensitive, not trimmed); *decision*:
  lists and objects when non-empty, as in Python.
- **String comparison involving a tag** (`==`, `!=`, ordering, `IN`) normalises both strings
  (NFKC + casefold + trim); state-only comparisons are exact and case-sensitive.
- **Mixed types**: equality across types is false (so `!=` is true: both values exist and
  differ); ordering across incomparable types (a bool, a container, a non-numeric string
  against a number) is false. Neither is an error: the docs make only arithmetic an error.
- **Membership** normalises strings (state and tag alike: "'ADMIN' matches IN ['admin']") and
  compares numbers numerically, never coercing between strings and numbers (`'5' IN [5]` and
  `5 IN ['5']` are false). Bools match bools only.
"""

from __future__ import annotations

import math
import re
from decimal import MAX_EMAX, MIN_EMIN, Context, Decimal
from enum import Enum
from typing import Any

from topo.audit.dsl.context import normalize_text

__all__ = ["Absent", "ABSENT", "exact_context", "as_number", "is_number", "is_truthy",
           "values_equal", "order", "is_member", "stringify"]

# Optional sign, digits with an optional fraction (or a bare fraction), optional exponent of at
# most nine digits (Decimal cannot even hold '1e' followed by twenty nines).
_NUMERIC = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,9})?", re.ASCII)
# Beyond this magnitude a Decimal cannot be compared or added reliably; such values are treated
# as non-numbers rather than letting a decimal signal escape.
_MAX_ADJUSTED_EXPONENT = 10**12
_FALSE_STRINGS = frozenset({"", "false", "no", "0"})


class Absent(Enum):
    """A value the context does not supply (missing key or null), or an undefined arithmetic
    result (missing operand, division by zero). Every positive predicate on it is false."""

    ABSENT = "absent"


ABSENT = Absent.ABSENT


def exact_context() -> Context:
    """A fresh Decimal context for evaluator arithmetic: 60 significant digits and an unbounded
    exponent, so sums and products of realistic values are exact and never overflow; quotients
    are rounded at 60 digits. Fresh per use because a Context records flags as it works."""
    return Context(prec=60, Emax=MAX_EMAX, Emin=MIN_EMIN)


def is_number(value: Any) -> bool:
    """int, float or Decimal, finite, and not a bool."""
    match value:
        case bool():
            return False
        case int():
            return True
        case float():
            return math.isfinite(value)
        case Decimal():
            return value.is_finite() and abs(value.adjusted()) <= _MAX_ADJUSTED_EXPONENT
        case _:
            return False


def as_number(value: Any) -> Decimal | None:
    """The exact Decimal a number or numeric-looking string denotes; None otherwise."""
    match value:
        case _ if is_number(value):
            return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
        case str() if _NUMERIC.fullmatch(value.strip()):
            number = Decimal(value.strip())
            return number if is_number(number) else None
        case _:
            return None


def is_truthy(value: Any) -> bool:
    match value:
        case Absent() | None:
            return False
        case bool():
            return value
        case str():
            return value.casefold() not in _FALSE_STRINGS
        case _ if is_number(value):
            return as_number(value) != 0
        case list() | tuple() | dict():
            return len(value) > 0
        case _:
            # Non-finite floats and foreign objects: Python's own rule (NaN is truthy).
            return bool(value)


def values_equal(left: Any, right: Any, *, fold: bool) -> bool:
    """`==` on two present values; `fold` when a tag is involved (normalise strings)."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if isinstance(left, str) and isinstance(right, str):
        return normalize_text(left) == normalize_text(right) if fold else left == right
    if is_number(left) or is_number(right):
        # One side is a number; the other may be a number or a numeric-looking string.
        a, b = as_number(left), as_number(right)
        return a is not None and b is not None and a == b
    if isinstance(left, (list, tuple, dict)) and isinstance(right, (list, tuple, dict)):
        return type(left) is type(right) and left == right
    return False


def order(left: Any, right: Any, *, fold: bool) -> int | None:
    """-1, 0 or 1 comparing two present values; None when they are not comparable."""
    if isinstance(left, bool) or isinstance(right, bool):
        return None
    if isinstance(left, str) and isinstance(right, str):
        a, b = as_number(left), as_number(right)
        if a is not None and b is not None:
            return _sign(a, b)
        return _sign(normalize_text(left), normalize_text(right)) if fold else _sign(left, right)
    if (is_number(left) or isinstance(left, str)) and (is_number(right)
                                                        or isinstance(right, str)):
        a, b = as_number(left), as_number(right)
        return None if a is None or b is None else _sign(a, b)
    return None


def _sign(a: Any, b: Any) -> int:
    return (a > b) - (a < b)


def is_member(value: Any, item: Any) -> bool:
    """Does list literal `item` match `value` under the membership rules?"""
    if isinstance(value, bool) or isinstance(item, bool):
        return isinstance(value, bool) and isinstance(item, bool) and value == item
    if isinstance(value, str) and isinstance(item, str):
        return normalize_text(value) == normalize_text(item)
    if is_number(value) and is_number(item):
        return as_number(value) == as_number(item)
    return False


def stringify(value: Any) -> str | None:
    """The string a template or an attribute compared with a string filter stands for.

    *Decision*: ints as `42`, bools in JSON spelling `true`/`false` (the context is JSON), other
    numbers by their shortest repr (`1.5`; a Decimal keeps its digits), strings as themselves.
    Null, absent values and containers have no string form (None): they match nothing.
    """
    match value:
        case bool():
            return "true" if value else "false"
        case str():
            return value
        case int() | Decimal():
            return str(value)
        case float() if math.isfinite(value):
            return repr(value)
        case _:
            return None
