"""The EMU policy layer: read `emus/*.jsonl` as Memrail does, check each EMU against the EMU
JSON Schema, parse its trigger, and lint it (POLICY-GAP, UNGUARDED-PLACEHOLDER,
RETENTION-WINDOW, and EMU-SCHEMA / EMU-TRIGGER-SYNTAX for what the schema and parser reject).

Public surface; the modules behind it are free to change.
"""

from topo.audit.policy.lint import lint_emu, lint_emus
from topo.audit.policy.load import load_emu_file, load_emus
from topo.audit.policy.model import (DEFAULT_RETENTION_DAYS, Emu, EmuSet, LoadError, PolicyConfig,
                                     PolicyReport)
from topo.audit.policy.schema import (EmuSchema, SchemaViolation, emu_validator, load_schema,
                                      schema_violations)
from topo.audit.policy.validate import validate_directory

__all__ = [
    "validate_directory", "load_emus", "load_emu_file", "lint_emu", "lint_emus",
    "load_schema", "emu_validator", "schema_violations", "SchemaViolation", "EmuSchema",
    "Emu", "EmuSet", "LoadError", "PolicyConfig", "PolicyReport", "DEFAULT_RETENTION_DAYS",
]
