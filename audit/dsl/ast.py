"""Typed AST of the v2 trigger DSL (seed 000, "Trigger DSL").

Every node is a frozen dataclass with a `span`. Equality ignores spans (`compare=False`), so
`parse(fmt(ast)) == ast` compares structure only. Walk nodes with `match`, not with
string-built method names.

Boolean and arithmetic operators are binary and left-associative as parsed; there is no group
node: the printer re-inserts the parentheses that precedence requires.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal, TypeAlias

__all__ = [
    "TextSpan", "StringLit", "NumberLit", "BoolLit", "ListLit", "StateRef", "TagRef", "Arith",
    "Compare", "Exists", "Truthy", "InList", "StrOp", "EventRef", "WhereFilter", "Duration",
    "EventQuery", "Count", "Not", "And", "Or", "Literal_", "Ref", "Operand", "Expr",
    "CompareOp", "ArithOp", "StrOpName", "TEMPLATE_OPEN",
]

TEMPLATE_OPEN = "{{"


@dataclass(frozen=True, slots=True, order=True)
class TextSpan:
    """Half-open character range [start, end) into the trigger text (0-based offsets).

    Line and column for messages come from `audit.dsl.diagnostics.line_column(text, offset)`.
    """

    start: int
    end: int


def _span() -> TextSpan:
    return field(default=TextSpan(0, 0), compare=False, repr=False)


# ---- literals ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class StringLit:
    """A single-quoted string. `value` is the text between the quotes, backslash escapes
    preserved verbatim (the docs: "the lexer preserves that escape"), except that `\\'` is an
    escaped quote and becomes `'`."""

    value: str
    span: TextSpan = _span()

    @property
    def is_template(self) -> bool:
        """True when the whole string is one `{{a.b}}` placeholder."""
        v = self.value.strip()
        return v.startswith("{{") and v.endswith("}}") and v.count("{{") == 1

    @property
    def template_key(self) -> str | None:
        """The state key a `{{a.b}}` template reads; a legacy `{{state.a.b}}` is normalised."""
        if not self.is_template:
            return None
        key = self.value.strip()[2:-2].strip()
        return key[len("state."):] if key.startswith("state.") else key


@dataclass(frozen=True, slots=True)
class NumberLit:
    """An integer or decimal literal, possibly negative. `value` is exact (Decimal for
    decimals, int for integers); `raw` keeps the spelling for the printer."""

    value: int | Decimal
    raw: str = field(default="", compare=False)
    span: TextSpan = _span()


@dataclass(frozen=True, slots=True)
class BoolLit:
    value: bool
    span: TextSpan = _span()


Literal_: TypeAlias = StringLit | NumberLit | BoolLit


@dataclass(frozen=True, slots=True)
class ListLit:
    items: tuple[Literal_, ...]
    span: TextSpan = _span()


# ---- accessors -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class StateRef:
    """`state.a.b` — `key` is `a.b` (without the `state.` prefix), as in the context format."""

    key: str
    span: TextSpan = _span()


@dataclass(frozen=True, slots=True)
class TagRef:
    """`tag.kind` — `kind` is without the `tag.` prefix."""

    kind: str
    span: TextSpan = _span()


Ref: TypeAlias = StateRef | TagRef

ArithOp = Literal["+", "-", "*", "/"]


@dataclass(frozen=True, slots=True)
class Arith:
    op: ArithOp
    left: Operand
    right: Operand
    span: TextSpan = _span()


Operand: TypeAlias = StateRef | TagRef | NumberLit | StringLit | BoolLit | Arith

# ---- value predicates ----------------------------------------------------------------------

CompareOp = Literal["==", "!=", "<", "<=", ">", ">="]
StrOpName = Literal["STARTS_WITH", "ENDS_WITH", "CONTAINS", "MATCHES"]


@dataclass(frozen=True, slots=True)
class Compare:
    op: CompareOp
    left: Operand
    right: Operand
    span: TextSpan = _span()


@dataclass(frozen=True, slots=True)
class Exists:
    """Postfix `ref EXISTS`: present and non-null."""

    ref: Ref
    span: TextSpan = _span()


@dataclass(frozen=True, slots=True)
class Truthy:
    """The boolean shorthand: a bare `state.account.verified`."""

    ref: Ref
    span: TextSpan = _span()


@dataclass(frozen=True, slots=True)
class InList:
    ref: Ref
    items: ListLit
    span: TextSpan = _span()


@dataclass(frozen=True, slots=True)
class StrOp:
    op: StrOpName
    ref: Ref
    pattern: StringLit
    span: TextSpan = _span()


# ---- events --------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class EventRef:
    """`event.s.v.o` or `event.project.s.v.o`."""

    subject: str
    verb: str
    object: str
    project: str | None = None
    span: TextSpan = _span()

    @property
    def name(self) -> str:
        """The emitted event name, `subject.verb.object`, without any project prefix."""
        return f"{self.subject}.{self.verb}.{self.object}"


@dataclass(frozen=True, slots=True)
class WhereFilter:
    """`attr == value` inside WHERE; value is a string (maybe a template) or a number."""

    attr: str
    value: StringLit | NumberLit
    span: TextSpan = _span()


@dataclass(frozen=True, slots=True)
class Duration:
    """A quoted ISO-8601 duration. `seconds` is exact (month = 30 d, year = 365 d)."""

    raw: str
    seconds: Decimal
    span: TextSpan = _span()


@dataclass(frozen=True, slots=True)
class EventQuery:
    """`event.s.v.o [WHERE …] IN 'duration'` — true when a matching event is in the window."""

    event: EventRef
    where: tuple[WhereFilter, ...]
    window: Duration
    span: TextSpan = _span()


@dataclass(frozen=True, slots=True)
class Count:
    """`COUNT query <op> n` or `COUNT(query) <op> n`; `parenthesized` keeps the house style."""

    query: EventQuery
    op: CompareOp
    threshold: NumberLit
    parenthesized: bool = field(default=False, compare=False)
    span: TextSpan = _span()


# ---- boolean structure ---------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Not:
    operand: Expr
    span: TextSpan = _span()


@dataclass(frozen=True, slots=True)
class And:
    left: Expr
    right: Expr
    span: TextSpan = _span()


@dataclass(frozen=True, slots=True)
class Or:
    left: Expr
    right: Expr
    span: TextSpan = _span()


Expr: TypeAlias = (Or | And | Not | Compare | Exists | Truthy | InList | StrOp | EventQuery
                   | Count)
