"""EMU-TRIGGER-SYNTAX: the trigger does not parse as v2 DSL, or uses a legacy form.

Every DSL diagnostic becomes one finding whose message carries the DSL code, the column within
the trigger and the parser's message. Errors keep the code's severity (the server rejects the
trigger, or evaluates something else than written); warnings — legacy forms the parser accepts,
such as `{{state.a.b}}` templates — are reported at low severity.
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.audit import codes
from topo.audit.model import Severity
from topo.audit.policy.lints._lint import Issue, Lint, LintContext

__all__ = ["LINTS"]


def trigger_diagnostics(context: LintContext) -> Iterator[Issue]:
    facts = context.trigger
    if facts is None:
        return
    for diagnostic in facts.diagnostics:
        line, column = diagnostic.location(facts.text)
        where = f"column {column}" if line == 1 else f"line {line}, column {column}"
        severity = Severity.LOW if diagnostic.severity == "warning" else None
        # The hint is remediation, which belongs in `topo trigger check`, not in the message.
        yield Issue(f"`trigger` {diagnostic.code.id} at {where}: {diagnostic.message}",
                    ("trigger",), severity)


LINTS: tuple[Lint, ...] = (
    Lint("trigger_diagnostics", codes.EMU_TRIGGER_SYNTAX, ("trigger",), trigger_diagnostics),
)
