"""One trigger under test: evaluate it on many contexts, count evaluation errors as non-matches
and remember them for the report.

An evaluation error (non-numeric arithmetic, an invalid `MATCHES` pattern, one that runs past its
time limit) means the trigger would not select its action on that input, so for reachability
and diffs it is a non-match; but it is never silent: the first messages and a count go into the
report. `MATCHES` gets a shorter time limit than `trigger eval` uses, because a fuzz run
evaluates thousands of contexts and a catastrophic pattern would otherwise cost a quarter of a
second each time.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from topo.audit.dsl import EvalContext, EvaluationError, evaluate
from topo.audit.dsl.ast import Expr

__all__ = ["TriggerUnderTest", "FUZZ_MATCH_TIMEOUT"]

FUZZ_MATCH_TIMEOUT = 0.05
"""Seconds one `MATCHES` may run during a fuzz run."""


@dataclass(eq=False, slots=True)
class TriggerUnderTest:
    """A parsed trigger and the evaluation errors seen so far (message → count)."""

    ast: Expr
    match_timeout: float = FUZZ_MATCH_TIMEOUT
    errors: Counter[str] = field(default_factory=Counter)

    def matches(self, ctx: EvalContext) -> bool:
        """True when the trigger matches `ctx`; an evaluation error is recorded and is False."""
        try:
            return evaluate(self.ast, ctx, match_timeout=self.match_timeout)
        except EvaluationError as error:
            self.errors[error.message] += 1
            return False
