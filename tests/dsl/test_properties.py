"""Hypothesis properties of the DSL front half: round trip, a total parser, a stable printer."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from topo.audit.dsl import dependencies, format_trigger, guarded_keys, parse_trigger, render
from topo.audit.dsl.parser import ParseResult
from topo.audit.triggers.strategies import triggers

PROPERTY = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# Fragments that tend to break parsers: legacy spellings, half-open brackets, quotes, escapes.
_FRAGMENTS = ["(", ")", "[", "]", "'", '"', "\\", "\\'", "and", "AND", "OR", "NOT", "IN",
              "WHERE", "COUNT", "EXISTS", "True", "{{", "}}", "//", "-", "--", ".", ",", " ",
              "\n", "==", "=", "!", "&&", "'PT1.5H'", "PT1H", "state.", "event.x.y", "tag.",
              "0", "1.5", "\u2018", "\x00", "\u00e9"]


def check_shape(text: str, result: ParseResult) -> None:
    """What every result must satisfy, whatever the input."""
    assert isinstance(result, ParseResult)
    assert result.ok == (result.ast is not None and not result.errors)
    if result.ast is None:
        assert result.errors, "a rejected trigger names its error"
    for diagnostic in result.diagnostics:
        assert 0 <= diagnostic.span.start <= diagnostic.span.end <= len(text)
        assert diagnostic.message and diagnostic.code.id.startswith("DSL-")
        assert diagnostic.code.id in render(text, diagnostic)


@PROPERTY
@given(triggers())
def test_round_trip(ast: object) -> None:
    text = format_trigger(ast)
    result = parse_trigger(text)
    assert not result.errors, (text, result.diagnostics)
    assert result.ast == ast, text


@PROPERTY
@given(triggers())
def test_dependencies_survive_the_round_trip(ast: object) -> None:
    again = parse_trigger(format_trigger(ast)).ast
    assert dependencies(again) == dependencies(ast)
    assert guarded_keys(again) == guarded_keys(ast)


@PROPERTY
@given(st.text(max_size=200))
@example("(" * 10_000)
@example("NOT " * 5_000)
@example("state.a.b == '\\")
@example('state.a.b == "\\')
@example("event.a.b.c WHERE x == '{{' IN 'P1D'")
def test_parser_is_total_on_any_text(text: str) -> None:
    check_shape(text, parse_trigger(text))


@st.composite
def mutated_triggers(draw: st.DrawFn) -> str:
    """A valid trigger's text with a few edits: deletions, insertions, case flips, repeats."""
    text = format_trigger(draw(triggers(max_leaves=4)))
    for _ in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 8)))
        match draw(st.sampled_from(["delete", "insert", "case", "repeat"])):
            case "delete":
                text = text[:start] + text[end:]
            case "insert":
                text = text[:start] + draw(st.sampled_from(_FRAGMENTS)) + text[start:]
            case "case":
                text = text[:start] + text[start:end].swapcase() + text[end:]
            case "repeat":
                text = text[:end] + text[start:end] + text[end:]
    return text


@PROPERTY
@given(mutated_triggers())
def test_parser_is_total_on_mutated_triggers(text: str) -> None:
    check_shape(text, parse_trigger(text))


@PROPERTY
@given(st.one_of(mutated_triggers(), triggers().map(format_trigger)))
def test_format_is_idempotent_on_text(text: str) -> None:
    result = parse_trigger(text)
    if not result.ok:
        return
    once = format_trigger(result.ast)
    again = parse_trigger(once)
    assert again.ok and again.ast == result.ast
    assert format_trigger(again.ast) == once
