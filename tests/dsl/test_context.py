"""Reading and writing CTX.json: every malformed shape is a ContextError naming its JSON path."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from topo.audit.dsl import ContextError, EvalContext, Event, context_to_json, load_context
from topo.audit.dsl.context import parse_timestamp

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

EXAMPLE = {
    "state": {"customer.tier": "enterprise", "refund.amount": 600},
    "tags": {"intent": "refund"},
    "events": [
        {"name": "agent.sent.email", "ts": "2026-11-01T00:00:00Z",
         "attributes": {"customer_id": "c1"}, "project": "other"},
        {"name": "user.failed.login", "ts": "2026-11-30T13:00:00+01:00"},
    ],
}


def test_load_the_architecture_example():
    ctx = load_context(EXAMPLE, now=NOW)
    assert ctx.state == {"customer.tier": "enterprise", "refund.amount": 600}
    assert ctx.tags == {"intent": "refund"}
    assert ctx.now == NOW and ctx.project is None
    first, second = ctx.events
    assert first == Event("agent.sent.email", datetime(2026, 11, 1, tzinfo=UTC),
                          {"customer_id": "c1"}, "other")
    # An event without `project` belongs to the current project; attributes default to {}.
    assert second.project is None and second.attributes == {}
    # Offsets are converted to UTC.
    assert second.ts == datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    assert second.ts.utcoffset() == timedelta(0)


def test_every_key_is_optional():
    assert load_context({}, now=NOW) == EvalContext({}, {}, (), NOW)


def test_project_is_passed_through():
    assert load_context({}, now=NOW, project="billing").project == "billing"


def test_loading_copies_the_mappings():
    data = {"state": {"a.b": 1}}
    ctx = load_context(data, now=NOW)
    data["state"]["a.b"] = 2
    assert ctx.state == {"a.b": 1}


@pytest.mark.parametrize(("data", "message"), [
    ([], r"^\$: expected an object, got an array"),
    ("{}", r"^\$: expected an object, got a string"),
    ({"tag": {}}, r"^\$: unknown key 'tag'"),
    ({"state": []}, r"^\$\.state: expected an object, got an array"),
    ({"state": {"a.b": float("nan")}}, r"^\$\.state\['a\.b'\]: nan is not a finite number"),
    ({"state": {"a.b": [1, float("inf")]}}, r"^\$\.state\['a\.b'\]\[1\]: inf is not a finite"),
    ({"state": {"a.b": {"c": object()}}}, r"^\$\.state\['a\.b'\]\['c'\]: object is not a JSON"),
    ({"state": {1: "x"}}, r"^\$\.state: key 1 is not a string"),
    ({"tags": None}, r"^\$\.tags: expected an object, got null"),
    ({"tags": {"Intent": "a", "intent": "b"}}, r"^\$\.tags: kinds 'Intent' and 'intent'"),
    ({"events": {}}, r"^\$\.events: expected an array, got an object"),
    ({"events": [1]}, r"^\$\.events\[0\]: expected an object, got a number"),
    ({"events": [{"ts": "2026-11-01T00:00:00Z"}]}, r"^\$\.events\[0\]\.name: expected a non"),
    ({"events": [{"name": "", "ts": "2026-11-01T00:00:00Z"}]}, r"^\$\.events\[0\]\.name"),
    ({"events": [{"name": "a.b.c"}]}, r"^\$\.events\[0\]\.ts: expected an ISO-8601 string, "
                                      "got null"),
    ({"events": [{"name": "a.b.c", "ts": 1764504000}]}, r"^\$\.events\[0\]\.ts: .*got a num"),
    ({"events": [{"name": "a.b.c", "ts": "yesterday"}]},
     r"^\$\.events\[0\]\.ts: 'yesterday' is not an ISO-8601 timestamp"),
    ({"events": [{"name": "a.b.c", "ts": "2026-11-01T00:00:00"}]},
     r"^\$\.events\[0\]\.ts: '2026-11-01T00:00:00' has no UTC offset"),
    ({"events": [{"name": "a.b.c", "ts": "2026-11-01"}]}, r"^\$\.events\[0\]\.ts: .*no UTC"),
    ({"events": [{"name": "a.b.c", "ts": "2026-11-01T00:00:00Z", "project": 3}]},
     r"^\$\.events\[0\]\.project: expected a string or null, got a number"),
    ({"events": [{"name": "a.b.c", "ts": "2026-11-01T00:00:00Z", "attributes": []}]},
     r"^\$\.events\[0\]\.attributes: expected an object, got an array"),
    ({"events": [{"name": "a.b.c", "ts": "2026-11-01T00:00:00Z",
                  "attributes": {"n": float("nan")}}]},
     r"^\$\.events\[0\]\.attributes\['n'\]: nan is not a finite"),
    ({"events": [{"name": "a.b.c", "ts": "2026-11-01T00:00:00Z", "when": "x"}]},
     r"^\$\.events\[0\]: unknown key 'when'"),
    ({"events": [{"name": "a.b.c", "ts": "2026-11-01T00:00:00Z"}, {"name": "a.b.c"}]},
     r"^\$\.events\[1\]\.ts"),
])
def test_malformed_context_names_the_json_path(data, message):
    with pytest.raises(ContextError, match=message):
        load_context(data, now=NOW)


def test_a_null_project_is_the_current_project():
    ctx = load_context({"events": [{"name": "a.b.c", "ts": "2026-11-01T00:00:00Z",
                                    "project": None}]}, now=NOW)
    assert ctx.events[0].project is None


@pytest.mark.parametrize(("text", "expected"), [
    ("2026-11-01T00:00:00Z", datetime(2026, 11, 1, tzinfo=UTC)),
    ("2026-11-01T00:00:00.250000+00:00", datetime(2026, 11, 1, 0, 0, 0, 250000, tzinfo=UTC)),
    ("2026-11-01T05:30:00+05:30", datetime(2026, 11, 1, tzinfo=UTC)),
    ("2026-10-31T19:00:00-05:00", datetime(2026, 11, 1, tzinfo=UTC)),
])
def test_parse_timestamp_converts_to_utc(text, expected):
    parsed = parse_timestamp(text)
    assert parsed == expected and parsed.tzinfo is UTC


def test_naive_datetimes_are_refused_in_the_dataclasses():
    with pytest.raises(ValueError, match="timezone-aware"):
        Event("a.b.c", datetime(2026, 11, 1))
    with pytest.raises(ValueError, match="timezone-aware"):
        EvalContext({}, {}, (), datetime(2026, 11, 1))


# ---- writing -------------------------------------------------------------------------------

def test_context_to_json_is_the_inverse_of_load_context():
    ctx = load_context(EXAMPLE, now=NOW)
    document = context_to_json(ctx)
    assert load_context(document, now=NOW) == ctx
    assert json.loads(json.dumps(document)) == document


def test_context_to_json_is_deterministic_and_sorted():
    late = Event("b.b.b", datetime(2026, 11, 2, tzinfo=UTC), {"z": 1, "a": 2})
    early = Event("a.a.a", datetime(2026, 11, 1, 0, 0, 0, 1, tzinfo=UTC), {}, "other")
    ctx = EvalContext({"z.z": 1, "a.a": Decimal("2.5")}, {"b": "x", "a": "y"}, (late, early), NOW)
    document = context_to_json(ctx)
    assert json.dumps(document) == json.dumps(context_to_json(
        EvalContext(dict(reversed(ctx.state.items())), ctx.tags, (early, late), NOW)))
    assert list(document["state"]) == ["a.a", "z.z"]
    assert list(document["tags"]) == ["a", "b"]
    assert document["events"] == [
        {"name": "a.a.a", "ts": "2026-11-01T00:00:00.000001Z", "project": "other"},
        {"name": "b.b.b", "ts": "2026-11-02T00:00:00Z", "attributes": {"a": 2, "z": 1}},
    ]
    assert document["state"]["a.a"] == 2.5


def test_context_to_json_writes_exotic_values_as_json():
    other_zone = timezone(timedelta(hours=2))
    ctx = EvalContext({"a.b": Decimal("3"), "c.d": (1, Decimal("0.5")), "e.f": None}, {}, (
        Event("a.b.c", datetime(2026, 11, 1, 2, tzinfo=other_zone)),), NOW)
    document = context_to_json(ctx)
    assert document["state"] == {"a.b": 3, "c.d": [1, 0.5], "e.f": None}
    assert document["events"][0]["ts"] == "2026-11-01T00:00:00Z"
    assert isinstance(document["state"]["a.b"], int)
