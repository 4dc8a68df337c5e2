"""The canonical one-line spelling of a trigger AST (`topo trigger fmt`).

Single quotes, uppercase keywords, one space around operators, and only the parentheses that
precedence and left-associativity require, plus one readability exception: an `AND` inside an
`OR` is parenthesised, as the docs recommend whenever a reviewer would otherwise have to
remember precedence. The invariant, tested with Hypothesis: `parse_trigger(format_trigger(a))`
gives back `a` (spans aside) for every AST.
"""

from __future__ import annotations

import re
from decimal import Decimal

from topo.audit.dsl.ast import (And, Arith, BoolLit, Compare, Count, EventQuery, EventRef, Exists,
                                Expr, InList, ListLit, Not, NumberLit, Operand, Or, StateRef, StrOp,
                                StringLit, TagRef, Truthy, WhereFilter)
from topo.audit.dsl.lexer import quote_string

__all__ = ["format_trigger", "format_operand", "format_number"]

_NUMBER_SPELLING = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
# Boolean levels: a child binding looser than its parent needs parentheses.
_OR, _AND, _NOT, _ATOM = 1, 2, 3, 4
# Arithmetic levels.
_ARITH_LEVEL = {"+": 1, "-": 1, "*": 2, "/": 2}


def format_trigger(ast: Expr) -> str:
    """The canonical text of `ast`, for example `state.a.b == 1 AND (tag.k == 'x' OR tag.k ==
    'y')`."""
    return _expr(ast)


def _level(node: Expr) -> int:
    match node:
        case Or():
            return _OR
        case And():
            return _AND
        case Not():
            return _NOT
    return _ATOM


def _wrap(node: Expr, parenthesize: bool) -> str:
    text = _expr(node)
    return f"({text})" if parenthesize else text


def _expr(node: Expr) -> str:
    match node:
        case Or(left, right):
            # Left-associative: a right-hand OR keeps its parentheses. ANDs are wrapped for
            # readability (not required by precedence).
            return (f"{_wrap(left, _level(left) == _AND)} OR "
                    f"{_wrap(right, _level(right) <= _AND)}")
        case And(left, right):
            return f"{_wrap(left, _level(left) < _AND)} AND {_wrap(right, _level(right) <= _AND)}"
        case Not(operand):
            return f"NOT {_wrap(operand, _level(operand) < _NOT)}"
        case Compare(op, left, right):
            return f"{format_operand(left)} {op} {format_operand(right)}"
        case Exists(ref):
            return f"{format_operand(ref)} EXISTS"
        case Truthy(ref):
            return format_operand(ref)
        case InList(ref, items):
            return f"{format_operand(ref)} IN {_list(items)}"
        case StrOp(op, ref, pattern):
            return f"{format_operand(ref)} {op} {quote_string(pattern.value)}"
        case EventQuery():
            return _event_query(node)
        case Count(query, op, threshold, parenthesized):
            inner = _event_query(query)
            counted = f"COUNT({inner})" if parenthesized else f"COUNT {inner}"
            return f"{counted} {op} {format_number(threshold)}"
    raise TypeError(f"not a trigger expression: {node!r}")


def format_operand(node: Operand) -> str:
    """An accessor, literal or arithmetic expression, with the parentheses it needs."""
    match node:
        case StateRef(key):
            return f"state.{key}"
        case TagRef(kind):
            return f"tag.{kind}"
        case StringLit(value):
            return quote_string(value)
        case NumberLit():
            return format_number(node)
        case BoolLit(value):
            return "true" if value else "false"
        case Arith(op, left, right):
            level = _ARITH_LEVEL[op]
            left_text = format_operand(left)
            right_text = format_operand(right)
            if isinstance(left, Arith) and _ARITH_LEVEL[left.op] < level:
                left_text = f"({left_text})"
            if isinstance(right, Arith) and _ARITH_LEVEL[right.op] <= level:
                right_text = f"({right_text})"
            return f"{left_text} {op} {right_text}"
    raise TypeError(f"not an operand: {node!r}")


def format_number(node: NumberLit) -> str:
    """The literal's own spelling when it still denotes its value, else a plain decimal."""
    if _NUMBER_SPELLING.fullmatch(node.raw) and Decimal(node.raw) == node.value:
        return node.raw
    if isinstance(node.value, Decimal):
        return format(node.value, "f")  # never an exponent: `1E+2` prints as `100`
    return str(node.value)


def _list(items: ListLit) -> str:
    return "[" + ", ".join(format_operand(item) for item in items.items) + "]"


def _event(ref: EventRef) -> str:
    project = f"{ref.project}." if ref.project else ""
    return f"event.{project}{ref.name}"


def _filter(where: WhereFilter) -> str:
    return f"{where.attr} == {format_operand(where.value)}"


def _event_query(query: EventQuery) -> str:
    where = " AND ".join(_filter(w) for w in query.where)
    where_text = f" WHERE {where}" if where else ""
    return f"{_event(query.event)}{where_text} IN {quote_string(query.window.raw)}"
