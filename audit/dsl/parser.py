"""`parse_trigger`: text to typed AST, or the first error as a diagnostic. Never raises.

One Pratt (binding-power) loop parses booleans, comparisons and arithmetic together, so the
`(` of `(state.a.b + 1) * 2 > 3` and the `(` of `(x OR y) AND z` need no early decision. Each
operator then *classifies* its operands: a boolean operator wants conditions (a bare accessor
becomes the `Truthy` shorthand), arithmetic and comparisons want values. A misplaced operand
is therefore explained by what it is ("a condition used as a value") rather than by a token.
Event queries and COUNT have their own small grammar (`_event_syntax`).

The language accepted (EBNF; precedence is in BINDING_POWER, not in the rules):

    trigger    = condition EOF ;
    condition  = condition ("OR" | "AND") condition | "NOT" condition | "(" condition ")"
               | count | event | value [cmp value | "EXISTS" | "IN" list | strop STRING] ;
    count      = "COUNT" ( "(" event ")" | event ) cmp NUMBER ;        (* 3-segment event *)
    event      = EVENT_REF [ "WHERE" filter { "AND" filter } ] "IN" DURATION ;
    filter     = IDENT "==" ( STRING | NUMBER ) ;              (* STRING may be '{{a.b}}' *)
    value      = value ("+" | "-" | "*" | "/") value | "(" value ")"
               | STATE_REF | TAG_REF | NUMBER | STRING | "true" | "false" ;
    list       = "[" [ literal { "," literal } ] "]" ;
    cmp        = "==" | "!=" | "<" | "<=" | ">" | ">=" ;
    strop      = "STARTS_WITH" | "ENDS_WITH" | "CONTAINS" | "MATCHES" ;

plus the checks a grammar cannot say: a comparison's left side holds an accessor, a bare value
is a condition only when it is an accessor (`Truthy`), arithmetic takes no string or boolean
literal, and `-` folds only into a number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from topo.audit.dsl.ast import (And, Arith, BoolLit, Compare, Exists, Expr, InList, ListLit, Not,
                                NumberLit, Operand, Or, StateRef, StringLit, StrOp, TagRef,
                                TextSpan, Truthy)
from topo.audit.dsl.diagnostics import Diagnostic, dsl_code
from topo.audit.dsl.lexer import COMPARISON_KINDS, Token, TokenKind, tokenize
from topo.audit.dsl.printer import format_operand
from topo.audit.dsl.regex_cost import MAX_REGEX_COST, regex_refusal
from topo.audit.dsl._accessors import state_ref, tag_ref
from topo.audit.dsl._event_syntax import (accessor_prefix, count, event_query, number_literal,
                                          string_literal)
from topo.audit.dsl._stream import ParseStop, TokenStream

__all__ = ["ParseResult", "parse_trigger", "BINDING_POWER", "MAX_HEIGHT"]

# Precedence lives here and only here: higher binds tighter. NOT is a prefix operator whose
# operand is parsed at NOT_OPERAND, so it takes a whole comparison but stops at AND.
BINDING_POWER: dict[TokenKind, int] = {
    TokenKind.OR: 10,
    TokenKind.AND: 20,
    **{kind: 40 for kind in COMPARISON_KINDS},
    TokenKind.EXISTS: 40, TokenKind.IN: 40, TokenKind.STARTS_WITH: 40,
    TokenKind.ENDS_WITH: 40, TokenKind.CONTAINS: 40, TokenKind.MATCHES: 40,
    TokenKind.PLUS: 50, TokenKind.MINUS: 50,
    TokenKind.STAR: 60, TokenKind.SLASH: 60,
}
NOT_OPERAND = 30
COMPARISON = 40
# A chain of 200 conditions is far beyond any policy; deeper ASTs would strain the recursive
# printer, dependency walk and equality of every consumer.
MAX_HEIGHT = 200

_STRING_OPERATORS = {TokenKind.STARTS_WITH, TokenKind.ENDS_WITH, TokenKind.CONTAINS,
                     TokenKind.MATCHES}
_ARITHMETIC = {TokenKind.PLUS, TokenKind.MINUS, TokenKind.STAR, TokenKind.SLASH}
_VALUES = (StateRef, TagRef, NumberLit, StringLit, BoolLit, Arith)
_SURROGATE = re.compile("[\ud800-\udfff]")
_FLIPPED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


@dataclass(frozen=True, slots=True)
class ParseResult:
    """`ast` is None when there is an error; `diagnostics` holds warnings and the error."""

    ast: Expr | None
    diagnostics: tuple[Diagnostic, ...]

    @property
    def ok(self) -> bool:
        return self.ast is not None and not self.errors

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "error")


def parse_trigger(text: str) -> ParseResult:
    """Parse one trigger (it may span several lines). Stops at the first error.

    >>> parse_trigger("state.user.tier == 'premium'").ok
    True
    """
    surrogate = _SURROGATE.search(text)
    if surrogate is not None:
        # No output can carry a lone surrogate as UTF-8; refuse it before any token holds it.
        diagnostic = Diagnostic(dsl_code("DSL-UNEXPECTED-CHARACTER"),
                                f"unexpected character {surrogate.group()!r}: a lone surrogate "
                                "is not Unicode text", TextSpan(surrogate.start(), surrogate.end()),
                                "remove it; a `\\ud800`-style escape must be half of a pair")
        return ParseResult(None, (diagnostic,))
    lexed = tokenize(text)
    if len(lexed.tokens) == 1:
        diagnostic = Diagnostic(dsl_code("DSL-EMPTY"), "the trigger is empty",
                                TextSpan(0, len(text)), "write a condition")
        return ParseResult(None, (diagnostic,))
    stream = TokenStream(lexed)
    try:
        ast = _condition(stream, _expression(stream, 0))
        if not stream.at(TokenKind.EOF):
            _trailing(stream)
        _check_height(stream, ast, len(text))
    except ParseStop as stop:
        return ParseResult(None, (*stream.warnings, stop.diagnostic))
    except RecursionError:  # a safety net; MAX_NESTING is meant to stop far earlier
        diagnostic = Diagnostic(dsl_code("DSL-NESTING-TOO-DEEP"), "the trigger nests too deeply",
                                TextSpan(0, len(text)))
        return ParseResult(None, (diagnostic,))
    return ParseResult(ast, tuple(stream.warnings))


# ---- the Pratt loop ------------------------------------------------------------------------

def _expression(stream: TokenStream, right_power: int) -> Expr | Operand:
    left = _prefix(stream)
    while BINDING_POWER.get(stream.peek().kind, 0) > right_power:
        left = _infix(stream, left)
    return left


def _prefix(stream: TokenStream) -> Expr | Operand:
    token = stream.peek()
    match token.kind:
        case TokenKind.LPAREN:
            return _group(stream)
        case TokenKind.NOT:
            return _not(stream)
        case TokenKind.COUNT:
            return count(stream)
        case TokenKind.ACCESSOR:
            return _accessor(stream, token)
        case TokenKind.STRING:
            return string_literal(stream)
        case TokenKind.NUMBER | TokenKind.MINUS:
            return number_literal(stream)
        case TokenKind.BOOL:
            stream.advance()
            return BoolLit(token.text == "true", token.span)
        case TokenKind.NAME:
            _unknown_name(stream, token)
        case TokenKind.LBRACKET:
            stream.fail("DSL-LIST-MISPLACED", "a list may only follow IN", token.span,
                        "test membership with `state.a.b IN [...]`")
        case TokenKind.EXISTS:
            following = stream.peek(1)
            hint = (f"write `{following.text} EXISTS`" if following.kind is TokenKind.ACCESSOR
                    else "write `state.a.b EXISTS`")
            stream.fail("DSL-PREFIX-EXISTS", "EXISTS follows the accessor it tests", token.span,
                        hint)
    stream.unexpected("a condition or a value")


def _infix(stream: TokenStream, left: Expr | Operand) -> Expr | Operand:
    kind = stream.peek().kind
    if kind in (TokenKind.AND, TokenKind.OR):
        stream.advance()
        first = _condition(stream, left)
        second = _condition(stream, _expression(stream, BINDING_POWER[kind]))
        node = And if kind is TokenKind.AND else Or
        return node(first, second, _cover(first, second))
    if kind in COMPARISON_KINDS:
        return _comparison(stream, left)
    if kind in _ARITHMETIC:
        return _arithmetic(stream, left)
    if kind is TokenKind.EXISTS:
        ref = _reference(stream, left, "EXISTS")
        keyword = stream.advance()
        return Exists(ref, TextSpan(ref.span.start, keyword.span.end))
    if kind is TokenKind.IN:
        return _membership(stream, left)
    return _string_operation(stream, left)


# ---- prefix forms --------------------------------------------------------------------------

def _group(stream: TokenStream) -> Expr | Operand:
    opening = stream.advance()
    stream.enter()
    inner = _expression(stream, 0)
    if not stream.at(TokenKind.RPAREN):
        if stream.at(TokenKind.EOF):
            stream.fail("DSL-UNBALANCED-PAREN", "this `(` is never closed", opening.span,
                        "add the matching `)`")
        stream.unexpected("`)`", "join conditions with `AND` or `OR`")
    stream.advance()
    stream.leave()
    return inner


def _not(stream: TokenStream) -> Not:
    keyword = stream.advance()
    stream.enter()
    operand = _condition(stream, _expression(stream, NOT_OPERAND))
    stream.leave()
    return Not(operand, TextSpan(keyword.span.start, operand.span.end))


def _accessor(stream: TokenStream, token: Token) -> Expr | Operand:
    prefix = accessor_prefix(token)
    if prefix == "event":
        return event_query(stream)
    stream.advance()
    return state_ref(stream, token) if prefix == "state" else tag_ref(stream, token)


def _unknown_name(stream: TokenStream, token: Token) -> None:
    dotted = "." in token.text
    hint = (f"did you mean `state.{token.text}`?" if dotted
            else "accessors start with `state.`, `tag.` or `event.`; strings are quoted")
    stream.fail("DSL-UNKNOWN-NAME", f"unknown name `{token.text}`", token.span, hint)


# ---- infix forms ---------------------------------------------------------------------------

def _comparison(stream: TokenStream, left: Expr | Operand) -> Compare:
    operator = stream.peek()
    _value(stream, left)
    if not _has_accessor(left):
        following = stream.peek(1)
        hint = "put the accessor on the left, such as `state.user.tier == 'premium'`"
        if following.kind is TokenKind.ACCESSOR and not isinstance(left, Arith):
            hint = (f"write `{following.text} {_FLIPPED[operator.text]} "
                    f"{format_operand(left)}`")
        stream.fail("DSL-COMPARE-ACCESSOR", "a comparison needs an accessor on its left",
                    left.span, hint)
    stream.advance()
    right = _value(stream, _expression(stream, COMPARISON))
    return Compare(operator.text, left, right, _cover(left, right))


def _arithmetic(stream: TokenStream, left: Expr | Operand) -> Arith:
    operator = stream.advance()
    first = _arithmetic_operand(stream, left)
    second = _arithmetic_operand(stream, _expression(stream, BINDING_POWER[operator.kind]))
    return Arith(operator.text, first, second, _cover(first, second))


def _membership(stream: TokenStream, left: Expr | Operand) -> InList:
    ref = _reference(stream, left, "IN")
    stream.advance()
    token = stream.peek()
    if token.kind is TokenKind.STRING:
        stream.fail("DSL-IN-LIST", "IN after a state or tag accessor takes a list", token.span,
                    f"write `IN [{token.text}]`; a duration window is for `event.…` only")
    if token.kind is not TokenKind.LBRACKET:
        stream.unexpected("a list such as `['a', 'b']` after IN")
    items = _list(stream)
    return InList(ref, items, TextSpan(ref.span.start, items.span.end))


def _string_operation(stream: TokenStream, left: Expr | Operand) -> StrOp:
    operator = stream.peek()
    ref = _reference(stream, left, operator.text)
    stream.advance()
    if not stream.at(TokenKind.STRING):
        stream.legacy_first()
        if stream.at(TokenKind.EOF):
            stream.unexpected("a single-quoted string")
        stream.fail("DSL-STRING-OPERAND", f"{operator.text} takes a single-quoted string",
                    stream.peek().span, f"such as `{operator.text} 'text'`")
    pattern = string_literal(stream)
    if operator.kind is TokenKind.MATCHES:
        _check_pattern(stream, pattern)
    return StrOp(operator.text, ref, pattern, TextSpan(ref.span.start, pattern.span.end))


def _check_pattern(stream: TokenStream, pattern: StringLit) -> None:
    try:
        re.compile(pattern.value)
    except (re.error, RecursionError, OverflowError, ValueError) as error:
        stream.fail("DSL-REGEX-INVALID", f"MATCHES pattern is not a regular expression: {error}",
                    pattern.span)
    refusal = regex_refusal(pattern.value)  # `eval` would refuse it: say so here
    if refusal is not None:
        stream.fail("DSL-REGEX-TOO-COSTLY", refusal, pattern.span,
                    f"keep the product of nested repeat counts under {MAX_REGEX_COST:,}")


def _list(stream: TokenStream) -> ListLit:
    opening = stream.advance()
    items: list[StringLit | NumberLit | BoolLit] = []
    while not stream.at(TokenKind.RBRACKET):
        if items:
            if stream.at(TokenKind.EOF):
                stream.fail("DSL-UNBALANCED-PAREN", "this `[` is never closed", opening.span,
                            "add the matching `]`")
            stream.expect(TokenKind.COMMA, "`,` or `]`")
        items.append(_list_item(stream, trailing_comma=bool(items)))
    closing = stream.advance()
    return ListLit(tuple(items), TextSpan(opening.span.start, closing.span.end))


def _list_item(stream: TokenStream, trailing_comma: bool) -> StringLit | NumberLit | BoolLit:
    token = stream.peek()
    match token.kind:
        case TokenKind.STRING:
            return string_literal(stream)
        case TokenKind.NUMBER | TokenKind.MINUS:
            return number_literal(stream)
        case TokenKind.BOOL:
            stream.advance()
            return BoolLit(token.text == "true", token.span)
        case TokenKind.ACCESSOR | TokenKind.NAME | TokenKind.LBRACKET:
            stream.fail("DSL-LIST-ITEM", "list items are strings, numbers or booleans",
                        token.span, "write the literal values")
        case TokenKind.RBRACKET if trailing_comma:
            stream.unexpected("a list item", "remove the trailing comma")
        case TokenKind.EOF:
            stream.fail("DSL-UNBALANCED-PAREN", "this `[` is never closed", token.span,
                        "add the matching `]`")
    stream.unexpected("a list item")


def _trailing(stream: TokenStream) -> None:
    token = stream.peek()
    if token.kind is TokenKind.RPAREN:
        stream.fail("DSL-UNBALANCED-PAREN", "this `)` closes nothing", token.span, "remove it")
    if token.kind is TokenKind.NOT:
        stream.unexpected("`AND`, `OR` or the end", "NOT goes before the condition it negates")
    stream.unexpected("`AND`, `OR` or the end of the trigger",
                      "join conditions with `AND` or `OR`")


# ---- classification ------------------------------------------------------------------------

def _condition(stream: TokenStream, node: Expr | Operand) -> Expr:
    """`node` where a condition is needed: a bare accessor is the truthiness shorthand."""
    match node:
        case StateRef() | TagRef():
            return Truthy(node, node.span)
        case Arith():
            stream.fail("DSL-EXPECTED-CONDITION", "arithmetic alone is not a condition",
                        node.span, "compare it, such as `… > 0`")
        case NumberLit() | StringLit() | BoolLit():
            stream.fail("DSL-EXPECTED-CONDITION", "a literal alone is not a condition",
                        node.span, "compare an accessor with it, such as `state.a.b == true`")
    return node


def _value(stream: TokenStream, node: Expr | Operand) -> Operand:
    if isinstance(node, _VALUES):
        return node
    if isinstance(node, Compare):
        stream.fail("DSL-ARITH-BOOLEAN", "comparisons do not chain", node.span,
                    "split it with `AND`, such as `state.a.b > 1 AND state.a.b < 5`")
    stream.fail("DSL-ARITH-BOOLEAN", "a condition cannot be used as a value", node.span)


def _arithmetic_operand(stream: TokenStream, node: Expr | Operand) -> Operand:
    value = _value(stream, node)
    if isinstance(value, (StringLit, BoolLit)):
        stream.fail("DSL-ARITH-OPERAND", "arithmetic works on numbers, not on this literal",
                    value.span, "use a number or a numeric accessor")
    return value


def _reference(stream: TokenStream, node: Expr | Operand, operator: str) -> StateRef | TagRef:
    if isinstance(node, (StateRef, TagRef)):
        return node
    stream.fail("DSL-ACCESSOR-REQUIRED", f"{operator} applies to a state or tag accessor",
                node.span, f"such as `state.a.b {operator} …`")


def _has_accessor(node: Operand) -> bool:
    """Iterative: a long `a + 1 + 1 + …` chain must not exhaust the stack before the height
    check runs."""
    pending: list[Operand] = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, (StateRef, TagRef)):
            return True
        if isinstance(current, Arith):
            pending.extend((current.left, current.right))
    return False


def _check_height(stream: TokenStream, ast: Expr, length: int) -> None:
    pending: list[tuple[object, int]] = [(ast, 1)]
    while pending:
        node, height = pending.pop()
        if height > MAX_HEIGHT:
            stream.fail("DSL-NESTING-TOO-DEEP",
                        f"the trigger nests more than {MAX_HEIGHT} operators deep",
                        TextSpan(0, length), "split it into several EMUs or simplify it")
        match node:
            case And(left, right) | Or(left, right) | Compare(_, left, right) \
                    | Arith(_, left, right):
                pending += [(left, height + 1), (right, height + 1)]
            case Not(operand):
                pending.append((operand, height + 1))


def _cover(first: Expr | Operand, second: Expr | Operand) -> TextSpan:
    return TextSpan(first.span.start, second.span.end)

