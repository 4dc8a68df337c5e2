"""`topo audit` writes the report formats: yaml and html by default, md on request."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from reports_helpers import APPS, EPOCH

from topo.cli.main import cli


def run(*args: str):
    return CliRunner(env={"SOURCE_DATE_EPOCH": EPOCH}).invoke(cli, list(args))


def test_default_formats_are_yaml_and_html(tmp_path: Path) -> None:
    result = run("audit", str(APPS / "demo_support_agent"), "-o", str(tmp_path), "--no-cache")
    assert result.exit_code == 0, result.output
    written = [line for line in result.stdout.splitlines() if line]
    assert written == [str(tmp_path / "TOPOLOGY_STATE.yaml"), str(tmp_path / "TOPOLOGY_STATE.html")]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["TOPOLOGY_STATE.html",
                                                          "TOPOLOGY_STATE.yaml"]


def test_markdown_to_stdout_and_deterministic_html(tmp_path: Path) -> None:
    result = run("audit", str(APPS / "memrail_refund"), "-f", "md", "-o", "-", "--no-cache")
    assert result.exit_code == 0 and result.stdout.startswith("# TOPOLOGY_STATE")
    pages = []
    for name in ("a", "b"):
        assert run("audit", str(APPS / "demo_support_agent"), "-f", "html,yaml,md", "-o",
                   str(tmp_path / name), "--no-cache").exit_code == 0
        pages.append([(tmp_path / name / f).read_bytes() for f in
                      ("TOPOLOGY_STATE.html", "TOPOLOGY_STATE.yaml", "TOPOLOGY_STATE.md")])
    assert pages[0] == pages[1]
