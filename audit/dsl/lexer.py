"""Tokens of the trigger DSL: one pass over the text, never raising.

Why hand-written: the lexer must *recognise* forms the language rejects (double quotes, `&&`,
`//` comments, unquoted `{{templates}}`) so that the parser can explain them with a hint instead
of failing on a bare character. Such forms become an `ERROR` token carrying its diagnostic; a
lowercase keyword or `True` gets its own token kind, because whether it is wrong depends on
where it stands (a WHERE attribute may be called `count`).

Accessors (`state.a.b`, `tag.k`, `event.s.v.o`) are one token; their segment rules are the
parser's job, so that its message can name the faulty segment.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from topo.audit.dsl.ast import TextSpan
from topo.audit.dsl.diagnostics import Diagnostic, dsl_code

__all__ = ["TokenKind", "Token", "LexResult", "tokenize", "quote_string", "KEYWORDS",
           "PUNCTUATION", "FOREIGN_OPERATORS", "ACCESSOR_PREFIXES", "COMPARISON_KINDS",
           "MAX_NUMBER_DIGITS"]


class TokenKind(enum.Enum):
    # keywords (uppercase only)
    AND = "AND"
    OR = "OR"
    NOT = "NOT"
    IN = "IN"
    EXISTS = "EXISTS"
    COUNT = "COUNT"
    WHERE = "WHERE"
    STARTS_WITH = "STARTS_WITH"
    ENDS_WITH = "ENDS_WITH"
    CONTAINS = "CONTAINS"
    MATCHES = "MATCHES"
    # names and literals
    ACCESSOR = "accessor"        # state.…, tag.…, event.… (any case, any segment count)
    NAME = "name"                # any other identifier, dotted or not (`user_id`, `PT1H`)
    STRING = "string"            # single-quoted; `text` is the source spelling with quotes
    NUMBER = "number"            # unsigned; the parser folds a leading `-`
    BOOL = "bool"                # `true` / `false`
    # recognised legacy spellings, diagnosed by the parser where they stand
    LEGACY_KEYWORD = "legacy keyword"    # `and`, `Or`, `exists`, …
    LEGACY_BOOL = "legacy boolean"       # `True`, `FALSE`, …
    # punctuation
    LPAREN = "("
    RPAREN = ")"
    LBRACKET = "["
    RBRACKET = "]"
    COMMA = ","
    EQ = "=="
    NE = "!="
    LE = "<="
    GE = ">="
    LT = "<"
    GT = ">"
    PLUS = "+"
    MINUS = "-"
    STAR = "*"
    SLASH = "/"
    # the rest
    ERROR = "error"
    EOF = "end of input"


@dataclass(frozen=True, slots=True)
class Token:
    kind: TokenKind
    text: str
    span: TextSpan
    value: str = ""    # STRING: the decoded value (only `\'` unescaped); otherwise ""


@dataclass(frozen=True, slots=True)
class LexResult:
    """All tokens (ending with EOF) and one diagnostic per ERROR token, in text order."""

    tokens: tuple[Token, ...]
    diagnostics: tuple[Diagnostic, ...]


KEYWORDS: dict[str, TokenKind] = {k.value: k for k in (
    TokenKind.AND, TokenKind.OR, TokenKind.NOT, TokenKind.IN, TokenKind.EXISTS, TokenKind.COUNT,
    TokenKind.WHERE, TokenKind.STARTS_WITH, TokenKind.ENDS_WITH, TokenKind.CONTAINS,
    TokenKind.MATCHES)}

# Longest spelling first, so that `<=` wins over `<`.
PUNCTUATION: tuple[tuple[str, TokenKind], ...] = (
    ("==", TokenKind.EQ), ("!=", TokenKind.NE), ("<=", TokenKind.LE), (">=", TokenKind.GE),
    ("<", TokenKind.LT), (">", TokenKind.GT), ("+", TokenKind.PLUS), ("-", TokenKind.MINUS),
    ("*", TokenKind.STAR), ("/", TokenKind.SLASH), ("(", TokenKind.LPAREN),
    (")", TokenKind.RPAREN), ("[", TokenKind.LBRACKET), ("]", TokenKind.RBRACKET),
    (",", TokenKind.COMMA),
)

# Operators borrowed from other languages: spelling -> what to write instead. Checked before
# PUNCTUATION so that `<>` is not read as `<` then `>`.
FOREIGN_OPERATORS: tuple[tuple[str, str], ...] = (
    ("&&", "AND"), ("||", "OR"), ("<>", "!="), ("!", "NOT"), ("=", "=="),
)

COMPARISON_KINDS = frozenset({TokenKind.EQ, TokenKind.NE, TokenKind.LE, TokenKind.GE,
                              TokenKind.LT, TokenKind.GT})
ACCESSOR_PREFIXES = ("state", "tag", "event")

# Any Unicode letters, so that `state.usér.tier` is one token whose bad segment the parser
# can name, instead of `state.us` followed by a stray character.
_WORD = re.compile(r"[^\W\d]\w*(?:\.\w*)*")
_NUMBER_RUN = re.compile(r"[0-9][A-Za-z0-9_.]*")
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_TEMPLATE = re.compile(r"\{\{[^{}\n]*\}\}")
MAX_NUMBER_DIGITS = 100
"""Digits of one number literal. Far beyond any threshold a policy compares with, and far below
Python's 4,300-digit limit on int/str conversion that printing and JSON output would meet."""
_CURLY_QUOTES = "\u2018\u2019\u201c\u201d"
_SPACE = re.compile(r"\s+")   # re's `\s` is `str.isspace`: one match skips a run of blanks


