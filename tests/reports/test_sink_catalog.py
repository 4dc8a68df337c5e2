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


def _section(text: str, title: str) -> list[str]:
    """The table rows of one section (`# Executor catalog`, `## Tool registrations`, …)."""
    lines = text.splitlines()
    start = lines.index(title)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("#")), len(lines))
    return [line for line in lines[start:end] if line.startswith("| ") and "---" not in line][1:]


def test_every_executor_entry_is_a_row_and_nothing_else_is():
    rows = [line for line in _section(sink_catalog(load_packs()), "# Executor catalog")
            if line.rstrip().endswith("` |")]
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


def test_every_registration_form_is_a_row_with_what_the_model_runs_and_its_name():
    packs = load_packs()
    rows = _section(sink_catalog(packs), "## Tool registrations")
    forms = {e.id for p in packs for e in p.entries if e.site is SiteKind.TOOL_REGISTRATION}
    assert {row.rsplit("`", 2)[-2] for row in rows} == forms
    [shell] = [row for row in rows if row.endswith("`openai_agents.shell_tool` |")]
    assert "| call |" in shell and "methods `__call__`" in shell and "`name=`" in shell
    [vercel] = [row for row in rows if row.endswith("`vercel_ai.tool` |")]
    assert "the key it is placed under" in vercel


def test_heuristics_are_listed_and_named_on_the_rows_they_apply_to():
    packs = load_packs()
    text = sink_catalog(packs)
    judgements = {j.name for p in packs for j in p.judgements}
    rows = _section(text, "## Judgements")
    assert {row.split("`")[1] for row in rows} == judgements and "token_endpoint" in judgements
    applied = [row for row in _section(text, "# Executor catalog") if "unless " in row]
    assert applied and all(any(name in row for name in judgements) for row in applied)
    # Each row says its condition: `starts` and `mentions` as words, never `= None`.
    assert not [row for row in rows if "= None" in row]
    assert any("sql_known starts with select" in row for row in rows)


def test_intent_verbs_are_listed_by_tier():
    rows = _section(sink_catalog(load_packs()), "## Intent executors")
    by_tier = {row.split(" | ")[0].strip("| "): row for row in rows}
    assert "refund" in by_tier["money"] and "send" in by_tier["communication"]


def test_remote_tool_call_rows_say_the_tier_is_the_tools():
    text = sink_catalog(load_packs())
    [row] = [line for line in text.splitlines() if "`mcp.ts.client_call_tool`" in line]
    assert row.startswith("| by tool name (`tool_name`), else communication | mcp |")
    [plain] = [line for line in text.splitlines() if "`http.ts.ky_got_call`" in line]
    assert plain.startswith("| communication | http |")
