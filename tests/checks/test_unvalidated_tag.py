"""UNVALIDATED-TAG: model output sent as a tag, and the validations that clear it."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.audit.pipeline import AuditRequest, run_audit
from source_repos import audit_source, found, only

CODE = "UNVALIDATED-TAG"
APP = """
import enum
import typing
from typing import Literal
from memrail import AMIClient
from memrail.atoms import state, tag
from openai import OpenAI
from pydantic import TypeAdapter

Intent = Literal["refund", "other"]
ALLOWED = frozenset({"refund", "other"})
ADAPTER = TypeAdapter(Intent)
client = OpenAI()
ami = AMIClient()


class Kind(str, enum.Enum):
    REFUND = "refund"
    OTHER = "other"


def classify(ticket):
    reply = client.responses.create(model="gpt-4o-mini", input=ticket.body)
    raw = reply.output_text.strip()
{validation}
    return ami.decide(decision_point="support.refund",
                      context=[state("ticket.id", ticket.id), tag("intent", intent)])
"""


def _findings(tmp_path: Path, *lines: str):
    source = APP.replace("{validation}", "\n".join("    " + line for line in lines))
    return audit_source(tmp_path, {"app.py": source})


def _tag_line(lines: tuple[str, ...]) -> int:
    return 25 + len(lines)


def test_a_free_form_model_label(tmp_path: Path) -> None:
    finding = only(_findings(tmp_path, "intent = raw"), CODE)
    assert (finding.location.line, finding.symbol) == (26, "app.classify")
    assert finding.message == "tag `intent` takes `intent` from model output of " \
        "`app.classify` without validation against a fixed set"
    assert finding.path[0].startswith("inference:") and finding.path[-1].startswith("atom:")


@pytest.mark.parametrize("lines", [
    ("intent = TypeAdapter(Intent).validate_python(raw)",),
    ('intent = TypeAdapter(typing.Literal["refund", "other"]).validate_python(raw)',),
    ("intent = ADAPTER.validate_python(raw)",),
    ("intent = Kind(raw)",),
    ("intent = raw", "if intent not in ALLOWED:", "    raise ValueError(intent)"),
    ('intent = raw if raw in ALLOWED else "other"',),
])
def test_validated_labels(tmp_path: Path, lines: tuple[str, ...]) -> None:
    assert found(_findings(tmp_path, *lines), CODE) == []


@pytest.mark.parametrize("lines", [
    ("intent = TypeAdapter(str).validate_python(raw)",),
    ("intent = raw", "if intent in ticket.labels:", "    pass"),
    ("intent = raw", "if not intent:", "    raise ValueError(intent)"),
])
def test_checks_that_do_not_bound_the_label(tmp_path: Path, lines: tuple[str, ...]) -> None:
    assert found(_findings(tmp_path, *lines), CODE) == [("app.py", _tag_line(lines))]


def test_an_attribute_of_a_validated_value(tmp_path: Path) -> None:
    assert found(_findings(tmp_path, "intent = Kind(raw).value"), CODE) == []


def test_a_label_the_model_did_not_write(tmp_path: Path) -> None:
    assert found(_findings(tmp_path, "intent = ticket.category"), CODE) == []


def test_validation_in_another_file(corpus: Path) -> None:
    """The refund agent validates in `classify_intent` and tags the result elsewhere."""
    result = run_audit(AuditRequest(root=corpus / "apps" / "memrail_refund", jobs=1,
                                    cache_dir=None))
    assert found(result.findings, CODE) == []


TS = """
import { AMIClient, tag } from "@memrail/sdk";
import OpenAI from "openai";
import { z } from "zod";

const Intent = z.enum(["refund", "other"]);
const openai = new OpenAI();
const client = new AMIClient();

export async function classify(ticket: { id: string; body: string }) {
  const reply = await openai.chat.completions.create({ model: "gpt-4o", messages: [] });
  const raw = reply.choices[0].message.content;
  const intent = {value};
  return client.decide({ decisionPoint: "support.refund", context: [tag("intent", intent)] });
}
"""


@pytest.mark.parametrize(("value", "expected"), [
    ("raw", [("app.ts", 13)]),
    ("Intent.parse(raw)", []),
    ('z.enum(["refund", "other"]).parse(raw)', []),
])
def test_typescript_zod_enum_validation(tmp_path: Path, value: str, expected: list) -> None:
    findings = audit_source(tmp_path, {"app.ts": TS.replace("{value}", value)})
    assert found(findings, CODE) == expected


def _labelled(tmp_path: Path, atoms: str):
    source = APP.replace("{validation}", "    intent = Kind(raw)").replace(
        'context=[state("ticket.id", ticket.id), tag("intent", intent)])', f"context=[{atoms}])")
    return audit_source(tmp_path, {"app.py": source})


@pytest.mark.parametrize(("atoms", "kind"), [
    ('tag("intent", intent, source="system")', "tag"),
    ('state("ticket.intent", intent, source="system")', "state"),
    ('state("ticket.id", raw, source="system")', "state"),
])
def test_model_output_labelled_as_an_application_fact(tmp_path: Path, atoms: str,
                                                      kind: str) -> None:
    finding = only(_labelled(tmp_path, atoms), CODE)
    assert finding.message.startswith(f"{kind} `") and \
        "labels its source `system`" in finding.message, finding.message


@pytest.mark.parametrize("atoms", [
    'tag("intent", intent, source="ml")',
    'state("ticket.intent", intent, source="ml")',
    # The SDK's default label: not judged (validated tool arguments are sent as state).
    'state("ticket.intent", intent)',
    'tag("intent", intent)',
    # The application's own fact, labelled as such.
    'state("ticket.id", ticket.id, source="system")',
])
def test_labels_that_do_not_impersonate(tmp_path: Path, atoms: str) -> None:
    assert found(_labelled(tmp_path, atoms), CODE) == []
