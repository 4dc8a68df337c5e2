"""Seed 000's eight answers per consequential outcome are the pipeline's (`AuditResult.outcomes`,
`audit/outcomes.py`), computed on the small apps in `corpus/outcomes/`; TOPOLOGY_STATE's
`outcomes` section (YAML, Markdown, HTML) only shows them, and `-f json` keeps its contract."""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from pathlib import Path

import pytest
from reports_helpers import GENERATED, document_of

from topo.audit.outcomes import FAIL_CLOSED, FAIL_OPEN, Answer, Outcome
from topo.audit.pipeline import AuditRequest, AuditResult, run_audit
from topo.reports.document import OUTCOMES, audit_document
from topo.reports.html_report import render_html
from topo.reports.json_report import render_json
from topo.reports.markdown_report import markdown_from_state
from topo.reports.topology import topology_state

FIXTURES = Path(__file__).resolve().parents[2] / "corpus" / "outcomes"


@cache
def _result(app: str) -> AuditResult:
    return run_audit(AuditRequest(root=FIXTURES / app, jobs=1, cache_dir=None))


def _outcome(app: str, effect: str) -> Outcome:
    [found] = [o for o in _result(app).outcomes if o.effect == effect]
    return found


def test_a_decided_reviewed_outcome_and_an_ungoverned_one_answer_differently() -> None:
    refund = _outcome("reviewed_and_unreviewed", "stripe.Refund.create")
    reply = _outcome("reviewed_and_unreviewed", "smtplib.SMTP.sendmail")
    # 1-4: proposed by policy selection, authorized by an enforced check, executed by the tool.
    assert [(p.entry, p.selected_by_policy) for p in refund.proposals] == [
        ("function:billing.tools.refund_payment", True)]
    assert refund.authorized.value == "enforced"
    assert refund.tools == ("refund_payment",)
    assert refund.executors == ("executor:billing/tools.py:11:14",)
    assert refund.influences.state == ("refund.amount_cents", "refund.request_id")
    # 5: the require_human EMU, the consent the decision call passes, and the point's
    # decision_prompt EMU with its handler.
    assert refund.human_review.value == "yes"
    assert {(r.kind, r.evidence) for r in refund.reviews} == {
        ("require_human", "billing.refund_reviewed"),
        ("human_consent", "decision_call:billing/api.py:18:24"),
        ("decision_prompt", "billing.refund_ask")}
    [prompt] = [r for r in refund.reviews if r.kind == "decision_prompt"]
    assert "action_handler:billing/tools.py:16:1" in prompt.detail
    # 7, 8: one point decides its one path; its one EMU can match and act.
    assert (refund.single_point.value, refund.single_point.evidence) == ("yes", ("billing.refund",))
    assert [c.emu_key for c in refund.candidate_emus] == ["billing.refund_reviewed"]
    assert refund.emus_reachable_and_connected.value == "yes"
    # The model's reply: proposed by the model, nothing authorizes or reviews it.
    assert reply.proposals[0].model_outputs == ("inference:billing/api.py:30:13",)
    assert reply.authorized.value == "none"
    assert reply.human_review.value == "none found" and reply.reviews == ()
    assert reply.single_point.value == "no"
    assert reply.on_missing_context.value == "unknown"
    assert reply.on_dependency_failure.value == "unknown"
    assert reply.candidate_emus == ()
    assert reply.emus_reachable_and_connected.value == "none found"
    assert [f.code.id for f in _result("reviewed_and_unreviewed").findings
            if f.fingerprint in reply.findings] == ["UNGOVERNED-PATH"]


def test_missing_context_fails_open_when_an_empty_selection_runs_the_effect() -> None:
    reply = _outcome("missing_context_fail_open", "smtplib.SMTP.sendmail")
    assert reply.on_missing_context.value == FAIL_OPEN
    [finding] = [f for f in _result("missing_context_fail_open").findings
                 if f.fingerprint in reply.on_missing_context.evidence]
    assert finding.code.id == "UNSAFE-FALLBACK"
    # The call it waits for still raises when Memrail is down: the failure is closed...
    assert reply.on_dependency_failure.value == FAIL_CLOSED
    assert reply.on_dependency_failure.inferred
    # ...but the point does not decide the effect, which runs without a selection.
    assert reply.authorized.value == "bypassed"
    assert reply.single_point.value == "no"


