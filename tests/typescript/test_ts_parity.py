"""Python/TypeScript parity: one logical app written in both languages gives the same sites
and role edges (corpus/apps/parity_py and corpus/apps/parity_ts)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from topo.audit.pipeline import AuditRequest, run_audit
from topo.reports.document import audit_document

APPS = Path(__file__).resolve().parents[2] / "corpus" / "apps"
# Attributes that mean the same in both languages (callee, entry and operand text do not).
KEY_ATTRS = ("provider", "model", "decision_point", "kind", "key", "source", "tier",
             "event_name", "op", "value", "dry_run", "executes", "role", "enforced")
MODULES = {"parity_py": "support.agent", "parity_ts": "src/support/agent"}


def _document(app: str) -> dict:
    return audit_document(run_audit(AuditRequest(root=APPS / app, jobs=1, cache_dir=None)))


def _local(symbol: str, app: str) -> str:
    module = MODULES[app]
    return symbol[len(module) + 1:] if symbol.startswith(module + ".") else symbol


def _site_key(site: dict, app: str) -> tuple:
    attrs = tuple((name, str(site["attrs"][name])) for name in KEY_ATTRS
                  if name in site["attrs"])
    return site["kind"], _local(site["symbol"], app), attrs


def _node_key(node: str, sites: dict[str, tuple], app: str) -> tuple:
    if node.startswith("function:"):
        return ("function", _local(node.removeprefix("function:"), app))
    return sites[node]


def _facts(app: str) -> tuple[Counter, Counter]:
    document = _document(app)
    keys = {site["id"]: _site_key(site, app) for site in document["sites"]}
    edges = Counter((edge["kind"], _node_key(edge["source"], keys, app),
                     _node_key(edge["target"], keys, app)) for edge in document["edges"])
    return Counter(keys.values()), edges


def test_twins_have_the_same_sites() -> None:
    python_sites, _ = _facts("parity_py")
    typescript_sites, _ = _facts("parity_ts")
    assert python_sites == typescript_sites
    kinds = {key[0] for key in python_sites}
    assert {"inference", "threshold", "decision_call", "atom", "executor",
            "event_emit"} <= kinds


def test_twins_have_the_same_role_edges() -> None:
    _, python_edges = _facts("parity_py")
    _, typescript_edges = _facts("parity_ts")
    assert python_edges == typescript_edges
    assert {kind for kind, _, _ in python_edges} >= {"calls", "inference", "observation",
                                                      "recording"}
