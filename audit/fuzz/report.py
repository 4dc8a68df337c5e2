"""The two views of a fuzz report: the `topo-fuzz/1` JSON document (ARCHITECTURE.md, "Fuzz
document") and Markdown tables for people. Both read the typed report and compute nothing.

JSON details the contract leaves open, decided here: `atom` and `absent` name an atom as
`audit.triggers.atoms` does (a state key bare, `tag.<kind>`, `event.<s.v.o>`); a boundary `value`
of null means absent (missing or null, which the evaluator treats alike); for an event atom the
value is a number of matching events (for `COUNT`) or a case such as `'inside PT15M'`; a
`diff_summary` row with `atom` null records an EMU that was added or removed (`changed` is
`"added"` or `"removed"`). `diff` and `diff_summary` are empty without `--before`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from topo.audit.dsl import EvalContext, context_to_json
from topo.audit.fuzz.arbitration import Selection
from topo.audit.fuzz.diff import EmuDiff
from topo.audit.fuzz.run import EmuResult, FuzzReport
from topo.audit.fuzz.standings import DecisionPointReport, Standing
from topo.audit.fuzz.values import format_value, json_value

__all__ = ["fuzz_document", "render_json", "render_markdown", "SCHEMA"]

SCHEMA = "topo-fuzz/1"


# ---- JSON ----------------------------------------------------------------------------------

def fuzz_document(report: FuzzReport) -> dict[str, Any]:
    diffs = report.diffs or ()
    return {
        "schema": SCHEMA,
        "emus": [_emu_json(result) for result in report.emus],
        "diff": [{"emu_key": case.emu_key, "context": context_to_json(case.context),
                  "before": case.before, "after": case.after}
                 for diff in diffs for case in diff.cases],
        "diff_summary": [{"emu_key": region.emu_key,
                          "atom": region.atom.name if region.atom else None,
                          "changed": region.changed, "from": region.before, "to": region.after}
                         for diff in diffs for region in diff.regions],
        "arbitration": [{"decision_point": selection.decision_point,
                         "context": context_to_json(selection.context),
                         "matching": list(selection.matching),
                         "selected": list(selection.selected)}
                        for point in report.decision_points for selection in point.selections],
        **({"not_fuzzed": [{"emu_key": key, "reason": reason}
                           for key, reason in report.not_fuzzed]} if report.not_fuzzed else {}),
    }


def render_json(report: FuzzReport) -> str:
    return json.dumps(fuzz_document(report), indent=2, sort_keys=True) + "\n"


def _emu_json(result: EmuResult) -> dict[str, Any]:
    found = result.reachability
    return {
        "emu_key": result.emu.label,
        "decision_point": result.emu.decision_point,
        "reachable": found.reachable,
        "witness": context_to_json(found.witness) if found.witness is not None else None,
        "absence_witnesses": [{"absent": item.atom.name, "context": context_to_json(item.context)}
                              for item in found.absence_witnesses],
        "boundaries": [{"atom": row.atom.name, "value": json_value(row.value),
                        "matches": row.matches} for row in result.boundaries],
    }


# ---- Markdown ------------------------------------------------------------------------------

def render_markdown(report: FuzzReport) -> str:
    return "\n".join(_markdown(report)) + "\n"


def _markdown(report: FuzzReport) -> Iterator[str]:
    budget = report.config.budget
    yield "# topo fuzz report"
    yield ""
    yield f"- EMUs: `{report.source}` ({len(report.emus)})"
    if report.before_source is not None:
        yield f"- Compared with: `{report.before_source}`"
    yield (f"- Seed {budget.seed}; at most {budget.max_examples} generated contexts per search; "
           f"evaluated at {_instant(report)}")
    yield ""
    if report.not_fuzzed:
        yield (f"**Partial: {len(report.not_fuzzed)} EMU(s) were not fuzzed** "
               f"({report.not_fuzzed[0][1]}): "
               + ", ".join(f"`{key}`" for key, _ in report.not_fuzzed) + ".")
        yield ""
    yield from _summary(report)
    for result in report.emus:
        yield from _emu_section(result, budget.max_examples)
    if report.diffs is not None:
        yield from _diff_sections(report.diffs)
    yield from _arbitration_sections(report.decision_points)


def _summary(report: FuzzReport) -> Iterator[str]:
    yield "## Reachability"
    yield ""
    yield "| EMU | decision point | lifecycle | reachable | absence witnesses |"
    yield "|---|---|---|---|---|"
    for result in report.emus:
        absent = ", ".join(f"`{a.atom.name}`" for a in result.reachability.absence_witnesses)
        yield _row(f"`{result.emu.label}`", _code(result.emu.decision_point),
                   result.emu.state or "unspecified (taken as live)",
                   _reachable(result.reachability.reachable), absent or "none")
    yield ""
    if report.dead:
        names = ", ".join(f"`{r.emu.label}`" for r in report.dead)
        yield (f"**{len(report.dead)} EMU(s) in an evaluated lifecycle state have no witness:** "
               f"{names}.")
        yield ""


def _emu_section(result: EmuResult, max_examples: int) -> Iterator[str]:
    found = result.reachability
    yield f"## `{result.emu.label}`"
    yield ""
    yield f"Trigger: `{result.trigger}`"
    yield ""
    if found.witness is not None:
        yield "**Witness** (a minimal context that matches):"
        yield ""
        yield f"    {_context(found.witness)}"
    elif found.proof is not None:
        yield f"**No witness: the trigger can never be true** ({found.proof})."
    else:
        yield (f"**No witness found** among {found.tried} contexts (budget {max_examples}), "
               "and no proof that none exists: reachability unknown.")
    yield ""
    if found.absence_witnesses:
        yield "**Absence witnesses** (the trigger matches with this input missing):"
        yield ""
        for item in found.absence_witnesses:
            yield f"- `{item.atom.name}` absent: `{_context(item.context)}`"
        yield ""
    if result.boundaries:
        held = "held at the witness's values" if found.witness is not None else "absent"
        yield f"**Boundaries** (one input varied; the others {held}):"
        yield ""
        yield "| atom | value | matches |"
        yield "|---|---|---|"
        for row in result.boundaries:
            yield _row(f"`{row.atom.name}`", format_value(row.value), _yes(row.matches))
        yield ""
    for message, count in result.evaluation_errors:
        yield f"Evaluation error (counted as a non-match) ×{count}: {message}"
        yield ""


def _diff_sections(diffs: tuple[EmuDiff, ...]) -> Iterator[str]:
    yield "## Before → after"
    yield ""
    yield "| EMU | change |"
    yield "|---|---|"
    for diff in diffs:
        yield _row(f"`{diff.emu_key}`", _status(diff))
    yield ""
    for diff in diffs:
        if diff.status != "unchanged":
            yield from _changed_section(diff)


def _changed_section(diff: EmuDiff) -> Iterator[str]:
    yield f"### `{diff.emu_key}`"
    yield ""
    if diff.status in ("added", "removed"):
        yield from _whole_emu_change(diff)
        return
    if diff.regions:
        yield "Changed outcomes, one input at a time:"
        yield ""
        yield "| atom | values | before | after |"
        yield "|---|---|---|---|"
        for region in diff.regions:
            yield _row(f"`{region.atom.name if region.atom else '*'}`", region.changed,
                       _yes(region.before), _yes(region.after))
        yield ""
    if diff.unchanged:
        yield "Unchanged outcomes (the cases the change must keep):"
        yield ""
        yield "| atom | values | outcome in both |"
        yield "|---|---|---|"
        for region in diff.unchanged:
            values = ", ".join(format_value(v) for v in region.values)
            yield _row(f"`{region.atom.name}`", values,
                       "matches" if region.outcome else "does not match")
        yield ""
    if diff.cases:
        yield f"Contexts whose outcome changed ({diff.sampled} generated contexts also compared):"
        yield ""
        yield "| before | after | context |"
        yield "|---|---|---|"
        for case in diff.cases:
            yield _row(_yes(case.before), _yes(case.after), f"`{_context(case.context)}`")
        yield ""


def _whole_emu_change(diff: EmuDiff) -> Iterator[str]:
    tense = "matches" if diff.status == "added" else "matched"
    if not diff.cases:
        yield f"The EMU was {diff.status}; no context that it {tense} was found."
        yield ""
        return
    yield f"The EMU was {diff.status}; a context that it {tense}:"
    yield ""
    for case in diff.cases:
        yield f"    {_context(case.context)}"
    yield ""


def _arbitration_sections(points: tuple[DecisionPointReport, ...]) -> Iterator[str]:
    if not points:
        return
    yield "## Arbitration"
    yield ""
    for point in points:
        yield f"### Decision point {_code(point.decision_point)}"
        yield ""
        yield "| EMU | lane | wins | matches but loses |"
        yield "|---|---|---|---|"
        for standing in point.standings:
            yield _row(f"`{standing.emu_key}`", standing.lane, _wins(standing),
                       _loses(standing))
        yield ""
        if point.selections:
            yield "| context | matching | selected | not selected because |"
            yield "|---|---|---|---|"
            for selection in point.selections:
                yield _selection_row(selection)
            yield ""


def _selection_row(selection: Selection) -> str:
    reasons = "; ".join(f"`{key}`: {reason}" for key, reason in selection.reasons)
    return _row(f"`{_context(selection.context)}`", _keys(selection.matching),
                _keys(selection.selected), reasons or "—")


def _wins(standing: Standing) -> str:
    if standing.win is not None:
        return "yes"
    if standing.lane == "shadow":
        return "never (shadow lane)"
    if standing.searched:
        return f"never among {standing.tried} contexts tried: always outscored or suppressed"
    return "no" if standing.loss is not None else "no witness"


def _loses(standing: Standing) -> str:
    if standing.loss is None:
        return "never found" if standing.searched else "—"
    reason = dict(standing.loss.reasons).get(standing.emu_key, "")
    return f"yes: {reason}"


# ---- small helpers -------------------------------------------------------------------------

def _context(ctx: EvalContext) -> str:
    """Compact CTX JSON without empty sections (all three are optional in the format)."""
    document = {k: v for k, v in context_to_json(ctx).items() if v}
    return json.dumps(document, sort_keys=True, ensure_ascii=False)


def _row(*cells: str) -> str:
    return "| " + " | ".join(cell.replace("|", "\\|").replace("\n", " ") for cell in cells) + " |"


def _code(text: str | None) -> str:
    return f"`{text}`" if text is not None else "(none)"


def _keys(keys: tuple[str, ...]) -> str:
    return ", ".join(f"`{k}`" for k in keys) or "—"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _reachable(flag: bool | None) -> str:
    return {True: "yes", False: "no (proven)", None: "unknown"}[flag]


def _status(diff: EmuDiff) -> str:
    return {"changed": "trigger changed", "unchanged": "trigger unchanged",
            "added": "added", "removed": "removed"}[diff.status]


def _instant(report: FuzzReport) -> str:
    return report.config.now.isoformat().replace("+00:00", "Z")
