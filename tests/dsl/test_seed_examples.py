"""Every trigger the seed docs show parses; every form they call invalid is rejected.

The examples are *extracted* from `shared/seeds/000_*.txt` (```dsl blocks, `"trigger": …`
values, and the "Common invalid expressions" table) rather than copied, so a doc change shows
up here. The repository is checked out beside `shared/`.
"""

from __future__ import annotations

import ast as python_ast
import json
import re
from pathlib import Path

import pytest

from topo.audit.dsl import format_trigger, parse_trigger

REPO = Path(__file__).resolve().parents[2]
SEEDS = sorted((REPO.parent / "shared" / "seeds").glob("000_*.txt"))
if not SEEDS:
    pytest.skip(f"seed 000 not found under {REPO.parent / 'shared' / 'seeds'}: the doc "
                "examples cannot be checked (is shared/ checked out beside the repo?)",
                allow_module_level=True)
SEED = SEEDS[0].read_text(encoding="utf-8")

_CONTINUATION_WORDS = ("AND", "OR", "WHERE", "IN")
_DANGLING_ENDS = ("AND", "OR", "WHERE", "(", ",")


def _block_expressions(block: str, first_line: int) -> list[tuple[int, str, bool]]:
    """(line, expression, valid) for one ```dsl block.

    `//` lines are comments; a `// Invalid…` comment marks the expressions after it as
    intentionally invalid until a `// Valid…` comment. A line continues the expression above
    when it is indented, starts with AND/OR/WHERE/IN, or follows a dangling operator;
    otherwise it starts a new one-line expression.
    """
    found: list[tuple[int, list[str], bool]] = []
    valid, previous = True, ""
    for number, line in enumerate(block.split("\n"), start=first_line):
        stripped = line.strip()
        if stripped.startswith("//"):
            word = stripped[2:].strip().split(":")[0].split(" ")[0].lower()
            valid = {"invalid": False, "valid": True}.get(word, valid)
            previous = ""
            continue
        if not stripped:
            previous = ""
            continue
        continues = (previous and (line[0].isspace()
                                   or stripped.split(" ")[0] in _CONTINUATION_WORDS
                                   or previous.endswith(_DANGLING_ENDS)))
        if continues:
            found[-1][1].append(line)
        else:
            found.append((number, [line], valid))
        previous = stripped
    return [(number, "\n".join(lines), ok) for number, lines, ok in found]


def _dsl_examples() -> list[tuple[int, str, bool]]:
    examples = []
    for match in re.finditer(r"^```dsl\n(.*?)^```", SEED, re.S | re.M):
        first_line = SEED.count("\n", 0, match.start(1)) + 1
        examples += _block_expressions(match.group(1), first_line)
    return examples


def _trigger_values() -> list[tuple[int, str]]:
    """`"trigger": "…"` JSON values (JSON-decoded: `\\d` -> `\\d`), and the Python dict's
    parenthesised, implicitly concatenated `"trigger": ("…" "…")`."""
    values = []
    for match in re.finditer(r'"trigger"\s*:\s*("(?:[^"\\]|\\.)*")', SEED):
        values.append((SEED.count("\n", 0, match.start()) + 1, json.loads(match.group(1))))
    for match in re.finditer(r'"trigger"\s*:\s*\(((?:\s*"(?:[^"\\]|\\.)*")+)\s*\)', SEED):
        values.append((SEED.count("\n", 0, match.start()) + 1,
                       python_ast.literal_eval("(" + match.group(1) + ")")))
    return values


DSL_EXAMPLES = _dsl_examples()
VALID = [(line, text) for line, text, ok in DSL_EXAMPLES if ok] + _trigger_values()
INVALID = [(line, text) for line, text, ok in DSL_EXAMPLES if not ok]


def test_extraction_finds_the_examples() -> None:
    # Floors, so that a broken extractor cannot pass by finding nothing.
    assert len(DSL_EXAMPLES) >= 45
    assert len(_trigger_values()) >= 7
    assert len(INVALID) == 2
    # A multi-line expression stays one expression.
    assert any("\n  WHERE customer_id == '{{customer.id}}'\n  IN 'P30D'" in t for _, t in VALID)


