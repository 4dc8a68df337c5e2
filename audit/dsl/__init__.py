"""The v2 trigger DSL: lexer, parser, printer, dependencies, evaluator, durations.

Public surface; everything else in this package is private to it.
"""

from topo.audit.dsl import ast
from topo.audit.dsl.deps import (Dependency, Template, dependencies, guarded_keys, operand_refs,
                                 templates)
from topo.audit.dsl.diagnostics import DSL_CODES, Diagnostic, DslCode, render
from topo.audit.dsl.durations import DurationError, format_seconds, parse_duration
from topo.audit.dsl.parser import ParseResult, parse_trigger
from topo.audit.dsl.printer import format_trigger
from topo.audit.dsl.regex_cost import MAX_REGEX_COST, regex_cost, regex_refusal
from topo.audit.dsl.context import (ContextError, EvalContext, Event, context_to_json, load_context,
                                    parse_timestamp)
from topo.audit.dsl.evaluate import EvaluationError, evaluate

__all__ = [
    # syntax: lexer.py, parser.py, printer.py, deps.py, durations.py, diagnostics.py,
    # regex_cost.py
    "parse_trigger", "ParseResult", "format_trigger", "dependencies", "Dependency", "operand_refs",
    "guarded_keys", "templates", "Template", "parse_duration", "format_seconds",
    "DurationError", "Diagnostic", "DslCode", "DSL_CODES", "render", "ast",
    "regex_cost", "regex_refusal", "MAX_REGEX_COST",
    # evaluation: context.py, evaluate.py
    "evaluate", "EvaluationError", "EvalContext", "Event", "load_context", "ContextError",
    "context_to_json", "parse_timestamp",
]
