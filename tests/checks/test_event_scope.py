"""EVENT-SCOPE: WHERE attributes no producer sends, and unscoped negations about one entity."""

from __future__ import annotations

from pathlib import Path

import pytest

from emu_repos import emitter, emu, findings
from topo.audit.checks.event_scope import entity_of

SCOPED = ("state.refund.request_id EXISTS AND NOT event.agent.issued.refund "
          "WHERE request_id == '{{refund.request_id}}' IN 'P30D'")
UNSCOPED = "state.refund.request_id EXISTS AND NOT event.agent.issued.refund IN 'P30D'"
DIRECTIVE = {"type": "context_directive", "directive": "Offer a refund."}


def _scope(root: Path, code: str, trigger: str, **kwargs) -> list:
    return findings(root, "EVENT-SCOPE", {"app.py": code}, [emu(trigger, **kwargs)])


def test_a_filter_on_an_attribute_no_producer_sends(tmp_path: Path) -> None:
    code = emitter(("agent.issued.refund", '{"customer_id": customer_id}'))
    [found] = _scope(tmp_path, code, SCOPED)
    assert "on `request_id`" in found.message and "they send `customer_id`" in found.message
    assert [r.file for r in found.related] == ["app.py"]


def test_one_producer_with_the_attribute_is_enough(tmp_path: Path) -> None:
    code = emitter(("agent.issued.refund", '{"customer_id": customer_id}'),
                   ("agent.issued.refund", '{"request_id": request_id}'))
    assert _scope(tmp_path, code, SCOPED) == []


def test_an_event_without_attributes_sends_none(tmp_path: Path) -> None:
    [found] = _scope(tmp_path, emitter(("agent.issued.refund", "")), SCOPED)
    assert "they send no attributes" in found.message


def test_unknown_attributes_make_no_claim(tmp_path: Path) -> None:
    assert _scope(tmp_path, emitter(("agent.issued.refund", "attributes")), SCOPED) == []
    batch = ("from memrail import AsyncAMIClient\nfrom memrail.atoms import event\n\n"
             "client = AsyncAMIClient()\n\n\nasync def record(ts):\n"
             "    await client.emit_events([event('agent.issued.refund', ts=ts)])\n")
    assert _scope(tmp_path, batch, SCOPED) == []


def test_no_producer_is_left_to_ghost_event(tmp_path: Path) -> None:
    assert _scope(tmp_path, emitter(("agent.closed.ticket", "")), SCOPED) == []


def test_an_unscoped_negation_about_one_entity(tmp_path: Path) -> None:
    code = emitter(("agent.issued.refund", '{"request_id": request_id}'))
    [found] = _scope(tmp_path, code, UNSCOPED)
    assert "(`state.refund.request_id`)" in found.message and "no WHERE" in found.message


def test_an_id_interpolated_by_the_action_makes_it_about_one_entity(tmp_path: Path) -> None:
    trigger = "state.refund.amount_cents < 100 AND NOT event.agent.issued.refund IN 'P30D'"
    assert len(_scope(tmp_path, "", trigger)) == 1        # TOOL's args use {{refund.request_id}}


def test_an_unscoped_negation_without_an_entity_is_fine(tmp_path: Path) -> None:
    trigger = "state.refund.amount_cents < 100 AND NOT event.agent.issued.refund IN 'P30D'"
    assert _scope(tmp_path, "", trigger, action=DIRECTIVE) == []


def test_a_positive_unscoped_clause_is_not_reported(tmp_path: Path) -> None:
    trigger = "state.refund.request_id EXISTS AND event.agent.issued.refund IN 'P30D'"
    assert _scope(tmp_path, "", trigger) == []


def test_the_refund_corpus_app_is_scoped() -> None:
    from topo.audit.pipeline import AuditRequest, run_audit
    app = Path(__file__).resolve().parents[2] / "corpus" / "apps" / "memrail_refund"
    result = run_audit(AuditRequest(root=app, jobs=1, cache_dir=None))
    mine = {"GHOST-EVENT", "EVENT-NAME-DRIFT", "EVENT-SCOPE", "ABSENCE-PERMITS",
            "UNSATISFIABLE-TRIGGER"}
    assert result.emus and not [f for f in result.findings if f.code.id in mine]


def test_an_id_of_another_entity_under_the_filtered_attribute(tmp_path: Path) -> None:
    code = emitter(("agent.issued.refund", '{"request_id": item.activation_id}'))
    code = code.replace("async def record(request_id, customer_id, attributes):",
                        "async def record(request_id, customer_id, attributes, item):")
    [found] = _scope(tmp_path, code, SCOPED, action=DIRECTIVE)
    assert found.inferred
    assert "compares `request_id` of `event.agent.issued.refund` with `{{refund.request_id}}`, " \
        "an id of `request`, but the emitter sends `request_id` = `item.activation_id`, an id " \
        "of `activation`" == found.message.split("EMU `billing.small_refund` ")[1]


@pytest.mark.parametrize("value", ["request_id", "refund.request_id", 'ticket["request_id"]',
                                   "str(refund.request_id)", "item.id", "payload",
                                   "requests.id"])
def test_the_same_entity_or_an_unknown_one_is_not_judged(tmp_path: Path, value: str) -> None:
    code = emitter(("agent.issued.refund", f'{{"request_id": {value}}}'))
    assert _scope(tmp_path, code, SCOPED, action=DIRECTIVE) == []


@pytest.mark.parametrize(("path", "entity"), [
    ("order.id", "order"), ("ticket.customer_id", "customer"), ('args["order_id"]', "order"),
    ("orderId", "order"), ("customers.id", "customer"), ("refund.request_id", "request"),
    ("item.id", None), ("self.id", None), ("id", None), ("order.total", None),
    ("orders[0].id", None),
])
def test_the_entity_an_id_names(path: str, entity: str | None) -> None:
    assert entity_of(path) == entity


def test_the_value_the_code_builds_the_state_key_from_is_the_same_entity(tmp_path: Path) -> None:
    decide = ("from memrail import AMIClient\nfrom memrail.atoms import state\n\n"
              "ami = AMIClient()\n\n\ndef go(ticket):\n"
              "    return ami.decide(decision_point='billing.refund',\n"
              "                      context=[state('refund.request_id', ticket.id)])\n")
    code = emitter(("agent.issued.refund", '{"request_id": ticket.id}')).replace(
        "attributes):", "attributes, ticket):")
    files = {"app.py": code, "decide.py": decide}
    assert findings(tmp_path, "EVENT-SCOPE", files, [emu(SCOPED, action=DIRECTIVE)]) == []
    files["decide.py"] = decide.replace("ticket.id)", "ticket.request_id)")
    assert len(findings(tmp_path, "EVENT-SCOPE", files, [emu(SCOPED, action=DIRECTIVE)])) == 1
