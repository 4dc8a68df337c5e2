"""Mixed repositories: one audit reads Python and TypeScript, and callers of one decision
point in either language are both its callers. The per-file stage resolves TS imports against
the project layout and caches by it."""

from __future__ import annotations

from pathlib import Path

from topo.analyzers.discovery.inventory import DiscoveryConfig, discover
from topo.analyzers.frontend.stage import analyze_files
from topo.audit.pipeline import AuditRequest, run_audit
from topo.reports.document import audit_document

PYTHON = '''from memrail import AMIClient
from memrail.atoms import state

client = AMIClient()


def refund(amount):
    return client.decide(decision_point="support.refund", context=[state("refund.amount_cents", amount)])
'''

TYPESCRIPT = '''import { AMIClient, state } from '@memrail/sdk';

const client = new AMIClient();

export async function refund(amount: number) {
  return client.decide({ decisionPoint: 'support.refund', context: [state('refund.amount_cents', amount)] });
}
'''


def _write(root: Path) -> None:
    (root / "backend" / "billing").mkdir(parents=True)
    (root / "backend" / "billing" / "__init__.py").write_text("")
    (root / "backend" / "billing" / "refunds.py").write_text(PYTHON)
    (root / "web" / "src").mkdir(parents=True)
    (root / "web" / "src" / "refunds.ts").write_text(TYPESCRIPT)


def test_python_and_typescript_callers_of_one_decision_point(tmp_path: Path) -> None:
    _write(tmp_path)
    document = audit_document(run_audit(AuditRequest(root=tmp_path, jobs=1, cache_dir=None)))
    decisions = sorted((s["language"], s["file"], s["attrs"]["decision_point"])
                       for s in document["sites"] if s["kind"] == "decision_call")
    assert decisions == [("python", "backend/billing/refunds.py", "support.refund"),
                         ("typescript", "web/src/refunds.ts", "support.refund")]
    observations = [e for e in document["edges"] if e["kind"] == "observation"]
    assert {e["target"].split(":")[1] for e in observations} == {"backend/billing/refunds.py",
                                                                 "web/src/refunds.ts"}
    assert document["unknowns"] == []


def test_layout_is_part_of_the_cache_key_of_script_files(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "src" / "lib").mkdir(parents=True)
    (root / "src" / "main.ts").write_text("import { send } from './lib';\nsend();\n")
    (root / "src" / "lib.ts").write_text("export function send() {}\n")
    cache = tmp_path / "cache"
    config = DiscoveryConfig(use_git=False)
    first = analyze_files(discover(root, config), jobs=1, cache_dir=cache)
    assert {ir.path: [c.callee for c in ir.calls] for ir in first}["src/main.ts"] == [
        "src/lib.send"]
    # A new index file does not change main.ts, but what its import means: resolve again.
    (root / "src" / "lib.ts").unlink()
    (root / "src" / "lib").mkdir(exist_ok=True)
    (root / "src" / "lib" / "index.ts").write_text("export function send() {}\n")
    second = analyze_files(discover(root, config), jobs=1, cache_dir=cache)
    assert {ir.path: [c.callee for c in ir.calls] for ir in second}["src/main.ts"] == [
        "src/lib/index.send"]
