"""Helpers for the front-end tests: parse a small inline source strictly, find facts in it."""

from __future__ import annotations

import textwrap
from collections.abc import Container

from topo.analyzers.ir import Assignment, Call, FileIR
from topo.analyzers.packs import factories
from topo.analyzers.python import parse_python

FACTORIES = factories()   # the shipped packs' factories, for the Python front-end

PATH = "app/agents/refund.py"
MODULE = "app.agents.refund"


def parse(source: str, *, path: str = PATH, module: str = MODULE,
          factories: Container[str] = FACTORIES) -> FileIR:
    """The IR of a dedented inline source; any internal error raises (strict)."""
    return parse_python(path, textwrap.dedent(source).lstrip("\n"), module, strict=True,
                        factories=factories)


def call(ir: FileIR, name: str, *, nth: int = 0) -> Call:
    """The `nth` call whose written name is `name` (in source order)."""
    found = [item for item in ir.calls if item.name == name]
    assert len(found) > nth, f"no call #{nth} named {name!r} in {[c.name for c in ir.calls]}"
    return found[nth]


def only_call(ir: FileIR, name: str) -> Call:
    found = [item for item in ir.calls if item.name == name]
    assert len(found) == 1, f"expected one call named {name!r}, found {len(found)}"
    return found[0]


def assignments(ir: FileIR, target: str) -> list[Assignment]:
    return [item for item in ir.assignments if item.target == target]


def guard_summary(item: Call) -> list[tuple[str, bool, str | None]]:
    """(kind, polarity, condition text) of each guard, outermost first."""
    return [(guard.kind.value, guard.polarity,
             guard.condition.text if guard.condition is not None else None)
            for guard in item.guards]
