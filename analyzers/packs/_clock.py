"""Whether a timestamp the code passes carries its time zone: `aware`, `naive` or `unknown`.

Seed 000's event correctness pass: "confirm timestamps are timezone-aware". What makes a time
value naive is the language's own clock API, not a framework's, so it is read here once for
every pack that declares a timestamp (`as = "timezone"`):
- Python: `datetime.now()`, `datetime.today()`, `datetime.utcnow()`,
  `datetime.fromtimestamp(t)`, `datetime.utcfromtimestamp(t)`, `datetime(y, m, d, …)` with
  no `tz`/`tzinfo` are naive (`utcnow()` too: a UTC wall time without its zone);
  `now(timezone.utc)`, `….replace(tzinfo=…)`, `….astimezone(…)` and `time.time()` are aware.
  `.isoformat()` keeps what its datetime was.
- JavaScript: a `Date` is an instant (aware), and so are `Date.now()`, `getTime()` and
  `toISOString()`; `new Date(y, m, d, …)` reads local time components and
  `new Date('2024-05-01T10:00:00')` a local date-time (naive), as are the local renderings
  `toLocaleString()`, `toString()`, `toDateString()` and their kin.
- A literal date-time string is aware when it ends with `Z` or an offset, else naive; a
  number is an epoch (aware).
Anything else (a helper, a parameter, a clock object) is `unknown`, never a guess.
"""

from __future__ import annotations

import re

from topo.analyzers.ir import Call, Value, ValueKind
from topo.analyzers.packs._facts import FileFacts

__all__ = ["timestamp_zone", "AWARE", "NAIVE", "UNKNOWN"]

AWARE, NAIVE, UNKNOWN = "aware", "naive", "unknown"

_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
_ZONED = re.compile(r"(Z|[+-]\d{2}(:?\d{2})?)$", re.IGNORECASE)

# Python `datetime.datetime` constructors: where the zone may be given (positional index,
# keyword), None when it never can be.
_PY_ZONE_ARGUMENT: dict[str, tuple[int, str] | None] = {
    "datetime.datetime.now": (0, "tz"),
    "datetime.datetime.fromtimestamp": (1, "tz"),
    "datetime.datetime": (7, "tzinfo"),
    "datetime.datetime.combine": (2, "tzinfo"),
    "datetime.datetime.utcnow": None,
    "datetime.datetime.utcfromtimestamp": None,
    "datetime.datetime.today": None,
}
_EPOCH_CALLS = frozenset({"time.time", "time.time_ns", "globalThis.Date.now",
                          "globalThis.Date.UTC", "globalThis.Date.parse"})
_JS_DATE = "globalThis.Date"
# Methods on a time value: what they give back.
_KEEPS = frozenset({"isoformat"})
_AWARE_METHODS = frozenset({"astimezone", "timestamp", "getTime", "valueOf", "toISOString",
                            "toJSON", "toUTCString"})
_LOCAL_RENDERINGS = frozenset({"toLocaleString", "toLocaleDateString", "toLocaleTimeString",
                               "toString", "toDateString", "toTimeString"})
_MAX_STEPS = 8


def timestamp_zone(value: Value, facts: FileFacts) -> str:
    """`aware`, `naive` or `unknown` for a timestamp argument (see the module docstring)."""
    for _ in range(_MAX_STEPS):
        if value.kind is ValueKind.NUMBER:
            return AWARE
        if value.kind is ValueKind.STRING and isinstance(value.literal, str):
            return _text_zone(value.literal)
        call = facts.calls.get(value.call or "") if value.kind is ValueKind.CALL else None
        if call is None:
            return UNKNOWN
        verdict = _call_zone(call)
        if verdict is not None:
            return verdict
        base = facts.calls.get(call.chained_on or "")
        if base is None or call.name not in _KEEPS | _AWARE_METHODS | _LOCAL_RENDERINGS \
                | {"replace"}:
            return UNKNOWN
        if call.name in _AWARE_METHODS:
            return AWARE
        if call.name in _LOCAL_RENDERINGS:
            return NAIVE if base.callee == _JS_DATE else UNKNOWN
        if call.name == "replace":
            zone = call.kwarg("tzinfo")
            if zone is not None:
                return NAIVE if zone.kind is ValueKind.NONE else AWARE
        value = Value(ValueKind.CALL, text=base.name, call=base.id)
    return UNKNOWN


def _call_zone(call: Call) -> str | None:
    """The verdict for a clock call itself, None when it is no clock call."""
    callee = call.callee or ""
    if callee in _EPOCH_CALLS:
        return AWARE
    if callee == _JS_DATE:
        return _js_date(call)
    if callee == "datetime.datetime.fromisoformat" and call.args \
            and call.args[0].kind is ValueKind.STRING and isinstance(call.args[0].literal, str):
        return _text_zone(call.args[0].literal)
    if callee not in _PY_ZONE_ARGUMENT:
        return None
    where = _PY_ZONE_ARGUMENT[callee]
    if where is None:
        return NAIVE
    index, keyword = where
    zone = call.kwarg(keyword)
    if zone is None and len(call.args) > index:
        zone = call.args[index]
    return NAIVE if zone is None or zone.kind is ValueKind.NONE else AWARE


def _js_date(call: Call) -> str:
    if not call.args:
        return AWARE                 # now, as an instant
    if len(call.args) >= 2:
        return NAIVE                 # year, month, … in local time
    only = call.args[0]
    if only.kind is ValueKind.NUMBER:
        return AWARE
    if only.kind is ValueKind.STRING and isinstance(only.literal, str):
        return _text_zone(only.literal)
    return UNKNOWN


def _text_zone(text: str) -> str:
    text = text.strip()
    if not _DATE_TIME.match(text):
        return UNKNOWN
    return AWARE if _ZONED.search(text) else NAIVE
