"""Look-ups over the audit document that every TOPOLOGY_STATE section needs.

The document (reports/document.py) is lists; the sections ask "what does this site say" and
"which project holds this node". Keying those once here keeps each section a short read of
facts the document already holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath

from topo.audit.contracts import UNKNOWN as CONTRACT_UNKNOWN
from topo.audit.placement import NodePlacement
from topo.reports.document import PLACEMENT

__all__ = ["DocumentIndex", "UNKNOWN", "local_symbol", "module_of"]

UNKNOWN = CONTRACT_UNKNOWN   # how every view spells missing information (one spelling)
_SOURCE_SUFFIXES = (".py", ".tsx", ".ts", ".mts", ".cts", ".jsx", ".js", ".mjs", ".cjs")
_MODULE_LEAVES = ("__init__", "index")


@dataclass(slots=True)
class DocumentIndex:
    """Sites and node placements of one document, keyed by id."""

    document: dict
    sites: dict[str, dict] = field(default_factory=dict)
    placed: dict[str, NodePlacement] = field(default_factory=dict)

    @classmethod
    def of(cls, document: dict) -> DocumentIndex:
        return cls(document, {site["id"]: site for site in document["sites"]},
                   {spot.node: spot for spot in document[PLACEMENT].nodes})

    def project(self, node: str) -> str:
        """The project (deployable) the pipeline placed a node in."""
        return self.placed[node].project


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
