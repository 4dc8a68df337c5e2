"""DSL diagnostics: stable codes declared once, and one way to render them with a caret.

A diagnostic code is a value, like a finding code. Each carries a title and, where the fix is
obvious, the hint shown under the caret ("use `AND`", "write `'PT1H30M'`").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from topo.audit.dsl.ast import TextSpan

__all__ = ["DslCode", "Diagnostic", "DSL_CODES", "dsl_code", "line_column", "render"]


@dataclass(frozen=True, slots=True)
class DslCode:
    id: str
    title: str
    example: str = ""     # an expression that produces this diagnostic
    fixed: str = ""       # the same expression, corrected


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: DslCode
    message: str
    span: TextSpan
    hint: str = ""
    # "warning": accepted, but a legacy or risky form (`{{state.x}}` templates); "error": rejected.
    severity: Literal["error", "warning"] = "error"

    def location(self, text: str) -> tuple[int, int]:
        """1-based (line, column) of the start of the span within `text`."""
        return line_column(text, self.span.start)


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of a 0-based offset into `text`."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


_EXCERPT_WIDTH = 100   # characters of the offending line shown around the caret
_SURROGATE = re.compile("[\ud800-\udfff]")


def render(text: str, diagnostic: Diagnostic) -> str:
    """`line:col: CODE message`, the offending line, a caret under the span, and the hint.

    A line longer than the excerpt width is cut to a window around the caret, marked with `…`,
    so a huge one-line trigger does not flood the terminal.
    """
    line, column = diagnostic.location(text)
    source_line = text.split("\n")[line - 1] if text else ""
    width = max(1, min(diagnostic.span.end, diagnostic.span.start + len(source_line) - column + 1)
                - diagnostic.span.start)
    start = max(0, min(column - 1 - _EXCERPT_WIDTH // 2, len(source_line) - _EXCERPT_WIDTH))
    # A lone surrogate cannot be written as UTF-8: show U+FFFD, one character, so the caret
    # still lines up.
    excerpt = _SURROGATE.sub("\ufffd", source_line[start:start + _EXCERPT_WIDTH])
    prefix = "…" if start > 0 else ""
    suffix = "…" if start + _EXCERPT_WIDTH < len(source_line) else ""
    offset = column - 1 - start + len(prefix)
    caret = " " * offset + "^" * max(1, min(width, _EXCERPT_WIDTH - (column - 1 - start)))
    out = [f"{line}:{column}: {diagnostic.severity} {diagnostic.code.id}: {diagnostic.message}",
           f"  {prefix}{excerpt}{suffix}", f"  {caret}"]
    if diagnostic.hint:
        out.append(f"  hint: {diagnostic.hint}")
    return "\n".join(out)


def _codes(*codes: DslCode) -> dict[str, DslCode]:
    return {c.id: c for c in codes}


# The catalog. Parser authors add codes here (never rename one), each with an example that
# triggers it; a test runs every example and checks it yields exactly that code.
DSL_CODES: dict[str, DslCode] = _codes(
    DslCode("DSL-LOWERCASE-OPERATOR", "logical or special operator written in lowercase",
            "state.user.tier == 'a' and state.user.age > 3",
            "state.user.tier == 'a' AND state.user.age > 3"),
    DslCode("DSL-DOUBLE-QUOTE", "string written with double quotes",
            'state.user.tier == "premium"', "state.user.tier == 'premium'"),
    DslCode("DSL-STATE-KEY-SEGMENTS", "state key is not namespaced (needs 2 to 7 segments)",
            "state.tier == 'premium'", "state.user.tier == 'premium'"),
    DslCode("DSL-KEY-CASE", "accessor segment is not lowercase",
            "state.User.Tier == 'premium'", "state.user.tier == 'premium'"),
    DslCode("DSL-EVENT-WINDOW-MISSING", "event predicate without an IN 'duration' window",
            "event.user.created.account", "event.user.created.account IN 'P7D'"),
    DslCode("DSL-EVENT-NAME-SVO", "event name is not subject.verb.object",
            "event.user.login IN 'PT1H'", "event.user.failed.login IN 'PT1H'"),
    DslCode("DSL-DURATION-UNQUOTED", "duration is not single-quoted",
            "event.user.failed.login IN PT1H", "event.user.failed.login IN 'PT1H'"),
    DslCode("DSL-WHERE-ACCESSOR", "state or tag accessor used as a WHERE value",
            "event.user.failed.login WHERE user_id == state.user.id IN 'P1D'",
            "event.user.failed.login WHERE user_id == '{{user.id}}' IN 'P1D'"),
    DslCode("DSL-DURATION-INVALID", "not an ISO-8601 duration the DSL accepts",
            "event.user.failed.login IN 'PT1.5H'", "event.user.failed.login IN 'PT1H30M'"),
    DslCode("DSL-COUNT-PROJECT", "COUNT over a project-prefixed event",
            "COUNT event.auth.user.failed.login IN 'PT15M' >= 5",
            "COUNT event.user.failed.login IN 'PT15M' >= 5"),
    DslCode("DSL-COUNT-COMPARISON", "COUNT without a comparison against a number",
            "COUNT event.user.failed.login IN 'PT15M'",
            "COUNT event.user.failed.login IN 'PT15M' >= 5"),
    # ---- added with the parser (lexer, structure, values, events, legacy forms) ------------
    DslCode("DSL-EMPTY", "the trigger is empty", "", "state.user.tier EXISTS"),
    DslCode("DSL-UNEXPECTED-TOKEN", "a token that cannot stand here",
            "state.user.tier == 'a' state.user.age > 3",
            "state.user.tier == 'a' AND state.user.age > 3"),
    DslCode("DSL-UNEXPECTED-END", "the trigger ends in the middle of an expression",
            "state.user.tier ==", "state.user.tier == 'premium'"),
    DslCode("DSL-UNBALANCED-PAREN", "a parenthesis or bracket is never closed, or closes nothing",
            "(state.user.tier == 'a' OR tag.intent == 'b'",
            "(state.user.tier == 'a' OR tag.intent == 'b')"),
    DslCode("DSL-UNTERMINATED-STRING", "a string has no closing quote on its line",
            "state.user.tier == 'premium", "state.user.tier == 'premium'"),
    DslCode("DSL-COMMENT", "a `//` comment (comments are not part of the DSL)",
            "state.user.tier == 'premium' // paying users", "state.user.tier == 'premium'"),
    DslCode("DSL-UNEXPECTED-CHARACTER", "a character the DSL does not use",
            "state.user.tier == 'gold' ; tag.intent == 'upgrade'",
            "state.user.tier == 'gold' AND tag.intent == 'upgrade'"),
    DslCode("DSL-SYMBOL-OPERATOR", "an operator borrowed from another language (`&&`, `!`, `=`)",
            "state.user.tier == 'a' && tag.intent == 'b'",
            "state.user.tier == 'a' AND tag.intent == 'b'"),
    DslCode("DSL-NUMBER-INVALID", "a malformed number",
            "state.order.total > 1.000.000", "state.order.total > 1000000"),
    DslCode("DSL-NUMBER-TOO-LONG", "a number literal of more than 100 digits",
            "state.order.total > " + "9" * 101, "state.order.total > " + "9" * 100),
    DslCode("DSL-BOOLEAN-CASE", "a boolean not written `true` or `false`",
            "state.account.verified == True", "state.account.verified == true"),
    DslCode("DSL-KEY-SEGMENT", "an accessor segment that is empty or starts with a digit",
            "state.user.2fa_enabled == true", "state.user.two_factor_enabled == true"),
    DslCode("DSL-TAG-SEGMENTS", "a tag accessor with more than one segment",
            "tag.intent.primary == 'refund'", "tag.intent == 'refund'"),
    DslCode("DSL-UNKNOWN-NAME", "a name that is no accessor, keyword or literal",
            "user.tier == 'premium'", "state.user.tier == 'premium'"),
    DslCode("DSL-NESTING-TOO-DEEP", "the trigger nests too deeply to analyse",
            "(" * 101 + "state.user.verified" + ")" * 101, "state.user.verified"),
    DslCode("DSL-EXPECTED-CONDITION", "a value where a condition is expected",
            "state.order.total + state.order.tax", "state.order.total + state.order.tax > 0"),
    DslCode("DSL-ARITH-BOOLEAN", "a condition used as a value (in arithmetic or a comparison)",
            "state.order.total + (state.order.tax > 0) > 100",
            "state.order.total + state.order.tax > 100"),
    DslCode("DSL-ARITH-OPERAND", "arithmetic on a string or boolean literal",
            "state.order.total + 'tax' > 100", "state.order.total + state.order.tax > 100"),
    DslCode("DSL-UNARY-MINUS", "a minus sign before something other than a number",
            "-state.account.balance > 100", "state.account.balance < -100"),
    DslCode("DSL-COMPARE-ACCESSOR", "a comparison without an accessor on its left",
            "'premium' == state.user.tier", "state.user.tier == 'premium'"),
    DslCode("DSL-ACCESSOR-REQUIRED", "EXISTS, IN or a string operator after a non-accessor",
            "state.order.total + 1 EXISTS", "state.order.total EXISTS"),
    DslCode("DSL-PREFIX-EXISTS", "EXISTS written before the accessor",
            "EXISTS state.user.email", "state.user.email EXISTS"),
    DslCode("DSL-IN-LIST", "IN after a state or tag accessor without a list",
            "state.user.role IN 'admin'", "state.user.role IN ['admin']"),
    DslCode("DSL-LIST-MISPLACED", "a list anywhere but after IN",
            "state.user.role == ['admin', 'owner']", "state.user.role IN ['admin', 'owner']"),
    DslCode("DSL-LIST-ITEM", "a list item that is not a literal",
            "state.user.role IN [state.team.role]", "state.user.role IN ['admin']"),
    DslCode("DSL-STRING-OPERAND", "a string operator without a single-quoted string",
            "state.user.email ENDS_WITH state.company.domain",
            "state.user.email ENDS_WITH '@company.com'"),
    DslCode("DSL-REGEX-INVALID", "a MATCHES pattern that is not a valid regular expression",
            "state.document.code MATCHES '^[A-Z{3}$'", "state.document.code MATCHES '^[A-Z]{3}$'"),
    DslCode("DSL-REGEX-TOO-COSTLY", "a MATCHES pattern too costly to compile (counted repeats)",
            "state.document.code MATCHES '(?:a{1000}){1000}'",
            "state.document.code MATCHES '^a{1000}$'"),
    DslCode("DSL-WHERE-OPERATOR", "a WHERE filter with an operator other than `==`",
            "event.order.placed.item WHERE amount > 100 IN 'P1D'",
            "event.order.placed.item WHERE amount == 100 IN 'P1D'"),
    DslCode("DSL-WHERE-VALUE", "a WHERE value that is not a string, number or template",
            "event.user.changed.setting WHERE enabled == true IN 'P1D'",
            "event.user.changed.setting WHERE enabled == 'true' IN 'P1D'"),
    DslCode("DSL-WHERE-ATTRIBUTE", "a WHERE attribute that is not a plain identifier",
            "event.user.failed.login WHERE user.id == '{{user.id}}' IN 'P1D'",
            "event.user.failed.login WHERE user_id == '{{user.id}}' IN 'P1D'"),
    DslCode("DSL-TEMPLATE-UNQUOTED", "a `{{…}}` template outside quotes",
            "event.user.failed.login WHERE user_id == {{user.id}} IN 'P1D'",
            "event.user.failed.login WHERE user_id == '{{user.id}}' IN 'P1D'"),
    DslCode("DSL-TEMPLATE-KEY", "a WHERE template that does not name a state key",
            "event.user.failed.login WHERE user_id == '{{user}}' IN 'P1D'",
            "event.user.failed.login WHERE user_id == '{{user.id}}' IN 'P1D'"),
    DslCode("DSL-LEGACY-TEMPLATE", "a legacy `{{state.a.b}}` template (accepted; means `{{a.b}}`)",
            "event.user.failed.login WHERE user_id == '{{state.user.id}}' IN 'P1D'",
            "event.user.failed.login WHERE user_id == '{{user.id}}' IN 'P1D'"),
    DslCode("DSL-COUNT-EVENT", "COUNT over something other than an event query",
            "COUNT state.user.logins >= 5", "COUNT event.user.failed.login IN 'PT15M' >= 5"),
)


def dsl_code(code_id: str) -> DslCode:
    """The catalog entry for `code_id`; a KeyError for an unknown id is a programming error."""
    return DSL_CODES[code_id]