@pytest.mark.parametrize("line, text", VALID, ids=[f"line{n}" for n, _ in VALID])
def test_documented_trigger_parses(line: int, text: str) -> None:
    result = parse_trigger(text)
    assert result.ok, (line, text, result.diagnostics)
    assert result.diagnostics == ()
    # The canonical form is a fixed point and means the same thing.
    assert parse_trigger(format_trigger(result.ast)).ast == result.ast


# The seed's intentionally invalid examples, and the first problem each must be reported as.
EXPECTED_INVALID = {
    "WHERE customer_id == state.customer.id": "DSL-WHERE-ACCESSOR",
    'state.user.tier == "premium" and tag.intent == "upgrade"': "DSL-DOUBLE-QUOTE",
}


@pytest.mark.parametrize("line, text", INVALID, ids=[f"line{n}" for n, _ in INVALID])
def test_documented_invalid_example_is_rejected(line: int, text: str) -> None:
    expected = [code for fragment, code in EXPECTED_INVALID.items() if fragment in text]
    assert len(expected) == 1, f"new invalid example at line {line}: {text!r}"
    result = parse_trigger(text)
    assert not result.ok and result.ast is None
    assert result.diagnostics[-1].code.id == expected[0]


# ---- the "Common invalid expressions" table ------------------------------------------------

def _table_rows() -> list[tuple[str, str]]:
    section = SEED.split("## Common invalid expressions", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = re.findall(r"`([^`]*)`", line)
        if line.startswith("| `") and len(cells) >= 2:
            rows.append((cells[0], cells[1]))
    return rows


TABLE = _table_rows()
# Fragments in the table become real expressions around them.
_ELLIPSIS = ("state.user.tier == 'premium'", "tag.intent == 'upgrade'")
TABLE_CODES = {
    "state.tier == 'premium'": "DSL-STATE-KEY-SEGMENTS",
    "state.User.Tier == 'premium'": "DSL-KEY-CASE",
    "... and ...": "DSL-LOWERCASE-OPERATOR",
    'state.user.tier == "premium"': "DSL-DOUBLE-QUOTE",
    "event.user.login IN PT1H": "DSL-EVENT-NAME-SVO",
    "WHERE user_id == state.user.id": "DSL-WHERE-ACCESSOR",
    "event.user.created.account": "DSL-EVENT-WINDOW-MISSING",
}


def _complete(cell: str) -> str:
    if cell.startswith("..."):
        return cell.replace("...", _ELLIPSIS[0], 1).replace("...", _ELLIPSIS[1], 1)
    if cell.startswith("WHERE"):
        return f"event.user.failed.login {cell} IN 'P1D'"
    return cell


def test_table_is_the_one_we_know() -> None:
    assert [invalid for invalid, _ in TABLE] == list(TABLE_CODES)


@pytest.mark.parametrize("invalid, correct", TABLE, ids=[row[0] for row in TABLE])
def test_table_row(invalid: str, correct: str) -> None:
    rejected = parse_trigger(_complete(invalid))
    assert not rejected.ok
    assert rejected.diagnostics[-1].code.id == TABLE_CODES[invalid]
    accepted = parse_trigger(_complete(correct))
    assert accepted.ok and accepted.diagnostics == (), accepted.diagnostics


def test_table_fragments_alone_are_rejected_too() -> None:
    assert not parse_trigger("WHERE user_id == state.user.id").ok
    assert not parse_trigger("... and ...").ok


def test_table_event_row_reports_the_duration_once_the_name_is_fixed() -> None:
    # The row has two faults; the first is the name, the second the unquoted duration.
    result = parse_trigger("event.user.failed.login IN PT1H")
    assert result.diagnostics[-1].code.id == "DSL-DURATION-UNQUOTED"
    assert result.diagnostics[-1].hint == "write 'PT1H'"
