"""`-f sarif`: the audit document as SARIF 2.1.0, shaped for GitHub code scanning.

What code scanning needs (shared/spec/conventions.md, "SARIF 2.1.0 for GitHub code scanning"):
every rule on every run, so that fixed findings close their alerts; repository-relative URIs
against `%SRCROOT%`; our own `partialFingerprints` (line-independent, so alerts survive line
moves); `codeFlows` for the proposal → effect path; `relatedLocations` for the rest of the
evidence; `suppressions[]` for in-source directives (`inSource`) and baselines (`external`);
`invocations[].executionSuccessful` false on a partial scan, with one notification per unknown.
The renderer adds no facts: everything comes from the audit document.
"""

from __future__ import annotations

import json
from urllib.parse import quote

from topo import __version__
from topo.audit import codes
from topo.audit.docs import code_doc
from topo.audit.model import Category, Code, Severity

__all__ = ["render_sarif", "sarif_log", "SARIF_SCHEMA", "SECURITY_SEVERITY", "PROJECT_URI",
           "FINGERPRINT_KEY"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
# The project's public home, once it has one: then `informationUri` and each rule's `helpUri`
# (into `audit/docs/codes/`) are emitted. Until then they are omitted rather than invented;
# every rule still carries its full documentation in `help.markdown`.
PROJECT_URI: str | None = None
FINGERPRINT_KEY = "topo/v1"
SOURCE_ROOT = "%SRCROOT%"

# GitHub turns `security-severity` into its critical/high/medium/low labels (>= 9.0 critical,
# >= 7.0 high, >= 4.0 medium, else low); these sit inside those bands.
SECURITY_SEVERITY = {Severity.CRITICAL: "9.5", Severity.HIGH: "8.0", Severity.MEDIUM: "5.5",
                     Severity.LOW: "3.0"}
_LEVEL = {Severity.CRITICAL: "error", Severity.HIGH: "error", Severity.MEDIUM: "warning",
          Severity.LOW: "note"}
# How often a finding of the category is a true positive. Policy and suppression findings are
# exact readings of JSON or comments; authority findings rest on dataflow and role inference.
_PRECISION = {Category.POLICY: "high", Category.DSL: "very-high",
              Category.AUTHORITY: "medium", Category.SUPPRESSION: "very-high"}


def render_sarif(document: dict) -> str:
    """Deterministic SARIF text (sorted keys; the same document gives the same bytes)."""
    return json.dumps(sarif_log(document), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def sarif_log(document: dict) -> dict:
    view = _View(document)
    run = {
        "tool": {"driver": {
            "name": "topo", "semanticVersion": __version__, "version": __version__,
            **({"informationUri": PROJECT_URI} if PROJECT_URI else {}),
            "rules": [_rule(code) for code in codes.ALL]}},
        "automationDetails": {"id": "topo/"},
        "columnKind": "unicodeCodePoints",
        "results": [view.result(finding) for finding in document["findings"]],
        "invocations": [view.invocation()],
    }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def _rule(code: Code) -> dict:
    doc = code_doc(code.id)
    return {
        "id": code.id,
        "name": "".join(word.capitalize() for word in code.id.split("-")),
        "shortDescription": {"text": code.title},
        "fullDescription": {"text": _section(doc, "## What it finds") or code.title},
        "help": {"text": doc, "markdown": doc},
        **({"helpUri": f"{PROJECT_URI}/blob/main/audit/docs/codes/{code.id}.md"}
           if PROJECT_URI else {}),
        "defaultConfiguration": {"level": _LEVEL[code.default_severity]},
        "properties": {
            "tags": ["security", *code.tags],
            "precision": _PRECISION[code.category],
            "security-severity": SECURITY_SEVERITY[code.default_severity],
            "category": code.category.value,
        },
    }


def _section(doc: str, heading: str) -> str:
    """The first paragraph under a heading of a code's documentation."""
    _, found, rest = doc.partition(f"\n{heading}\n")
    if not found:
        return ""
    return rest.strip().split("\n\n", 1)[0].strip()


class _View:
    """Lookups over one document: rule indexes, sites by id, the repository prefix."""

    def __init__(self, document: dict) -> None:
        self.document = document
        self.rule_index = {code.id: index for index, code in enumerate(codes.ALL)}
        self.sites = {site["id"]: site for site in document.get("sites", [])}
        self.sites_at = {(s["file"], s["line"], s.get("column")): s for s in self.sites.values()}
        self.prefix = document.get("repository_path", "")

    def uri(self, file: str) -> str:
        path = f"{self.prefix}/{file}" if self.prefix else file
        return quote(path, safe="/")

    def physical(self, place: dict) -> dict:
        region = {"startLine": place["line"]}
        if place.get("column") is not None:
            region["startColumn"] = place["column"]
        if place.get("end_line") is not None and place.get("end_column") is not None:
            region["endLine"] = place["end_line"]
            region["endColumn"] = place["end_column"]
        return {"artifactLocation": {"uri": self.uri(place["file"]), "uriBaseId": SOURCE_ROOT},
                "region": region}

    def result(self, finding: dict) -> dict:
        severity = Severity(finding["severity"])
        location = {"physicalLocation": self.physical(finding)}
        if finding.get("symbol"):
            location["logicalLocations"] = [{"fullyQualifiedName": finding["symbol"]}]
        result = {
            "ruleId": finding["code"],
            "ruleIndex": self.rule_index[finding["code"]],
            "level": _LEVEL[severity],
            "message": {"text": finding["message"]},
            "locations": [location],
            "partialFingerprints": {FINGERPRINT_KEY: finding["fingerprint"]},
            "properties": {"id": finding["id"], "severity": severity.value,
                           "security-severity": SECURITY_SEVERITY[severity],
                           "inferred": finding.get("inferred", False)},
        }
        if finding.get("emu_key") is not None:
            result["properties"]["emu_key"] = finding["emu_key"]
        if finding.get("cell") is not None:   # a notebook: startLine counts its code cells
            result["properties"]["notebookCell"] = finding["cell"]["index"]
            result["properties"]["notebookCellLine"] = finding["cell"]["line"]
        if finding.get("related"):
            result["relatedLocations"] = [
                {"id": index, "physicalLocation": self.physical(place),
                 "message": {"text": self.describe_place(place)}}
                for index, place in enumerate(finding["related"], start=1)]
        if finding.get("path"):
            result["codeFlows"] = [self.code_flow(finding)]
        if finding.get("suppressed"):
            result["suppressions"] = [self.suppression(finding["suppressed"])]
        return result

    def code_flow(self, finding: dict) -> dict:
        steps = []
        for order, site_id in enumerate(finding["path"], start=1):
            site = self.sites.get(site_id)
            location: dict = {"message": {"text": self.describe_site(site, site_id)}}
            if site is not None:
                location["physicalLocation"] = self.physical(site)
            steps.append({"location": location, "executionOrder": order, "nestingLevel": 0})
        first, last = finding["path"][0], finding["path"][-1]
        return {"message": {"text": f"from {self.describe_site(self.sites.get(first), first)} "
                                    f"to {self.describe_site(self.sites.get(last), last)}"},
                "threadFlows": [{"locations": steps}]}

    def describe_site(self, site: dict | None, site_id: str) -> str:
        """`inference openai.OpenAI.responses.create in billing.classifier.assess`."""
        if site is None:
            return site_id
        attrs = site.get("attrs", {})
        what = attrs.get("callee") or " ".join(
            str(attrs[key]) for key in ("operand", "op", "value") if attrs.get(key) is not None)
        named = f" `{what}`" if what else ""
        return f"{site['kind']}{named} in {site['symbol']}"

    def describe_place(self, place: dict) -> str:
        site = self.sites_at.get((place["file"], place["line"], place.get("column")))
        return self.describe_site(site, "") if site is not None else "related evidence"

    def suppression(self, suppressed: dict) -> dict:
        data = {"kind": suppressed["kind"], "status": "accepted",
                "justification": suppressed["justification"]}
        if suppressed.get("location"):
            data["location"] = {"physicalLocation": self.physical(suppressed["location"])}
        return data

    def invocation(self) -> dict:
        unknowns = self.document.get("unknowns", [])
        notifications = []
        for unknown in unknowns:
            notification = {"level": "error", "message": {"text": unknown["reason"]},
                            "descriptor": {"id": "unknown"}}
            place = {"file": unknown["file"], "line": unknown.get("line") or 1}
            notification["locations"] = [{"physicalLocation": self.physical(place)}]
            notifications.append(notification)
        invocation = {"executionSuccessful": not self.document["summary"].get("partial", False)}
        if notifications:
            invocation["toolExecutionNotifications"] = notifications
        gate = self.document.get("gate")
        if gate is not None and gate.get("exit_code") is not None:
            invocation["exitCode"] = gate["exit_code"]
        return invocation
