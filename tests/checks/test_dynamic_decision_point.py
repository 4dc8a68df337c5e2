"""DYNAMIC-DECISION-POINT: decision point names chosen at run time, and where from."""

from __future__ import annotations

from pathlib import Path

import pytest

from source_repos import audit_source, found, only

CODE = "DYNAMIC-DECISION-POINT"
APP = """
from memrail import AMIClient
from openai import OpenAI

ami = AMIClient()
client = OpenAI()
POINT = "support.refund"


def ask(request):
    reply = client.responses.create(model="gpt-4o-mini", input=request["text"])
    return ami.decide(decision_point={point}, context=[])
"""


@pytest.mark.parametrize(("point", "provenance"), [
    ('request["point"]', "is request-derived (parameter `request` of the entry point `app.ask`)"),
    ("reply.output_text", "comes from model output of `app.ask`"),
    ('f"support.{reply.output_text}"', "comes from model output of `app.ask`"),
])
def test_names_computed_at_run_time(tmp_path: Path, point: str, provenance: str) -> None:
    finding = only(audit_source(tmp_path, {"app.py": APP.replace("{point}", point)}), CODE)
    assert (finding.location.line, finding.symbol) == (11, "app.ask")
    assert finding.message == f"the decision point of `AMIClient.decide` is `{point}`, which " \
        f"{provenance}"


@pytest.mark.parametrize("point", ['"support.refund"', "POINT"])
def test_names_fixed_in_code(tmp_path: Path, point: str) -> None:
    findings = audit_source(tmp_path, {"app.py": APP.replace("{point}", point)})
    assert found(findings, CODE) == []


def test_a_constant_imported_from_another_module(tmp_path: Path) -> None:
    files = {"pkg/__init__.py": "", "pkg/points.py": 'REFUND = "support.refund"\n',
             "pkg/app.py": APP.replace("{point}", "REFUND").replace(
                 "from openai import OpenAI", "from openai import OpenAI\n"
                                              "from pkg.points import REFUND")}
    assert found(audit_source(tmp_path, files), CODE) == []


WRAPPER = """
from memrail import AMIClient

ami = AMIClient()


def decide_at(point, ticket):
    return ami.decide(decision_point=point, context=[])


def refund(ticket):
    return decide_at("support.refund", ticket)


def route(ticket):
    return decide_at({other}, ticket=ticket)
"""


def test_a_wrapper_whose_callers_pass_literals(tmp_path: Path) -> None:
    source = WRAPPER.replace("{other}", 'point="support.route"')
    assert found(audit_source(tmp_path, {"app.py": source}), CODE) == []


def test_a_wrapper_with_one_computed_caller(tmp_path: Path) -> None:
    source = WRAPPER.replace("{other}", "ticket.queue")
    finding = only(audit_source(tmp_path, {"app.py": source}), CODE)
    assert finding.location.line == 7
    assert "comes from callers of `app.decide_at` (parameter `point`)" in finding.message
