"""What the policy lints need to know about one trigger, read once through the DSL package.

This is the only module of the policy layer that touches the DSL's parse result and dependency
shapes; the lints read these small values instead, so a change in the DSL's internals is fixed
here, once.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from audit.dsl import dependencies, guarded_keys, parse_trigger
from audit.dsl.ast import Expr
from audit.dsl.diagnostics import Diagnostic

__all__ = ["TriggerFacts", "EventWindow", "WherePlaceholder", "trigger_facts"]


@dataclass(frozen=True, slots=True)
class EventWindow:
    """An event clause's lookback: `event` as written (`agent.sent.email`, maybe with project),
    the window as written (`'P7D'` → `P7D`) and its exact length in seconds."""

    event: str
    raw: str
    seconds: Decimal


@dataclass(frozen=True, slots=True)
class WherePlaceholder:
    """A `{{a.b}}` template used as a WHERE value of an event clause; `key` is the state key."""

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


def trigger_facts(text: str) -> TriggerFacts:
    """Parse `text` and collect its guards, event windows and WHERE placeholders."""
    result = parse_trigger(text)
    ast = result.ast if result.ok else None
    if ast is None:
        return TriggerFacts(text, tuple(result.diagnostics), None, frozenset(), (), ())
    windows: list[EventWindow] = []
    wheres: list[WherePlaceholder] = []
    for dependency in dependencies(ast):
        if dependency.window is None:
            continue
        event = _event_name(dependency)
        windows.append(EventWindow(event, dependency.window.raw, dependency.window.seconds))
        wheres.extend(WherePlaceholder(event, _state_key(t)) for t in dependency.templates)
    guarded = frozenset(_state_key(k) for k in guarded_keys(ast))
    return TriggerFacts(text, tuple(result.diagnostics), ast, guarded, tuple(windows),
                        tuple(wheres))


def _event_name(dependency: object) -> str:
    key = str(getattr(dependency, "key"))
    project = getattr(dependency, "project", None)
    return f"{project}.{key}" if project else key


def _state_key(template: object) -> str:
    """`state.a.b`, `{{a.b}}`, `{{state.a.b}}`, or a template literal node → `a.b`."""
    key = getattr(template, "template_key", None)
    text = key if isinstance(key, str) else str(template)
    text = text.strip()
    if text.startswith("{{") and text.endswith("}}"):
        text = text[2:-2].strip()
    return text[len("state."):] if text.startswith("state.") else text
