"""Every corpus app's `expected_sites.txt` holds, both ways.

Line forms (columns separated by whitespace; `#` starts a comment):
    <kind> <file>:<line> <symbol> [attr=value ...]   this site must be found
    !<kind> <file>:<line>                             no site of this kind may be here (decoys)
    edge <kind> <source-id> -> <target-id>            this edge must be in the graph
Attribute values compare as text (`True`, `0.8`, `money`). Every site found also carries only
attributes declared for its kind, with the declared types (`SITE_ATTRIBUTES`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.analyzers.model import SITE_ATTRIBUTES, SiteKind
from topo.audit.pipeline import AuditRequest, run_audit
from topo.reports.document import audit_document

APPS = Path(__file__).resolve().parents[2] / "corpus" / "apps"
CASES = sorted(p.parent for p in APPS.glob("*/expected_sites.txt"))


def _document(app: Path) -> dict:
    return audit_document(run_audit(AuditRequest(root=app, jobs=1, cache_dir=None)))


def _lines(app: Path) -> list[list[str]]:
    rows = []
    for raw in (app / "expected_sites.txt").read_text().splitlines():
        text = raw.split("#", 1)[0].strip()
        if text:
            rows.append(text.split())
    return rows


@pytest.fixture(scope="module", params=CASES, ids=lambda p: p.name)
def app_document(request) -> tuple[Path, dict]:
    return request.param, _document(request.param)


def test_there_are_corpus_apps() -> None:
    assert len(CASES) >= 7


def test_expected_sites_found(app_document) -> None:
    app, document = app_document
    sites = document["sites"]
    for row in _lines(app):
        if row[0].startswith("!") or row[0] == "edge":
            continue
        kind, where, symbol, *attrs = row
        file, line = where.rsplit(":", 1)
        candidates = [s for s in sites if s["kind"] == kind and s["file"] == file
                      and s["line"] == int(line) and s["symbol"] == symbol]
        assert candidates, f"{app.name}: no {kind} site at {where} in {symbol}"
        wanted = dict(a.split("=", 1) for a in attrs)
        assert any(all(str(s["attrs"].get(k)) == v for k, v in wanted.items())
                   for s in candidates), \
            f"{app.name}: {kind} at {where} lacks {wanted}: {[s['attrs'] for s in candidates]}"


def test_decoys_not_classified(app_document) -> None:
    app, document = app_document
    for row in _lines(app):
        if not row[0].startswith("!"):
            continue
        kind, where = row[0][1:], row[1]
        file, line = where.rsplit(":", 1)
        found = [s["id"] for s in document["sites"] if s["kind"] == kind
                 and s["file"] == file and s["line"] == int(line)]
        assert found == [], f"{app.name}: decoy classified as {kind}: {found}"


def test_expected_edges(app_document) -> None:
    app, document = app_document
    edges = {(e["kind"], e["source"], e["target"]) for e in document["edges"]}
    for row in _lines(app):
        if row[0] == "edge":
            _, kind, source, arrow, target = row
            assert arrow == "->"
            assert (kind, source, target) in edges, f"{app.name}: missing {kind} edge " \
                f"{source} -> {target}"


def test_audit_reads_every_file(app_document) -> None:
    _, document = app_document
    assert document["unknowns"] == []
    assert document["summary"]["partial"] is False


def test_sites_carry_only_declared_attributes(app_document) -> None:
    app, document = app_document
    wrong = []
    for site in document["sites"]:
        declared = SITE_ATTRIBUTES[SiteKind(site["kind"])]
        for name, value in site["attrs"].items():
            value = tuple(value) if isinstance(value, list) else value   # JSON lists were tuples
            if name not in declared or type(value) not in declared[name].type:
                wrong.append((site["id"], name, value))
    assert wrong == [], f"{app.name}: undeclared or mistyped attributes"
