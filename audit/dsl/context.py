"""The evaluation context of a trigger: state, tags, event history and the evaluation instant.

This is the typed form of the `CTX.json` document read by `topo trigger eval` and printed by
`topo fuzz` as a witness (spec/ARCHITECTURE.md):

    {"state": {"customer.tier": "enterprise"}, "tags": {"intent": "refund"},
     "events": [{"name": "agent.sent.email", "ts": "2026-11-01T00:00:00Z",
                 "attributes": {"customer_id": "c1"}, "project": "other"}]}

Decisions the spec leaves open, made here once:

- Every top-level key is optional; unknown top-level keys are rejected, so a typo such as
  `"tag"` for `"tags"` cannot silently empty the context.
- State keys are flat dotted strings without `state.` (nested objects are *values*, not
  namespaces); tag kinds are without `tag.`. Two tag kinds that normalise to the same kind
  (NFKC + casefold + trim, as the evaluator looks them up) are ambiguous and rejected.
- Values are JSON values. Non-finite numbers (NaN, Infinity) are rejected: JSON has none, and
  they would make every numeric comparison meaningless.
- `ts` is an ISO-8601 string **with** a UTC offset (`Z` or `+hh:mm`). A naive timestamp is
  rejected rather than guessed: taking it as local time or UTC would silently move events in or
  out of a window. Timestamps are converted to UTC.
- An event without `project` (or with `null`) belongs to the current project; `attributes`
  defaults to `{}`.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

__all__ = ["Event", "EvalContext", "ContextError", "load_context", "context_to_json",
           "parse_timestamp", "normalize_text"]

_TOP_LEVEL_KEYS = ("state", "tags", "events")
_EVENT_KEYS = ("name", "ts", "attributes", "project")


class ContextError(ValueError):
    """A context document has the wrong shape; the message names the JSON path."""


def normalize_text(text: str) -> str:
    """The tag/membership normalisation of the docs: Unicode NFKC, case folding, trimming."""
    return unicodedata.normalize("NFKC", text).casefold().strip()


@dataclass(frozen=True, slots=True)
class Event:
    """One emitted event. `project` None means the project the trigger is evaluated in."""

    name: str
    ts: datetime
    attributes: Mapping[str, Any] = field(default_factory=dict, hash=False)
    project: str | None = None

    def __post_init__(self) -> None:
        if self.ts.tzinfo is None:
            raise ValueError(f"event {self.name!r}: ts must be timezone-aware")


@dataclass(frozen=True, slots=True)
class EvalContext:
    """Everything a trigger can read. The mappings are treated as read-only.

    `project` is the slug of the project the trigger runs in; None means "unnamed", so only
    events without a project (and unprefixed queries) meet.
    """

    state: Mapping[str, Any] = field(hash=False)
    tags: Mapping[str, Any] = field(hash=False)
    events: tuple[Event, ...]
    now: datetime
    project: str | None = None

    def __post_init__(self) -> None:
        if self.now.tzinfo is None:
            raise ValueError("EvalContext.now must be timezone-aware")

    def tag(self, kind: str) -> Any:
        """The value of tag `kind`, looked up by exact key first, then normalised; None if
        absent. Normalised lookup follows the docs: "Tag equality normalizes the kind"."""
        if kind in self.tags:
            return self.tags[kind]
        wanted = normalize_text(kind)
        for key in sorted(self.tags):
            if normalize_text(key) == wanted:
                return self.tags[key]
        return None


# ---- reading -------------------------------------------------------------------------------

def parse_timestamp(text: str, *, path: str = "ts") -> datetime:
    """An ISO-8601 instant with an offset, converted to UTC; ContextError otherwise."""
    try:
        instant = datetime.fromisoformat(text)
    except ValueError:
        raise ContextError(f"{path}: {text!r} is not an ISO-8601 timestamp "
                           "(for example '2026-11-01T00:00:00Z')") from None
    if instant.tzinfo is None:
        raise ContextError(f"{path}: {text!r} has no UTC offset; add 'Z' or '+hh:mm' "
                           "(a naive timestamp would silently shift event windows)")
    return instant.astimezone(UTC)


def load_context(data: object, *, now: datetime, project: str | None = None) -> EvalContext:
    """Check and convert a parsed CTX.json document. Raises ContextError naming the JSON path
    (`$.events[2].ts`) of the first malformed part."""
    root = _object(data, "$")
    unknown = sorted(set(root) - set(_TOP_LEVEL_KEYS))
    if unknown:
        raise ContextError(f"$: unknown key {unknown[0]!r} (expected one of "
                           f"{', '.join(_TOP_LEVEL_KEYS)})")
    state = _values(root.get("state", {}), "$.state")
    tags = _values(root.get("tags", {}), "$.tags")
    _reject_ambiguous_tags(tags)
    raw_events = root.get("events", [])
    if not isinstance(raw_events, list):
        raise ContextError(f"$.events: expected an array, got {_kind(raw_events)}")
    events = tuple(_event(item, f"$.events[{i}]") for i, item in enumerate(raw_events))
    return EvalContext(state=state, tags=tags, events=events, now=now, project=project)


def _object(value: object, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ContextError(f"{path}: expected an object, got {_kind(value)}")
    for key in value:
        if not isinstance(key, str):
            raise ContextError(f"{path}: key {key!r} is not a string")
    return value


def _values(value: object, path: str) -> dict[str, Any]:
    mapping = _object(value, path)
    for key, item in mapping.items():
        _check_json_value(item, f"{path}[{key!r}]")
    return dict(mapping)


def _check_json_value(value: object, path: str) -> None:
    match value:
        case None | bool() | str() | int():
            return
        case float() | Decimal() if not _finite(value):
            raise ContextError(f"{path}: {value} is not a finite number")
        case float() | Decimal():
            return
        case list():
            for i, item in enumerate(value):
                _check_json_value(item, f"{path}[{i}]")
        case dict():
            for key, item in _object(value, path).items():
                _check_json_value(item, f"{path}[{key!r}]")
        case _:
            raise ContextError(f"{path}: {_kind(value)} is not a JSON value")


def _finite(value: float | Decimal) -> bool:
    return value.is_finite() if isinstance(value, Decimal) else math.isfinite(value)


def _reject_ambiguous_tags(tags: Mapping[str, Any]) -> None:
    seen: dict[str, str] = {}
    for key in sorted(tags):
        other = seen.setdefault(normalize_text(key), key)
        if other != key:
            raise ContextError(f"$.tags: kinds {other!r} and {key!r} are the same kind once "
                               "normalised (NFKC, case folding, trimming)")


def _event(value: object, path: str) -> Event:
    item = _object(value, path)
    unknown = sorted(set(item) - set(_EVENT_KEYS))
    if unknown:
        raise ContextError(f"{path}: unknown key {unknown[0]!r} (expected one of "
                           f"{', '.join(_EVENT_KEYS)})")
    name = item.get("name")
    if not isinstance(name, str) or not name:
        raise ContextError(f"{path}.name: expected a non-empty string such as "
                           f"'agent.sent.email', got {_kind(name)}")
    ts = item.get("ts")
    if not isinstance(ts, str):
        raise ContextError(f"{path}.ts: expected an ISO-8601 string, got {_kind(ts)}")
    project = item.get("project")
    if project is not None and not isinstance(project, str):
        raise ContextError(f"{path}.project: expected a string or null, got {_kind(project)}")
    attributes = _values(item.get("attributes", {}), f"{path}.attributes")
    return Event(name=name, ts=parse_timestamp(ts, path=f"{path}.ts"),
                 attributes=attributes, project=project)


def _kind(value: object) -> str:
    match value:
        case None:
            return "null"
        case bool():
            return "a boolean"
        case int() | float() | Decimal():
            return "a number"
        case str():
            return "a string"
        case list():
            return "an array"
        case dict():
            return "an object"
        case _:
            return type(value).__name__


# ---- writing -------------------------------------------------------------------------------

def context_to_json(ctx: EvalContext) -> dict[str, Any]:
    """The CTX.json document for `ctx` (the inverse of `load_context`, minus `now`/`project`,
    which are not part of the document). Deterministic: keys sorted, events sorted by
    (ts, name, project), timestamps in UTC with a `Z`, Decimals as ints or floats."""
    events = sorted(ctx.events, key=lambda e: (e.ts, e.name, e.project or ""))
    return {
        "state": {key: _jsonable(ctx.state[key]) for key in sorted(ctx.state)},
        "tags": {key: _jsonable(ctx.tags[key]) for key in sorted(ctx.tags)},
        "events": [_event_json(e) for e in events],
    }


def _event_json(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"name": event.name, "ts": format_timestamp(event.ts)}
    if event.attributes:
        out["attributes"] = {k: _jsonable(event.attributes[k]) for k in sorted(event.attributes)}
    if event.project is not None:
        out["project"] = event.project
    return out


def format_timestamp(instant: datetime) -> str:
    """ISO-8601 in UTC with `Z`; microseconds only when present (round-trips exactly)."""
    text = instant.astimezone(UTC).isoformat()
    return text.removesuffix("+00:00") + "Z"


def _jsonable(value: Any) -> Any:
    """JSON-native form. A Decimal becomes an int when integral, else a float (JSON numbers
    carry no exactness; the evaluator reads a float back through its shortest repr)."""
    match value:
        case bool() | None | str() | int() | float():
            return value
        case Decimal():
            return int(value) if value == value.to_integral_value() else float(value)
        case list() | tuple():
            return [_jsonable(item) for item in value]
        case Mapping():
            return {str(k): _jsonable(value[k]) for k in sorted(value, key=str)}
        case _:
            return str(value)
