"""The CI gate behind `topo check`: one audit, then baseline, diff scope and a verdict.

```python
outcome = run_gate(GateRequest(AuditRequest(root=Path(".")), fail_on=Severity.HIGH,
                               baseline=Path(".topo-baseline.json")))
sys.exit(outcome.exit_code)
```

Order: read the baseline and ask git for changes first (a bad file or revision fails before the
slow part), audit the base revision of `--changed-since` (from a temporary copy outside the
tree), run the whole audit (in-source suppressions are applied there), write a baseline when
asked, mark the findings the baseline accepts as `external` suppressions, narrow the report to
findings the base revision did not have (by fingerprint), and decide. A scan that could not read every
input is never a pass: it is exit 2 unless `allow_partial` says to gate on what was read.
"""

from __future__ import annotations

from topo.audit.gate._run import (GateCounts, GateError, GateOutcome, GateRequest, GateStatus,
                                  run_gate)
from topo.audit.gate._new import new_findings
from topo.audit.gate.baseline import (BASELINE_SCHEMA, Baseline, BaselineError, apply_baseline,
                                      baseline_of, read_baseline, write_baseline)

__all__ = ["GateRequest", "GateOutcome", "GateCounts", "GateStatus", "GateError", "run_gate",
           "BASELINE_SCHEMA", "Baseline", "BaselineError", "baseline_of", "read_baseline",
           "write_baseline", "apply_baseline", "new_findings"]
