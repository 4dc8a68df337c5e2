"""The parser's view of the token list: peek, advance, expect, and fail with a diagnostic.

Stop-at-first-error is implemented by raising `ParseStop` from `fail`; `parse_trigger` catches
it at the top and turns it into the result, so no grammar function needs error plumbing. A
legacy spelling met where something else was expected is explained as itself ("use `AND`")
rather than as a generic unexpected token, whatever the grammar position.
"""

from __future__ import annotations

from typing import NoReturn

from topo.audit.dsl.ast import TextSpan
from topo.audit.dsl.diagnostics import Diagnostic, dsl_code
from topo.audit.dsl.lexer import KEYWORDS, LexResult, Token, TokenKind

__all__ = ["ParseStop", "TokenStream", "MAX_NESTING"]

# Parentheses and NOT recurse in the parser; past this depth we stop with a diagnostic instead
# of meeting Python's recursion limit (a hostile or generated trigger may hold 10,000 `(`).
MAX_NESTING = 50


class ParseStop(Exception):
    """Raised with the first error; carries its diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class TokenStream:
    def __init__(self, lexed: LexResult) -> None:
        self.tokens = lexed.tokens
        self.pos = 0
        self.depth = 0
        self.warnings: list[Diagnostic] = []
        self._lexer_diagnostics = {d.span.start: d for d in lexed.diagnostics}

    # ---- reading -------------------------------------------------------------------------

    def peek(self, ahead: int = 0) -> Token:
        index = self.pos + ahead   # past the end, the EOF token repeats
        tokens = self.tokens
        return tokens[index] if index < len(tokens) else tokens[-1]

    def at(self, *kinds: TokenKind) -> bool:
        return self.peek().kind in kinds

    def advance(self) -> Token:
        token = self.peek()
        if token.kind is TokenKind.ERROR:
            raise ParseStop(self._lexer_diagnostics[token.span.start])
        if self.pos < len(self.tokens) - 1:
            self.pos += 1
        return token

    def expect(self, kind: TokenKind, what: str) -> Token:
        if not self.at(kind):
            self.unexpected(what)
        return self.advance()

    def legacy_first(self) -> None:
        """Before blaming the current token for something specific, report it as what it is
        if the lexer flagged it or it is a legacy spelling (`and`, `True`)."""
        if self.at(TokenKind.ERROR, TokenKind.LEGACY_KEYWORD, TokenKind.LEGACY_BOOL):
            self.unexpected("")

    # ---- failing -------------------------------------------------------------------------

    def fail(self, code: str, message: str, span: TextSpan, hint: str = "") -> NoReturn:
        raise ParseStop(Diagnostic(dsl_code(code), message, span, hint))

    def warn(self, code: str, message: str, span: TextSpan, hint: str = "") -> None:
        self.warnings.append(Diagnostic(dsl_code(code), message, span, hint, "warning"))

    def unexpected(self, expected: str, hint: str = "") -> NoReturn:
        """Fail on the current token, explaining a legacy or lexer-level problem first."""
        token = self.peek()
        match token.kind:
            case TokenKind.ERROR:
                raise ParseStop(self._lexer_diagnostics[token.span.start])
            case TokenKind.LEGACY_KEYWORD:
                upper = token.text.upper()
                self.fail("DSL-LOWERCASE-OPERATOR", f"`{token.text}` must be written uppercase",
                          token.span, f"use `{upper}`")
            case TokenKind.LEGACY_BOOL:
                self.fail("DSL-BOOLEAN-CASE", f"booleans are lowercase, not `{token.text}`",
                          token.span, f"write `{token.text.lower()}`")
            case TokenKind.EOF:
                self.fail("DSL-UNEXPECTED-END", f"the trigger ends where {expected} was expected",
                          token.span, hint)
        self.fail("DSL-UNEXPECTED-TOKEN", f"expected {expected}, found {describe(token)}",
                  token.span, hint)

    # ---- nesting -------------------------------------------------------------------------

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            self.fail("DSL-NESTING-TOO-DEEP",
                      f"parentheses and NOT nest more than {MAX_NESTING} levels deep",
                      self.peek().span, "flatten the expression")

    def leave(self) -> None:
        self.depth -= 1


def describe(token: Token) -> str:
    """How a message names a token: `AND`, `'premium'`, `state.a.b`, or "the end"."""
    if token.kind is TokenKind.EOF:
        return "the end of the trigger"
    if token.kind in KEYWORDS.values():
        return f"`{token.text}`"
    text = token.text if len(token.text) <= 40 else token.text[:37] + "..."
    return f"`{text}`"
