"""Each lint both ways: found on the defective EMU, not on its fixed twin."""

from __future__ import annotations

import pytest

from topo.audit.model import Severity
from topo.audit.policy import PolicyConfig
from tests.policy.helpers import ANATOMY, DELETE, anatomy, codes_of, findings, messages_of

GUARDED = ANATOMY["trigger"]
UNGUARDED = "state.customer.tier == 'enterprise' AND state.ticket.priority == 'critical'"
UNPROTECTED = {"policy__idempotency": DELETE, "policy__cooldown": DELETE}


def test_the_anatomy_example_has_no_findings() -> None:
    assert findings(ANATOMY) == ()


def test_findings_carry_the_emu_key_location_and_path() -> None:
    (finding,) = findings(anatomy(state="ACTIVE"))
    assert finding.emu_key == finding.symbol == "support.critical_enterprise"
    assert (finding.location.file, finding.location.line) == ("emus/emus.jsonl", 1)
    assert finding.snippet == "state"
    assert finding.severity is Severity.HIGH


# ---- EMU-SCHEMA extras ---------------------------------------------------------------------

def test_missing_scores_are_reported_low_with_the_cli_default() -> None:
    found = findings(anatomy(expected_utility=DELETE, confidence=DELETE))
    assert [(f.code.id, f.severity) for f in found] == [("EMU-SCHEMA", Severity.LOW)] * 2
    assert any("default 0.8" in f.message for f in found)
    assert any("default 0.9" in f.message for f in found)
    assert codes_of(anatomy(expected_utility=0.5, confidence=0.5)) == []


@pytest.mark.parametrize("action, legacy", [
    ({"type": "route", "route": "queue.a"}, "`action.route`"),
    ({"type": "decision_prompt", "prompt": "Review?"}, "`action.prompt`"),
])
def test_legacy_payloads_are_reported_low(action: dict, legacy: str) -> None:
    (finding,) = findings(anatomy(action=action))
    assert finding.code.id == "EMU-SCHEMA" and finding.severity is Severity.LOW
    assert finding.message.startswith(legacy)


@pytest.mark.parametrize("action", [
    {"type": "route", "destination": "queue.a"},
    {"type": "decision_prompt", "message": "Review?", "options": [{"id": "a", "label": "A"}]},
])
def test_documented_payloads_are_not_legacy(action: dict) -> None:
    assert codes_of(anatomy(action=action)) == []


# ---- POLICY-GAP ----------------------------------------------------------------------------

def test_side_effect_without_idempotency_or_cooldown_is_a_gap() -> None:
    found = messages_of(anatomy(**UNPROTECTED), "POLICY-GAP")
    assert found == ["side-effecting tool_call `ticket_escalator` runs in auto mode with no "
                     "structured idempotency and no cooldown"]


@pytest.mark.parametrize("protection", [
    {"policy__cooldown": DELETE},        # idempotency alone (the refund walkthrough)
    {"policy__idempotency": DELETE},     # a cooldown alone
])
def test_either_protection_is_enough(protection: dict) -> None:
    assert codes_of(anatomy(**protection)) == []


@pytest.mark.parametrize("changes, words", [
    ({"policy__idempotency__enabled": False, "policy__cooldown": DELETE}, "idempotency disabled"),
    ({"policy__idempotency__scope": [], "policy__cooldown": DELETE}, "an empty scope"),
    ({"policy__idempotency": DELETE, "policy__cooldown__seconds": 0}, "a 0-second cooldown"),
    ({**UNPROTECTED, "policy__mode": DELETE}, "auto mode"),  # mode defaults to auto
    ({"policy": DELETE}, "no structured idempotency and no cooldown"),
])
def test_ineffective_protection_is_a_gap(changes: dict, words: str) -> None:
    (message,) = messages_of(anatomy(**changes), "POLICY-GAP")
    assert words in message


@pytest.mark.parametrize("changes", [
    {**UNPROTECTED, "action__tool__side_effect": False},       # read-only tool
    {**UNPROTECTED, "policy__mode": "require_human"},
    {**UNPROTECTED, "policy__mode": "advisory"},
    {**UNPROTECTED, "action": {"type": "context_directive", "directive": "Use the protocol."}},
    {**UNPROTECTED, "action": {"type": "route", "destination": "queue.a"}},
])
def test_no_gap_without_an_auto_side_effect(changes: dict) -> None:
    assert "POLICY-GAP" not in codes_of(anatomy(**changes))


