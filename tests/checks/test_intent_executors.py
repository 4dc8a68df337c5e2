"""Intent executors (analyzers/flow/intent.py) and one UNGOVERNED-PATH per effect."""

from __future__ import annotations

from pathlib import Path

import pytest

from source_repos import audit_source, found, only
from topo.analyzers.flow.intent import name_words
from topo.analyzers.model import Tier
from topo.analyzers.packs import PackError, load_pack
from topo.audit import codes
from topo.audit.checks import severity_for
from topo.audit.model import Severity

UNGOVERNED = "UNGOVERNED-PATH"


def _audit_tool(root: Path, name: str, body: str):
    """Audit one Agents SDK tool `name(order_id)` with `body`, its `def` on line 7, beside a
    module-level `ORDERS` dict."""
    (root / "app.py").write_text(
        "from agents import Agent, function_tool\n\nORDERS = {}\n\n\n@function_tool\n"
        f"def {name}(order_id: str):\n    {body}\n\n\n"
        f"agent = Agent(name='shop', tools=[{name}])\n")
    return audit_source(root, {})


def test_a_run_context_write_is_an_effect_by_intent_one_tier_lower(tmp_path: Path) -> None:
    findings = audit_source(tmp_path, {"app.py": """
        from agents import Agent, RunContextWrapper, function_tool

        @function_tool
        def refund_order(ctx: RunContextWrapper[dict], order_id: str) -> str:
            ctx.context["refunded"] = order_id
            return "queued"

        agent = Agent(name="shop", tools=[refund_order])
    """})
    finding = only(findings, UNGOVERNED)
    assert (finding.location.file, finding.location.line) == ("app.py", 4)
    assert "`refund_order` (money, stub or in-memory)" in finding.message
    # money keeps the code's default (critical); an intent executor is one tier lower
    assert finding.severity is Severity.HIGH and finding.inferred


@pytest.mark.parametrize("body", [
    'return f"Order {order_id} cancelled"',
    'return {"status": "cancelled", "id": order_id}',
    'return {"success": True}',
    'print(f"Cancelling {order_id}")',
    'pass',
    'ORDERS.pop(order_id)\n    return "ok"',
    'del ORDERS[order_id]\n    return "ok"',
    'self_log = []\n    self_log.append(order_id)\n    ORDERS[order_id] = "x"\n    return "ok"',
])
def test_each_kind_of_evidence_makes_a_cancel_tool_an_executor(tmp_path: Path,
                                                               body: str) -> None:
    assert found(_audit_tool(tmp_path, "cancel_order", body), UNGOVERNED) == [("app.py", 7)]


@pytest.mark.parametrize("name, body", [
    ("cancel_order", 'return f"Order {order_id}"'),                 # an echo
    ("cancel_order", 'local = {}\n    local["id"] = order_id\n    return local'),
    ("cancel_order", 'return {"success": False}'),
    ("cancel_order", 'raise NotImplementedError("later")'),
    ("get_order", 'ORDERS[order_id] = "seen"\n    return "cancelled"'),  # a read verb
    ("cancellation_policy", 'return "cancelled orders are refunded"'),  # not the verb itself
    ("transfer_to_billing", 'return "Transferred to billing"'),          # a handoff
])
def test_echoes_locals_failures_and_read_names_are_not_executors(tmp_path: Path, name: str,
                                                                 body: str) -> None:
    assert found(_audit_tool(tmp_path, name, body), UNGOVERNED) == []


def test_a_tool_that_asks_a_model_or_reaches_a_real_effect_is_not_one(tmp_path: Path) -> None:
    findings = audit_source(tmp_path, {"app.py": """
        import os

        from agents import Agent, Runner, function_tool

        helper = Agent(name="helper")

        def _drop(path):
            os.remove(path)

        @function_tool
        async def send_summary(text: str) -> str:
            result = await Runner.run(helper, text)
            return "sent"

        @function_tool
        def delete_upload(path: str) -> str:
            _drop(path)
            return "deleted"

        agent = Agent(name="ops", tools=[send_summary, delete_upload])
    """})
    # the real effect is reported where it happens, not the tool as intent
    assert found(findings, UNGOVERNED) == [("app.py", 8)]


