"""Look-ups over the audit document that every TOPOLOGY_STATE section needs.

The document (reports/document.py) is lists; the sections ask "which atoms feed this decision
call", "who calls this function", "which project holds this file". Answering those once here
keeps each section a short read of facts the document already holds.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from topo.audit.contracts import UNKNOWN as CONTRACT_UNKNOWN

__all__ = ["DocumentIndex", "UNKNOWN", "local_symbol", "module_of"]

UNKNOWN = CONTRACT_UNKNOWN   # how every view spells missing information (one spelling)
ROOT_PROJECT = "(root)"
_SOURCE_SUFFIXES = (".py", ".tsx", ".ts", ".mts", ".cts", ".jsx", ".js", ".mjs", ".cjs")
_MODULE_LEAVES = ("__init__", "index")


@dataclass(slots=True)
class DocumentIndex:
    """Sites, nodes and edges of one document, keyed for the questions reports ask."""

    document: dict
    sites: dict[str, dict] = field(default_factory=dict)
    nodes: dict[str, dict] = field(default_factory=dict)
    incoming: dict[str, list[dict]] = field(default_factory=lambda: defaultdict(list))
    outgoing: dict[str, list[dict]] = field(default_factory=lambda: defaultdict(list))
    finding_ids_by_site: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def of(cls, document: dict) -> DocumentIndex:
        index = cls(document)
        index.sites = {site["id"]: site for site in document["sites"]}
        index.nodes = {node["id"]: node for node in document.get("nodes", [])}
        for edge in all_edges(document):
            index.incoming[edge["target"]].append(edge)
            index.outgoing[edge["source"]].append(edge)
        for finding in document["findings"]:
            for site_id in dict.fromkeys(finding.get("path", [])):
                index.finding_ids_by_site[site_id].append(finding["id"])
        return index

    def sites_of_kind(self, *kinds: str) -> list[dict]:
        return [site for site in self.document["sites"] if site["kind"] in kinds]

    def sources(self, target: str, *kinds: str) -> list[str]:
        return [e["source"] for e in self.incoming.get(target, []) if e["kind"] in kinds]

    def targets(self, source: str, *kinds: str) -> list[str]:
        return [e["target"] for e in self.outgoing.get(source, []) if e["kind"] in kinds]

    def project_of(self, file: str | None) -> str:
        """The deployable a file belongs to: the nearest directory holding a manifest
        (pyproject.toml, package.json…), else the top-level directory — a proxy, said so in the
        report's metadata."""
        if not file:
            return UNKNOWN
        parents = [str(p) for p in PurePosixPath(file).parents]
        manifests = {str(PurePosixPath(m).parent) for m in
                     self.document.get("scope", {}).get("manifests", [])}
        for parent in parents:
            if parent in manifests:
                return self.document["scope"]["root"] if parent == "." else parent
        parts = PurePosixPath(file).parts
        return parts[0] if len(parts) > 1 else ROOT_PROJECT


def all_edges(document: dict) -> list[dict]:
    """Role and call edges, then the structural relations, as one list."""
    return [*document["edges"], *document.get("relations", [])]


def module_of(file: str) -> str:
    """`refund_agent/agent.py` → `refund_agent.agent`; TS keeps its slashes (`src/server`),
    as the front-ends name definitions."""
    path = PurePosixPath(file)
    stem = str(path.with_suffix("")) if path.suffix in _SOURCE_SUFFIXES else str(path)
    if file.endswith(".py"):
        stem = stem.replace("/", ".")
        for leaf in _MODULE_LEAVES:
            stem = stem.removesuffix(f".{leaf}")
    return stem


def local_symbol(file: str | None, symbol: str | None) -> str:
    """The symbol without its module prefix: `Class.method`, as seed 000 writes locations."""
    if not symbol:
        return UNKNOWN
    if not file:
        return symbol
    module = module_of(file)
    return symbol[len(module) + 1:] if symbol.startswith(module + ".") else symbol
