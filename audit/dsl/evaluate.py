"""Evaluate a trigger AST against a context: the reference semantics `trigger eval` and the
fuzzer rely on.

The semantics follow the docs (seed 000 "Trigger DSL", spec/memrail-facts.md §2.2); value rules
are in `_values`, event matching in `_events`. The ones that shape this module:

- **Absent atoms.** A missing key and a null value are the same thing, *absent*. Every positive
  predicate on an absent value is false, including `!=`, ordering, `IN` and string operators;
  `EXISTS` is false; `NOT` flips the result, so `NOT state.user.banned` holds on an empty
  context. An accessor-vs-accessor comparison with either side absent is false.
- **Arithmetic** is exact (Decimal; quotients rounded at 60 significant digits). An absent
  accessor anywhere in a comparison makes it false *before* any operand's type is checked; a
  division by zero makes its side undefined (checked as operators apply, left to right) and
  the comparison false. Otherwise an operand that is not a number (a
  non-numeric string, a bool, a list) is an `EvaluationError`. Numeric-looking strings are
  coerced, as in comparisons. So a positive predicate on an absent atom is false, never an
  error.
- **String operators** need a string value (anything else is false) and are case-sensitive,
  tags included. `MATCHES` is `re.search` (the `regex` package in `VERSION0`, i.e. `re`
  syntax) bounded by a compile-cost check, a time limit and a subject-length cap; exceeding
  one, or an invalid pattern, is an `EvaluationError`.
- **AND / OR** short-circuit left to right, so an error in a branch that is not needed is not
  raised.

`EvaluationError` is raised only for: non-numeric arithmetic, an invalid `MATCHES` pattern, a
`MATCHES` pattern too costly to compile (`regex_cost`), a `MATCHES` that exceeds its time limit, and a `MATCHES` subject longer than `MAX_MATCH_SUBJECT`
(and, defensively, a decimal overflow, which the bounds on number magnitude in `_values` make
unreachable short of a million-leaf product).
"""

from __future__ import annotations

from decimal import Decimal, DecimalException
from typing import Any

import regex

from topo.audit.dsl.ast import (Arith, BoolLit, Compare, Count, EventQuery, Exists, Expr, InList,
                                NumberLit, Not, And, Or, StateRef, StringLit, StrOp, TagRef,
                                TextSpan, Truthy, Operand)
from topo.audit.dsl.context import EvalContext
from topo.audit.dsl.regex_cost import regex_refusal
from topo.audit.dsl._events import count_matching
from topo.audit.dsl._values import (ABSENT, Absent, as_number, exact_context, is_member, is_truthy,
                                    order, values_equal)

__all__ = ["evaluate", "EvaluationError", "DEFAULT_MATCH_TIMEOUT", "MAX_MATCH_SUBJECT"]

DEFAULT_MATCH_TIMEOUT = 0.25
"""Seconds one `MATCHES` may run. Legitimate patterns on realistic values take microseconds;
catastrophic backtracking takes years, so the exact bound hardly matters."""

MAX_MATCH_SUBJECT = 100_000
"""Characters of a `MATCHES` subject. Triggers test identifiers, codes and short texts; a value
past this is almost certainly a misplaced document, and refusing it keeps every search cheap."""

class EvaluationError(Exception):
    """A trigger that cannot be evaluated on this context (exit 3 of `trigger eval`)."""

    def __init__(self, message: str, span: TextSpan) -> None:
        super().__init__(message)
        self.message = message
        self.span = span


def evaluate(ast: Expr, ctx: EvalContext, *,
             match_timeout: float = DEFAULT_MATCH_TIMEOUT) -> bool:
    """True when trigger `ast` matches context `ctx`.

    >>> from topo.audit.dsl.ast import Not, Truthy, StateRef
    >>> from datetime import datetime, UTC
    >>> evaluate(Not(Truthy(StateRef("user.banned"))),
    ...          EvalContext(state={}, tags={}, events=(), now=datetime.now(UTC)))
    True
    """
    return _Evaluator(ctx, match_timeout).test(ast)


