"""What an audit read: files analysed (by kind), skipped (by reason), unknown, and the codes
it checked. "No findings" after reading two files and skipping thirty-five notebooks would
mislead; every run states this beside its verdict. Computed once by the pipeline.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from topo.analyzers.discovery.inventory import Inventory
from topo.analyzers.ir import FileIR, Language
from topo.analyzers.notebooks import is_notebook

__all__ = ["Coverage", "coverage_of"]


@dataclass(frozen=True, slots=True)
class Coverage:
    analysed: tuple[tuple[str, int], ...] = ()   # kind (`python`, `notebook`, `typescript`…)
    emu_files: int = 0                            # EMU files with at least one EMU read
    skipped: tuple[tuple[str, int], ...] = ()     # reason → listed files not read
    unknowns: int = 0                             # inputs that could not be read
    codes: tuple[str, ...] = ()                   # the finding codes the run checked

    @property
    def files(self) -> int:
        return sum(count for _, count in self.analysed)


def _kind(file: FileIR) -> str:
    if is_notebook(file.path):
        return "notebook"
    return "python" if file.language is Language.PYTHON else "typescript/javascript"


def coverage_of(inventory: Inventory, files: Iterable[FileIR], emu_files: Iterable[str],
                unknowns: int, codes: Iterable[str]) -> Coverage:
    analysed = Counter(_kind(file) for file in files if file.parse_error is None)
    return Coverage(analysed=tuple(sorted(analysed.items())),
                    emu_files=len(set(emu_files)), skipped=inventory.skipped,
                    unknowns=unknowns, codes=tuple(sorted(set(codes))))
