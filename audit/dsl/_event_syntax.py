"""Event predicates: `event.s.v.o [WHERE attr == value [AND …]] IN 'duration'` and COUNT.

An event query is parsed in one piece, not by the expression loop, because its `AND` belongs
to the WHERE clause until `IN` closes it, and because its mandatory window is what the
legacy dialect forgets (a bare `event.user.created.account`).
"""

from __future__ import annotations

import re
from decimal import Decimal

from topo.audit.dsl.ast import (Count, Duration, EventQuery, NumberLit, StringLit, TextSpan,
                                WhereFilter)
from topo.audit.dsl.durations import DurationError, parse_duration
from topo.audit.dsl.lexer import COMPARISON_KINDS, Token, TokenKind
from topo.audit.dsl._accessors import event_ref, is_state_key
from topo.audit.dsl._stream import TokenStream

__all__ = ["event_query", "count", "number_literal", "string_literal", "accessor_prefix",
           "PLACEHOLDER"]

PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}")
_WINDOW_HINT = "add a window such as `IN 'P7D'`"


def event_query(stream: TokenStream) -> EventQuery:
    """From the `event.…` token (current) to the end of its window."""
    token = stream.advance()
    ref = event_ref(stream, token)
    where: tuple[WhereFilter, ...] = ()
    if stream.at(TokenKind.WHERE):
        stream.advance()
        where = _filters(stream)
    if not stream.at(TokenKind.IN):
        _missing_window(stream, token, where)
    stream.advance()
    window = _window(stream)
    return EventQuery(ref, where, window, TextSpan(token.span.start, window.span.end))


def _missing_window(stream: TokenStream, token: Token, where: tuple[WhereFilter, ...]) -> None:
    if stream.at(TokenKind.LEGACY_KEYWORD) and stream.peek().text.upper() in ("IN", "WHERE"):
        stream.unexpected("IN")
    end = where[-1].span.end if where else token.span.end
    stream.fail("DSL-EVENT-WINDOW-MISSING",
                f"event `{token.text}` needs a time window: `IN 'duration'`",
                TextSpan(token.span.start, end), _WINDOW_HINT)


def _window(stream: TokenStream) -> Duration:
    token = stream.peek()
    if token.kind in (TokenKind.NAME, TokenKind.NUMBER, TokenKind.ACCESSOR):
        hint = (f"write '{token.text}'" if _parses(token.text)
                else "durations are quoted ISO-8601, such as 'PT1H' or 'P7D'")
        stream.fail("DSL-DURATION-UNQUOTED", f"duration `{token.text}` is not single-quoted",
                    token.span, hint)
    if token.kind is TokenKind.LBRACKET:
        stream.fail("DSL-DURATION-INVALID", "an event window is a duration, not a list",
                    token.span, "such as `IN 'P7D'`")
    if token.kind is not TokenKind.STRING:
        stream.unexpected("a quoted duration such as 'PT1H'")
    stream.advance()
    try:
        seconds = parse_duration(token.value)
    except DurationError as error:
        stream.fail("DSL-DURATION-INVALID", error.message, token.span, error.hint)
    return Duration(token.value, seconds, token.span)


def _parses(text: str) -> bool:
    try:
        parse_duration(text)
    except DurationError:
        return False
    return True


# ---- WHERE ---------------------------------------------------------------------------------

def _filters(stream: TokenStream) -> tuple[WhereFilter, ...]:
    filters = [_filter(stream)]
    while stream.at(TokenKind.AND) and stream.peek(1).kind in (TokenKind.NAME,
                                                                TokenKind.LEGACY_KEYWORD):
        stream.advance()
        filters.append(_filter(stream))
    if (stream.at(TokenKind.LEGACY_KEYWORD) and stream.peek().text.upper() == "AND"
            and stream.peek(2).kind in COMPARISON_KINDS):
        stream.unexpected("`AND` or `IN`")  # `… WHERE a == 'x' and b == 'y'`: lowercase
    if stream.at(TokenKind.AND):
        stream.fail("DSL-EVENT-WINDOW-MISSING",
                    "WHERE filters end with `IN 'duration'` before other conditions",
                    stream.peek().span, "add `IN 'P7D'` (your window) before this `AND`")
    return tuple(filters)


def _filter(stream: TokenStream) -> WhereFilter:
    attr = stream.peek()
    if attr.kind is TokenKind.ACCESSOR or (attr.kind is TokenKind.NAME and "." in attr.text):
        stream.fail("DSL-WHERE-ATTRIBUTE",
                    f"WHERE attribute `{attr.text}` is not a plain identifier", attr.span,
                    f"name the event attribute, such as `{attr.text.split('.')[-1]}`")
    if attr.kind not in (TokenKind.NAME, TokenKind.LEGACY_KEYWORD):
        stream.unexpected("an event attribute name after WHERE")
    stream.advance()
    operator = stream.peek()
    if operator.kind in COMPARISON_KINDS - {TokenKind.EQ} or operator.kind is TokenKind.IN:
        stream.fail("DSL-WHERE-OPERATOR",
                    f"WHERE filters compare with `==` only, not `{operator.text}`",
                    operator.span, "range and membership filters are not supported; use `==`")
    stream.expect(TokenKind.EQ, "`==` after the WHERE attribute")
    value = _filter_value(stream)
    return WhereFilter(attr.text, value, TextSpan(attr.span.start, value.span.end))


