"""In-source suppressions: `# topo: ignore[CODE] -- justification` (`// …` in TS/JS).

A directive on the line of a finding's statement, or on the line above it, suppresses the
named codes there (see `_anchors` for what "the statement" is). Suppressed findings stay in the
results, marked with a `Suppression`, so reports can show them and `--ignore-suppressions` can
audit them. A directive that is malformed, names an unknown code or has no justification
suppresses nothing and is itself reported (SUPPRESSION-INVALID); a valid directive that covers
no finding of a code it names is reported as SUPPRESSION-UNUSED. Both are decided on the whole
scan, before any baseline or `--changed-since` filter, so "unused" means unused.
"""

from __future__ import annotations

from topo.audit import codes
from topo.audit.suppressions._apply import apply_suppressions
from topo.audit.suppressions._directives import (MIN_JUSTIFICATION, Directive, DirectiveProblem,
                                                 read_directives)

__all__ = ["apply_suppressions", "Directive", "DirectiveProblem", "read_directives",
           "MIN_JUSTIFICATION", "CODES"]

# The codes this package emits (not a check: it runs after every check, on all findings).
CODES = (codes.SUPPRESSION_INVALID, codes.SUPPRESSION_UNUSED)