def test_approval_on_the_registration_governs_an_intent_executor(tmp_path: Path) -> None:
    findings = audit_source(tmp_path, {"app.py": """
        from pydantic_ai import Agent

        agent = Agent("openai:gpt-4o")

        @agent.tool_plain(requires_approval=True)
        def delete_file(path: str) -> str:
            return f"deleted {path}"
    """})
    assert found(findings, UNGOVERNED) == []


_WIPE = """
    import shutil

    from agents import Agent, function_tool

    def _wipe(path):
        shutil.rmtree(path)

    @function_tool
    def clear_cache(path: str) -> str:
        _wipe(path)
        return "cleared"
"""


def test_several_entries_to_one_effect_give_one_finding_with_the_others_related(
        tmp_path: Path) -> None:
    alone = only(audit_source(tmp_path / "alone", {"app.py": _WIPE + """
    agent = Agent(name="ops", tools=[clear_cache])
    """}), UNGOVERNED)
    findings = audit_source(tmp_path / "both", {"app.py": _WIPE + """
    @function_tool
    def reset_workspace(path: str) -> str:
        _wipe(path)
        return "reset"

    agent = Agent(name="ops", tools=[clear_cache, reset_workspace])
    """})
    finding = only(findings, UNGOVERNED)
    assert finding.location.line == 6
    assert finding.message.endswith("(and 1 more entry)")
    assert [place.line for place in finding.related] == [9, 14]
    assert finding.fingerprint == alone.fingerprint != ""   # the kept finding keeps its identity


def test_words_of_exposed_names() -> None:
    assert name_words("cancel_booking") == ("cancel", "booking")
    assert name_words("sendEmail") == ("send", "email")
    assert name_words("submit-order") == ("submit", "order")
    assert name_words("HTTPPost") == ("http", "post")


def test_tiers_are_ordered_and_lowering_stops_at_none() -> None:
    assert [Tier.MONEY.level, Tier.DATA_WRITE.level, Tier.NONE.level] == [0, 1, 2]
    assert Tier.DELETION.lowered(1) == Tier.COMMUNICATION.level
    assert Tier.WORKFLOW.lowered(5) == Tier.NONE.level
    assert severity_for(codes.UNGOVERNED_PATH, "money") is Severity.CRITICAL
    assert severity_for(codes.UNGOVERNED_PATH, "money", 1) is Severity.HIGH
    assert severity_for(codes.UNGOVERNED_PATH, "communication", 1) is Severity.MEDIUM
    assert severity_for(codes.UNGOVERNED_PATH, "no such tier") is Severity.HIGH


def test_the_intent_rules_are_checked_pack_data(tmp_path: Path) -> None:
    pack = tmp_path / "mine.toml"
    pack.write_text('system = "mine"\nlanguages = ["python"]\n[tools.intent.verbs]\n'
                    'money = ["refund"]\ndeletion = ["refund"]\n')
    with pytest.raises(PackError, match="'refund' is already a"):
        load_pack(pack)
    pack.write_text('system = "mine"\nlanguages = ["python"]\n[tools.intent.verbs]\n'
                    'nothing = ["refund"]\n')
    with pytest.raises(PackError, match=r"tools\.intent\.verbs"):
        load_pack(pack)
    pack.write_text('system = "mine"\nlanguages = ["python"]\n[tools.intent]\n'
                    'tier_drop = 1\nverbs = { money = ["refund"] }\nlog_calls = ["a.{b"]\n')
    with pytest.raises(PackError, match=r"tools\.intent\.log_calls\[0\]"):
        load_pack(pack)
