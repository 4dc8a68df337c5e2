"""Notebooks are read as their code cells: magics blanked, locations `cell_N:line`, and a
malformed notebook is an unknown with its place, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.gate.gate_helpers import TOOL_APP, check
from topo.analyzers.ir import CodeCell
from topo.analyzers.notebooks import NotebookError, cell_position, notebook_script


def notebook(*cells: object, language: str = "python") -> str:
    return json.dumps({"cells": list(cells), "metadata": {"kernelspec": {"language": language}},
                       "nbformat": 4, "nbformat_minor": 5})


def code(source: object) -> dict:
    return {"cell_type": "code", "metadata": {}, "outputs": [], "source": source}


def test_code_cells_are_joined_and_mapped_back() -> None:
    script = notebook_script(notebook(
        {"cell_type": "markdown", "source": "# title"},
        code(["import os\n", "x = 1\n"]),
        code("y = 2"),
    ))
    assert script.source == "import os\nx = 1\ny = 2\n"
    assert script.cells == (CodeCell(2, 1, 2), CodeCell(3, 3, 1))
    assert cell_position(script.cells, 2) == (2, 2)
    assert cell_position(script.cells, 3) == (3, 1)
    assert cell_position(script.cells, 4) is None


def test_ipython_syntax_is_blanked_line_for_line() -> None:
    script = notebook_script(notebook(
        code(["%pip install x\n", "!ls\n", "files = !ls\n", "os?\n", "ok = 1 % 2\n"]),
        code(["%%bash\n", "rm -rf /tmp/x\n"]),
        code("  %time f()\nlast = 1"),
    ))
    assert script.source.split("\n") == ["", "", "", "", "ok = 1 % 2", "", "", "", "last = 1",
                                         ""]


@pytest.mark.parametrize("text, reason", [
    ("{", "invalid JSON"),
    ("[]", "not a JSON object"),
    (json.dumps({"nbformat": 3, "worksheets": []}), "nbformat 3"),
    (json.dumps({"nbformat": 4}), "'cells' is missing"),
    (json.dumps({"nbformat": 4, "cells": [3]}), "cell 1 is not an object"),
    (json.dumps({"nbformat": 4, "cells": [code([1, 2])]}), "source of cell 1 is not text"),
    (notebook(code("x"), language="R"), "kernel language is 'r'"),
    ("[" * 500 + "]" * 500, "nested too deeply"),
])
def test_malformed_notebooks_are_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(NotebookError) as raised:
        notebook_script(text)
    assert reason in raised.value.reason


def _tool_notebook() -> str:
    head, body = TOOL_APP.split("\n\n\n", 1)
    return notebook({"cell_type": "markdown", "source": "# ops"}, code("%pip install agents\n" +
                    head), code(body.format(body="    shutil.rmtree(path)")))


def test_a_notebook_finding_is_shown_as_cell_and_line(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "ops.ipynb").write_text(_tool_notebook())
    run = check(root)
    assert run.exit_code == 1
    # Cell 3 holds the tool; `shutil.rmtree` is its 4th line (the decorator is line 1).
    assert f"{root.as_posix()}/ops.ipynb:cell_3:4:5: UNGOVERNED-PATH" in run.stdout
    assert "  4 |     shutil.rmtree(path)" in run.stdout
    document = check(root, "-f", "json", "--exit-zero").json()
    [finding] = document["findings"]
    assert finding["file"] == "ops.ipynb" and finding["cell"] == {"index": 3, "line": 4}
    assert finding["line"] == 4 + 4   # the joined script: cell 2 has 4 lines before cell 3
    sarif = json.loads(check(root, "-f", "sarif", "--exit-zero").stdout)
    [result] = sarif["runs"][0]["results"]
    assert (result["properties"]["notebookCell"], result["properties"]["notebookCellLine"]) \
        == (3, 4)


def test_a_notebook_finding_quotes_its_cell_code_not_the_json(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "ops.ipynb").write_text(_tool_notebook())
    [finding] = check(root, "-f", "json", "--exit-zero").json()["findings"]
    excerpt = finding["excerpt"]
    assert (excerpt["file"], excerpt["line"]) == ("ops.ipynb", finding["line"])
    hit = excerpt["lines"][excerpt["line"] - excerpt["start"]]
    assert hit == "    shutil.rmtree(path)"
    assert not any('"cell_type"' in line or '"source"' in line for line in excerpt["lines"])


def test_a_notebook_with_large_outputs_is_quoted_too(tmp_path: Path) -> None:
    # Saved plots make real notebooks larger than a source file's 1 MiB limit; the front-end
    # reads them (up to 16 MiB), and so do the excerpt and the code frame.
    root = tmp_path / "repo"
    root.mkdir()
    document = json.loads(_tool_notebook())
    document["cells"][1]["outputs"] = [{"output_type": "display_data", "metadata": {},
                                        "data": {"image/png": "A" * (2 * 1024 * 1024)}}]
    (root / "ops.ipynb").write_text(json.dumps(document))
    run = check(root)
    assert "ops.ipynb:cell_3:4:5: UNGOVERNED-PATH" in run.stdout
    assert "  4 |     shutil.rmtree(path)" in run.stdout
    [finding] = check(root, "-f", "json", "--exit-zero").json()["findings"]
    assert finding["excerpt"] is not None
    assert "    shutil.rmtree(path)" in finding["excerpt"]["lines"]


def test_a_suppression_in_a_cell_works(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "ops.ipynb").write_text(_tool_notebook().replace(
        "shutil.rmtree(path)", "shutil.rmtree(path)  # topo: ignore[UNGOVERNED-PATH] -- "
                               "a scratch directory only"))
    assert check(root).exit_code == 0


@pytest.mark.parametrize("text, where", [
    ("{not json", "ops.ipynb:1: notebook not read: invalid JSON"),
    (notebook(code("x = (\n1"), code("y = 1)), (")), "ops.ipynb: syntax error"),
])
def test_a_malformed_notebook_is_an_unknown_with_its_place(tmp_path: Path, text: str,
                                                          where: str) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "ops.ipynb").write_text(text)
    (root / "app.py").write_text("x = 1\n")
    run = check(root)
    assert run.exit_code == 2
    assert f"topo: unknown: {where}" in run.stderr
    assert "Traceback" not in run.stderr + run.stdout
    assert "1 unknown;" in run.stderr


def test_a_syntax_error_in_a_cell_names_the_cell(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "ops.ipynb").write_text(notebook(code("a = 1\nb = 2"), code("c = 3\nx = 1 +\n")))
    [unknown] = check(root, "-f", "json", "--exit-zero").json()["unknowns"]
    assert unknown["file"] == "ops.ipynb" and "line" not in unknown
    assert unknown["reason"].startswith("syntax error") and unknown["reason"].endswith(
        "(cell 2, line 2)")


def test_ci_formats_name_the_cell(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "ops.ipynb").write_text(_tool_notebook())
    [annotation, _] = check(root, "-f", "github").stdout.splitlines()
    assert annotation.startswith("::error file=ops.ipynb,title=UNGOVERNED-PATH::cell 3, line 4: ")
    [issue] = json.loads(check(root, "-f", "gitlab").stdout)
    assert issue["description"].startswith("UNGOVERNED-PATH: (cell 3, line 4) ")
    assert 'name="ops.ipynb:cell_3:4 ops.purge_workspace"' in check(root, "-f", "junit").stdout
