"""What the policy lints need to know about one trigger, read from the EMU's parse.

The loader parsed the trigger once (`Emu.parsed`, `Emu.dependencies`); this is the only module
of the policy layer that reads the DSL's parse result and dependency shapes, so the lints read
these small values instead and a change in the DSL's internals is fixed here, once.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from topo.audit.dsl import guarded_keys, templates
from topo.audit.dsl.ast import Expr
from topo.audit.dsl.diagnostics import Diagnostic
from topo.audit.policy.model import Emu

__all__ = ["TriggerFacts", "EventWindow", "WherePlaceholder", "trigger_facts"]


@dataclass(frozen=True, slots=True)
class EventWindow:
    """An event clause's lookback: the accessor as written (`event.[project.]s.v.o`), the
    window without its quotes (`P7D`) and its exact length in seconds."""

    event: str
    raw: str
    seconds: Decimal


@dataclass(frozen=True, slots=True)
class WherePlaceholder:
    """A `{{a.b}}` template used as a WHERE value; `event` is the accessor it filters and `key`
    the state key it reads (legacy `{{state.a.b}}` normalised by the DSL)."""

    event: str
    key: str


@dataclass(frozen=True, slots=True)
class TriggerFacts:
    """`ast` is None when the trigger has errors; `diagnostics` hold errors and warnings.
    `guarded` are the state keys (without `state.`) with an EXISTS guard that holds whenever
    the trigger is true."""

    text: str
    diagnostics: tuple[Diagnostic, ...]
    ast: Expr | None
    guarded: frozenset[str]
    windows: tuple[EventWindow, ...]
    where_placeholders: tuple[WherePlaceholder, ...]


def trigger_facts(emu: Emu) -> TriggerFacts | None:
    """The guards, event windows and WHERE placeholders of `emu`'s parsed trigger; None when
    the EMU has no trigger string."""
    result, text, ast = emu.parsed, emu.trigger, emu.ast
    if result is None or text is None:
        return None
    if ast is None:
        return TriggerFacts(text, result.diagnostics, None, frozenset(), (), ())
    windows = tuple(EventWindow(d.accessor, d.window.raw, d.window.seconds)
                    for d in emu.dependencies if d.kind == "event" and d.window is not None)
    wheres = tuple(WherePlaceholder(f"event.{t.event}", t.key) for t in templates(ast))
    guarded = frozenset(key[len("state."):] for key in guarded_keys(ast)
                        if key.startswith("state."))
    return TriggerFacts(text, result.diagnostics, ast, guarded, windows, wheres)