def test_side_effect_true_is_still_side_effecting() -> None:
    assert "POLICY-GAP" in codes_of(anatomy(**UNPROTECTED, action__tool__side_effect=True))


def test_legacy_idempotency_template_is_one_gap() -> None:
    raw = anatomy(**UNPROTECTED, policy__idempotency_key_template="{{ticket.id}}")
    (finding,) = findings(raw)
    assert finding.code.id == "POLICY-GAP"
    assert "`policy.idempotency_key_template` is the legacy idempotency field" in finding.message


def test_legacy_template_is_reported_even_on_a_read_only_tool() -> None:
    raw = anatomy(policy__idempotency_key_template="x", action__tool__side_effect=False)
    assert codes_of(raw) == ["POLICY-GAP"]


def test_templates_in_idempotency_scope_are_gaps() -> None:
    raw = anatomy(policy__idempotency__scope=["ticket.id", "{{customer.id}}", "{{ state.x.y }}"])
    found = messages_of(raw, "POLICY-GAP")
    assert len(found) == 2
    assert found[0].startswith("`policy.idempotency.scope[1]` is the template '{{customer.id}}'")
    assert codes_of(anatomy(policy__idempotency__scope=["ticket.id", "customer.id"])) == []


def test_a_malformed_cooldown_is_one_schema_finding_not_also_a_gap() -> None:
    for changes in ({**UNPROTECTED, "policy__cooldown": "PT1H"},
                    {"policy__idempotency": DELETE, "policy__cooldown__seconds": "3600"},
                    {**UNPROTECTED, "policy__idempotency": "ticket.id"},
                    {"policy": "auto"}):
        assert codes_of(anatomy(**changes)) == ["EMU-SCHEMA"], changes


def test_an_unrelated_schema_problem_does_not_hide_a_gap() -> None:
    raw = anatomy(**UNPROTECTED, action__tool__version=DELETE)
    assert sorted(codes_of(raw)) == ["EMU-SCHEMA", "POLICY-GAP"]


# ---- EMU-TRIGGER-SYNTAX --------------------------------------------------------------------

@pytest.mark.parametrize("trigger, dsl_code", [
    ("state.customer.tier == 'enterprise' and state.ticket.id EXISTS", "DSL-LOWERCASE-OPERATOR"),
    ("state.user.tier == \"premium\"", "DSL-DOUBLE-QUOTE"),
    ("event.user.created.account", "DSL-EVENT-WINDOW-MISSING"),
])
def test_trigger_diagnostics_carry_the_dsl_code_and_column(trigger: str, dsl_code: str) -> None:
    found = [f for f in findings(anatomy(trigger=trigger)) if f.code.id == "EMU-TRIGGER-SYNTAX"]
    assert found, findings(anatomy(trigger=trigger))
    assert found[0].message.startswith(f"`trigger` {dsl_code} at column ")


def test_lowercase_and_points_at_its_column() -> None:
    trigger = "state.customer.tier == 'enterprise' and state.ticket.id EXISTS"
    (message,) = messages_of(anatomy(trigger=trigger), "EMU-TRIGGER-SYNTAX")
    assert f"at column {trigger.index(' and ') + 2}:" in message


def test_a_valid_trigger_has_no_syntax_finding() -> None:
    assert "EMU-TRIGGER-SYNTAX" not in codes_of(ANATOMY)


def test_a_trigger_of_the_wrong_type_is_only_a_schema_finding() -> None:
    assert codes_of(anatomy(trigger=42)) == ["EMU-SCHEMA"]


def test_an_unparsable_trigger_hides_the_lints_that_need_its_guards() -> None:
    raw = anatomy(trigger="state.customer.tier == 'enterprise' and state.a.b == 1")
    assert set(codes_of(raw)) == {"EMU-TRIGGER-SYNTAX"}  # no UNGUARDED-PLACEHOLDER guesswork


# ---- UNGUARDED-PLACEHOLDER -----------------------------------------------------------------

def test_arg_template_without_exists_guard() -> None:
    (message,) = messages_of(anatomy(trigger=UNGUARDED), "UNGUARDED-PLACEHOLDER")
    assert message == ("`action.tool.args.ticket_id` interpolates `{{ticket.id}}` but the "
                       "trigger has no `state.ticket.id EXISTS` guard")


def test_guarded_arg_template_is_fine() -> None:
    assert "UNGUARDED-PLACEHOLDER" not in codes_of(ANATOMY)


