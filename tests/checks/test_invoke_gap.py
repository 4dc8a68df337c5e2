"""INVOKE-GAP: EMUs nobody invokes, and registered tools called around their decision."""

from __future__ import annotations

from pathlib import Path

from emu_repos import emu, findings

DIRECTIVE = {"type": "context_directive", "directive": "Offer the refund."}
TOOLS = ("import stripe\nfrom memrail.tools import ToolRegistry\n\nregistry = ToolRegistry()\n\n\n"
         '@registry.tool(name="refund_payment", description="Refund", projects=["billing"])\n'
         "async def refund_payment(args: dict) -> dict:\n"
         '    return stripe.Refund.create(charge=args["charge_id"])\n')


def _decide(point: str) -> str:
    return ("from memrail import AMIClient\nfrom memrail.atoms import state\n\n"
            'client = AMIClient(project="billing")\n\n\n'
            "def guidance(ticket):\n"
            f"    return client.decide(decision_point={point},\n"
            "                         context=[state('refund.request_id', ticket.id)])\n")


def _gaps(root: Path, files: dict[str, str], emus: list[dict] | None = None) -> list:
    default = [emu("state.refund.request_id EXISTS", action=DIRECTIVE)]
    return findings(root, "INVOKE-GAP", files, default if emus is None else emus)


def test_an_uninvoked_point_is_reported_on_the_emu(tmp_path: Path) -> None:
    [found] = _gaps(tmp_path, {"app.py": _decide("'billing.chargeback'")})
    assert found.location.file == "emus/emus.jsonl" and found.emu_key == "billing.small_refund"
    assert "`billing.refund`" in found.message and not found.inferred


def test_an_invoked_point_is_not(tmp_path: Path) -> None:
    assert _gaps(tmp_path, {"app.py": _decide("'billing.refund'")}) == []


def test_a_computed_point_may_reach_any_emu(tmp_path: Path) -> None:
    assert _gaps(tmp_path, {"app.py": _decide("ticket.point")}) == []


def test_an_emu_only_repository_is_not_judged(tmp_path: Path) -> None:
    assert _gaps(tmp_path, {}) == []


def test_code_without_any_decision_call_is(tmp_path: Path) -> None:
    assert len(_gaps(tmp_path, {"app.py": "def handler(request):\n    return None\n"})) == 1


def test_an_unbound_emu_where_every_call_is_named(tmp_path: Path) -> None:
    # "Named invocations select only EMUs bound to that exact point" (seed 000).
    unbound = emu("state.refund.request_id EXISTS", action=DIRECTIVE)
    unbound["decision_point"] = None
    [found] = _gaps(tmp_path, {"app.py": _decide("'other.point'")}, [unbound])
    assert "bound to no decision point" in found.message and not found.inferred


def test_an_omitted_binding_may_persist_so_it_is_inferred(tmp_path: Path) -> None:
    unbound = emu("state.refund.request_id EXISTS", action=DIRECTIVE)
    del unbound["decision_point"]
    [found] = _gaps(tmp_path, {"app.py": _decide("'other.point'")}, [unbound])
    assert found.inferred


def test_an_unnamed_call_selects_unbound_emus(tmp_path: Path) -> None:
    unbound = emu("state.refund.request_id EXISTS", action=DIRECTIVE)
    unbound["decision_point"] = None
    unnamed = _decide("'x'").replace("decision_point='x',\n                         ", "")
    assert "decision_point" not in unnamed
    assert _gaps(tmp_path, {"app.py": unnamed}, [unbound]) == []


def test_a_direct_call_of_a_registered_tool(tmp_path: Path) -> None:
    admin = ("from tools import refund_payment\n\n\n"
             "async def force(ticket):\n"
             "    return await refund_payment({'charge_id': ticket.charge_id})\n")
    files = {"tools.py": TOOLS, "admin.py": admin, "app.py": _decide("'billing.refund'")}
    tool_emu = emu("state.refund.request_id EXISTS")
    [found] = _gaps(tmp_path, files, [tool_emu])
    where = (found.location.file, found.location.line, found.symbol)
    assert where == ("admin.py", 5, "admin.force")
    assert found.emu_key is None and "`refund_payment`" in found.message
    assert "`billing.refund`" in found.message


def test_a_direct_call_guarded_by_another_point_is_still_a_bypass(tmp_path: Path) -> None:
    admin = ("from memrail import AMIClient\nfrom memrail.atoms import state\n"
             "from tools import refund_payment\n\nclient = AMIClient()\n\n\n"
             "async def force(ticket):\n"
             "    decision = client.decide(decision_point='billing.other',\n"
             "                             context=[state('refund.request_id', ticket.id)])\n"
             "    if decision.selected:\n"
             "        return await refund_payment({'charge_id': ticket.charge_id})\n")
    files = {"tools.py": TOOLS, "admin.py": admin, "app.py": _decide("'billing.refund'")}
    tool_emu = emu("state.refund.request_id EXISTS")
    other = emu("state.refund.request_id EXISTS", key="billing.other", action=DIRECTIVE)
    other["decision_point"] = "billing.other"
    [found] = _gaps(tmp_path, files, [tool_emu, other])
    assert found.location.file == "admin.py"


def test_a_direct_call_under_its_decision_is_governed(tmp_path: Path) -> None:
    admin = ("from memrail import AMIClient\nfrom memrail.atoms import state\n"
             "from tools import refund_payment\n\nclient = AMIClient()\n\n\n"
             "async def force(ticket):\n"
             "    decision = client.decide(decision_point='billing.refund',\n"
             "                             context=[state('refund.request_id', ticket.id)])\n"
             "    if decision.selected:\n"
             "        return await refund_payment({'charge_id': ticket.charge_id})\n")
    files = {"tools.py": TOOLS, "admin.py": admin}
    assert _gaps(tmp_path, files, [emu("state.refund.request_id EXISTS")]) == []


BILLING = ("import stripe\nfrom apscheduler.schedulers.background import BackgroundScheduler\n"
           "from memrail import AMIClient\nfrom memrail.atoms import state\n\n"
           "client = AMIClient(project='billing')\nscheduler = BackgroundScheduler()\n\n\n"
           "def issue_refund(charge_id):\n"
           "    stripe.Refund.create(charge=charge_id)\n\n\n"
           "def handle(request):\n"
           "    decision = client.decide(decision_point='billing.refund',\n"
           "                             context=[state('refund.request_id', request.id)])\n"
           "    if decision.selected:\n"
           "        issue_refund(request.charge_id)\n")


def test_a_function_a_scheduler_runs_is_an_entry_even_when_code_calls_it(tmp_path: Path) -> None:
    """The handler reaches the refund only through its decision; the scheduler runs the same
    helper directly, so the job is a way in that bypasses it, and the message says so."""
    job = BILLING + "\n\nscheduler.add_job(issue_refund, 'interval', hours=1, args=['ch_1'])\n"
    [found] = _gaps(tmp_path, {"billing.py": job}, [])
    assert (found.location.file, found.location.line) == ("billing.py", 11)
    assert found.message.startswith("`billing.issue_refund` (scheduled job) reaches")
    assert "the decision at `billing.refund`" in found.message


def test_the_same_helper_registered_by_nothing_is_no_bypass(tmp_path: Path) -> None:
    assert _gaps(tmp_path, {"billing.py": BILLING}, []) == []
