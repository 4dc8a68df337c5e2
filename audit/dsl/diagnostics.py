"""DSL diagnostics: stable codes declared once, and one way to render them with a caret.

A diagnostic code is a value, like a finding code. Each carries a title and, where the fix is
obvious, the hint shown under the caret ("use `AND`", "write `'PT1H30M'`").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from audit.dsl.ast import TextSpan

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


def render(text: str, diagnostic: Diagnostic) -> str:
    """`line:col: CODE message`, the offending line, a caret under the span, and the hint."""
    line, column = diagnostic.location(text)
    source_line = text.split("\n")[line - 1] if text else ""
    width = max(1, min(diagnostic.span.end, diagnostic.span.start + len(source_line) - column + 1)
                - diagnostic.span.start)
    caret = " " * (column - 1) + "^" * width
    out = [f"{line}:{column}: {diagnostic.severity} {diagnostic.code.id}: {diagnostic.message}",
           f"  {source_line}", f"  {caret}"]
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
)


def dsl_code(code_id: str) -> DslCode:
    """The catalog entry for `code_id`; a KeyError for an unknown id is a programming error."""
    return DSL_CODES[code_id]