def tokenize(text: str) -> LexResult:
    """Split `text` into tokens. Never raises: bad input becomes ERROR tokens + diagnostics."""
    lexer = _Lexer(text)
    lexer.run()
    return LexResult(tuple(lexer.tokens), tuple(lexer.diagnostics))


class _Lexer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.tokens: list[Token] = []
        self.diagnostics: list[Diagnostic] = []

    def run(self) -> None:
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char.isspace():
                self.pos = _SPACE.match(text, self.pos).end()
            elif text.startswith("//", self.pos):
                self._comment()
            elif char == "'":
                self._string()
            elif char == '"':
                self._double_quoted()
            elif char.isdigit() and char.isascii():
                self._number()
            elif char.isalpha() or char == "_":
                self._word()
            elif text.startswith("{{", self.pos):
                self._unquoted_template()
            else:
                self._punctuation()
        self.tokens.append(Token(TokenKind.EOF, "", TextSpan(len(text), len(text))))

    # ---- emitters ------------------------------------------------------------------------

    def _emit(self, kind: TokenKind, end: int, value: str = "") -> None:
        span = TextSpan(self.pos, end)
        self.tokens.append(Token(kind, self.text[self.pos:end], span, value))
        self.pos = end

    def _error(self, end: int, code: str, message: str, hint: str = "") -> None:
        span = TextSpan(self.pos, end)
        self.diagnostics.append(Diagnostic(dsl_code(code), message, span, hint))
        self._emit(TokenKind.ERROR, end)

    def _line_end(self) -> int:
        end = self.text.find("\n", self.pos)
        return len(self.text) if end < 0 else end

    # ---- token kinds ---------------------------------------------------------------------

    def _comment(self) -> None:
        self._error(self._line_end(), "DSL-COMMENT", "comments are not part of the trigger DSL",
                    "remove the `//` comment")

    def _scan_quoted(self, quote: str) -> tuple[int, str] | None:
        """(end offset, decoded value) of the string opening at pos, or None if unterminated.

        A backslash escapes the next character; the pair is kept verbatim (the docs: "the
        lexer preserves that escape"), except that an escaped quote becomes the quote.
        """
        text, i, out = self.text, self.pos + 1, []
        while i < len(text) and text[i] != "\n":
            char = text[i]
            if char == quote:
                return i + 1, "".join(out)
            if char == "\\" and i + 1 < len(text) and text[i + 1] != "\n":
                out.append(quote if text[i + 1] == quote else text[i:i + 2])
                i += 2
                continue
            out.append(char)
            i += 1
        return None

    def _string(self) -> None:
        scanned = self._scan_quoted("'")
        if scanned is None:
            self._error(self._line_end(), "DSL-UNTERMINATED-STRING",
                        "string has no closing single quote", "close it with `'`")
            return
        self._emit(TokenKind.STRING, scanned[0], scanned[1])

    def _double_quoted(self) -> None:
        scanned = self._scan_quoted('"')
        if scanned is None:
            self._error(self._line_end(), "DSL-DOUBLE-QUOTE",
                        "strings use single quotes (and this one is not closed)",
                        "use single quotes")
            return
        end, value = scanned
        self._error(end, "DSL-DOUBLE-QUOTE", "strings use single quotes",
                    f"use single quotes: write {quote_string(value)}")

    def _number(self) -> None:
        run = _NUMBER_RUN.match(self.text, self.pos)
        assert run is not None  # the caller saw a digit
        digits = len(run.group().replace(".", ""))
        if _NUMBER.fullmatch(run.group()) and digits > MAX_NUMBER_DIGITS:
            self._error(run.end(), "DSL-NUMBER-TOO-LONG",
                        f"a number of {digits} digits; the limit is {MAX_NUMBER_DIGITS}",
                        "compare with a shorter number")
        elif _NUMBER.fullmatch(run.group()):
            self._emit(TokenKind.NUMBER, run.end())
        else:
            self._error(run.end(), "DSL-NUMBER-INVALID",
                        f"`{run.group()}` is not a number", "write an integer or a decimal "
                        "such as `1.5`; durations are quoted, such as 'PT1H'")

    def _word(self) -> None:
        match = _WORD.match(self.text, self.pos)
        assert match is not None  # the caller saw a letter or `_`
        word = match.group()
        self._emit(_word_kind(word), match.end())

    def _unquoted_template(self) -> None:
        match = _TEMPLATE.match(self.text, self.pos)
        if match is None:
            self._error(self.pos + 1, "DSL-UNEXPECTED-CHARACTER", "unexpected character `{`")
            return
        self._error(match.end(), "DSL-TEMPLATE-UNQUOTED", "a template must be quoted",
                    f"write '{match.group()}'")

    def _punctuation(self) -> None:
        for spelling, kind in PUNCTUATION:
            if self.text.startswith(spelling, self.pos) and not self._foreign_first(spelling):
                self._emit(kind, self.pos + len(spelling))
                return
        for spelling, instead in FOREIGN_OPERATORS:
            if self.text.startswith(spelling, self.pos):
                self._error(self.pos + len(spelling), "DSL-SYMBOL-OPERATOR",
                            f"`{spelling}` is not a DSL operator", f"use `{instead}`")
                return
        char = self.text[self.pos]
        hint = "use straight single quotes `'`" if char in _CURLY_QUOTES else ""
        self._error(self.pos + 1, "DSL-UNEXPECTED-CHARACTER",
                    f"unexpected character {char!r}", hint)

    def _foreign_first(self, spelling: str) -> bool:
        """True when a longer foreign operator (`<>`) starts here and must win over `<`."""
        return any(len(f) > len(spelling) and self.text.startswith(f, self.pos)
                   for f, _ in FOREIGN_OPERATORS)


def _word_kind(word: str) -> TokenKind:
    first = word.split(".", 1)[0]
    if "." in word or first.lower() in ACCESSOR_PREFIXES:
        return TokenKind.ACCESSOR if first.lower() in ACCESSOR_PREFIXES else TokenKind.NAME
    if word in KEYWORDS:
        return KEYWORDS[word]
    if word in ("true", "false"):
        return TokenKind.BOOL
    if word.lower() in ("true", "false"):
        return TokenKind.LEGACY_BOOL
    if word.upper() in KEYWORDS:
        return TokenKind.LEGACY_KEYWORD
    return TokenKind.NAME


def quote_string(value: str) -> str:
    """The single-quoted source spelling of a decoded string value.

    Inverse of the lexer: a backslash pair is already verbatim in `value` and is copied as is;
    a bare quote is escaped.
    """
    out, i = ["'"], 0
    while i < len(value):
        char = value[i]
        if char == "\\" and i + 1 < len(value):
            out.append(value[i:i + 2])
            i += 2
            continue
        out.append("\\'" if char == "'" else char)
        i += 1
    out.append("'")
    return "".join(out)
