"""What users read carries no internal vocabulary, and the demo's commands can be pasted.

User-facing texts: the README, `topo explain` for every code, every command's `--help`, the
report templates and the reports of an audit (JSON, YAML, HTML, Markdown, SARIF).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from topo.audit import codes
from topo.audit.dsl.diagnostics import DSL_CODES
from topo.cli.main import cli

REPO = Path(__file__).resolve().parent.parent
INTERNAL = re.compile(r"\bseed \d{3}\b|architecture contract|\.\./shared|shared/spec|"
                      r"other-systems\.md|memrail-facts|ARCHITECTURE\.md", re.IGNORECASE)


def internal_words(text: str) -> list[str]:
    return [match.group(0) for match in INTERNAL.finditer(text)]


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_the_pattern_finds_what_it_must() -> None:
    assert internal_words("as seed 000 says; see ../shared/spec/ARCHITECTURE.md") == \
        ["seed 000", "../shared", "ARCHITECTURE.md"]
    assert internal_words("the `shared/**` folder of MemexAI; seeded 0001") == []


@pytest.mark.parametrize("code", [c.id for c in codes.ALL] + list(DSL_CODES))
def test_explain_texts(code: str) -> None:
    assert internal_words(run("explain", code)) == []


def test_the_readme_and_the_templates() -> None:
    for path in [REPO / "README.md", REPO / "docs" / "findings.md",
                 *sorted((REPO / "reports" / "templates").iterdir())]:
        assert internal_words(path.read_text(encoding="utf-8")) == [], path


def test_help_texts() -> None:
    names = ["audit", "check", "graph", "explain", "fuzz", ("trigger", "check"),
             ("trigger", "eval"), ("emus", "validate")]
    assert internal_words(run("--help")) == []
    for name in names:
        words = list(name) if isinstance(name, tuple) else [name]
        assert internal_words(run(*words, "--help")) == [], name


def test_the_reports(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run("audit", str(REPO / "corpus" / "apps" / "demo_support_agent"), "-f",
        "json,yaml,html,md,sarif", "-o", str(out), "--no-cache", "-q")
    reports = sorted(out.iterdir())
    assert len(reports) == 5
    for report in reports:
        assert internal_words(report.read_text(encoding="utf-8")) == [], report.name
    assert json.loads((out / "TOPOLOGY_STATE.json").read_text())["schema"] == "topo-audit/2"


def test_the_demo_prints_commands_that_paste_back_to_the_same_arguments(tmp_path: Path) -> None:
    """scripts/demo.sh with a stand-in `topo` that records its arguments: each printed
    `$ topo …` line, read back by a shell's rules, gives exactly those arguments."""
    log = tmp_path / "calls.jsonl"
    fake = tmp_path / "bin" / "topo"
    fake.parent.mkdir()
    fake.write_text(f"#!{sys.executable}\nimport json, sys\n"
                    f"open({str(log)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n")
    fake.chmod(0o755)
    output = subprocess.run(["bash", "scripts/demo.sh", str(fake.parent)], cwd=REPO,
                            capture_output=True, text=True, check=True).stdout
    printed = [shlex.split(re.sub(r"\x1b\[[0-9;]*m", "", line))[2:]
               for line in output.splitlines() if "$ topo " in line]
    called = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(called) >= 10
    assert printed == called
    assert any("'" in arg and " " in arg for args in called for arg in args)   # quoting matters
