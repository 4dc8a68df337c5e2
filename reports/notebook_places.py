"""Where a finding sits in a notebook: `cell_N:line`, from the front-end's cell map.

A notebook is analysed as its code cells joined (`topo.analyzers.notebooks`), so locations
count lines of that script. Text output shows them as nbQA does, `file.ipynb:cell_3:2:5`
(cell 3, its line 2, column 5); the JSON document adds `cell: {index, line}` to a notebook
finding and SARIF a `notebookCell` / `notebookCellLine` property, both keeping `line` as the
script line (so that fingerprints, baselines and suppressions work as for any file).
"""

from __future__ import annotations

import re

from topo.analyzers.ir import CodeCell
from topo.analyzers.model import Location
from topo.analyzers.notebooks import cell_position, is_notebook, script_lines

__all__ = ["NotebookPlaces", "source_lines"]

_NEWLINE = re.compile(r"\r\n|\r|\n")


class NotebookPlaces:
    """The cell maps of an audit's notebooks (`files`: its FileIRs)."""

    def __init__(self, files) -> None:  # noqa: ANN001 - an iterable of FileIR
        self.cells: dict[str, tuple[CodeCell, ...]] = {f.path: f.cells for f in files
                                                       if f.cells}

    def cell(self, file: str, line: int) -> tuple[int, int] | None:
        cells = self.cells.get(file)
        return None if cells is None else cell_position(cells, line)

    def position(self, location: Location) -> str:
        """`line:col`, or `cell_N:line:col` in a notebook."""
        place = self.cell(location.file, location.line)
        column = location.column or 1
        if place is None:
            return f"{location.line}:{column}"
        return f"cell_{place[0]}:{place[1]}:{column}"

    def label(self, file: str, line: int) -> str:
        """A code frame's gutter label for a script line (the line in its cell)."""
        place = self.cell(file, line)
        return str(line if place is None else place[1])


def source_lines(file: str, text: str) -> list[str] | None:
    """The lines locations count: a notebook's script, or the file split as Python splits."""
    if is_notebook(file):
        return script_lines(text)
    return _NEWLINE.split(text)
