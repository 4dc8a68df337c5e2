"""RECORDING-GAP: Memrail-governed effects whose outcome is not recorded after them."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.audit.model import Severity
from source_repos import audit_source, found, only

CODE = "RECORDING-GAP"
EMIT = ('ami.emit_event(event("agent.issued.refund", ts=datetime.now(timezone.utc), '
        'attributes={"request_id": ticket.id}))')
ACK = 'ami.ack(item.activation_id, "acknowledged", code="SUCCESS")'
APP = """
from datetime import datetime, timezone
import smtplib
import stripe
from memrail import AMIClient
from memrail.atoms import event, state

ami = AMIClient()


def pay(ticket):
    stripe.Refund.create(charge=ticket.charge_id)


def refund(ticket):
    decision = ami.decide(decision_point="billing.refund", context=[])
    for item in decision.selected:
{body}
"""


def _findings(tmp_path: Path, *lines: str):
    body = "\n".join("        " + line for line in lines)
    return audit_source(tmp_path, {"app.py": APP.replace("{body}", body)})


def test_an_effect_with_no_record(tmp_path: Path) -> None:
    finding = only(_findings(tmp_path, "stripe.Refund.create(charge=ticket.charge_id)"), CODE)
    assert (finding.location.line, finding.symbol) == (17, "app.refund")
    assert finding.severity is Severity.MEDIUM
    assert finding.message == "`stripe.Refund.create` (money), governed by `AMIClient.decide` " \
        "(`billing.refund`), has no outcome event or ack after it"


@pytest.mark.parametrize("record", [EMIT, ACK])
def test_an_event_or_ack_after_the_effect(tmp_path: Path, record: str) -> None:
    findings = _findings(tmp_path, "stripe.Refund.create(charge=ticket.charge_id)", record)
    assert found(findings, CODE) == []


def test_a_record_after_the_call_in_the_caller(tmp_path: Path) -> None:
    assert found(_findings(tmp_path, "pay(ticket)", ACK), CODE) == []


def test_the_helper_is_reported_when_its_caller_records_nothing(tmp_path: Path) -> None:
    assert found(_findings(tmp_path, "pay(ticket)"), CODE) == [("app.py", 11)]


def test_a_record_only_before_the_effect(tmp_path: Path) -> None:
    finding = only(_findings(tmp_path, ACK, "stripe.Refund.create(charge=ticket.charge_id)"),
                   CODE)
    assert "is recorded before it runs (`AMIClient.ack`), not after" in finding.message


def test_a_record_on_the_error_path_only(tmp_path: Path) -> None:
    findings = _findings(tmp_path, "try:", "    stripe.Refund.create(charge=ticket.charge_id)",
                         "except stripe.StripeError:",
                         '    ami.ack(item.activation_id, "failed", code="ERROR")')
    assert found(findings, CODE) == [("app.py", 18)]


def test_severity_follows_the_tier(tmp_path: Path) -> None:
    finding = only(_findings(
        tmp_path, "smtplib.SMTP('localhost').sendmail('a@x', [ticket.email], 'refunded')"), CODE)
    assert finding.severity is Severity.LOW


def test_effects_no_memrail_decision_governs_are_not_checked(tmp_path: Path) -> None:
    source = """
        import stripe


        def refund(ticket):
            if ticket.approved_by_finance:
                stripe.Refund.create(charge=ticket.charge_id)
        """
    assert found(audit_source(tmp_path, {"app.py": source}), CODE) == []


SDK = """
import stripe
from memrail import AsyncAMIClient
from memrail.tools import ToolRegistry

registry = ToolRegistry()
ami = AsyncAMIClient()


@registry.tool(name="refund_payment", description="Refund", projects=["billing"])
async def refund_payment(args: dict) -> dict:
    stripe.Refund.create(charge=args["charge_id"])
    return {}
"""


@pytest.mark.parametrize(("call", "expected"), [
    ('await ami.decide_and_execute(decision_point="billing.refund", context=[])',
     [("app.py", 11)]),
    ('await ami.decide_and_execute(decision_point="billing.refund", context=[], auto_ack=True)',
     []),
    ("", []),     # no SDK call in the repository: nothing to judge the tool by
])
def test_registered_tools_run_by_the_sdk(tmp_path: Path, call: str, expected: list) -> None:
    source = SDK + (f"\n\nasync def refund():\n    {call}\n" if call else "")
    assert found(audit_source(tmp_path, {"app.py": source}), CODE) == expected


def test_an_effect_run_when_nothing_was_selected_is_not_governed(tmp_path: Path) -> None:
    source = APP.replace("    for item in decision.selected:\n{body}",
                         "    if not decision.selected:\n"
                         "        stripe.Refund.create(charge=ticket.charge_id)")
    assert found(audit_source(tmp_path, {"app.py": source}), CODE) == []


def test_a_record_in_a_finally_runs_whatever_happened(tmp_path: Path) -> None:
    finding = only(_findings(tmp_path, "try:", "    stripe.Refund.create(charge=ticket.charge_id)",
                             "finally:", "    " + EMIT), CODE)
    assert (finding.location.line, finding.symbol) == (18, "app.refund")
    assert "recorded regardless of its success (`agent.issued.refund` in a `finally`)" \
        in finding.message


def test_a_record_after_an_except_that_swallows_the_failure(tmp_path: Path) -> None:
    finding = only(_findings(tmp_path, "try:", "    pay(ticket)", "except Exception:",
                             "    print('refund failed')", ACK), CODE)
    assert finding.location.line == 11     # the effect in the helper the caller guards
    assert "(`AMIClient.ack` after a `try` whose handler swallows the failure)" in finding.message


@pytest.mark.parametrize("exit_", ["raise", "return", "continue"])
def test_a_record_after_an_except_that_leaves(tmp_path: Path, exit_: str) -> None:
    findings = _findings(tmp_path, "try:", "    stripe.Refund.create(charge=ticket.charge_id)",
                         "except stripe.StripeError:", "    " + exit_, ACK)
    assert found(findings, CODE) == []


def test_a_record_inside_the_try_after_the_effect(tmp_path: Path) -> None:
    findings = _findings(tmp_path, "try:", "    stripe.Refund.create(charge=ticket.charge_id)",
                         "    " + EMIT, "except stripe.StripeError:", "    pass")
    assert found(findings, CODE) == []


def test_a_nested_handler_that_raises_keeps_the_outer_record_on_success(tmp_path: Path) -> None:
    findings = _findings(tmp_path, "try:", "    try:",
                         "        stripe.Refund.create(charge=ticket.charge_id)",
                         "    except stripe.StripeError:", "        raise",
                         "    " + ACK, "except Exception:", "    pass")
    assert found(findings, CODE) == []


def test_an_event_stamped_without_its_zone(tmp_path: Path) -> None:
    naive = EMIT.replace("datetime.now(timezone.utc)", "datetime.now()")
    findings = _findings(tmp_path, "stripe.Refund.create(charge=ticket.charge_id)", naive)
    finding = only(findings, CODE)
    assert (finding.location.line, finding.symbol) == (18, "app.refund")
    assert finding.message.startswith("`agent.issued.refund` is stamped with `datetime.now()`, "
                                      "a time without its zone")
    assert found(_findings(tmp_path, "stripe.Refund.create(charge=ticket.charge_id)", EMIT),
                 CODE) == []


def test_a_finally_of_a_later_try_runs_after_the_success(tmp_path: Path) -> None:
    findings = _findings(tmp_path, "stripe.Refund.create(charge=ticket.charge_id)", "try:",
                         "    print('notified')", "finally:", "    " + ACK)
    assert found(findings, CODE) == []
