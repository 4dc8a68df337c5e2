"""ISO-8601 windows: exact seconds, the seed's unit rules, and errors that say what to write."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from topo.audit.dsl.durations import DurationError, format_seconds, parse_duration

DAY = 86400


@pytest.mark.parametrize("raw, seconds", [
    ("PT5M", 300), ("PT1H", 3600), ("PT24H", 24 * 3600), ("P1D", DAY), ("P7D", 7 * DAY),
    ("P30D", 30 * DAY), ("P90D", 90 * DAY), ("PT15M", 900), ("PT1H30M", 5400),
    ("PT1.5S", Decimal("1.5")), ("PT0.5S", Decimal("0.5")), ("PT0S", 0),
    ("P1W", 7 * DAY), ("P1M", 30 * DAY), ("P1Y", 365 * DAY),
    ("P1Y2M3DT4H5M6S", 365 * DAY + 60 * DAY + 3 * DAY + 4 * 3600 + 5 * 60 + 6),
    ("P1DT12H", DAY + 12 * 3600), ("PT90M", 5400), ("PT0.001S", Decimal("0.001")),
])
def test_valid(raw: str, seconds: int | Decimal) -> None:
    assert parse_duration(raw) == Decimal(seconds)


def test_month_means_minutes_only_after_t() -> None:
    assert parse_duration("P1M") == 30 * DAY
    assert parse_duration("PT1M") == 60


@pytest.mark.parametrize("raw, message, hint", [
    ("PT1.5H", "only seconds may be fractional", "write 'PT1H30M'"),
    ("P1.5D", "not days", "write 'P1DT12H'"),
    ("PT0.5M", "not minutes", "write 'PT30S'"),
    ("PT1,5S", "not a number of seconds", "write 'PT1.5S'"),
    ("P", "no components", "'PT15M'"),
    ("PT", "no components", "'PT15M'"),
    ("P1DT", "no time component", "write 'P1D'"),
    ("pt1h", "not an ISO-8601 duration", "write 'PT1H'"),
    ("P1H", "not an ISO-8601 duration", "write 'PT1H'"),
    (" PT1H", "not an ISO-8601 duration", "write 'PT1H'"),
    ("PT1M1H", "not an ISO-8601 duration", "'PT15M'"),
    ("1 hour", "not an ISO-8601 duration", "'PT15M'"),
    ("-PT1H", "not an ISO-8601 duration", ""),
    ("", "not an ISO-8601 duration", ""),
    ("P" + "9" * 16 + "D", "too large", ""),
])
def test_invalid(raw: str, message: str, hint: str) -> None:
    with pytest.raises(DurationError) as caught:
        parse_duration(raw)
    assert message in caught.value.message
    assert hint in caught.value.hint
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("seconds, text", [
    (0, "PT0S"), (1, "PT1S"), (60, "PT1M"), (5400, "PT1H30M"), (DAY, "P1D"),
    (DAY + 1, "P1DT1S"), (Decimal("1.5"), "PT1.5S"), (Decimal("2.50"), "PT2.5S"),
    (400 * DAY, "P400D"),
])
def test_format_seconds(seconds: int | Decimal, text: str) -> None:
    assert format_seconds(seconds) == text


def test_format_seconds_rejects_negative() -> None:
    with pytest.raises(ValueError):
        format_seconds(-1)


@settings(max_examples=200, deadline=None)
@given(st.decimals(0, 10**9, places=3))
def test_format_then_parse_is_exact(seconds: Decimal) -> None:
    assert parse_duration(format_seconds(seconds)) == seconds
