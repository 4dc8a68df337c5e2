"""SARIF 2.1.0: schema-valid for every corpus app, GitHub code scanning's needs, determinism."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import jsonschema
import pytest

from topo.audit import codes
from topo.audit.docs import code_doc
from topo.audit.model import Severity
from topo.reports.sarif_report import FINGERPRINT_KEY, SECURITY_SEVERITY
from tests.gate.gate_helpers import APPS, SCHEMA_FILE, check, copy_tree, tool_app, topo

VALIDATOR = jsonschema.Draft4Validator(json.loads(SCHEMA_FILE.read_text()),
                                       format_checker=jsonschema.FormatChecker())
ALL_APPS = sorted(p.name for p in APPS.iterdir() if p.is_dir())


def assert_valid(log: dict) -> None:
    errors = sorted(VALIDATOR.iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message[:300]}"
                                 for e in errors[:10])
    for uri in _uris(log):
        assert not urlsplit(uri).scheme and not uri.startswith("/"), uri   # repository-relative


def _uris(node: object):
    if isinstance(node, dict):
        if "artifactLocation" in node:
            yield node["artifactLocation"]["uri"]
        for value in node.values():
            yield from _uris(value)
    elif isinstance(node, list):
        for value in node:
            yield from _uris(value)


def sarif_of(path: Path, *args: object) -> dict:
    run = check(path, "-f", "sarif", "--exit-zero", *args)
    assert run.exit_code == 0, run.stderr
    return json.loads(run.stdout)


def test_the_schema_file_is_the_official_sarif_2_1_0_schema() -> None:
    schema = json.loads(SCHEMA_FILE.read_text())
    assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")
    assert VALIDATOR.is_valid({"version": "2.1.0", "runs": []})
    assert not VALIDATOR.is_valid({"version": "2.0.0", "runs": []})   # it does reject


@pytest.mark.parametrize("app", ALL_APPS)
def test_sarif_validates_against_the_schema(app: str) -> None:
    log = sarif_of(APPS / app)
    assert_valid(log)
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")


def test_audit_writes_the_same_sarif_as_a_report_format(tmp_path: Path) -> None:
    run = topo("audit", APPS / "cross_file", "-f", "sarif", "-o", tmp_path, "--no-cache")
    assert run.exit_code == 0, run.stderr
    written = json.loads((tmp_path / "TOPOLOGY_STATE.sarif").read_text())
    assert_valid(written)
    assert [r["partialFingerprints"] for r in written["runs"][0]["results"]] == \
        [r["partialFingerprints"] for r in sarif_of(APPS / "cross_file")["runs"][0]["results"]]


def test_every_rule_is_emitted_on_a_clean_run(tmp_path: Path) -> None:
    root = tmp_path / "clean"
    root.mkdir()
    (root / "main.py").write_text("print('nothing consequential here')\n")
    log = sarif_of(root)
    assert_valid(log)
    run = log["runs"][0]
    assert run["results"] == []
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == [code.id for code in codes.ALL]
    for rule, code in zip(rules, codes.ALL):
        assert rule["shortDescription"]["text"] == code.title
        assert rule["help"]["markdown"] == code_doc(code.id)
        assert rule["fullDescription"]["text"]
        assert "helpUri" not in rule  # no public home yet: never an invented link
        assert rule["properties"]["security-severity"] == \
            SECURITY_SEVERITY[code.default_severity]
        assert "security" in rule["properties"]["tags"]
        assert set(code.tags) <= set(rule["properties"]["tags"])
        assert rule["properties"]["precision"] in {"very-high", "high", "medium", "low"}
    ungoverned = rules[[c.id for c in codes.ALL].index("UNGOVERNED-PATH")]
    assert "external/cwe/cwe-862" in ungoverned["properties"]["tags"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "topo" and driver["semanticVersion"]
    assert "informationUri" not in driver  # no public home yet: never an invented link
    assert run["automationDetails"]["id"]
    assert run["invocations"][0]["executionSuccessful"] is True


def test_security_severity_bands_match_github() -> None:
    # GitHub: >= 9.0 critical, 7.0-8.9 high, 4.0-6.9 medium, 0.1-3.9 low.
    bands = {Severity.CRITICAL: (9.0, 10.0), Severity.HIGH: (7.0, 8.9),
             Severity.MEDIUM: (4.0, 6.9), Severity.LOW: (0.1, 3.9)}
    for severity, (low, high) in bands.items():
        assert low <= float(SECURITY_SEVERITY[severity]) <= high, severity


def test_ungoverned_path_carries_its_code_flow() -> None:
    log = sarif_of(APPS / "cross_file")
    [result] = [r for r in log["runs"][0]["results"] if r["ruleId"] == "UNGOVERNED-PATH"]
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert rules[result["ruleIndex"]]["id"] == "UNGOVERNED-PATH"
    [flow] = result["codeFlows"]
    steps = [step["location"] for step in flow["threadFlows"][0]["locations"]]
    where = [(unquote(s["physicalLocation"]["artifactLocation"]["uri"]).rsplit("/", 2)[-2:],
              s["physicalLocation"]["region"]["startLine"]) for s in steps]
    assert where == [(["billing", "classifier.py"], 11), (["billing", "rules.py"], 7),
                     (["billing", "flow.py"], 10), (["billing", "payments.py"], 7)]
    messages = [s["message"]["text"] for s in steps]
    assert messages[0].startswith("inference `openai.OpenAI.responses.create`")
    assert messages[-1] == "executor `stripe.Refund.create` in billing.payments.refund"
    primary = result["locations"][0]["physicalLocation"]
    assert primary["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
    assert primary["region"] == {"startLine": 7, "startColumn": 5, "endLine": 7,
                                 "endColumn": 64}
    related = [unquote(r["physicalLocation"]["artifactLocation"]["uri"])
               for r in result["relatedLocations"]]
    assert any(uri.endswith("billing/classifier.py") for uri in related)
    assert result["level"] == "error"
    assert result["properties"]["security-severity"] == "9.5"


def test_fingerprints_are_ours(tmp_path: Path) -> None:
    results = sarif_of(APPS / "cross_file")["runs"][0]["results"]
    document = check(APPS / "cross_file", "-f", "json", "--exit-zero").json()
    assert [r["partialFingerprints"][FINGERPRINT_KEY] for r in results] == \
        [f["fingerprint"] for f in document["findings"]]


def _first_uri(log: dict) -> str:
    return log["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
        "artifactLocation"]["uri"]


def test_paths_are_relative_to_the_repository_not_the_audited_directory(
        tmp_path: Path) -> None:
    outside = sarif_of(copy_tree(APPS / "cross_file", tmp_path / "cross_file"))
    assert _first_uri(outside) == "billing/payments.py"      # no work tree: the audited root
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed: the repository-prefix half cannot run here")
    repository = tmp_path / "repo"
    copy_tree(APPS / "cross_file", repository / "services" / "agent")
    subprocess.run([git, "init", "-q"], cwd=repository, check=True)
    # Code scanning resolves URIs against the checkout root (%SRCROOT%).
    assert _first_uri(sarif_of(repository / "services" / "agent")) == \
        "services/agent/billing/payments.py"


def test_suppressions_are_listed_in_source_and_external(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app", "    # topo: ignore[UNGOVERNED-PATH] -- scratch directory "
                                      "of this session\n    shutil.rmtree(path)\n"
                                      "    shutil.rmtree(path + '.bak')")
    baseline = tmp_path / "baseline.json"
    assert check(root, "--ignore-suppressions", "--write-baseline", baseline).exit_code == 0
    log = sarif_of(root, "--baseline", baseline)
    assert_valid(log)
    results = {r["locations"][0]["physicalLocation"]["region"]["startLine"]: r
               for r in log["runs"][0]["results"]}
    [in_source] = results[10]["suppressions"]
    assert in_source["kind"] == "inSource"
    assert in_source["justification"] == "scratch directory of this session"
    assert in_source["location"]["physicalLocation"]["region"]["startLine"] == 9
    [external] = results[11]["suppressions"]
    assert external["kind"] == "external" and str(baseline) in external["justification"]


def test_a_partial_scan_is_not_an_execution_success(tmp_path: Path) -> None:
    root = tool_app(tmp_path / "app")
    (root / "broken.py").write_text("def broken(:\n    pass\n")
    log = sarif_of(root)
    assert_valid(log)
    [invocation] = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    [notification] = invocation["toolExecutionNotifications"]
    assert notification["level"] == "error"
    assert notification["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == \
        "broken.py"
    assert invocation["exitCode"] == 0   # --exit-zero


def test_sarif_is_byte_identical_across_runs() -> None:
    first = check(APPS / "cross_file", "-f", "sarif", "--exit-zero").stdout
    assert first == check(APPS / "cross_file", "-f", "sarif", "--exit-zero").stdout
