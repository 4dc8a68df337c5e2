"""Turning jsonschema errors into one-sentence messages in a policy author's terms.

jsonschema says "'PT1H' is not of type 'object'"; the author needs "`policy.cooldown` is the
string 'PT1H'; cooldown is an object `{seconds, gate}`". One translator per schema keyword,
plus small tables keyed by the *shape* of the path (array indexes written `[]`) for the places
where the docs give the rule in words. Anything unforeseen falls back to jsonschema's own text,
prefixed with the path, so nothing is ever dropped.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from jsonschema.exceptions import ValidationError

from topo.audit.policy.paths import JsonPath, dotted

__all__ = ["SchemaViolation", "violations_of", "describe"]


@dataclass(frozen=True, slots=True)
class SchemaViolation:
    """One place in an EMU object that breaks the schema, and what is wrong with it."""

    path: JsonPath
    message: str


def violations_of(error: ValidationError) -> Iterator[SchemaViolation]:
    """The violations one jsonschema error stands for (a `required` error may name several)."""
    translate = _TRANSLATORS.get(str(error.validator), _fallback)
    yield from translate(error, tuple(error.absolute_path))


def describe(value: object) -> str:
    """A JSON value as a phrase: `the string 'PT1H'`, `the number 5`, `an object`."""
    match value:
        case bool() | None:
            return {True: "`true`", False: "`false`", None: "`null`"}[value]
        case str():
            shown = value if len(value) <= 40 else value[:37] + "..."
            return f"the string {shown!r}"
        case int() | float():
            return f"the number {value}"
        case list():
            return "a list"
        case _:
            return "an object"


def _shape(path: JsonPath) -> str:
    """`("action", "options", 2, "id")` → `action.options[].id`: the key of the tables below."""
    return "".join("[]" if isinstance(part, int) else f".{part}" for part in path).lstrip(".")


def _at(path: JsonPath, text: str) -> SchemaViolation:
    return SchemaViolation(path, f"`{dotted(path)}` {text}")


# ---- required ------------------------------------------------------------------------------

# Why a field is required, in the docs' words ("Every tool_call includes its own intent and
# tool.version").
_REQUIRED_BECAUSE = {
    "emu_key": "every EMU has a stable key",
    "trigger": "every EMU has a trigger expression",
    "action": "every EMU has an action",
    "action.type": "the action type (context_directive, decision_prompt, route or tool_call) "
                   "selects its payload",
    "action.intent": "a `tool_call` carries its own intent, and the EMU's top-level `intent` "
                     "does not count",
    "action.tool": "a `tool_call` names its tool as `{tool_id, version, args}`",
    "action.tool.tool_id": "a `tool_call` names the registered tool it calls",
    "action.tool.version": "every `tool_call` tool pins a version such as '1.0.0'",
    "action.directive": "a `context_directive` carries the directive text",
    "action.options[].id": "each decision_prompt option is `{id, label}`",
    "action.options[].label": "each decision_prompt option is `{id, label}`",
    "policy.cooldown.seconds": "a cooldown is `{seconds, gate}`",
    "policy.cooldown.gate": "a cooldown is `{seconds, gate}` with gate 'ack' or 'activation'",
    "policy.idempotency.enabled": "structured idempotency states `enabled` explicitly",
}


def _required(error: ValidationError, path: JsonPath) -> Iterator[SchemaViolation]:
    instance = error.instance if isinstance(error.instance, dict) else {}
    for name in error.validator_value:
        if name not in instance:
            field = path + (name,)
            because = _REQUIRED_BECAUSE.get(_shape(field), "it is required")
            yield _at(field, f"is missing; {because}")


# ---- unknown fields ------------------------------------------------------------------------

# Fields written in the wrong object, mostly by the flat SDK tool format.
_MISPLACED = {
    "action.args": "arguments belong in `action.tool.args`",
    "action.tool_id": "the tool id belongs in `action.tool.tool_id`",
    "action.version": "the version belongs in `action.tool.version`",
    "action.name": "the flat SDK tool format; the tool is `action.tool.tool_id`",
    "action.tool.name": "the legacy spelling of `tool_id`",
    "action.idempotency": "idempotency belongs in `policy.idempotency`",
    "action.cooldown": "the cooldown belongs in `policy.cooldown`",
    "cooldown": "the cooldown belongs in `policy.cooldown`",
    "idempotency": "idempotency belongs in `policy.idempotency`",
    "mode": "the mode belongs in `policy.mode`",
    "priority": "the priority belongs in `policy.priority`",
}


def _additional(error: ValidationError, path: JsonPath) -> Iterator[SchemaViolation]:
    allowed = sorted(error.schema.get("properties", {}))
    owner = "an EMU field" if not path else f"a field of `{dotted(path)}`"
    for name in error.instance:
        if name in allowed:
            continue
        field = path + (name,)
        note = _MISPLACED.get(_shape(field))
        if note is None:
            close = difflib.get_close_matches(str(name), allowed, n=1, cutoff=0.6)
            note = f"did you mean `{close[0]}`?" if close else f"known fields: {', '.join(allowed)}"
        yield _at(field, f"is not {owner} ({note})")


# ---- types ---------------------------------------------------------------------------------

_TYPE_RULE = {
    "policy.cooldown": "cooldown is an object `{seconds, gate}`",
    "policy.cooldown.seconds": "cooldown seconds is a whole number of seconds, not a duration",
    "policy.idempotency": "idempotency is the structured object "
                          "`{enabled, boundary, roles, scope}`",
    "policy.priority": "priority is an integer from 0 through 9",
    "action.tool": "a tool is the object `{tool_id, version, args}`, not the flat SDK tool name",
    "action.tool.args": "tool arguments are an object of named values",
    "action": "an action is an object discriminated by `type`",
    "policy": "policy is an object `{mode, priority, cooldown, idempotency, exclusion_groups}`",
}

_TYPE_NAMES = {"object": "an object", "array": "a list", "string": "a string",
               "integer": "an integer", "number": "a number", "boolean": "`true` or `false`",
               "null": "`null`"}


def _type(error: ValidationError, path: JsonPath) -> Iterator[SchemaViolation]:
    rule = _TYPE_RULE.get(_shape(path))
    if rule is None:
        expected = error.validator_value
        names = [expected] if isinstance(expected, str) else list(expected)
        rule = "expected " + " or ".join(_TYPE_NAMES.get(n, n) for n in names)
    yield _at(path, f"is {describe(error.instance)}; {rule}")


# ---- enumerations and constants ------------------------------------------------------------

# (what one value is, what all values are) for each enumerated field.
_ENUM_NOUNS = {
    "state": ("a lifecycle state", "lifecycle values"),
    "policy.mode": ("a policy mode", "policy modes"),
    "policy.cooldown.gate": ("a cooldown gate", "cooldown gates"),
    "action.type": ("an action type", "action types"),
    "action.tool.retry.policy": ("a retry policy", "retry policies"),
}


def _enum(error: ValidationError, path: JsonPath) -> Iterator[SchemaViolation]:
    options = [o for o in error.validator_value if isinstance(o, str)]
    one, all_ = _ENUM_NOUNS.get(_shape(path), ("an allowed value", "allowed values"))
    value = error.instance
    if isinstance(value, str) and value.lower() in options:
        yield _at(path, f"{value!r} is not {one}; {all_} are lowercase ('{value.lower()}')")
    elif isinstance(value, str):
        yield _at(path, f"{value!r} is not {one} ({', '.join(options)})")
    else:
        yield _at(path, f"is {describe(value)}, not {one} ({', '.join(options)})")


def _const(error: ValidationError, path: JsonPath) -> Iterator[SchemaViolation]:
    yield _at(path, f"is {describe(error.instance)}; the only accepted value is "
                    f"{error.validator_value!r}")


# ---- strings, numbers, lists ---------------------------------------------------------------

_PATTERN_RULE = {
    "emu_key": "uses characters outside letters, digits and `:_.-`",
    "decision_point": "is not a lowercase name matching `^[a-z][a-z0-9._-]*$`",
}


def _pattern(error: ValidationError, path: JsonPath) -> Iterator[SchemaViolation]:
    rule = _PATTERN_RULE.get(_shape(path), f"does not match `{error.validator_value}`")
    yield _at(path, f"{error.instance!r} {rule}")


def _min_length(error: ValidationError, path: JsonPath) -> Iterator[SchemaViolation]:
    if error.validator_value == 1:
        yield _at(path, "is an empty string")
    else:
        yield _at(path, f"{error.instance!r} is shorter than {error.validator_value} characters")


def _max_length(error: ValidationError, path: JsonPath) -> Iterator[SchemaViolation]:
    yield _at(path, f"is {len(error.instance)} characters long, more than "
                    f"{error.validator_value}")


def _bound(error: ValidationError, path: JsonPath) -> Iterator[SchemaViolation]:
    low, high = error.schema.get("minimum"), error.schema.get("maximum")
    if low is not None and high is not None:
        yield _at(path, f"{error.instance} is outside the range {low} to {high}")
    elif error.validator == "minimum":
        yield _at(path, f"{error.instance} is below the minimum {low}")
    else:
        yield _at(path, f"{error.instance} is above the maximum {high}")


def _min_items(error: ValidationError, path: JsonPath) -> Iterator[SchemaViolation]:
    yield _at(path, f"is an empty list; at least {error.validator_value} item is expected")


# ---- payload alternatives (documented and legacy) ------------------------------------------

# The documented payload of each action type that also has a legacy one.
_PAYLOAD = {
    "route": (("destination",), "a route names its destination (legacy `route` is also read)"),
    "decision_prompt": (("message", "options"), "a decision_prompt has a `message` and "
                                                "`options` (legacy `prompt` is also read)"),
}


def _any_of(error: ValidationError, path: JsonPath) -> Iterator[SchemaViolation]:
    instance = error.instance if isinstance(error.instance, dict) else {}
    payload = _PAYLOAD.get(str(instance.get("type"))) if _shape(path) == "action" else None
    if payload is None:
        yield from _fallback(error, path)
        return
    fields, because = payload
    for name in fields:
        if name not in instance:
            yield _at(path + (name,), f"is missing; {because}")


def _fallback(error: ValidationError, path: JsonPath) -> Iterator[SchemaViolation]:
    yield SchemaViolation(path, f"`{dotted(path)}`: {error.message}")


_Translator = Callable[[ValidationError, JsonPath], Iterator[SchemaViolation]]

_TRANSLATORS: dict[str, _Translator] = {
    "required": _required,
    "additionalProperties": _additional,
    "type": _type,
    "enum": _enum,
    "const": _const,
    "pattern": _pattern,
    "minLength": _min_length,
    "maxLength": _max_length,
    "minimum": _bound,
    "maximum": _bound,
    "minItems": _min_items,
    "anyOf": _any_of,
}
