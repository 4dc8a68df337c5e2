"""The examples in audit/docs/codes/<CODE>.md run: the code is found on the Example and not on
the Use-instead line.

Only the policy layer's own codes are checked here, on the EMU alone; the codes of graph checks
need code beside the EMU and are run by tests/checks/test_code_docs.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from topo.audit import codes
from topo.audit.policy.lints import LINTS
from tests.policy.helpers import codes_of

DOCS = Path(__file__).resolve().parents[2] / "audit" / "docs" / "codes"
POLICY_CODES = tuple(c for c in codes.ALL if c in {lint.code for lint in LINTS})


def example(code_id: str, heading: str) -> dict:
    text = (DOCS / f"{code_id}.md").read_text()
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"```json\n(.*?)\n```", section, re.S)
    assert "\n" not in block.strip(), "an EMU example is one JSONL line"
    return json.loads(block)


@pytest.mark.parametrize("code", POLICY_CODES, ids=lambda c: c.id)
def test_example_is_found(code: codes.Code) -> None:
    assert code.id in codes_of(example(code.id, "Example"))


@pytest.mark.parametrize("code", POLICY_CODES, ids=lambda c: c.id)
def test_use_instead_is_clean(code: codes.Code) -> None:
    assert codes_of(example(code.id, "Use instead")) == []
