"""How deeply a Python file nests, measured before libcst's native parser sees it.

libcst's parser recurses on the native stack with no limit of its own: a few thousand nested
brackets, or a few thousand chained `not`, `-`, `lambda:`, `.attr` or `()` in one expression,
overflow it and kill the process (a segfault, not an exception). One linear pass over the
tokens measures both shapes, so such a file becomes an Unknown instead:

- `MAX_BRACKET_DEPTH` (200) open brackets at once, CPython's own limit ("too many nested
  parentheses"): no file deeper than that is valid Python;
- `MAX_EXPRESSION_CHAIN` (2,000) characters of code on the path from the statement to the
  innermost open bracket, counting each string literal as one character and resetting at
  commas, semicolons and line ends outside brackets. No file of 4,500 real ones (site-packages
  and the devset corpus) passes 1,000. libcst survives about 5,000 chained unary operators on
  an 8 MiB stack, but its memory grows with the square of the chain (2,000: 0.25 GB; 10,000:
  5.5 GB), and past about 1,000 levels the front-end's own walkers give up anyway.

F-strings are scanned inside, because their replacement fields nest like code; their literal
text counts as one character, like any string, so a long f-string prompt is no chain.
"""

from __future__ import annotations

import re

__all__ = ["MAX_BRACKET_DEPTH", "MAX_EXPRESSION_CHAIN", "nesting_problem"]

MAX_BRACKET_DEPTH = 200
MAX_EXPRESSION_CHAIN = 2_000

_TOKENS = re.compile(r"""
    (?P<string>(?i:[rbuf]{0,3})(?:'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"
                                  |'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"))
  | (?P<comment>\#[^\n]*)
  | (?P<open>[(\[{])
  | (?P<close>[)\]}])
  | (?P<separator>[,;])
  | (?P<newline>\n)
  | (?P<continuation>\\\r?\n)
  | (?P<code>[^\s'"\#()\[\]{},;\\]+|['"\\])
""", re.VERBOSE | re.DOTALL)
_FIELD_TOKENS = re.compile(r"\{\{|\}\}|[(\[{]|[)\]}]|[^(){}\[\]]+")


def nesting_problem(source: str) -> tuple[int, str] | None:
    """The line and the reason `source` is nested too deeply for the native parser, or None."""
    depth = 0
    runs = [0]          # code characters of the current segment, per open bracket level
    chain = 0           # sum(runs): the expression path the parser recurses along
    for match in _TOKENS.finditer(source):
        kind = match.lastgroup
        if kind == "open":
            depth += 1
            if depth > MAX_BRACKET_DEPTH:
                return _problem(source, match.start(), f"brackets nested more than "
                                f"{MAX_BRACKET_DEPTH} deep")
            runs.append(1)
            chain += 1
        elif kind == "close":
            if depth:
                depth -= 1
                chain -= runs.pop()
            runs[-1] += 1      # the bracketed group is one operand of the enclosing segment
            chain += 1
        elif kind == "separator" or (kind == "newline" and not depth):
            chain -= runs[-1]
            runs[-1] = 0
        elif kind in ("string", "code"):
            text = match.group()
            size = 1 if kind == "string" else len(text)
            if kind == "string" and "f" in text[:text.find(text[-1])].lower():
                inner, size = _fields(text)
                if depth + inner > MAX_BRACKET_DEPTH:
                    return _problem(source, match.start(), f"brackets nested more than "
                                    f"{MAX_BRACKET_DEPTH} deep")
            runs[-1] += size
            chain += size
        if chain > MAX_EXPRESSION_CHAIN:
            return _problem(source, match.start(), f"an expression chained over "
                            f"{MAX_EXPRESSION_CHAIN} characters without a comma")
    return None


def _fields(literal: str) -> tuple[int, int]:
    """An f-string's deepest bracket nesting inside its replacement fields, and how many
    characters of code those fields hold (the literal text around them counts as one)."""
    depth = deepest = 0
    code = 1
    for match in _FIELD_TOKENS.finditer(literal):
        token = match.group()
        if token in ("{{", "}}"):
            continue
        if token in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in ")]}":
            depth = max(0, depth - 1)
        if depth:
            code += len(token)
    return deepest, code


def _problem(source: str, offset: int, what: str) -> tuple[int, str]:
    return source.count("\n", 0, offset) + 1, what
