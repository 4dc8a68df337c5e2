"""A static bound on what a `MATCHES` pattern costs to compile, checked before compiling it.

Why: a counted repeat is expanded by the `regex` engine the evaluator uses, so nested counts
multiply: `(?:a{65535}){65535}` parses in microseconds with `re` yet makes `regex.compile`
grow to tens of gigabytes, outside any match timeout. The cost here is the pattern's size with
every counted repeat multiplied out (an unbounded repeat counts its minimum, at least once);
real patterns stay in the hundreds, and the limit is about 0.1 s of compiling.
"""

from __future__ import annotations

import re
from re import _constants as _sre  # type: ignore[attr-defined]  # the stdlib's own opcodes
from re import _parser  # type: ignore[attr-defined]  # parses without expanding repeats

__all__ = ["MAX_REGEX_COST", "regex_cost", "regex_refusal"]

MAX_REGEX_COST = 100_000
"""Largest accepted cost: the pattern's elements with counted repeats multiplied out."""

_REPEATS = {_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", None)}


def regex_cost(pattern: str) -> int:
    """The expanded size of `pattern` (see the module docstring); raises `re.error` when `re`
    cannot parse it. Stops counting once past the limit, so a bomb is measured cheaply.

    >>> regex_cost("a{3}b")   # the repeat, three `a`, the `b`
    5
    """
    return _cost(_parser.parse(pattern), 1)


def regex_refusal(pattern: str) -> str | None:
    """Why `pattern` is too costly to compile, or None when it is not (or `re` rejects it:
    that is the caller's diagnostic)."""
    try:
        cost = regex_cost(pattern)
    except (re.error, RecursionError, OverflowError, ValueError):
        return None
    if cost <= MAX_REGEX_COST:
        return None
    return (f"MATCHES pattern is too costly to compile: its counted repeats expand to more than "
            f"{MAX_REGEX_COST:,} elements")


def _cost(items: object, factor: int) -> int:
    """Cost of a parsed sequence, each element weighted by `factor` (the enclosing repeats)."""
    total = 0
    for op, av in items:  # type: ignore[attr-defined]
        total += _item_cost(op, av, factor)
        if total > MAX_REGEX_COST:
            break
    return total


def _item_cost(op: object, av: object, factor: int) -> int:
    if op in _REPEATS:
        low, high, body = av  # type: ignore[misc]
        count = low if high == _sre.MAXREPEAT else high
        return factor + _cost(body, factor * max(1, count))
    if op is _sre.SUBPATTERN:
        return factor + _cost(av[-1], factor)  # type: ignore[index]
    if op is _sre.BRANCH:
        return factor + sum(_cost(branch, factor) for branch in av[1])  # type: ignore[index]
    if op in (_sre.ASSERT, _sre.ASSERT_NOT):
        return factor + _cost(av[1], factor)  # type: ignore[index]
    if op is getattr(_sre, "ATOMIC_GROUP", None):
        return factor + _cost(av, factor)
    if op is _sre.GROUPREF_EXISTS:
        _, yes, no = av  # type: ignore[misc]
        return factor + _cost(yes, factor) + (_cost(no, factor) if no else 0)
    return factor