def _filter_value(stream: TokenStream) -> StringLit | NumberLit:
    token = stream.peek()
    match token.kind:
        case TokenKind.STRING:
            literal = string_literal(stream)
            _check_templates(stream, literal)
            return literal
        case TokenKind.NUMBER | TokenKind.MINUS:
            return number_literal(stream)
        case TokenKind.ACCESSOR:
            key = token.text.split(".", 1)[1] if token.text.startswith("state.") else ""
            hint = f"write '{{{{{key}}}}}'" if key else "WHERE values are literals or templates"
            stream.fail("DSL-WHERE-ACCESSOR",
                        f"`{token.text}` cannot be a WHERE value; accessors are not allowed there",
                        token.span, hint)
        case TokenKind.BOOL | TokenKind.LBRACKET:
            stream.fail("DSL-WHERE-VALUE",
                        f"WHERE values are strings, numbers or templates, not `{token.text}`",
                        token.span, "quote it, such as 'true'" if token.text[0].isalpha() else "")
    stream.unexpected("a WHERE value: a string, a number or a template '{{a.b}}'")


def _check_templates(stream: TokenStream, literal: StringLit) -> None:
    for match in PLACEHOLDER.finditer(literal.value):
        inner = match.group(1).strip()
        key = inner[len("state."):] if inner.startswith("state.") else inner
        if not is_state_key(key):
            stream.fail("DSL-TEMPLATE-KEY",
                        f"template `{match.group()}` does not name a state key", literal.span,
                        "templates read a state key of 2 to 7 lowercase segments, such as "
                        "'{{customer.id}}'")
        if inner != key:
            stream.warn("DSL-LEGACY-TEMPLATE",
                        f"legacy template `{match.group()}` means `{{{{{key}}}}}`", literal.span,
                        f"write '{{{{{key}}}}}'")


# ---- COUNT ---------------------------------------------------------------------------------

def count(stream: TokenStream) -> Count:
    keyword = stream.advance()
    parenthesized = stream.at(TokenKind.LPAREN)
    opening = stream.advance() if parenthesized else None
    if not stream.at(TokenKind.ACCESSOR) or accessor_prefix(stream.peek()) != "event":
        if stream.at(TokenKind.ACCESSOR, TokenKind.NAME):
            stream.fail("DSL-COUNT-EVENT", "COUNT counts events: `COUNT event.s.v.o IN 'd'`",
                        stream.peek().span, "such as `COUNT event.user.failed.login IN 'PT15M'`")
        stream.unexpected("an event after COUNT")
    query = event_query(stream)
    if query.event.project is not None:
        stream.fail("DSL-COUNT-PROJECT", "COUNT does not accept a project-prefixed event",
                    query.event.span, f"write `event.{query.event.name}`; only existence "
                    "queries may name another project")
    if opening is not None:
        if stream.peek().kind in COMPARISON_KINDS:
            stream.fail("DSL-COUNT-COMPARISON", "the comparison goes after the closing `)`",
                        stream.peek().span, "write `COUNT(event… IN 'd') >= n`")
        if not stream.at(TokenKind.RPAREN):
            stream.unexpected("`)` closing `COUNT(`")
        stream.advance()
    op, threshold = _count_comparison(stream, keyword, query)
    return Count(query, op, threshold, parenthesized, TextSpan(keyword.span.start,
                                                              threshold.span.end))


def _count_comparison(stream: TokenStream, keyword: Token,
                      query: EventQuery) -> tuple[str, NumberLit]:
    operator = stream.peek()
    if operator.kind not in COMPARISON_KINDS:
        if operator.kind in (TokenKind.ERROR, TokenKind.LEGACY_KEYWORD, TokenKind.LEGACY_BOOL):
            stream.unexpected("a comparison")
        stream.fail("DSL-COUNT-COMPARISON", "COUNT needs a comparison against a number",
                    TextSpan(keyword.span.start, query.span.end), "append one, such as `>= 5`")
    stream.advance()
    if not stream.at(TokenKind.NUMBER, TokenKind.MINUS):
        if stream.at(TokenKind.ERROR):
            stream.unexpected("a number")
        stream.fail("DSL-COUNT-COMPARISON", "COUNT compares against a number literal",
                    stream.peek().span, "such as `>= 5`")
    return operator.text, number_literal(stream)


def accessor_prefix(token: Token) -> str:
    """`state`, `tag` or `event` for an ACCESSOR token, whatever its case."""
    return token.text.split(".", 1)[0].lower()


# ---- literals shared with the expression parser --------------------------------------------

def string_literal(stream: TokenStream) -> StringLit:
    token = stream.expect(TokenKind.STRING, "a single-quoted string")
    return StringLit(token.value, token.span)


def number_literal(stream: TokenStream) -> NumberLit:
    """An integer or decimal, with an optional leading `-` folded into the literal."""
    minus = stream.advance() if stream.at(TokenKind.MINUS) else None
    if not stream.at(TokenKind.NUMBER):
        if minus is not None and stream.at(TokenKind.ACCESSOR, TokenKind.LPAREN, TokenKind.NAME):
            stream.fail("DSL-UNARY-MINUS", "a minus sign may only precede a number",
                        minus.span, "move the sign: `state.a.b < -100`, or write `0 - …`")
        stream.unexpected("a number")
    token = stream.advance()
    raw = ("-" if minus else "") + token.text
    value = _number_value(raw)
    start = minus.span.start if minus else token.span.start
    return NumberLit(value, raw, TextSpan(start, token.span.end))


def _number_value(raw: str) -> int | Decimal:
    return Decimal(raw) if "." in raw else int(raw)
