"""Totality: no input makes the policy layer raise; bad input becomes findings or errors."""

from __future__ import annotations

import json
from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import given, settings
from hypothesis import strategies as st

from topo.audit import codes
from topo.audit.policy import load_emus
from tests.policy.helpers import ANATOMY, findings

SCALARS = st.none() | st.booleans() | st.integers(-10, 10**6) | st.floats(allow_nan=False,
                                                                            allow_infinity=False)
TEXT = st.sampled_from(["", "x", "PT1H", "{{ticket.id}}", "{{state.a.b}}", "ACTIVE", "auto",
                        "tool_call", "route", "state.a.b EXISTS", "state.a.b == 'x' and"]) | st.text(
    max_size=12)
JSON = st.recursive(SCALARS | TEXT, lambda children: st.lists(children, max_size=4)
                    | st.dictionaries(TEXT, children, max_size=4), max_leaves=12)
FIELDS = st.sampled_from(sorted(ANATOMY) + ["tool", "args", "cooldown", "idempotency"])


def mutated(base: dict, paths: list[tuple[str, object]]) -> dict:
    out = json.loads(json.dumps(base))
    for name, value in paths:
        target = out
        for part in name.split("."):
            if isinstance(target, dict) and isinstance(target.get(part), dict):
                target = target[part]
        if isinstance(target, dict):
            target[name.rsplit(".", 1)[-1]] = value
    return out


NESTED = st.sampled_from(["action.type", "action.tool", "action.tool.args", "action.tool.version",
                          "policy", "policy.mode", "policy.cooldown", "policy.idempotency",
                          "policy.idempotency.scope", "trigger", "state", "emu_key"])


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(FIELDS, JSON, max_size=8))
def test_any_object_lints_without_raising(raw: dict) -> None:
    for finding in findings(raw):
        assert finding.code in codes.ALL
        assert "\n" not in finding.message and finding.message


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(NESTED, JSON), min_size=1, max_size=3))
def test_any_mutation_of_a_valid_emu_lints_without_raising(changes: list) -> None:
    for finding in findings(mutated(ANATOMY, changes)):
        assert finding.code in codes.ALL and finding.emu_key in (None, finding.symbol)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.binary(max_size=40) | st.sampled_from(
    [b"{}", b"[]", b"#", b"", b'{"emu_key": "k.a"}', b'{"emu_key": "k.a", "x": NaN}']),
    min_size=1, max_size=6))
def test_any_bytes_load_without_raising(lines: list[bytes]) -> None:
    with TemporaryDirectory() as folder:
        (Path(folder) / "emus.jsonl").write_bytes(b"\n".join(lines))
        loaded = load_emus(folder)
    assert all(error.location.line >= 1 for error in loaded.errors)
    keys = [emu.emu_key for emu in loaded.emus if emu.emu_key]
    assert len(keys) == len(set(keys))
