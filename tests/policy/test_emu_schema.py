"""`EmuSchema`: the quick, memoised verdict must be jsonschema's verdict, EMU after EMU.

One `EmuSchema` is shared by every case below, in one order, so that a remembered verdict for
an `action` or `policy` object is reused by later EMUs: a memo keyed too loosely would hand a
valid EMU's verdict to an invalid one (or the other way round) and fail here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from topo.audit.policy import EmuSchema, emu_validator, schema_violations
from tests.policy.helpers import DELETE, anatomy
from tests.policy.test_schema import BAD, BAD_PAYLOADS, PAYLOADS

REPO = Path(__file__).resolve().parents[2]


def _corpus_objects() -> list[Any]:
    objects = []
    for path in sorted(REPO.glob("corpus/**/*.jsonl")):
        for line in path.read_bytes().split(b"\n"):
            try:
                objects.append(json.loads(line))
            except (ValueError, RecursionError):
                continue  # the loader's job, not the schema's
    return objects


def _cases() -> list[Any]:
    cases: list[Any] = [anatomy()]
    cases += [anatomy(**changes) for changes, _, _ in BAD.values()]
    cases += [anatomy(action=action) for action in PAYLOADS.values()]
    cases += [anatomy(action=action) for action, _, _ in BAD_PAYLOADS.values()]
    # The same values again after their verdict is remembered, in both orders of validity,
    # and values that are equal as JSON text but not as Python (1 and True, key order).
    cases += [anatomy(), anatomy(action=BAD_PAYLOADS["directive missing"][0]), anatomy()]
    cases += [anatomy(confidence=True), anatomy(confidence=1), anatomy(confidence=1.0)]
    cases += [anatomy(policy__cooldown={"gate": "ack", "seconds": 3600}),
              anatomy(policy__cooldown={"gate": "ack", "seconds": "3600"}),
              anatomy(policy__cooldown={"seconds": 3600, "gate": "ack"})]
    cases += [anatomy(action=DELETE), anatomy(metadata=[]), [], "an EMU", None]
    return cases + _corpus_objects()


CASES = _cases()


@pytest.fixture(scope="module")
def shared() -> EmuSchema:
    return EmuSchema()


@pytest.mark.parametrize("index", range(len(CASES)))
def test_the_quick_verdict_is_jsonschemas_verdict(shared: EmuSchema, index: int) -> None:
    raw = CASES[index]
    assert shared.holds(raw) is emu_validator().is_valid(raw)
    if isinstance(raw, dict):
        assert shared.violations(raw) == schema_violations(raw)


def test_the_cases_hold_both_verdicts() -> None:
    verdicts = {emu_validator().is_valid(raw) for raw in CASES}
    assert verdicts == {True, False}  # else the test above could not tell the paths apart


def test_a_shared_action_object_is_validated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    plain = Draft202012Validator.is_valid

    def counting(self: Draft202012Validator, instance: object, _schema: object = None) -> bool:
        if isinstance(instance, dict) and instance.get("type") == "tool_call":
            calls.append(instance)
        return plain(self, instance, _schema)

    monkeypatch.setattr(Draft202012Validator, "is_valid", counting)
    schema = EmuSchema()
    assert schema.holds(anatomy(emu_key="support.first"))
    first = len(calls)
    assert first > 0
    assert all(schema.holds(anatomy(emu_key=f"support.k{index}")) for index in range(20))
    assert len(calls) == first  # the 20 later EMUs reuse the action's verdict


def test_a_root_keyword_it_does_not_split_on_validates_each_emu_whole() -> None:
    root = {**emu_validator().schema, "unevaluatedProperties": False,
            "allOf": [{"properties": {"confidence": {"maximum": 0.5}}}]}
    schema = EmuSchema(Draft202012Validator(root))
    assert schema.holds(anatomy(confidence=0.4))
    assert not schema.holds(anatomy(confidence=0.9))
    assert not schema.holds(anatomy(action=BAD_PAYLOADS["directive missing"][0]))
