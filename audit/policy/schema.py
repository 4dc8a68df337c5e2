"""The EMU JSON Schema (2020-12, shipped as `audit/schemas/emu.schema.json`) and its verdicts.

The schema is data so that users can run it with any 2020-12 validator; this module only loads
it and turns jsonschema's errors into `SchemaViolation`s with sentences a policy author reads
(`schema_messages`). There is no cached validator: callers that check many EMUs build one with
`emu_validator()` and pass it in.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator

from topo.audit.policy.paths import dotted
from topo.audit.policy.schema_messages import SchemaViolation, violations_of

__all__ = ["SchemaViolation", "SCHEMA_RESOURCE", "load_schema", "emu_validator",
           "schema_violations"]

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