def test_legacy_state_template_needs_the_same_guard() -> None:
    raw = anatomy(trigger=UNGUARDED, action__tool__args={"id": "{{state.ticket.id}}"})
    assert codes_of(raw) == ["UNGUARDED-PLACEHOLDER"]
    assert codes_of(anatomy(action__tool__args={"id": "{{state.ticket.id}}"})) == []


def test_nested_args_and_embedded_templates_are_found() -> None:
    args = {"ticket": {"ids": ["x", "see {{ticket.id}} now"]}, "n": 3}
    (message,) = messages_of(anatomy(trigger=UNGUARDED, action__tool__args=args),
                             "UNGUARDED-PLACEHOLDER")
    assert message.startswith("`action.tool.args.ticket.ids[1]` interpolates `{{ticket.id}}`")


def test_templates_outside_tool_args_are_found_too() -> None:
    raw = anatomy(trigger="state.customer.tier == 'enterprise'",
                  action={"type": "context_directive", "directive": "Greet {{customer.name}}."})
    assert codes_of(raw) == ["UNGUARDED-PLACEHOLDER"]


def test_one_finding_per_unguarded_key() -> None:
    raw = anatomy(trigger=UNGUARDED, action__tool__args={"a": "{{ticket.id}}",
                                                         "b": "{{ticket.id}}",
                                                         "c": "{{customer.id}}"})
    assert codes_of(raw) == ["UNGUARDED-PLACEHOLDER"] * 2


def test_a_guard_under_or_does_not_count() -> None:
    trigger = "state.ticket.id EXISTS OR state.customer.tier == 'enterprise'"
    assert codes_of(anatomy(trigger=trigger)) == ["UNGUARDED-PLACEHOLDER"]


WHERE = "NOT event.agent.sent.email WHERE customer_id == '{{customer.id}}' IN 'P7D'"


def test_where_template_without_exists_guard() -> None:
    raw = anatomy(trigger=f"state.ticket.id EXISTS AND {WHERE}")
    (message,) = messages_of(raw, "UNGUARDED-PLACEHOLDER")
    assert "WHERE filter on `event.agent.sent.email` interpolates `{{customer.id}}`" in message
    guarded = anatomy(trigger=f"state.ticket.id EXISTS AND state.customer.id EXISTS AND {WHERE}")
    assert codes_of(guarded) == []


# ---- RETENTION-WINDOW ----------------------------------------------------------------------

def window(duration: str) -> dict:
    return anatomy(trigger=f"state.ticket.id EXISTS AND NOT event.agent.sent.email IN '{duration}'")


@pytest.mark.parametrize("duration", ["P91D", "P4M", "P1Y", "P13W"])
def test_window_longer_than_retention(duration: str) -> None:
    (finding,) = findings(window(duration))
    assert finding.code.id == "RETENTION-WINDOW" and finding.severity is Severity.LOW
    assert f"looks back '{duration}'" in finding.message
    assert "90-day event retention" in finding.message


@pytest.mark.parametrize("duration", ["P90D", "P3M", "PT2160H", "P7D"])
def test_window_within_retention(duration: str) -> None:
    assert codes_of(window(duration)) == []


def test_retention_is_configurable() -> None:
    assert codes_of(window("P30D"), PolicyConfig(retention_days=7)) == ["RETENTION-WINDOW"]
    assert codes_of(window("P180D"), PolicyConfig(retention_days=365)) == []


def test_count_windows_are_checked_too() -> None:
    raw = anatomy(trigger="state.ticket.id EXISTS AND COUNT event.user.failed.login IN 'P120D' >= 5")
    assert codes_of(raw) == ["RETENTION-WINDOW"]


def test_retention_must_be_positive() -> None:
    with pytest.raises(ValueError):
        PolicyConfig(retention_days=0)


def test_legacy_where_template_is_a_low_syntax_finding() -> None:
    trigger = ("state.ticket.id EXISTS AND state.customer.id EXISTS AND NOT "
               "event.agent.sent.email WHERE customer_id == '{{state.customer.id}}' IN 'P7D'")
    (finding,) = findings(anatomy(trigger=trigger))
    assert finding.code.id == "EMU-TRIGGER-SYNTAX" and finding.severity is Severity.LOW
    assert finding.message.startswith("`trigger` DSL-LEGACY-TEMPLATE at column ")


def test_a_finding_on_an_emu_without_key_names_its_line() -> None:
    (finding,) = findings(anatomy(emu_key=DELETE))
    assert finding.emu_key is None
    assert finding.symbol == "<no emu_key at emus/emus.jsonl:1>"
