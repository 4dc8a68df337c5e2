"""The EMU schema: a valid 2020-12 document, one rule per documented constraint, and messages
that name the JSON path and the problem in the author's terms."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from topo.audit.policy import load_schema, schema_violations
from topo.audit.policy.paths import dotted
from tests.policy.helpers import ANATOMY, DELETE, anatomy

REPO = Path(__file__).resolve().parents[2]


def violations(raw: dict[str, Any]) -> dict[str, str]:
    return {dotted(v.path): v.message for v in schema_violations(raw)}


def test_schema_file_is_a_valid_2020_12_schema() -> None:
    schema = json.loads((REPO / "audit/schemas/emu.schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert load_schema() == schema  # the installed package data is the same file


def test_the_anatomy_example_is_valid() -> None:
    assert violations(ANATOMY) == {}


# (changes to the anatomy EMU, the path reported, a fragment of the message)
BAD = {
    "emu_key missing": ({"emu_key": DELETE}, "emu_key", "is missing"),
    "trigger missing": ({"trigger": DELETE}, "trigger", "is missing"),
    "action missing": ({"action": DELETE}, "action", "is missing"),
    "emu_key too short": ({"emu_key": "ab"}, "emu_key", "shorter than 3 characters"),
    "emu_key too long": ({"emu_key": "k" * 129}, "emu_key", "129 characters long"),
    "emu_key bad characters": ({"emu_key": "support/refund"}, "emu_key",
                               "characters outside letters, digits and `:_.-`"),
    "trigger not a string": ({"trigger": 1}, "trigger", "is the number 1; expected a string"),
    "trigger empty": ({"trigger": ""}, "trigger", "is an empty string"),
    "decision_point uppercase": ({"decision_point": "Support.Triage"}, "decision_point",
                                 "is not a lowercase name"),
    "decision_point too long": ({"decision_point": "a" * 129}, "decision_point",
                                "more than 128"),
    "decision_point number": ({"decision_point": 3}, "decision_point",
                              "expected a string or `null`"),
    "intent not a string": ({"intent": ["x"]}, "intent", "is a list; expected a string"),
    "unknown top-level field": ({"trigger_dsl": "x"}, "trigger_dsl",
                                "is not an EMU field (did you mean `trigger`?)"),
    "metadata not an object": ({"metadata": "x"}, "metadata", "expected an object"),
    "state uppercase": ({"state": "ACTIVE"}, "state",
                        "'ACTIVE' is not a lifecycle state; lifecycle values are lowercase "
                        "('active')"),
    "state unknown": ({"state": "paused"}, "state", "'paused' is not a lifecycle state (draft,"),
    "expected_utility above 1": ({"expected_utility": 1.2}, "expected_utility",
                                 "1.2 is outside the range 0 to 1"),
    "confidence below 0": ({"confidence": -0.1}, "confidence", "outside the range 0 to 1"),
    "confidence a string": ({"confidence": "high"}, "confidence", "expected a number"),
    "action not an object": ({"action": "escalate"}, "action",
                             "an action is an object discriminated by `type`"),
    "action type missing": ({"action__type": DELETE}, "action.type", "is missing"),
    "action type unknown": ({"action__type": "webhook"}, "action.type",
                            "'webhook' is not an action type"),
    "tool_call without intent": ({"action__intent": DELETE}, "action.intent",
                                 "a `tool_call` carries its own intent"),
    "tool_call without version": ({"action__tool__version": DELETE}, "action.tool.version",
                                  "every `tool_call` tool pins a version"),
    "tool_call without tool_id": ({"action__tool__tool_id": DELETE}, "action.tool.tool_id",
                                  "is missing"),
    "tool_call flat tool name": ({"action__tool": "ticket_escalator"}, "action.tool",
                                 "is the string 'ticket_escalator'; a tool is the object"),
    "tool args not an object": ({"action__tool__args": ["x"]}, "action.tool.args",
                                "tool arguments are an object"),
    "tool retry policy unknown": ({"action__tool__retry": {"policy": "linear"}},
                                  "action.tool.retry.policy", "is not a retry policy"),
    "tool retry negative": ({"action__tool__retry": {"max_retries": -1}},
                            "action.tool.retry.max_retries", "below the minimum 0"),
    "tool timeout not an integer": ({"action__tool__timeout_ms": 1.5},
                                    "action.tool.timeout_ms", "expected an integer"),
    "tool side_effect a string": ({"action__tool__side_effect": "read"},
                                  "action.tool.side_effect", "expected `true` or `false`"),
    "tool unknown field": ({"action__tool__name": "x"}, "action.tool.name",
                           "the legacy spelling of `tool_id`"),
    "tool_call args at action level": ({"action__args": {}}, "action.args",
                                       "arguments belong in `action.tool.args`"),
    "policy not an object": ({"policy": "auto"}, "policy", "policy is an object"),
    "policy mode legacy": ({"policy__mode": "suggest"}, "policy.mode",
                           "'suggest' is not a policy mode (auto, require_human, advisory)"),
    "policy mode uppercase": ({"policy__mode": "AUTO"}, "policy.mode",
                              "policy modes are lowercase ('auto')"),
    "priority above 9": ({"policy__priority": 10}, "policy.priority", "outside the range 0 to 9"),
    "priority a boolean": ({"policy__priority": True}, "policy.priority",
                           "is `true`; priority is an integer from 0 through 9"),
    "priority a float": ({"policy__priority": 4.5}, "policy.priority", "integer"),
    "cooldown ISO string": ({"policy__cooldown": "PT1H"}, "policy.cooldown",
                            "is the string 'PT1H'; cooldown is an object `{seconds, gate}`"),
    "cooldown seconds a string": ({"policy__cooldown__seconds": "3600"},
                                  "policy.cooldown.seconds", "not a duration"),
    "cooldown seconds negative": ({"policy__cooldown__seconds": -1}, "policy.cooldown.seconds",
                                  "below the minimum 0"),
    "cooldown gate legacy": ({"policy__cooldown__gate": "execution"}, "policy.cooldown.gate",
                             "'execution' is not a cooldown gate (ack, activation)"),
    "cooldown gate missing": ({"policy__cooldown__gate": DELETE}, "policy.cooldown.gate",
                              "is missing"),
    "idempotency a string": ({"policy__idempotency": "{{ticket.id}}"}, "policy.idempotency",
                             "idempotency is the structured object"),
    "idempotency boolean": ({"policy__idempotency": True}, "policy.idempotency",
                            "is `true`; idempotency is the structured object"),
    "idempotency boundary": ({"policy__idempotency__boundary": "project"},
                             "policy.idempotency.boundary", "the only accepted value is "
                             "'workspace'"),
    "idempotency roles": ({"policy__idempotency__roles": ["a"]}, "policy.idempotency.roles",
                          "the only accepted value is 'auto'"),
    "idempotency enabled missing": ({"policy__idempotency__enabled": DELETE},
                                    "policy.idempotency.enabled", "is missing"),
    "idempotency scope a string": ({"policy__idempotency__scope": "ticket.id"},
                                   "policy.idempotency.scope", "expected a list"),
    "idempotency scope entry": ({"policy__idempotency__scope": [3]},
                                "policy.idempotency.scope[0]", "expected a string"),
    "exclusion_groups a string": ({"policy__exclusion_groups": "routing"},
                                  "policy.exclusion_groups", "expected a list"),
    "unknown policy field": ({"policy__cooldwn": {}}, "policy.cooldwn",
                             "(did you mean `cooldown`?)"),
    "legacy template not a string": ({"policy__idempotency_key_template": 1},
                                     "policy.idempotency_key_template", "expected a string"),
}


@pytest.mark.parametrize("changes, path, fragment", BAD.values(), ids=BAD.keys())
def test_schema_rule(changes: dict[str, Any], path: str, fragment: str) -> None:
    found = violations(anatomy(**changes))
    assert path in found, found
    assert fragment in found[path]
    assert found[path].startswith(f"`{path}`")  # every message names its path first


PAYLOADS = {
    "context_directive": {"type": "context_directive", "directive": "Use the protocol.",
                          "metadata": {"k": 1}},
    "decision_prompt": {"type": "decision_prompt", "message": "Review?",
                        "options": [{"id": "approve", "label": "Approve"}]},
    "decision_prompt legacy": {"type": "decision_prompt", "prompt": "Review?", "model": "m",
                               "params": {}},
    "route": {"type": "route", "destination": "queue.a", "metadata": {"reason": "x"}},
    "route legacy": {"type": "route", "route": "queue.a"},
    "tool_call full": {"type": "tool_call", "intent": "X",
                       "tool": {"tool_id": "t", "version": "1", "args": {},
                                "retry": {"policy": "none", "max_retries": 0},
                                "timeout_ms": 500, "side_effect": False}},
}


@pytest.mark.parametrize("action", PAYLOADS.values(), ids=PAYLOADS.keys())
def test_documented_and_legacy_payloads_are_schema_valid(action: dict[str, Any]) -> None:
    assert violations(anatomy(action=action)) == {}


BAD_PAYLOADS = {
    "directive missing": ({"type": "context_directive"}, "action.directive", "is missing"),
    "route destination missing": ({"type": "route"}, "action.destination",
                                  "a route names its destination"),
    "prompt options missing": ({"type": "decision_prompt", "message": "m"}, "action.options",
                               "a decision_prompt has a `message` and `options`"),
    "prompt option label": ({"type": "decision_prompt", "message": "m", "options": [{"id": "a"}]},
                            "action.options[0].label", "each decision_prompt option is"),
    "prompt no options": ({"type": "decision_prompt", "message": "m", "options": []},
                          "action.options", "is an empty list"),
    "field of another type": ({"type": "route", "destination": "q", "directive": "d"},
                              "action.directive", "is not a field of `action`"),
}


@pytest.mark.parametrize("action, path, fragment", BAD_PAYLOADS.values(), ids=BAD_PAYLOADS.keys())
def test_action_payload_rules(action: dict[str, Any], path: str, fragment: str) -> None:
    found = violations(anatomy(action=action))
    assert fragment in found.get(path, ""), found


@pytest.mark.parametrize("changes", [{"decision_point": None}, {"decision_point": DELETE},
                                     {"state": DELETE}, {"policy": DELETE}, {"intent": DELETE},
                                     {"metadata": {"owner": "support"}},
                                     {"policy__idempotency_key_template": "{{ticket.id}}"},
                                     {"expected_utility": DELETE}, {"confidence": 0},
                                     {"emu_key": "emu:support.a-b_c"}])
def test_optional_and_legacy_fields_are_schema_valid(changes: dict[str, Any]) -> None:
    assert violations(anatomy(**changes)) == {}


def test_one_message_per_path_even_when_several_keywords_fail() -> None:
    found = schema_violations(anatomy(emu_key="a!"))  # too short and bad characters
    assert [dotted(v.path) for v in found] == ["emu_key"]
    assert "shorter than 3" in found[0].message or "characters outside" in found[0].message


def test_every_missing_required_field_is_named() -> None:
    found = violations({"intent": "x"})
    assert {"emu_key", "trigger", "action"} <= set(found)