def test_missing_context_fails_closed_when_only_a_selection_runs_the_effect() -> None:
    refund = _outcome("missing_context_fail_closed", "stripe.Refund.create")
    assert refund.on_missing_context == Answer(
        FAIL_CLOSED, refund.on_missing_context.detail, ("payments.refund",), inferred=True)
    # The handler around the decision call refuses: the evidence is that handler, not a guess.
    assert refund.on_dependency_failure.value == FAIL_CLOSED
    assert refund.on_dependency_failure.evidence == ("fallback:refunds/api.py:34:5",)
    assert not refund.on_dependency_failure.inferred
    assert refund.single_point.value == "yes"


@pytest.mark.parametrize(("suffix", "effect", "admin", "customer", "helper"), [
    ("", "stripe.Refund.create", "function:billing.routes.admin_refund",
     "function:billing.routes.customer_refund", "function:billing.payments.issue_refund"),
    ("_ts", "stripe.default.refunds.create", "function:src/routes.adminRefund",
     "function:src/routes.customerRefund", "function:src/lib/payments.issueRefund")])
def test_a_second_path_around_the_decision_point_means_no_single_point_covers_it(
        suffix: str, effect: str, admin: str, customer: str, helper: str) -> None:
    one = _outcome(f"two_paths_one_decided{suffix}", effect)
    both = _outcome(f"two_paths_both_decided{suffix}", effect)
    assert sorted(p.entry for p in one.paths) == sorted(p.entry for p in both.paths) == [
        admin, customer]
    assert all(p.functions[-1] == helper for p in one.paths)
    assert one.single_point.value == "no"
    assert one.single_point.evidence == (admin,)
    assert one.authorized.value == "partly enforced"
    assert one.on_missing_context.value == "unknown"
    assert both.single_point.value == "yes"
    assert both.single_point.evidence == ("billing.refund",)
    assert both.on_missing_context.value == FAIL_CLOSED


def test_one_outcome_groups_every_executor_of_the_same_effect() -> None:
    """demo_support_agent refunds in three places: one outcome, three paths, one of them
    through the fallback that runs the proposal when Memrail fails."""
    [refund] = document_of("demo_support_agent")[OUTCOMES]
    assert len(refund.executors) == 3 and len(refund.paths) == 3
    assert refund.on_dependency_failure.value == FAIL_OPEN
    assert refund.single_point.value == "no"
    assert refund.authorized.value == "partly enforced"


def test_the_views_show_the_pipeline_answers_and_derive_none_of_their_own() -> None:
    document = dict(document_of("memrail_refund"))
    [outcome] = document[OUTCOMES]
    changed = dataclasses.replace(outcome, single_point=Answer("no", "an answer only the "
                                                               "pipeline knows"))
    document[OUTCOMES] = (changed,)
    state = topology_state(document, generated=GENERATED)
    [shown] = state["outcomes"]
    assert shown["single_decision_point_covers_all_paths"] is False
    assert shown["decision_point_coverage"]["detail"] == "an answer only the pipeline knows"
    assert "an answer only the pipeline knows" in markdown_from_state(state)


def test_the_yaml_section_carries_the_eight_answers_with_evidence() -> None:
    [shown] = topology_state(document_of("demo_support_agent"), generated=GENERATED)["outcomes"]
    assert list(shown)[:5] == ["outcome", "effect", "tier", "project", "destination"]
    assert shown["project"] == "support_agent"
    for answer in ("proposed_at", "authorized_at", "influenced_by", "executed_by",
                   "human_review_path", "on_missing_context", "on_dependency_failure",
                   "single_decision_point_covers_all_paths",
                   "candidate_emus_reachable_and_connected"):
        assert answer in shown
    assert shown["on_dependency_failure"]["evidence"] == ["AUTH-004"]
    assert {e["line"] for e in shown["executed_by"]["executors"]} == {16, 30, 11}


def test_json_keeps_its_contract_without_the_outcomes() -> None:
    document = json.loads(render_json(document_of("memrail_refund")))
    assert OUTCOMES not in document


def test_the_html_reachability_table_shows_why() -> None:
    page = render_html(document_of("demo_support_agent"))
    matrix = page[page.index('<section id="reachability">'):page.index('<section id="unknowns">')]
    assert "<th>why</th>" in matrix
    assert "which no Memrail tool registration or dispatcher branch in the code handles" in matrix
    outcomes = page[page.index('<section id="outcomes">'):page.index('<section id="decision')]
    assert "fail-open" in outcomes and "7. one decision point covers every path" in outcomes