class _Evaluator:
    """One evaluation: the context and the limits, so the helpers need not pass them along."""

    def __init__(self, ctx: EvalContext, match_timeout: float) -> None:
        self.ctx = ctx
        self.match_timeout = match_timeout

    def test(self, node: Expr) -> bool:
        match node:
            case Or(left=left, right=right):
                return self.test(left) or self.test(right)
            case And(left=left, right=right):
                return self.test(left) and self.test(right)
            case Not(operand=operand):
                return not self.test(operand)
            case Compare():
                return self.compare(node)
            case Exists(ref=ref):
                return self.value(ref) is not ABSENT
            case Truthy(ref=ref):
                return is_truthy(self.value(ref))
            case InList(ref=ref, items=items):
                value = self.value(ref)
                return value is not ABSENT and any(is_member(value, item.value)
                                                   for item in items.items)
            case StrOp():
                return self.string_operation(node)
            case EventQuery():
                return count_matching(node, self.ctx) > 0
            case Count(query=query, op=op, threshold=threshold):
                return _compare_numbers(op, Decimal(count_matching(query, self.ctx)),
                                        Decimal(threshold.value))
            case _:
                raise TypeError(f"not a trigger expression node: {node!r}")

    # ---- values ----------------------------------------------------------------------------

    def value(self, operand: Operand) -> Any:
        """The value an operand denotes, or ABSENT (missing, null, undefined arithmetic)."""
        match operand:
            case StateRef(key=key):
                found = self.ctx.state.get(key)
            case TagRef(kind=kind):
                found = self.ctx.tag(kind)
            case StringLit(value=text):
                found = text
            case NumberLit(value=number):
                found = Decimal(number)
            case BoolLit(value=flag):
                found = flag
            case Arith():
                found = self.arithmetic(operand)
            case _:
                raise TypeError(f"not an operand node: {operand!r}")
        return ABSENT if found is None else found

    def has_absent_operand(self, node: Operand) -> bool:
        """Does any accessor in this operand (an arithmetic expression or a plain accessor)
        read an absent value?"""
        match node:
            case Arith(left=left, right=right):
                return self.has_absent_operand(left) or self.has_absent_operand(right)
            case StateRef() | TagRef():
                return self.value(node) is ABSENT
            case _:
                return False

    def arithmetic(self, node: Arith) -> Decimal | Absent:
        """Exact arithmetic on present operands; ABSENT after a division by zero."""
        left, right = self.value(node.left), self.value(node.right)
        if left is ABSENT or right is ABSENT:
            return ABSENT
        a, b = _arithmetic_operand(left, node.left), _arithmetic_operand(right, node.right)
        if node.op == "/" and b == 0:
            return ABSENT
        try:
            return _apply(node.op, a, b)
        except DecimalException:
            # Defensive: operands are bounded to exponents of ±10**12 (see _values.is_number).
            raise EvaluationError(f"arithmetic overflow: {a} {node.op} {b}", node.span) from None

    def compare(self, node: Compare) -> bool:
        if self.has_absent_operand(node.left) or self.has_absent_operand(node.right):
            return False
        left, right = self.value(node.left), self.value(node.right)
        if left is ABSENT or right is ABSENT:
            return False
        fold = isinstance(node.left, TagRef) or isinstance(node.right, TagRef)
        match node.op:
            case "==":
                return values_equal(left, right, fold=fold)
            case "!=":
                return not values_equal(left, right, fold=fold)
            case op:
                sign = order(left, right, fold=fold)
                return sign is not None and _holds(op, sign)

    def string_operation(self, node: StrOp) -> bool:
        value = self.value(node.ref)
        if not isinstance(value, str):
            return False
        pattern = node.pattern.value
        match node.op:
            case "STARTS_WITH":
                return value.startswith(pattern)
            case "ENDS_WITH":
                return value.endswith(pattern)
            case "CONTAINS":
                return pattern in value
            case "MATCHES":
                return self.search(pattern, value, node.span)

    def search(self, pattern: str, subject: str, span: TextSpan) -> bool:
        """`re.search(pattern, subject)`, bounded in time and subject length."""
        if len(subject) > MAX_MATCH_SUBJECT:
            raise EvaluationError(f"MATCHES subject is {len(subject)} characters long; "
                                  f"the limit is {MAX_MATCH_SUBJECT}", span)
        refusal = regex_refusal(pattern)
        if refusal is not None:
            raise EvaluationError(refusal, span)
        try:
            compiled = regex.compile(pattern, regex.VERSION0)
        except (regex.error, ValueError, OverflowError) as error:
            # ValueError: an inline `(?V1)` contradicting VERSION0.
            raise EvaluationError(f"MATCHES pattern {pattern!r} is not a valid regular "
                                  f"expression: {error}", span) from None
        try:
            return compiled.search(subject, timeout=self.match_timeout) is not None
        except TimeoutError:
            raise EvaluationError(f"MATCHES pattern {pattern!r} did not finish within "
                                  f"{self.match_timeout} s on a {len(subject)}-character value "
                                  "(catastrophic backtracking?)", span) from None


def _arithmetic_operand(value: Any, operand: Operand) -> Decimal:
    number = as_number(value)
    if number is None:
        raise EvaluationError(f"arithmetic on a non-numeric value {value!r}", operand.span)
    return number


def _apply(op: str, a: Decimal, b: Decimal) -> Decimal:
    context = exact_context()
    match op:
        case "+":
            return context.add(a, b)
        case "-":
            return context.subtract(a, b)
        case "*":
            return context.multiply(a, b)
        case "/":
            return context.divide(a, b)
    raise ValueError(f"unknown arithmetic operator {op!r}")


def _compare_numbers(op: str, a: Decimal, b: Decimal) -> bool:
    return _holds(op, (a > b) - (a < b))


def _holds(op: str, sign: int) -> bool:
    """Does comparison `op` hold for a three-way comparison result `sign` (-1, 0, 1)?"""
    match op:
        case "==":
            return sign == 0
        case "!=":
            return sign != 0
        case "<":
            return sign < 0
        case "<=":
            return sign <= 0
        case ">":
            return sign > 0
        case ">=":
            return sign >= 0
    raise ValueError(f"unknown comparison operator {op!r}")
