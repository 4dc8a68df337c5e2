"""Where each node the report shows stands: in which of seed 000's five lanes and in which
project (deployable), and what each project holds. Computed once by the pipeline; the views
draw and count nothing of their own.

Lanes: a site goes to the lane of its pack role (`role`) when it has one, else to the lane of
its kind. Decision points and EMUs are authority, tools execution, events recording; a function
goes to execution when something executes it, else to the lane of its first site.

Projects: the nearest directory holding a manifest, else the top-level directory (a proxy for
the deployable, stated in the report's metadata). Nodes without a deployable file (decision
points, events, tools, and EMUs, whose file is policy) join the project most of their
neighbours are in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath

from topo.analyzers.model import Edge, EdgeKind, Site, SiteKind
from topo.audit.contracts import UNKNOWN
from topo.audit.graph.relations import Node, Relation

__all__ = ["LANES", "PROJECT_RULE", "ROOT_PROJECT", "NodePlacement", "Project", "Placement",
           "place_nodes", "project_of"]

LANES = ("observation", "inference", "authority", "execution", "recording")
PROJECT_RULE = ("project = nearest directory with a manifest (pyproject.toml, package.json, "
                "setup.cfg, tsconfig.json), else the top-level directory (a proxy for the "
                "deployable)")
ROOT_PROJECT = "(root)"      # a file at the top of a root that has no manifest

_SITE_LANES = {
    SiteKind.ATOM: "observation", SiteKind.MEMORY_READ: "observation",
    SiteKind.ENTRY_POINT: "observation",
    SiteKind.INFERENCE: "inference", SiteKind.VALIDATION: "inference",
    SiteKind.DECISION_CALL: "authority", SiteKind.THRESHOLD: "authority",
    SiteKind.MODEL_BRANCH: "authority", SiteKind.APPROVAL_GATE: "authority",
    SiteKind.CONFIG_GATE: "authority", SiteKind.FALLBACK: "authority",
    SiteKind.PROMPT_POLICY: "authority",
    SiteKind.EXECUTOR: "execution", SiteKind.DISPATCHER: "execution",
    SiteKind.TOOL_REGISTRATION: "execution", SiteKind.ACTION_HANDLER: "execution",
    SiteKind.EVENT_EMIT: "recording", SiteKind.ACK: "recording",
    SiteKind.MEMORY_WRITE: "recording",
}
_NODE_LANES = {"decision_point": "authority", "emu": "authority", "tool": "execution",
               "event": "recording"}
# Sites naming the policy projects (Memrail's `project` / `projects`) a deployable works in.
_PROJECT_NAMING = (SiteKind.DECISION_CALL, SiteKind.TOOL_REGISTRATION, SiteKind.EVENT_EMIT)


@dataclass(frozen=True, slots=True)
class NodePlacement:
    node: str                       # a site id or a shown node's id
    lane: str                       # one of LANES
    project: str                    # a deployable, or UNKNOWN
    authority: str | None = None    # "enforced" / "advisory": an authority site that says which


@dataclass(frozen=True, slots=True)
class Project:
    name: str
    nodes: int                      # nodes placed in it
    files: tuple[str, ...]          # their files, sorted
    policy_projects: tuple[str, ...]   # projects its decision calls, tools, emits name; sorted


@dataclass(frozen=True, slots=True)
class Placement:
    nodes: tuple[NodePlacement, ...] = ()   # the sites, then the shown nodes, in that order
    projects: tuple[Project, ...] = ()      # by name; UNKNOWN is no project


def project_of(file: str | None, manifests: Iterable[str], root_project: str) -> str:
    """The deployable a file belongs to: the nearest directory holding one of `manifests`
    (root-relative paths) — `root_project` for the root itself — else its top-level
    directory."""
    return _home(file, _holders(manifests), root_project)


def _holders(manifests: Iterable[str]) -> frozenset[str]:
    return frozenset(str(PurePosixPath(manifest).parent) for manifest in manifests)


def _home(file: str | None, holders: frozenset[str], root_project: str) -> str:
    if not file:
        return UNKNOWN
    for parent in map(str, PurePosixPath(file).parents):
        if parent in holders:
            return root_project if parent == "." else parent
    parts = PurePosixPath(file).parts
    return parts[0] if len(parts) > 1 else ROOT_PROJECT


def place_nodes(sites: tuple[Site, ...], nodes: tuple[Node, ...], edges: tuple[Edge, ...],
                relations: tuple[Relation, ...], *, manifests: tuple[str, ...],
                root_project: str) -> Placement:
    """Every site, then every shown node, in a lane and a project; the projects they make."""
    links = _Links.of([*((s, t, e.kind.value) for e in edges for s, t in e.pairs()),
                       *((r.source, r.target, r.kind) for r in relations)])
    holders = _holders(manifests)
    by_site = {site.id: site for site in sites}
    files = {**{s.id: s.location.file for s in sites}, **{n.id: n.file for n in nodes}}
    lanes = {site.id: _site_lane(site) for site in sites}
    lanes |= {node.id: _node_lane(node, by_site, links, lanes) for node in nodes}
    # Each file's project once: thousands of nodes sit in a few hundred files.
    homes = {file: _home(file, holders, root_project)
             for file in {*(s.location.file for s in sites), *(n.file for n in nodes)}}
    projects = {s.id: homes[s.location.file] for s in sites}
    projects |= {n.id: homes[n.file] if n.kind != "emu" else UNKNOWN for n in nodes}
    _place_fileless(projects, links)
    for node, project in projects.items():
        if project == UNKNOWN and files[node]:
            projects[node] = homes[files[node]]
    placed = tuple(NodePlacement(node, lanes[node], project,
                                 _authority(by_site[node], lanes[node]) if node in by_site
                                 else None)
                   for node, project in projects.items())
    named = _policy_projects(sites, holders, root_project)
    return Placement(placed, _projects(placed, files, named))


@dataclass(frozen=True, slots=True)
class _Links:
    """The role, call and structural edges around each node, as (other end, kind)."""

    incoming: dict[str, list[tuple[str, str]]]
    outgoing: dict[str, list[tuple[str, str]]]

    @classmethod
    def of(cls, links: list[tuple[str, str, str]]) -> _Links:
        incoming: dict[str, list[tuple[str, str]]] = {}
        outgoing: dict[str, list[tuple[str, str]]] = {}
        for source, target, kind in links:
            incoming.setdefault(target, []).append((source, kind))
            outgoing.setdefault(source, []).append((target, kind))
        return cls(incoming, outgoing)


def _site_lane(site: Site) -> str:
    role = site.attr("role")
    return role if role in LANES else _SITE_LANES.get(site.kind, "authority")


def _node_lane(node: Node, sites: dict[str, Site], links: _Links, lanes: dict[str, str]) -> str:
    if node.kind != "function":
        return _NODE_LANES.get(node.kind, "observation")
    if any(kind == EdgeKind.EXECUTION.value for _, kind in links.incoming.get(node.id, ())):
        return "execution"
    contained = [sites[target] for target, kind in links.outgoing.get(node.id, ())
                 if kind == "contains" and target in sites]
    if contained:
        first = min(contained, key=lambda s: (s.location.line, s.id))
        return lanes[first.id]
    return "observation"


def _authority(site: Site, lane: str) -> str | None:
    """Enforced (a decision engine, a human approval) vs advisory (prompt or memory rules,
    another model's verdict): the reports draw them differently."""
    enforced = site.attr("enforced")
    if lane != "authority" or not isinstance(enforced, bool):
        return None
    return "enforced" if enforced else "advisory"


def _place_fileless(projects: dict[str, str], links: _Links) -> None:
    """Each unplaced node joins the project most of its neighbours are in (two passes, so an
    EMU follows its decision point)."""
    for _ in range(2):
        for node, project in projects.items():
            if project != UNKNOWN:
                continue
            neighbours = [*(source for source, _ in links.incoming.get(node, ())),
                          *(target for target, _ in links.outgoing.get(node, ()))]
            around = Counter(projects[n] for n in neighbours
                             if projects.get(n, UNKNOWN) != UNKNOWN)
            if around:
                projects[node] = min(around, key=lambda p: (-around[p], p))


def _policy_projects(sites: tuple[Site, ...], holders: frozenset[str], root_project: str
                     ) -> dict[str, set[str]]:
    """Deployable → the policy projects its decision calls, tool registrations and emits name
    (`projects`, else `project`)."""
    named: dict[str, set[str]] = {}
    for site in sites:
        if site.kind not in _PROJECT_NAMING:
            continue
        values = _declared(site, "projects") or (_declared(site, "project"),)
        for value in values if isinstance(values, (tuple, str)) else ():
            if isinstance(value, str) and value:
                deployable = _home(site.location.file, holders, root_project)
                named.setdefault(deployable, set()).add(value)
    return named


def _declared(site: Site, name: str) -> object:
    return site.attr(name) if site.kind.declares(name) else None


def _projects(placed: tuple[NodePlacement, ...], files: dict[str, str | None],
              named: dict[str, set[str]]) -> tuple[Project, ...]:
    counts = Counter(p.project for p in placed if p.project != UNKNOWN)
    held: dict[str, set[str]] = {}
    for p in placed:
        if files[p.node] and p.project != UNKNOWN:
            held.setdefault(p.project, set()).add(files[p.node])
    return tuple(Project(name, counts[name], tuple(sorted(held.get(name, ()))),
                         tuple(sorted(named.get(name, ())))) for name in sorted(counts))
