"""`ReportFormat.write`: a report written in pieces is the text `render` returns, byte for byte.

The JSON report is streamed (its text for 100,000 EMUs is hundreds of megabytes); the other
formats are written whole. Small batches make one report many writes, with a short last one.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from reports_helpers import APPS, EPOCH, document_of

from topo.cli.main import cli
from topo.reports import formats
from topo.reports.formats import AUDIT_FORMATS, ReportFormat


class _CountingText(io.StringIO):
    writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


@pytest.mark.parametrize("fmt", AUDIT_FORMATS, ids=[f.name for f in AUDIT_FORMATS])
@pytest.mark.parametrize("batch", [1, 7, 100_000])
def test_a_written_report_is_the_rendered_text(fmt: ReportFormat, batch: int,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    monkeypatch.setattr(formats, "_BATCH", batch)
    document = document_of("memrail_refund")
    out = _CountingText()
    fmt.write(document, out)
    assert out.getvalue() == fmt.render(document)
    if fmt.name == "json" and batch < 100_000:
        assert out.writes > 1  # streamed, not rendered whole first


def test_json_on_stdout_is_the_json_file(tmp_path: Path) -> None:
    runner = CliRunner(env={"SOURCE_DATE_EPOCH": EPOCH})
    app = str(APPS / "memrail_refund")
    to_file = runner.invoke(cli, ["audit", app, "-f", "json", "-o", str(tmp_path), "--no-cache"])
    to_stdout = runner.invoke(cli, ["audit", app, "-f", "json", "-o", "-", "--no-cache"])
    assert to_file.exit_code == 0 and to_stdout.exit_code == 0
    assert to_stdout.stdout == (tmp_path / "TOPOLOGY_STATE.json").read_text("utf-8")
