"""Jupyter notebooks (`.ipynb`) as Python: their code cells joined into one script.

A notebook is JSON (nbformat 4): `cells`, each with a `cell_type` and a `source` (a string or a
list of strings). The code cells are joined in order, each starting on a new line, and parsed
as one Python file, so that a helper defined in one cell and called in another is one call
graph; `CodeCell` maps a script line back to `cell:line`. IPython syntax that is not Python is
blanked line for line, so that numbering is kept and the rest still parses: line magics and
shell escapes (`%pip`, `!ls`, `x = !ls`), help queries (`obj?`), and whole cells run by a cell
magic (`%%bash`). The JSON goes through the bounded reader's `load_json` (nesting refused
before parsing). A notebook that is not nbformat 4 JSON, or whose kernel is not Python, is a
`NotebookError` with the place: the caller records it as an unknown.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from topo.analyzers.ir import CodeCell
from topo.analyzers.reading import InputRefused, load_json

__all__ = ["NOTEBOOK_MAX_BYTES", "NOTEBOOK_SUFFIX", "NotebookError", "NotebookScript",
           "cell_position", "is_notebook", "notebook_script", "read_limit", "script_lines"]

NOTEBOOK_SUFFIX = ".ipynb"
# Saved outputs (plots as base64) make notebooks large; their code is a small part.
NOTEBOOK_MAX_BYTES = 16 * 1024 * 1024
# `%magic`, `!shell`, `name = !shell` / `name = %magic`, and `obj?` / `obj??` help queries.
_IPYTHON_LINE = re.compile(r"^\s*(?:[%!]|[\w.]+\s*=\s*[%!])|^\s*[\w.]+\?\??\s*$")
_CELL_MAGIC = re.compile(r"^\s*%%")
_NEWLINE = re.compile(r"\r\n|\r|\n")
_PYTHON_NAMES = frozenset({"python", "python3", "python2", "ipython", "ipython3"})


class NotebookError(Exception):
    """Not a readable notebook; `reason` says why, `line` is the JSON line when known."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


@dataclass(frozen=True, slots=True)
class NotebookScript:
    source: str
    cells: tuple[CodeCell, ...]


def is_notebook(path: str) -> bool:
    return path.endswith(NOTEBOOK_SUFFIX)


def read_limit(path: str, limit: int) -> int:
    """The size limit for reading `path`: a notebook may be up to `NOTEBOOK_MAX_BYTES`."""
    return max(limit, NOTEBOOK_MAX_BYTES) if is_notebook(path) else limit


def notebook_script(text: str) -> NotebookScript:
    """The Python script of a notebook's code cells, and where each cell starts in it."""
    try:
        document = load_json(text)
    except InputRefused as refused:
        raise NotebookError(f"notebook not read: {refused.reason}") from None
    except json.JSONDecodeError as error:
        raise NotebookError(f"notebook not read: invalid JSON: {error.msg} (column "
                            f"{error.colno})", error.lineno) from None
    cells = _cells(document)
    pieces: list[str] = []
    spans: list[CodeCell] = []
    line = 1
    for index, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict):
            raise NotebookError(f"notebook not read: cell {index} is not an object")
        if cell.get("cell_type") != "code":
            continue
        lines = _python_lines(_source(cell, index))
        spans.append(CodeCell(index, line, len(lines)))
        pieces.extend(lines)
        line += len(lines)
    return NotebookScript("".join(f"{text}\n" for text in pieces), tuple(spans))


def script_lines(text: str) -> list[str] | None:
    """The lines a notebook's locations count (its script's), or None when it is not a
    readable notebook: what a report quotes at a notebook's line, never its JSON."""
    try:
        return notebook_script(text).source.split("\n")
    except NotebookError:
        return None


def cell_position(cells: tuple[CodeCell, ...], line: int) -> tuple[int, int] | None:
    """(cell index, line in the cell) of a script line, or None outside every cell."""
    for cell in cells:
        if cell.first_line <= line < cell.first_line + cell.lines:
            return cell.index, line - cell.first_line + 1
    return None


def _cells(document: object) -> list:
    if not isinstance(document, dict):
        raise NotebookError("notebook not read: the document is not a JSON object")
    if "worksheets" in document or document.get("nbformat", 4) != 4:
        raise NotebookError(f"notebook not read: nbformat {document.get('nbformat')!r} (only "
                            "nbformat 4 is read)")
    language = _kernel_language(document.get("metadata"))
    if language is not None and language not in _PYTHON_NAMES:
        raise NotebookError(f"notebook not read: its kernel language is {language!r}, "
                            "not Python")
    cells = document.get("cells")
    if not isinstance(cells, list):
        raise NotebookError("notebook not read: 'cells' is missing or not a list")
    return cells


def _kernel_language(metadata: object) -> str | None:
    if not isinstance(metadata, dict):
        return None
    for key, field in (("language_info", "name"), ("kernelspec", "language")):
        value = metadata.get(key)
        if isinstance(value, dict) and isinstance(value.get(field), str):
            return value[field].lower()
    return None


def _source(cell: dict, index: int) -> str:
    source = cell.get("source", "")
    if isinstance(source, list) and all(isinstance(part, str) for part in source):
        return "".join(source)
    if isinstance(source, str):
        return source
    raise NotebookError(f"notebook not read: the source of cell {index} is not text")


def _python_lines(source: str) -> list[str]:
    # Split as Python does (not `splitlines`, which also breaks at form feeds and U+2028).
    lines = _NEWLINE.split(source.removesuffix("\n").removesuffix("\r")) if source else [""]
    if _CELL_MAGIC.match(lines[0]):
        return [""] * len(lines)   # the whole cell is another language (%%bash, %%sql...)
    return ["" if _IPYTHON_LINE.match(text) else text for text in lines]
