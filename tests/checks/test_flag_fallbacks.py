"""UNSAFE-FALLBACK, flag form: a permission that a failed control call leaves granted."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.audit.model import Severity
from source_repos import audit_source, found, only

CODE = "UNSAFE-FALLBACK"
FLAG = '''
import stripe
from memrail import AMIClient

ami = AMIClient()


def refund(ticket):
    {flag} = {initial}
    try:
        {flag} = {decided}
    except Exception:
{handler}
{guard}
        stripe.Refund.create(charge=ticket.charge_id)
'''
DECIDE = 'bool(ami.decide(decision_point="support.refund", context=[]).selected)'


def _flag(tmp_path: Path, *, flag="allowed", initial="True", decided=DECIDE,
          handler="        pass", guard="    if allowed:"):
    text = FLAG.format(flag=flag, initial=initial, decided=decided, handler=handler,
                       guard=guard)
    return audit_source(tmp_path, {"app.py": text})


def test_the_initial_permission_is_reported_at_its_assignment(tmp_path: Path) -> None:
    finding = only(_flag(tmp_path), CODE)
    assert (finding.location.line, finding.symbol) == (8, "app.refund")
    assert finding.severity is Severity.CRITICAL
    assert "`AMIClient.decide` (`support.refund`) raises" in finding.message
    assert "leaves `allowed` at its initial `True`" in finding.message
    assert "`stripe.Refund.create` (money)" in finding.message
    assert finding.path[0].startswith("decision_call:")
    assert any(p.startswith("fallback:") for p in finding.path)
    assert finding.path[-1].startswith("executor:")


@pytest.mark.parametrize(("initial", "handler", "guard", "line"), [
    # The handler grants the permission itself.
    ("False", "        allowed = True", "    if allowed:", 12),
    # An early exit that tests the flag's refusal lets the permissive value through.
    ("True", "        pass", "    if not allowed:\n        return\n    if True:", 8),
    # A verdict-like flag compared with the permissive literal.
    ('"allow"', "        pass", '    if allowed == "allow":', 8),
    ("True", "        pass", "    if allowed is True:", 8),
    # The `else` of a refusal test.
    ("True", "        pass", "    if allowed is False:\n        return\n    else:", 8),
])
def test_permissive_shapes(tmp_path: Path, initial, handler, guard, line) -> None:
    assert found(_flag(tmp_path, initial=initial, handler=handler, guard=guard),
                 CODE) == [("app.py", line)]


@pytest.mark.parametrize(("initial", "handler", "guard"), [
    ("False", "        pass", "    if allowed:"),             # fails closed
    ("None", "        pass", "    if allowed:"),
    ("True", "        allowed = False", "    if allowed:"),   # the handler refuses
    ("True", "        raise", "    if allowed:"),             # the handler re-raises
    ("True", "        return", "    if allowed:"),            # the handler leaves
    ('"allow"', "        pass", '    if allowed == "deny":'),
    ("True", "        pass", "    if not allowed:"),          # runs only when refused
    ("compute()", "        pass", "    if allowed:"),         # nothing says what it holds
])
def test_closed_shapes(tmp_path: Path, initial, handler, guard) -> None:
    assert found(_flag(tmp_path, initial=initial, handler=handler, guard=guard), CODE) == []


def test_a_flag_set_from_something_else_than_the_control_call(tmp_path: Path) -> None:
    findings = _flag(tmp_path, decided="ticket.approved")
    assert found(findings, CODE) == []


HELPER = '''
import logging
import stripe
from memrail import AMIClient

ami = AMIClient()
log = logging.getLogger(__name__)


def may_refund(ticket) -> bool:
    try:
        decision = ami.decide(decision_point="support.refund", context=[])
{body}


def refund(ticket):
    if may_refund(ticket):
        stripe.Refund.create(charge=ticket.charge_id)
'''


@pytest.mark.parametrize(("body", "line"), [
    ("        return bool(decision.selected)\n    except Exception:\n"
     "        log.warning('down')\n        return True", 15),
    # The handler falls through to an unconditional `return True`.
    ("        if not decision.selected:\n            return False\n    except Exception:\n"
     "        log.warning('down')\n    return True", 16),
    ("        return bool(decision.selected)\n    except Exception:\n"
     "        return False", None),
    ("        return bool(decision.selected)\n    except Exception:\n"
     "        raise", None),
    # Falling through to a refusal.
    ("        if decision.selected:\n            return True\n    except Exception:\n"
     "        log.warning('down')\n    return False", None),
])
def test_a_predicate_helper_answering_from_its_handler(tmp_path: Path, body, line) -> None:
    findings = audit_source(tmp_path, {"app.py": HELPER.format(body=body)})
    assert found(findings, CODE) == ([("app.py", line)] if line else [])
    if line:
        assert "answers `True` for `may_refund(ticket)`" in only(findings, CODE).message


FLAG_HELPER = '''
import stripe
from memrail import AMIClient

ami = AMIClient()


def may_refund(ticket) -> bool:
    allowed = {initial}
    try:
        allowed = bool(ami.decide(decision_point="support.refund", context=[]).selected)
    except Exception:
{handler}
    return allowed


def refund(ticket):
    if may_refund(ticket):
        stripe.Refund.create(charge=ticket.charge_id)
'''


@pytest.mark.parametrize(("initial", "handler", "line"), [
    ("True", "        pass", 8),
    ("False", "        allowed = True", 12),
    ("False", "        pass", None),
    ("True", "        allowed = False", None),
    ("True", "        raise", None),
])
def test_a_helper_returning_its_own_flag(tmp_path: Path, initial, handler, line) -> None:
    text = FLAG_HELPER.format(initial=initial, handler=handler)
    findings = audit_source(tmp_path, {"app.py": text})
    assert found(findings, CODE) == ([("app.py", line)] if line else [])
    if line:
        finding = only(findings, CODE)
        assert finding.symbol == "app.may_refund"
        assert "`may_refund(ticket)` still holds" in finding.message
