"""`topo audit` and `topo graph`: the JSON contract, determinism, partial results, errors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from click.testing import CliRunner

from topo.cli.main import cli

APPS = Path(__file__).resolve().parents[2] / "corpus" / "apps"
CONTRACT_KEYS = {"schema", "summary", "sites", "edges", "emus", "findings", "unknowns"}
SUMMARY_KEYS = {"files", "lines", "decision_points", "invoke_gaps", "atom_gaps", "action_gaps",
                "coherence_gaps", "hidden_authority_sites"}


def run(*args: str):
    result = CliRunner().invoke(cli, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"command raised {result.exception!r}") from result.exception
    return result


def audit_json(path: Path) -> tuple[str, dict]:
    result = run("audit", str(path), "-f", "json", "-o", "-", "--no-cache", "-j", "1")
    assert result.exit_code == 0, result.output
    return result.stdout, json.loads(result.stdout)


@pytest.mark.parametrize("app", sorted(p.name for p in APPS.iterdir() if p.is_dir()))
def test_audit_json_is_the_contract_and_deterministic(app: str) -> None:
    first, document = audit_json(APPS / app)
    second, _ = audit_json(APPS / app)
    assert first == second
    assert CONTRACT_KEYS <= set(document)
    assert document["schema"] == "topo-audit/2"
    assert SUMMARY_KEYS <= set(document["summary"])
    for site in document["sites"]:
        assert {"id", "kind", "system", "language", "file", "symbol", "line", "attrs"} <= set(site)
        assert not site["file"].startswith("/") and "\\" not in site["file"]
    for finding in document["findings"]:
        assert {"id", "code", "severity", "title", "message", "file", "symbol", "line",
                "fingerprint"} <= set(finding)
        assert finding["fingerprint"].startswith("fp1:")


def test_findings_carry_their_evidence_path() -> None:
    _, document = audit_json(APPS / "cross_file")
    [ungoverned] = [f for f in document["findings"] if f["code"] == "UNGOVERNED-PATH"]
    site_ids = {s["id"] for s in document["sites"]}
    assert ungoverned["path"][0].startswith("inference:billing/classifier.py")
    assert ungoverned["path"][-1] == "executor:billing/payments.py:7:5"
    assert set(ungoverned["path"]) <= site_ids


def test_partial_result_is_labelled(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text("import stripe\n\ndef f():\n    stripe.Refund.create()\n")
    (tmp_path / "broken.py").write_text("def f(:\n")
    (tmp_path / "latin1.py").write_bytes("x = 'caf\xe9'\n".encode("latin-1"))
    result = run("audit", str(tmp_path), "-f", "json", "-o", "-", "--no-cache")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["summary"]["partial"] is True
    reasons = {u["file"]: u["reason"] for u in document["unknowns"]}
    assert set(reasons) == {"broken.py", "latin1.py"}
    assert "syntax" in reasons["broken.py"]
    assert [s["file"] for s in document["sites"]] == ["ok.py"]
    assert "partial result" in result.stderr


def test_audit_missing_path_is_error(tmp_path: Path) -> None:
    result = run("audit", str(tmp_path / "missing"), "-f", "json", "-o", "-")
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_audit_unknown_and_unimplemented_formats_are_errors(tmp_path: Path) -> None:
    assert run("audit", str(tmp_path), "-f", "pdf").exit_code == 2
    assert run("audit", str(tmp_path), "-f", "json,sarif", "-o", "-").exit_code == 2


def test_audit_writes_into_out_dir_never_into_the_tree(tmp_path: Path) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    repo.mkdir()
    (repo / "app.py").write_text("x = 1\n")
    before = sorted(p.name for p in repo.rglob("*"))
    result = run("audit", str(repo), "-f", "json", "-o", f"{out}/", "--no-cache")
    assert result.exit_code == 0, result.output
    assert (out / "TOPOLOGY_STATE.json").exists()
    assert sorted(p.name for p in repo.rglob("*")) == before


@pytest.mark.parametrize("fmt", ["dot", "json", "graphml"])
def test_graph_export(fmt: str) -> None:
    result = run("graph", str(APPS / "cross_file"), "-f", fmt, "--no-cache")
    assert result.exit_code == 0, result.output
    text = result.stdout
    if fmt == "json":
        data = json.loads(text)
        ids = {n["id"] for n in data["nodes"]}
        assert "executor:billing/payments.py:7:5" in ids
        assert {"source": "function:billing.flow.handle_dispute",
                "target": "function:billing.payments.refund"}.items() <= \
            next(e for e in data["edges"] if e["kind"] == "calls"
                 and e["target"] == "function:billing.payments.refund").items()
    elif fmt == "graphml":
        root = ElementTree.fromstring(text.encode())
        assert root.tag.endswith("graphml")
        assert any(n.get("id") == "executor:billing/payments.py:7:5" for n in root.iter()
                   if n.tag.endswith("node"))
    else:
        assert text.startswith("digraph topo {")
        assert '"function:billing.flow.handle_dispute" -> "function:billing.payments.refund"' \
            in text


def test_graph_missing_path_exit_2(tmp_path: Path) -> None:
    assert run("graph", str(tmp_path / "nope")).exit_code == 2


def test_audit_prints_a_findings_summary_unless_quiet(tmp_path: Path) -> None:
    out = tmp_path / "out"
    loud = run("audit", str(APPS / "cross_file"), "-f", "json", "-o", f"{out}/", "--no-cache")
    assert loud.exit_code == 0
    assert "2 findings: 2 critical" in loud.stderr
    quiet = run("audit", str(APPS / "cross_file"), "-f", "json", "-o", f"{out}/", "--no-cache",
                "--quiet")
    assert "findings" not in quiet.stderr and quiet.stderr == ""


def test_inferred_decision_point_where_code_decides_without_an_engine() -> None:
    result = run("graph", str(APPS / "openai_threshold_refund"), "-f", "json", "--no-cache")
    data = json.loads(result.stdout)
    points = [n for n in data["nodes"] if n["kind"] == "decision_point"]
    assert [(p["id"], p["inferred"]) for p in points] == \
        [("decision_point:~support.bot.answer", True)]
    binds = {(e["source"], e["target"]) for e in data["edges"] if e["kind"] == "binds"}
    assert ("threshold:support/bot.py:30:12", "decision_point:~support.bot.answer") in binds


def test_no_inferred_decision_point_where_an_engine_decides() -> None:
    result = run("graph", str(APPS / "memrail_refund"), "-f", "json", "--no-cache")
    points = [n["id"] for n in json.loads(result.stdout)["nodes"]
              if n["kind"] == "decision_point"]
    assert points == ["decision_point:support.refund"]


def test_unsupported_exclude_pattern_is_a_usage_error() -> None:
    result = run("audit", str(APPS / "cross_file"), "--exclude", "!keep.py", "-f", "json",
                 "-o", "-", "--no-cache")
    assert result.exit_code == 2
    assert "unsupported exclude pattern '!keep.py'" in result.stderr
    assert "internal error" not in result.stderr
