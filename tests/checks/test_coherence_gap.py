"""COHERENCE-GAP: where the EMU's project comes from, and what declares a cross-project event."""

from __future__ import annotations

from pathlib import Path

import pytest

from emu_repos import emu, findings

DIRECTIVE = {"type": "context_directive", "directive": "Careful."}


def _tools(projects: str) -> str:
    return ("from memrail.tools import ToolRegistry\n\nregistry = ToolRegistry()\n\n\n"
            f'@registry.tool(name="refund_payment", description="x", projects={projects})\n'
            "async def refund(args: dict) -> dict:\n    return args\n")


def _decide(client_args: str, call_args: str = "") -> str:
    return ("from memrail import AMIClient\nfrom memrail.atoms import state\n\n"
            f"client = AMIClient({client_args})\n\n\n"
            "def decide(ticket):\n"
            f"    return client.decide(decision_point='billing.refund'{call_args},\n"
            "                         context=[state('refund.request_id', ticket.id)])\n")


@pytest.mark.parametrize(("client_args", "call_args", "found"), [
    ('project="support"', "", 1),                    # from the client
    ("", ', project="support"', 1),                  # from the call
    ('project="billing"', ', project="support"', 1),  # the call wins
    ('project="support"', ', project="billing"', 0),
    ("", "", 0),                                     # unknown: configuration or environment
    ("project=PROJECT", "", 0),                      # computed
])
def test_tool_registered_for_another_project(tmp_path: Path, client_args: str, call_args: str,
                                             found: int) -> None:
    files = {"tools.py": _tools('["billing"]'), "app.py": _decide(client_args, call_args)}
    result = findings(tmp_path, "COHERENCE-GAP", files, [emu("state.refund.request_id EXISTS")])
    assert len(result) == found
    if found:
        assert "`support`" in result[0].message and "`billing`" in result[0].message


def test_computed_projects_are_not_judged(tmp_path: Path) -> None:
    files = {"tools.py": _tools("PROJECTS"), "app.py": _decide('project="support"')}
    assert findings(tmp_path, "COHERENCE-GAP", files, [emu("state.refund.request_id EXISTS")]) == []


EVENT = "state.refund.request_id EXISTS AND event.ledger.customer.paid.invoice IN 'P7D'"


def test_an_undeclared_cross_project_event(tmp_path: Path) -> None:
    files = {"app.py": _decide('project="billing"')}
    [found] = findings(tmp_path, "COHERENCE-GAP", files, [emu(EVENT, action=DIRECTIVE)])
    assert "`event.ledger.customer.paid.invoice`" in found.message and "`ledger`" in found.message


def test_declared_in_metadata(tmp_path: Path) -> None:
    declared = emu(EVENT, action=DIRECTIVE) | {"metadata": {"depends_on": ["ledger"]}}
    files = {"app.py": _decide('project="billing"')}
    assert findings(tmp_path, "COHERENCE-GAP", files, [declared]) == []


def test_declared_by_the_code(tmp_path: Path) -> None:
    emitter = ("from memrail import AMIClient\nfrom memrail.atoms import event\n"
               "from datetime import datetime, timezone\n\nledger = AMIClient(project='ledger')\n")
    files = {"app.py": _decide('project="billing"'), "ledger.py": emitter}
    assert findings(tmp_path, "COHERENCE-GAP", files, [emu(EVENT, action=DIRECTIVE)]) == []


def test_no_project_anywhere_says_nothing(tmp_path: Path) -> None:
    files = {"app.py": _decide("")}
    assert findings(tmp_path, "COHERENCE-GAP", files, [emu(EVENT, action=DIRECTIVE)]) == []


def test_typescript_client_options(tmp_path: Path) -> None:
    app = ("import { AMIClient, state } from '@memrail/sdk';\n"
           "const client = new AMIClient({ project: 'support' });\n"
           "export async function decide(ticket: any) {\n"
           "  return client.decide({ decisionPoint: 'billing.refund',\n"
           "                         context: [state('refund.request_id', ticket.id)] });\n"
           "}\n")
    tools = ("import { ToolRegistry } from '@memrail/sdk';\n"
             "export const registry = new ToolRegistry();\n"
             "registry.registerTool('refund_payment', 'Refund', {}, ['billing'],"
             " async (args: any) => args);\n")
    files = {"src/app.ts": app, "src/tools.ts": tools,
             "package.json": '{"dependencies": {"@memrail/sdk": "1.0.0"}}'}
    [found] = findings(tmp_path, "COHERENCE-GAP", files, [emu("state.refund.request_id EXISTS")])
    assert "`support`" in found.message and "`billing`" in found.message


def _emit(project_args: str, name: str = '"agent.sent.email"') -> str:
    return ("from datetime import datetime, timezone\nfrom memrail import AMIClient\n"
            "from memrail.atoms import event\n\n"
            "mailer = AMIClient(project=\"messaging\")\n\n\n"
            "def record(customer):\n"
            f"    mailer.emit_event(event({name}, ts=datetime.now(timezone.utc)){project_args})\n")


SENT = "state.refund.request_id EXISTS AND NOT event.agent.sent.email IN 'P7D'"


@pytest.mark.parametrize(("trigger", "project_args", "found"), [
    (SENT, "", 1),                                       # the client's project: messaging
    (SENT, ', project="other"', 1),                      # the emit's own project
    (SENT, ', project="billing"', 0),                    # where the EMU is decided
    (SENT.replace("event.agent", "event.messaging.agent"), "", 0),   # read where emitted
    (SENT.replace("event.agent", "event.ledger.agent"), "", 1),
    (SENT, ", project=PROJECT", 0),                      # computed: not judged
])
def test_an_event_emitted_into_another_project_than_read(tmp_path: Path, trigger: str,
                                                         project_args: str, found: int) -> None:
    files = {"app.py": _decide('project="billing"'), "mail.py": _emit(project_args)}
    emus = [emu(trigger, action=DIRECTIVE) | {"metadata": {"depends_on": ["ledger"]}}]
    result = findings(tmp_path, "COHERENCE-GAP", files, emus)
    assert len(result) == found
    if found:
        assert "reads `event." in result[0].message and "only into project `" in result[0].message


def test_a_computed_event_name_anywhere_keeps_it_quiet(tmp_path: Path) -> None:
    files = {"app.py": _decide('project="billing"'), "mail.py": _emit(""),
             "other.py": _emit("", name="topic")}
    assert findings(tmp_path, "COHERENCE-GAP", files, [emu(SENT, action=DIRECTIVE)]) == []
