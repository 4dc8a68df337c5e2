"""The lint table: every lint of the policy layer, one row each, in report order.

Adding a lint means adding a function and a `Lint` row to the module named after its code (or a
new such module, imported here); a test fails when a module in this package is not listed.
"""

from __future__ import annotations

from topo.audit.policy.lints import (emu_schema, emu_trigger_syntax, policy_gap, retention_window,
                                     unguarded_placeholder)
from topo.audit.policy.lints._lint import Issue, Lint, LintContext

__all__ = ["LINTS", "MODULES", "Issue", "Lint", "LintContext"]

MODULES = (emu_schema, emu_trigger_syntax, policy_gap, unguarded_placeholder, retention_window)

LINTS: tuple[Lint, ...] = tuple(lint for module in MODULES for lint in module.LINTS)
