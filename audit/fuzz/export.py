"""`topo fuzz --export-tests DIR`: a pytest file that pins the fuzzed outcomes.

Each case is a context in the `topo trigger eval` format and whether the EMU's trigger matches it:
the witness, the absence witnesses, every boundary row, and the contexts whose outcome changed
against `--before`. The file embeds the triggers as reviewed and runs them through topo's own
evaluator, so it can be committed next to `emus.jsonl` and re-generated when the policy changes.
As in `topo fuzz`, an evaluation error counts as a non-match.
"""

from __future__ import annotations

import json
import pprint
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from topo.audit.dsl import context_to_json
from topo.audit.fuzz.run import FuzzReport
from topo.audit.fuzz.values import format_value

__all__ = ["export_tests", "exported_test_source"]

_TEMPLATE = '''"""Trigger outcomes pinned by `topo fuzz` (seed {seed}, evaluated at {now}).

Regenerate with `topo fuzz {source} --export-tests DIR`. Each case is a context in the
`topo trigger eval` format and whether the EMU's trigger matches it; an evaluation error counts
as a non-match, as in `topo fuzz`.
"""

import pytest

from topo.audit.dsl import EvaluationError, evaluate, load_context, parse_timestamp, parse_trigger

NOW = {now!r}

TRIGGERS = {triggers}

CASES = [
{cases}
]


def _matches(trigger, context):
    parsed = parse_trigger(trigger)
    assert parsed.ast is not None, parsed.diagnostics
    try:
        return evaluate(parsed.ast, load_context(context, now=parse_timestamp(NOW)))
    except EvaluationError:
        return False


@pytest.mark.parametrize(("emu_key", "case", "context", "expected"), CASES,
                         ids=[f"{{key}}: {{case}}" for key, case, _, _ in CASES])
def test_trigger_outcome(emu_key, case, context, expected):
    assert _matches(TRIGGERS[emu_key], context) is expected
'''


def export_tests(report: FuzzReport, directory: Path) -> Path:
    """Write the pytest file into `directory` (created if needed); return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"test_fuzz_{_slug(report.source)}.py"
    path.write_text(exported_test_source(report), encoding="utf-8")
    return path


def exported_test_source(report: FuzzReport) -> str:
    now = report.config.now.isoformat().replace("+00:00", "Z")
    triggers = "".join(f"    {result.emu.label!r}: {result.trigger!r},\n"
                       for result in report.emus)
    cases = "\n".join(_indent(pprint.pformat(case, width=96, sort_dicts=True)) + ","
                      for case in _cases(report))
    return _TEMPLATE.format(seed=report.config.budget.seed, now=now, source=report.source,
                            triggers="{\n" + triggers + "}", cases=cases)


def _cases(report: FuzzReport) -> Iterator[tuple[str, str, dict[str, Any], bool]]:
    changed = {}
    for diff in report.diffs or ():
        for case in diff.cases:
            changed.setdefault(diff.emu_key, []).append(case)
    for result in report.emus:
        key = result.emu.label
        seen: set[str] = set()
        found = result.reachability
        candidates = []
        if found.witness is not None:
            candidates.append(("witness", found.witness, True))
        candidates += [(f"{item.atom.name} absent", item.context, True)
                       for item in found.absence_witnesses]
        candidates += [(f"{row.atom.name} = {format_value(row.value)}", row.context, row.matches)
                       for row in result.boundaries]
        candidates += [("changed against --before", case.context, case.after)
                       for case in changed.get(key, ())]
        for label, ctx, expected in candidates:
            document = context_to_json(ctx)
            text = json.dumps(document, sort_keys=True)
            if text not in seen:
                seen.add(text)
                yield (key, label, document, expected)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


def _slug(source: str) -> str:
    name = Path(source).name.removesuffix(".jsonl") or "emus"
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "emus"
