"""EMUs as the policy checks read them: each EMU whose trigger parses, with the AST and
dependencies the loader parsed once, and the location every EMU finding shares.

A trigger that does not parse is EMU-TRIGGER-SYNTAX's business; the checks here skip it rather
than guess what it meant.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from topo.audit import dsl
from topo.audit.dsl.ast import Expr
from topo.audit.policy import Emu

__all__ = ["ParsedEmu", "parsed_emus", "emu_place"]


@dataclass(frozen=True, slots=True)
class ParsedEmu:
    emu: Emu
    ast: Expr
    dependencies: tuple[dsl.Dependency, ...]


def parsed_emus(emus: Iterable[Emu]) -> Iterator[ParsedEmu]:
    """Every EMU whose trigger is a string that parses without errors, in the given order."""
    for emu in emus:
        if emu.ast is not None:
            yield ParsedEmu(emu, emu.ast, emu.dependencies)


def emu_place(emu: Emu) -> dict[str, Any]:
    """The `ctx.finding` keywords that put a finding on an EMU: its JSONL line, key, symbol."""
    return {"location": emu.location, "symbol": emu.label, "emu_key": emu.emu_key or None}
