"""The v2 trigger DSL: lexer, parser, printer, dependencies, evaluator, durations.

Public surface; everything else in this package is private to it.
"""

from audit.dsl.context import (ContextError, EvalContext, Event, context_to_json, load_context,
                               parse_timestamp)
from audit.dsl.evaluate import EvaluationError, evaluate

__all__ = [
    # evaluation: context.py, evaluate.py
    "evaluate", "EvaluationError", "EvalContext", "Event", "load_context", "ContextError",
    "context_to_json", "parse_timestamp",
]
