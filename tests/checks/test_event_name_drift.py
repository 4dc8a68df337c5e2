"""EVENT-NAME-DRIFT: the name matcher, and the check on either polarity."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.audit.checks._event_names import drifted_names
from emu_repos import emitter, emu, findings

DIRECTIVE = {"type": "context_directive", "directive": "Offer a follow-up email."}


@pytest.mark.parametrize(("name", "emitted", "how"), [
    ("agent.sent.email", "agent.email.sent", "same words in another order"),
    ("agent.sent.email", "agent.sent.emails", "a near-miss spelling"),
    ("agent.sent.email", "agent.sent.emial", "a near-miss spelling"),
    ("user.sent.replies", "user.sent.reply", "a near-miss spelling"),
    ("user.failed.login", "user.failed.logon", "a near-miss spelling"),
])
def test_drifts(name: str, emitted: str, how: str) -> None:
    assert drifted_names(name, [emitted, "other.thing.done"]) == ((emitted, how),)


@pytest.mark.parametrize(("name", "emitted"), [
    ("agent.sent.email", "agent.sent.email"),        # the same name is no drift
    ("agent.sent.email", "agent.seen.email"),        # two edits in a four-letter word
    ("user.created.account", "user.deleted.account"),
    ("agent.sent.email", "billing.agent.sent.email"),
    ("user.login.ok", "user.login.no"),
])
def test_different_events(name: str, emitted: str) -> None:
    assert drifted_names(name, [emitted]) == ()


def test_the_docs_case_is_drift(tmp_path: Path) -> None:
    [found] = findings(tmp_path, "EVENT-NAME-DRIFT", {"app.py": emitter(("agent.email.sent", ""))},
                       [emu("NOT event.agent.sent.email IN 'P7D'", action=DIRECTIVE)])
    assert found.message == ("EMU `billing.small_refund` reads `event.agent.sent.email`, which "
                             "nothing emits, while the code emits `agent.email.sent` (same words "
                             "in another order)")
    assert [r.file for r in found.related] == ["app.py"]


def test_a_positive_clause_drifts_too(tmp_path: Path) -> None:
    trigger = "COUNT event.user.failed.logins IN 'PT15M' >= 5"
    found = findings(tmp_path, "EVENT-NAME-DRIFT", {"app.py": emitter(("user.failed.login", ""))},
                     [emu(trigger, action=DIRECTIVE)])
    assert len(found) == 1


def test_no_drift_when_the_exact_name_is_emitted_as_well(tmp_path: Path) -> None:
    code = emitter(("agent.email.sent", ""), ("agent.sent.email", ""))
    assert findings(tmp_path, "EVENT-NAME-DRIFT", {"app.py": code},
                    [emu("NOT event.agent.sent.email IN 'P7D'", action=DIRECTIVE)]) == []
