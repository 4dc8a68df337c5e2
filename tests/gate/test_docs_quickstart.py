"""The Memrail docs' own quickstart ("Start from scratch") passes `topo check`.

The quickstart and its EMU are *extracted* from `shared/seeds/000_*.txt` (the included
`examples/quickstart.py` block and the expanded policy JSON), so a doc change shows up here.
The client reaches `decide_and_execute` only as an untyped parameter (`run(client)`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from topo.cli.main import cli

REPO = Path(__file__).resolve().parents[2]
SEEDS = sorted((REPO.parent / "shared" / "seeds").glob("000_*.txt"))
if not SEEDS:
    pytest.skip(f"seed 000 not found under {REPO.parent / 'shared' / 'seeds'}",
                allow_module_level=True)
SEED = SEEDS[0].read_text(encoding="utf-8")


def _quickstart(root: Path) -> None:
    section = SEED[SEED.index("# Start from scratch"):]
    code = re.search(r"<!-- include: examples/quickstart.py -->\n```python\n(.*?)```",
                     section, re.S).group(1)
    policy = re.search(r"```json\n(\{\n  \"emu_key\": \"support.enterprise_greeting\".*?\n\})\n```",
                       section, re.S).group(1)
    (root / "quickstart.py").write_text(code)
    (root / "emus").mkdir()
    (root / "emus" / "emus.jsonl").write_text(json.dumps(json.loads(policy)) + "\n")


def test_docs_quickstart_passes_check(tmp_path: Path) -> None:
    _quickstart(tmp_path)
    result = CliRunner().invoke(cli, ["check", str(tmp_path), "--no-cache", "-f", "json"])
    assert result.exit_code == 0, result.output
    audit = CliRunner().invoke(cli, ["audit", str(tmp_path), "--no-cache", "-f", "json",
                                     "-o", str(tmp_path / "out") + "/", "-q"])
    assert audit.exit_code == 0, audit.output
    document = json.loads((tmp_path / "out" / "TOPOLOGY_STATE.json").read_text())
    decisions = [s for s in document["sites"] if s["kind"] == "decision_call"]
    assert [s["attrs"]["decision_point"] for s in decisions] == ["support.greeting"]


def test_quickstart_without_the_client_handed_over_fails(tmp_path: Path) -> None:
    """The twin: `run(None)` invokes nothing, and the gate says so (INVOKE-GAP)."""
    _quickstart(tmp_path)
    source = (tmp_path / "quickstart.py").read_text()
    assert "await run(client," in source
    (tmp_path / "quickstart.py").write_text(source.replace("await run(client,", "await run(None,"))
    result = CliRunner().invoke(cli, ["check", str(tmp_path), "--no-cache"])
    assert result.exit_code == 1
    assert "INVOKE-GAP" in result.output
