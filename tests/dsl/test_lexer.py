"""The lexer: accessors as one token, verbatim escapes, legacy spellings, and no exceptions."""

from __future__ import annotations

import pytest

from topo.audit.dsl.ast import TextSpan
from topo.audit.dsl.lexer import TokenKind as K
from topo.audit.dsl.lexer import quote_string, tokenize


def kinds(text: str) -> list[K]:
    return [t.kind for t in tokenize(text).tokens]


def test_accessors_are_one_token_whatever_their_shape() -> None:
    tokens = tokenize("state.user.tier tag.k event.a.b.c.d state.User.. user.tier").tokens
    assert [(t.kind, t.text) for t in tokens[:-1]] == [
        (K.ACCESSOR, "state.user.tier"), (K.ACCESSOR, "tag.k"), (K.ACCESSOR, "event.a.b.c.d"),
        (K.ACCESSOR, "state.User.."), (K.NAME, "user.tier")]
    assert tokens[0].span == TextSpan(0, 15)


def test_keywords_and_legacy_spellings() -> None:
    assert kinds("AND and And True true FALSE STARTS_WITH starts_with") == [
        K.AND, K.LEGACY_KEYWORD, K.LEGACY_KEYWORD, K.LEGACY_BOOL, K.BOOL, K.LEGACY_BOOL,
        K.STARTS_WITH, K.LEGACY_KEYWORD, K.EOF]


def test_punctuation_longest_first() -> None:
    assert kinds("<= < >= > == != ( ) [ ] , + - * /") == [
        K.LE, K.LT, K.GE, K.GT, K.EQ, K.NE, K.LPAREN, K.RPAREN, K.LBRACKET, K.RBRACKET,
        K.COMMA, K.PLUS, K.MINUS, K.STAR, K.SLASH, K.EOF]


def test_numbers_are_unsigned_and_may_be_decimal() -> None:
    tokens = tokenize("-1.25 7").tokens
    assert [(t.kind, t.text) for t in tokens[:-1]] == [(K.MINUS, "-"), (K.NUMBER, "1.25"),
                                                      (K.NUMBER, "7")]


@pytest.mark.parametrize("source, value", [
    (r"'plain'", "plain"),
    (r"'it\'s'", "it's"),
    (r"'\d{4}'", r"\d{4}"),
    (r"'a\\'", "a\\\\"),
    (r"'\n'", r"\n"),
    ("''", ""),
])
def test_string_values_keep_escapes_verbatim(source: str, value: str) -> None:
    [token, _] = tokenize(source).tokens
    assert (token.kind, token.value, token.text) == (K.STRING, value, source)
    assert quote_string(value) == source


@pytest.mark.parametrize("text, code", [
    ('"x"', "DSL-DOUBLE-QUOTE"), ("'x", "DSL-UNTERMINATED-STRING"), ("// c", "DSL-COMMENT"),
    ("&&", "DSL-SYMBOL-OPERATOR"), ("@", "DSL-UNEXPECTED-CHARACTER"),
    ("{{a.b}}", "DSL-TEMPLATE-UNQUOTED"), ("{", "DSL-UNEXPECTED-CHARACTER"),
    ("1.2.3", "DSL-NUMBER-INVALID"),
])
def test_errors_are_tokens_with_a_diagnostic(text: str, code: str) -> None:
    lexed = tokenize(text)
    assert [t.kind for t in lexed.tokens] == [K.ERROR, K.EOF]
    assert [d.code.id for d in lexed.diagnostics] == [code]
    assert lexed.diagnostics[0].span == lexed.tokens[0].span


def test_comment_markers_and_quotes_inside_strings_are_text() -> None:
    lexed = tokenize("state.a.b == 'https://x.test/\"q\"' // but this is a comment")
    assert [t.kind for t in lexed.tokens] == [K.ACCESSOR, K.EQ, K.STRING, K.ERROR, K.EOF]
    assert lexed.tokens[2].value == 'https://x.test/"q"'
    assert [d.code.id for d in lexed.diagnostics] == ["DSL-COMMENT"]


def test_non_ascii_letters_stay_inside_the_word() -> None:
    assert [t.text for t in tokenize("state.us\u00e9r.tier").tokens[:-1]] == ["state.us\u00e9r.tier"]


def test_lexing_continues_after_an_error() -> None:
    lexed = tokenize("state.a.b == \"x\" AND tag.k")
    assert [t.kind for t in lexed.tokens] == [K.ACCESSOR, K.EQ, K.ERROR, K.AND, K.ACCESSOR,
                                              K.EOF]
