"""The last line of every `audit` and `check` run (stderr), and the document's `coverage`.

`topo: read 12 files (10 python, 1 notebook, 1 typescript/javascript) and 2 EMU files;
skipped 40 (35 tests and fixtures, 3 not source: .md, 2 not source: .png); 1 unknown;
33 codes checked`. The `coverage` object of the JSON document holds the same counts.
"""

from __future__ import annotations

from topo.audit.coverage import Coverage

__all__ = ["coverage_line", "coverage_document"]

_SHOWN_REASONS = 4


def coverage_line(coverage: Coverage) -> str:
    kinds = ", ".join(f"{count} {kind}" for kind, count in coverage.analysed)
    read = f"read {coverage.files} file{'s' if coverage.files != 1 else ''}"
    if kinds:
        read += f" ({kinds})"
    read += f" and {coverage.emu_files} EMU file{'s' if coverage.emu_files != 1 else ''}"
    ranked = sorted(coverage.skipped, key=lambda item: (-item[1], item[0]))
    total = sum(count for _, count in ranked)
    shown = [f"{count} {reason}" for reason, count in ranked[:_SHOWN_REASONS]]
    if len(ranked) > _SHOWN_REASONS:
        rest = sum(count for _, count in ranked[_SHOWN_REASONS:])
        shown.append(f"{rest} other")
    skipped = f"skipped {total}" + (f" ({', '.join(shown)})" if shown else "")
    unknown = f"{coverage.unknowns} unknown{'s' if coverage.unknowns != 1 else ''}"
    return f"topo: {read}; {skipped}; {unknown}; {len(coverage.codes)} codes checked"


def coverage_document(coverage: Coverage) -> dict:
    return {"analysed": dict(coverage.analysed), "emu_files": coverage.emu_files,
            "skipped": dict(coverage.skipped), "unknowns": coverage.unknowns,
            "codes": list(coverage.codes)}
