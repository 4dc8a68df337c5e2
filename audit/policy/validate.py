"""`validate_directory`: load, check the schema, parse triggers, lint — the `emus validate` run.

Load errors do not stop the run: the EMUs that were read are still checked, and the report
carries both, so the CLI can exit 2 for errors and still print every finding.
"""

from __future__ import annotations

import os

from topo.audit.policy.lint import lint_emus
from topo.audit.policy.lints import LINTS, Lint
from topo.audit.policy.load import load_emus
from topo.audit.policy.model import PolicyConfig, PolicyReport

__all__ = ["validate_directory"]


def validate_directory(directory: str | os.PathLike[str], config: PolicyConfig = PolicyConfig(),
                       *, root: str | os.PathLike[str] | None = None,
                       lints: tuple[Lint, ...] = LINTS) -> PolicyReport:
    """Every finding and load error of the EMUs in `directory` (see `load_emus` for the rules)."""
    loaded = load_emus(directory, root=root)
    return PolicyReport(loaded.emus, lint_emus(loaded.emus, config, lints=lints), loaded.errors)
