"""The executor catalog: every executor entry is a row, and docs/sinks.md is the current output."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from topo.analyzers.model import SiteKind
from topo.analyzers.packs import load_packs
from topo.cli.main import cli
from topo.reports.sink_catalog import sink_catalog

DOC = Path(__file__).resolve().parents[2] / "docs" / "sinks.md"


def test_docs_page_is_the_current_catalog():
    assert DOC.read_text(encoding="utf-8") == sink_catalog(load_packs()), \
        "docs/sinks.md is stale: regenerate it with `topo explain --sinks > docs/sinks.md`"


def test_every_executor_entry_is_a_row_and_nothing_else_is():
    rows = [line for line in sink_catalog(load_packs()).splitlines()
            if line.startswith("| ") and line.rstrip().endswith("` |") and "| `" in line]
    packs = load_packs()
    executors = {e.id for p in packs for e in p.entries if e.site is SiteKind.EXECUTOR}
    others = {e.id for p in packs for e in p.entries if e.site is not SiteKind.EXECUTOR}
    ids = {row.rsplit("`", 2)[-2] for row in rows if not row.startswith("| `")}
    assert ids == executors and not ids & others


def test_verb_rows_name_their_set_and_extras():
    text = sink_catalog(load_packs())
    [slack] = [line for line in text.splitlines() if "`messaging.ts.slack`" in line]
    assert "verb `write`" in slack and "`sharedPublicURL`" in slack
    [stripe] = [line for line in text.splitlines() if "`sinks.stripe`" in line]
    assert "| money | stripe | py | exact |" in stripe
    assert "| `write` | " in text and "finalize" in text


def test_explain_sinks_prints_the_catalog():
    result = CliRunner().invoke(cli, ["explain", "--sinks"])
    assert result.exit_code == 0 and result.output == sink_catalog(load_packs())


def test_remote_tool_call_rows_say_the_tier_is_the_tools():
    text = sink_catalog(load_packs())
    [row] = [line for line in text.splitlines() if "`mcp.ts.client_call_tool`" in line]
    assert row.startswith("| by tool name (`tool_name`), else communication | mcp |")
    [plain] = [line for line in text.splitlines() if "`http.ts.ky_got_call`" in line]
    assert plain.startswith("| communication | http |")
