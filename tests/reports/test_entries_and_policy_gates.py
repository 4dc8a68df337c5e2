"""Ways in and authority that are not a model (seed 000's audit scope): scheduled jobs, queue
consumers, webhooks, routes and commands are entry points, and each consequential path names
its entry kind; configuration, flag, role and database-rule tests are config gates listed as
inferred decision points with the effects they select, never as a model's authority. Apps in
`corpus/entries/` and `corpus/authority/`, each a found twin and a not-found twin, in Python
and TypeScript."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import yaml
from reports_helpers import GENERATED

from topo.audit.pipeline import AuditRequest, run_audit
from topo.reports.document import audit_document
from topo.reports.html_report import render_html
from topo.reports.topology import topology_state
from topo.reports.yaml_report import dump_yaml

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


@cache
def _document(app: str) -> dict:
    return audit_document(run_audit(AuditRequest(root=CORPUS / app, jobs=1, cache_dir=None)))


@cache
def _state(app: str) -> dict:
    """TOPOLOGY_STATE as the YAML file says it (rendered, then read back)."""
    return yaml.safe_load(dump_yaml(topology_state(_document(app), generated=GENERATED)))


def _entries(app: str) -> dict[str, tuple[str, dict]]:
    return {e["function"]: (e["kind"], e) for e in _state(app)["entry_points"]}


def _path_kinds(app: str) -> dict[str, str]:
    return {p["entry"]: p["entry_kind"] for o in _state(app)["outcomes"] for p in o["paths"]}


# ---- entry points ----------------------------------------------------------------------------

def test_python_jobs_consumers_webhooks_routes_and_commands_are_entry_points() -> None:
    entries = _entries("entries/found_py")
    assert {name: kind for name, (kind, _) in entries.items()} == {
        "billing.jobs.refund_from_queue": "queue_consumer",     # @celery_app.task
        "billing.jobs.refund_shared": "queue_consumer",         # @shared_task
        "billing.jobs.nightly_refunds": "scheduled_job",        # @scheduler.scheduled_job
        "billing.jobs.hourly_refunds": "scheduled_job",         # scheduler.add_job(f, ...)
        "billing.jobs.daily_refunds": "scheduled_job",          # schedule.every()...do(f)
        "billing.jobs.on_refund_message": "queue_consumer",     # pika basic_consume
        "billing.web.stripe_events": "webhook",                 # construct_event in a route
        "billing.web.chargeback_webhook": "webhook",            # /webhooks/... path
        "billing.web.manual_refund": "http_route",
        "billing.web.refund_cli": "cli",                        # @click.command
        "billing.views.retry_refund": "http_route",             # Django URLconf path()
        "billing.jobs.huey_nightly_refunds": "scheduled_job",   # @huey.periodic_task
        "billing.jobs.refund_later": "queue_consumer",          # rq Queue.enqueue(f, ...)
    }
    assert entries["billing.jobs.refund_from_queue"][1]["queue"] == "refunds"
    assert entries["billing.jobs.on_refund_message"][1]["queue"] == "refund-requests"
    assert entries["billing.jobs.nightly_refunds"][1]["schedule"] == "cron"
    assert entries["billing.web.stripe_events"][1]["verified_by"] == \
        "stripe.Webhook.construct_event"
    assert entries["billing.web.manual_refund"][1]["path"] == "/refunds"
    for _, entry in entries.values():
        assert [r["effect"] for r in entry["reaches"]] == ["stripe.Refund.create (money)"]


def test_typescript_jobs_consumers_webhooks_and_routes_are_entry_points() -> None:
    entries = _entries("entries/found_ts")
    kinds = sorted(kind for kind, _ in entries.values())
    assert kinds == ["http_route", "http_route", *["queue_consumer"] * 5, "scheduled_job",
                     "scheduled_job", "webhook", "webhook"]
    systems = {e["system"]: e.get("queue") for _, e in entries.values()
               if e["kind"] == "queue_consumer"}
    assert systems == {"bullmq": "refunds", "kafka": None, "redis": "refund-requests",
                       "sqs": "https://sqs.us-east-1.amazonaws.com/1/refunds",
                       "rabbitmq": "chargebacks"}
    assert entries["src/jobs.retryPendingRefunds"] == ("scheduled_job", entries[
        "src/jobs.retryPendingRefunds"][1])
    assert entries["src/jobs.retryPendingRefunds"][1]["schedule"] == "0 3 * * *"
    assert entries["src/jobs.eachMessage"][0] == "queue_consumer"           # kafkajs
    [verified] = [e for _, e in entries.values() if e.get("verified_by")]
    assert (verified["kind"], verified["path"], verified["method"]) == \
        ("webhook", "/stripe/events", "POST")
    assert verified["verified_by"] == "stripe.default.webhooks.constructEvent"
    assert entries["app/api/webhooks/stripe/route.POST"][1]["path"] == "/api/webhooks/stripe"
    assert entries["app/api/webhooks/stripe/route.POST"][0] == "webhook"


@pytest.mark.parametrize("app", ["entries/found_py", "entries/found_ts"])
def test_each_consequential_path_names_its_entry_kind(app: str) -> None:
    kinds = {entry: kind for entry, kind in _path_kinds(app).items() if kind != "script"}
    entries = _entries(app)
    assert kinds and set(kinds) == set(entries)
    assert all(kinds[name] == kind for name, (kind, _) in entries.items())
    for outcome in _state(app)["outcomes"]:
        for proposal in outcome["proposed_at"]:
            assert proposal["entry_kind"] == _path_kinds(app)[proposal["entry"]]
            assert (proposal["entry_at"] == "unknown") == (proposal["entry_kind"] == "script")


@pytest.mark.parametrize("app", ["entries/not_py", "entries/not_ts"])
def test_functions_nothing_registers_are_no_entry_points(app: str) -> None:
    state = _state(app)
    assert state["entry_points"] == [] and state["summary"]["entry_points"] == 0
    kinds = _path_kinds(app)
    assert kinds and set(kinds.values()) == {"unknown"}
    assert any("ightly" in name for name in kinds)          # named like a job, still unknown


def test_top_level_code_under_the_main_guard_is_a_script() -> None:
    assert _path_kinds("entries/found_py")["billing.backfill.<module>"] == "script"


def test_a_job_that_code_also_calls_is_still_a_way_in() -> None:
    """`hourly_refunds` is registered with the scheduler; a chain starts there even if some
    other function called it too (the scheduler does not go through that caller)."""
    kinds = _path_kinds("entries/found_py")
    assert kinds["billing.jobs.hourly_refunds"] == "scheduled_job"


def test_entry_points_are_sites_and_graph_nodes() -> None:
    document = _document("entries/found_py")
    sites = [s for s in document["sites"] if s["kind"] == "entry_point"]
    assert len(sites) == 13 and all(s["attrs"]["definition"] for s in sites)
    registers = {(r["source"], r["target"]) for r in document["relations"]
                 if r["kind"] == "registers"}
    assert all((s["id"], f"function:{s['attrs']['definition']}") in registers for s in sites)
    nodes = {n["id"]: n for n in topology_state(document, generated=GENERATED)["graph"]["nodes"]}
    assert {s["id"] for s in sites} <= set(nodes)
    labels = {nodes[s["id"]]["label"] for s in sites}
    assert {"queue consumer refunds", "scheduled job cron", "webhook /stripe/events"} <= labels
    assert all(nodes[s["id"]]["lane"] == "observation" for s in sites)


# ---- authority that is not a model -----------------------------------------------------------

def _policy_points(app: str) -> dict[str, dict]:
    return {p["location"]: p for p in _state(app)["decision_points"] if "authority" in p}


def test_python_configuration_flags_roles_and_rules_are_non_model_decision_points() -> None:
    points = _policy_points("authority/found_py")
    kinds = {location.split(":")[1]: (p["authority"], p["evidence"]) for location, p in
             points.items()}
    assert kinds == {
        "refund_by_setting": ("config", "settings.AUTO_REFUND (truthy)"),
        "refund_by_env": ("config", "AUTO_APPROVE (truthy)"),     # os.getenv, one name away
        "refund_for_admins": ("role", "user.role == admin"),
        "refund_for_gold": ("role", 'customer.tier in "gold", "platinum"'),
        "refund_for_staff": ("role", "request.user.is_superuser (falsy)"),
        "refund_within_rule": ("rule", "amount <= rule.max_auto_refund_cents"),
        "refund_by_flag": ("flag", "ldclient.get.variation of auto-refunds"),
        "refund_by_experiment": ("flag", "statsig.statsig.check_gate of instant_refunds"),
        "refund_with_permission": ("role",
                                   'request.user.has_perm("shop.issue_refund") (truthy)'),
        "refund_through_helper": ("config", "settings.HELPER_REFUNDS_ENABLED (truthy)"),
    }
    for point in points.values():
        assert point["inferred"] is True and point["model_authority"] is False
        assert [s["effect"] for s in point["selects"]] == ["stripe.Refund.create (money)"]
        assert point["model_output_on_path"] is False
    assert points["shop/refunds.py:refund_by_env"]["name"] == "~config:AUTO_APPROVE_REFUNDS"
    state = _state("authority/found_py")
    assert state["summary"]["non_model_authority_sites"] == 10
    # A switch before a helper call selects the effect inside the helper (the chain's hop).
    assert points["shop/refunds.py:refund_through_helper"]["selects"][0]["executor"] == \
        "shop/refunds.py:_issue"
    labels = {n["label"] for n in state["graph"]["nodes"] if n["kind"] == "config_gate"}
    assert "role: user.role (not a model)" in labels
    assert state["hidden_authority"] == [] and state["prioritized_findings"] == []
    [outcome] = state["outcomes"]
    assert outcome["authorized_at"]["answer"] == "code policy only"
    assert {a["authority_kind"] for a in outcome["authorized_at"]["authority"]} == \
        {"config", "role", "rule", "flag"}


def test_typescript_configuration_flags_roles_and_rules_are_non_model_decision_points() -> None:
    points = _policy_points("authority/found_ts")
    kinds = {location.split(":")[1]: p["authority"] for location, p in points.items()}
    assert kinds == {"refundBySetting": "config", "refundForAdmins": "role",
                     "refundForGold": "role", "refundWithinRule": "rule",
                     "refundByFlag": "flag", "refundByExperiment": "flag",
                     "refundWithPermission": "role"}
    assert points["src/refunds.ts:refundBySetting"]["evidence"] == \
        "process.env.AUTO_REFUND == true"
    assert points["src/refunds.ts:refundWithinRule"]["evidence"] == \
        "amount <= rule.maxAutoRefundCents"
    assert _state("authority/found_ts")["prioritized_findings"] == []


@pytest.mark.parametrize("app", ["authority/not_py", "authority/not_ts"])
def test_message_roles_existence_lookups_presence_checks_and_guards_of_nothing_are_not(
        app: str) -> None:
    """A chat message's role, `if not existing:` (a lookup), `if not api_key: raise` then the key
    passed on (a presence check), and a role test that selects no effect."""
    assert _policy_points(app) == {}
    document = _document(app)
    gates = [s for s in document["sites"] if s["kind"] == "config_gate"]
    # `user.role == "admin"` in `greeting` is a role test, but it selects no effect.
    assert [s["attrs"]["operand"] for s in gates] == ["user.role"]


def test_a_non_model_gate_never_governs_a_model_proposal() -> None:
    """The model proposes the refund; configuration, a flag and a tier check stand before it.
    They select the effect and are listed, but the path is still ungoverned."""
    app = "checks/UNGOVERNED-PATH/bad_policy_gate_only"
    state = _state(app)
    [finding] = state["prioritized_findings"]
    assert finding["code"] == "UNGOVERNED-PATH"
    assert "`settings.AUTO_REFUND` (config) stands on it" in finding["evidence"]["behavior"]
    points = {p["name"]: p for p in _state(app)["decision_points"] if "authority" in p}
    assert sorted(points) == ["~config:AUTO_REFUND", "~config:REFUNDS_PAUSED",
                              "~flag:auto-refunds", "~role:customer.tier"]
    assert all(p["model_output_on_path"] is True for p in points.values())
    assert all(finding["id"] in p["findings"] for p in points.values())


def test_the_html_shows_entry_points_and_non_model_points() -> None:
    document = _document("authority/found_py")
    html = render_html(document)
    assert "not a model: rule" in html and "amount &lt;= rule.max_auto_refund_cents" in html
    html = render_html(_document("entries/found_py"))
    assert 'id="entry-points"' in html and "queue consumer" in html
    assert "stripe.Webhook.construct_event" in html


def test_an_output_validator_is_its_own_way_in() -> None:
    """Handed the model's output, not a tool call: the path says so."""
    kinds = set(_path_kinds("checks/UNGOVERNED-PATH/bad_output_validator").values())
    assert "output_validator" in kinds and "tool" not in kinds
