"""ISO-8601 event windows as the DSL accepts them, to exact seconds.

The seed's rules, which differ from a general ISO-8601 library on purpose: only seconds may be
fractional (`'PT1.5S'`, not `'PT1.5H'`), a month is 30 days and a year 365 days (not calendar
aware), and a week is 7 days. A bare `P` or `PT` is no duration. Errors say what to write
instead, because "invalid duration" alone sends the reader to the ISO standard.
"""

from __future__ import annotations

import re
from decimal import Decimal, localcontext

__all__ = ["DurationError", "parse_duration", "format_seconds", "UNIT_SECONDS",
           "MAX_DURATION_SECONDS"]

UNIT_SECONDS: dict[str, int] = {
    "Y": 365 * 86400, "MO": 30 * 86400, "W": 7 * 86400, "D": 86400,
    "H": 3600, "MI": 60, "S": 1,
}

# Numbers are captured loosely (`[0-9.,]+`) so that a fractional hour is reported as such
# rather than as a shapeless mismatch.
_SHAPE = re.compile(
    r"P(?:(?P<Y>[0-9.,]+)Y)?(?:(?P<MO>[0-9.,]+)M)?(?:(?P<W>[0-9.,]+)W)?(?:(?P<D>[0-9.,]+)D)?"
    r"(?P<T>T(?:(?P<H>[0-9.,]+)H)?(?:(?P<MI>[0-9.,]+)M)?(?:(?P<S>[0-9.,]+)S)?)?")
_INTEGER = re.compile(r"[0-9]+")
_SECONDS = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_MAX_DIGITS = 15
MAX_DURATION_SECONDS = 10_000 * UNIT_SECONDS["Y"]
"""The longest window: 10,000 years of 365 days. Any event store is younger; a longer window
could not be subtracted from an instant (`datetime` ends at year 1 and 9999)."""
_UNIT_NAMES = {"Y": "years", "MO": "months", "W": "weeks", "D": "days", "H": "hours",
               "MI": "minutes", "S": "seconds"}


class DurationError(ValueError):
    """Why `raw` is not a DSL duration, and (when one is obvious) what to write instead."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def parse_duration(raw: str) -> Decimal:
    """Exact seconds of an ISO-8601 duration such as `PT15M` (the text between the quotes).

    >>> parse_duration("PT1H30M")
    Decimal('5400')

    Raises DurationError with a message and, where obvious, a hint such as "write 'PT1H30M'".
    """
    match = _SHAPE.fullmatch(raw)
    if match is None:
        raise DurationError(f"{raw!r} is not an ISO-8601 duration", _shape_hint(raw))
    parts = {unit: text for unit, text in match.groupdict().items()
             if unit != "T" and text is not None}
    if not parts:
        raise DurationError(f"{raw!r} has no components",
                            "name at least one, such as 'PT15M' or 'P7D'")
    if match.group("T") == "T":
        raise DurationError(f"{raw!r} has a `T` with no time component after it",
                            f"write {_quoted(raw[:-1])}" if len(raw) > 2 else "write 'PT1H'")
    return _total(raw, parts)


def _total(raw: str, parts: dict[str, str]) -> Decimal:
    total = Decimal(0)
    with localcontext() as context:
        context.prec = 64  # exact: 15 digits of years in seconds plus 14 fractional digits
        for unit, text in parts.items():
            total += _component(raw, unit, text, parts)
    if total > MAX_DURATION_SECONDS:
        raise DurationError(f"{raw!r} is longer than the longest window, 10000 years",
                            "no event store keeps events that long; write a window such as 'P365D'")
    return total


def _component(raw: str, unit: str, text: str, parts: dict[str, str]) -> Decimal:
    if len(text) > _MAX_DIGITS:
        raise DurationError(f"{raw!r}: the {_UNIT_NAMES[unit]} component is too large")
    if unit == "S" and _SECONDS.fullmatch(text):
        return Decimal(text)
    if _INTEGER.fullmatch(text):
        return Decimal(int(text) * UNIT_SECONDS[unit])
    raise DurationError(_fraction_message(raw, unit, text), _fraction_hint(parts))


def _fraction_message(raw: str, unit: str, text: str) -> str:
    if unit == "S":
        return f"{raw!r}: `{text}` is not a number of seconds"
    return f"{raw!r}: only seconds may be fractional, not {_UNIT_NAMES[unit]}"


def _fraction_hint(parts: dict[str, str]) -> str:
    """`write 'PT1H30M'` for `PT1.5H`: the same window in whole units, when it has one."""
    try:
        seconds = sum((Decimal(t.replace(",", ".")) * UNIT_SECONDS[u] for u, t in parts.items()),
                      Decimal(0))
    except ArithmeticError:
        return ""
    return f"write {_quoted(format_seconds(seconds))}"


def _shape_hint(raw: str) -> str:
    candidate = raw.strip().upper()
    if candidate != raw and _SHAPE.fullmatch(candidate):
        return f"write {_quoted(candidate)}"
    time_first = re.fullmatch(r"P([0-9.]+[HS])", candidate)  # 'P1H': the T is missing
    if time_first:
        return f"write {_quoted('PT' + time_first.group(1))}"
    return "durations look like 'PT15M', 'PT1H', 'P7D' or 'P1DT12H'"


def _quoted(text: str) -> str:
    return f"'{text}'"


def format_seconds(seconds: Decimal | int) -> str:
    """The canonical ISO-8601 spelling of a non-negative number of seconds, in days and time.

    >>> format_seconds(5400)
    'PT1H30M'
    >>> format_seconds(Decimal("1.5"))
    'PT1.5S'
    """
    value = Decimal(seconds)
    if value < 0:
        raise ValueError("a duration is never negative")
    whole = int(value)
    fraction = value - whole
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    date = f"{days}D" if days else ""
    time = "".join(f"{n}{u}" for n, u in ((hours, "H"), (minutes, "M")) if n)
    if secs or fraction:
        time += f"{_plain(secs + fraction)}S"
    if not date and not time:
        return "PT0S"
    return f"P{date}" + (f"T{time}" if time else "")


def _plain(value: Decimal | int) -> str:
    """A decimal without exponent or trailing zeros (`1.50` -> `1.5`, `2.0` -> `2`)."""
    text = format(Decimal(value), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text
