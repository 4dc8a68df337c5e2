"""The EMU JSON Schema (2020-12, shipped as `audit/schemas/emu.schema.json`) and its verdicts.

The schema is data so that users can run it with any 2020-12 validator; this module only loads
it and turns jsonschema's errors into `SchemaViolation`s with sentences a policy author reads
(`schema_messages`). There is no cached validator: callers that check many EMUs build one
`EmuSchema` per run (a validator and the memo of its quick verdicts) and ask it for each EMU.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator

from topo.audit.policy.paths import dotted
from topo.audit.policy.schema_messages import SchemaViolation, violations_of

__all__ = ["SchemaViolation", "SCHEMA_RESOURCE", "load_schema", "emu_validator",
           "schema_violations", "EmuSchema"]

SCHEMA_RESOURCE = "schemas/emu.schema.json"


def load_schema() -> dict[str, Any]:
    """The EMU schema document, read from the installed package."""
    text = resources.files("topo.audit").joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")
    return json.loads(text)


def emu_validator() -> Draft202012Validator:
    """A validator for one EMU object; build once per run, reuse for every EMU."""
    return Draft202012Validator(load_schema())


def schema_violations(raw: dict[str, Any], validator: Draft202012Validator | None = None
                      ) -> tuple[SchemaViolation, ...]:
    """Every schema problem of one EMU object, one per JSON path, sorted by path.

    Several jsonschema errors can describe one place (a wrong type and a failed pattern); the
    author needs one sentence per place, so the first translation of each path wins.
    """
    validator = validator or emu_validator()
    by_path: dict[str, SchemaViolation] = {}
    for error in sorted(validator.iter_errors(raw), key=_error_order):
        for violation in violations_of(error):
            by_path.setdefault(dotted(violation.path), violation)
    return tuple(by_path[key] for key in sorted(by_path))


# Earlier keywords say more about a value than later ones: a wrong type makes a range moot.
_KEYWORD_ORDER = ("type", "required", "additionalProperties", "enum", "const", "anyOf")


def _error_order(error: Any) -> tuple[str, int, str]:
    keyword = error.validator
    rank = _KEYWORD_ORDER.index(keyword) if keyword in _KEYWORD_ORDER else len(_KEYWORD_ORDER)
    return dotted(tuple(error.absolute_path)), rank, error.message


# Root keywords under which an object is valid exactly when the shell holds and each value is
# valid against its key's subschema (the EMU schema's root uses these and no others).
_SPLITTABLE_ROOT = frozenset({"$schema", "$id", "$comment", "$defs", "title", "description",
                              "type", "required", "additionalProperties", "properties"})


class EmuSchema:
    """The EMU schema for one run: `violations(raw)` equals `schema_violations(raw)`, faster.

    Most EMUs of a large policy set are valid and many share their `action` and `policy`
    objects, yet jsonschema walks every value of every EMU and errors are only wanted for the
    invalid ones. So a quick yes/no comes first: the root's keywords run on the object with
    each value's subschema replaced by `true` (`_shell`), then each value runs against its
    key's subschema; the verdict for any value but a string (keys and triggers are mostly
    unique) is remembered by its canonical JSON text (equal text, equal JSON value, equal
    verdict). Only a "no" pays for the full, sorted error walk. The split is made only when the
    root uses the keywords listed in `_SPLITTABLE_ROOT` (this schema's); with any other (such
    as `unevaluatedProperties`, which reads what `properties` evaluated) each EMU is validated
    whole.
    """

    def __init__(self, validator: Draft202012Validator | None = None) -> None:
        self.validator = validator or emu_validator()
        schema = self.validator.schema
        properties = schema.get("properties") if isinstance(schema, Mapping) else None
        split = (isinstance(properties, Mapping) and set(schema) <= _SPLITTABLE_ROOT
                 and schema.get("additionalProperties", True) in (True, False))
        self._shell = (self.validator.evolve(schema={**schema, "properties": dict.fromkeys(
            properties, True)}) if split else None)
        self._values = ({key: self.validator.evolve(schema=sub) for key, sub in properties.items()}
                        if split else {})
        self._verdicts: dict[tuple[str, str], bool] = {}

    def violations(self, raw: dict[str, Any]) -> tuple[SchemaViolation, ...]:
        """Every schema problem of one EMU object, as `schema_violations` gives them."""
        if self.holds(raw):
            return ()
        return schema_violations(raw, self.validator)

    def holds(self, raw: object) -> bool:
        """True when `raw` is valid against the schema (the same verdict as jsonschema's)."""
        if self._shell is None or not isinstance(raw, dict):
            return self.validator.is_valid(raw)
        if not self._shell.is_valid(raw):
            return False
        return all(key not in self._values or self._value_holds(key, value)
                   for key, value in raw.items())

    def _value_holds(self, key: str, value: object) -> bool:
        if isinstance(value, str):
            return self._values[key].is_valid(value)
        try:
            text = json.dumps(value, sort_keys=True)
        except (ValueError, TypeError, RecursionError):  # not plain JSON: no memo for it
            return self._values[key].is_valid(value)
        verdict = self._verdicts.get((key, text))
        if verdict is None:
            verdict = self._verdicts[(key, text)] = self._values[key].is_valid(value)
        return verdict
