"""The audit pipeline: discover → parse → classify → policy → (checks) → one result.

The lints and checks it runs are the ones `emitters` registers.

Each stage hands plain values to the next (ARCHITECTURE.md, "The pipeline"). Nothing here
formats output; reports render an `AuditResult`.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path

from topo.analyzers.discovery._globs import PatternError
from topo.analyzers.discovery.configs import read_configs
from topo.analyzers.discovery.inventory import DiscoveryConfig, Inventory, discover
from topo.analyzers.flow.facts import SourceFacts, source_facts
from topo.analyzers.frontend.executor import ExecutorError
from topo.analyzers.frontend.stage import analyze_files, project_layout
from topo.analyzers.packs import PackError, load_packs
from topo.audit import emitters, policy
from topo.audit.checks import CheckConfig, chain_query, declared_atom_values, run_checks
from topo.audit.checks._integration import decision_projects
from topo.audit.contracts import Contracts, decision_contracts
from topo.audit.coverage import Coverage, coverage_of
from topo.audit.finding_facts import FindingFacts, finding_facts
from topo.audit.finding_traces import FindingTrace, finding_traces
from topo.audit.fingerprint import with_fingerprints
from topo.audit.graph.build import build_graph
from topo.audit.graph.relations import Node, Relation, shown_nodes, shown_relations
from topo.audit.handlers import handlers_by_key
from topo.analyzers.model import Unknown
from topo.audit.model import Finding
from topo.audit.outcomes import Outcome, outcomes_of
from topo.audit.code_authority import CodeAuthority, code_authority
from topo.audit.placement import Placement, place_nodes
from topo.audit.progress import NO_PROGRESS, Progress
from topo.audit.graph.reachability import ReachabilityRow, reachability_matrix
from topo.audit.selection import CodeSelection
from topo.audit.summary import AuditSummary, audit_summary
from topo.audit.suppressions import apply_suppressions
from topo.audit.tool_inventory import Tool, tool_inventory
from topo.audit.vcs import repository_path

__all__ = ["AuditRequest", "AuditResult", "run_audit", "default_cache_dir", "root_name",
           "AuditError"]


class AuditError(Exception):
    """The audit could not run at all (the path does not exist, is not a directory…)."""


@dataclass(frozen=True, slots=True)
class AuditRequest:
    root: Path
    discovery: DiscoveryConfig = DiscoveryConfig()
    jobs: int | None = None
    cache_dir: Path | None = None
    retention_days: int = policy.DEFAULT_RETENTION_DAYS
    ignore_suppressions: bool = False   # report suppressed findings as if no directive existed
    extra_packs: tuple[Path, ...] = ()  # pack files used besides the shipped ones
    selection: CodeSelection = CodeSelection()   # the codes reported (select/ignore)
    executor: str | None = None         # where files are parsed: None (local pool), dask://…


@dataclass(frozen=True, slots=True)
class AuditResult:
    root: Path
    inventory: Inventory
    facts: SourceFacts
    graph: object
    emus: tuple[policy.Emu, ...]
    findings: tuple[Finding, ...]
    unknowns: tuple[Unknown, ...]
    reachability: tuple[ReachabilityRow, ...] = ()
    lines: int = 0
    notes: tuple[str, ...] = field(default=())
    repository_path: str = ""   # the root's path inside its git work tree ('' at its top)
    # Facts the reports show, computed once here (reports render them, never derive them).
    nodes: tuple[Node, ...] = ()             # the graph's nodes a report shows beside sites
    relations: tuple[Relation, ...] = ()     # its structural edges a report shows
    placement: Placement = Placement()       # every shown node's lane and project
    contracts: Contracts = Contracts()
    summary: AuditSummary = AuditSummary()
    finding_facts: FindingFacts = FindingFacts()
    coverage: Coverage = Coverage()          # what was read, skipped and checked
    tools: tuple[Tool, ...] = ()             # the model-callable tools, by exposed name
    traces: tuple[FindingTrace, ...] = ()    # each finding's steps and effect excerpt, in order
    outcomes: tuple[Outcome, ...] = ()       # seed 000's eight answers per executor group
    code_authority: CodeAuthority = CodeAuthority()   # entry points and non-model gates

    @property
    def partial(self) -> bool:
        """True when some input could not be read: the result must say so."""
        return bool(self.unknowns)

    @property
    def root_name(self) -> str:
        return root_name(self.root)


def root_name(root: Path) -> str:
    """The audited root by its name only (reports carry no absolute path); the name of the
    project a manifest at the root makes."""
    return root.resolve().name or str(root)


def default_cache_dir() -> Path:
    """`$XDG_CACHE_HOME/topo` or `~/.cache/topo`: never inside the audited tree."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "topo"


def run_audit(request: AuditRequest, *, progress: Progress = NO_PROGRESS) -> AuditResult:
    """Audit `request.root`. `progress` is told the stages; it never changes the result."""
    root = request.root
    if not root.exists():
        raise AuditError(f"{root}: no such file or directory")
    if not root.is_dir():
        raise AuditError(f"{root}: not a directory (topo audits a repository directory)")
    progress.stage("discovering files")
    try:
        inventory = discover(root, request.discovery)
    except PatternError as error:
        raise AuditError(str(error)) from None
    try:
        packs = load_packs(extra=request.extra_packs)
    except PackError as error:
        raise AuditError(str(error)) from None
    progress.stage(f"parsing {len(inventory.sources)} files")
    layout = project_layout(inventory)
    try:
        files = analyze_files(inventory, jobs=request.jobs, cache_dir=request.cache_dir,
                              max_file_size=request.discovery.max_file_size,
                              progress=progress.files, packs=packs, layout=layout,
                              executor=request.executor)
    except ExecutorError as error:
        raise AuditError(str(error)) from None
    progress.stage("following model output, atoms and authority")
    facts = source_facts(files, packs, layout.public_names())
    # The resolved IRs from here on: they differ from the loaded ones only in callees and
    # constant arguments, and holding both kept every rewritten call twice.
    files = facts.files
    configs, config_unknowns = read_configs(root, inventory.configs,
                                            request.discovery.max_file_size,
                                            settings_kept=facts.knowledge.settings(),
                                            known_servers=facts.knowledge.mcp_servers,
                                            documents=inventory.documents,
                                            prose_paths=facts.knowledge.prose_paths())
    facts = dataclasses.replace(facts, configs=configs)
    progress.stage("reading EMU policies")
    emus, policy_findings, policy_unknowns = _policies(root, inventory, request.retention_days)
    unknowns = [*inventory.unknowns, *layout.unknowns, *policy_unknowns, *config_unknowns]
    for file in files:
        if file.parse_error is not None:
            unknowns.append(file.parse_error)
        unknowns.extend(file.unknowns)
    progress.stage("building the authority graph")
    graph = build_graph(facts, emus)
    progress.stage("running checks")
    config = CheckConfig(retention_days=request.retention_days)
    reach = chain_query(graph, facts, config)
    code_findings = run_checks(graph, facts, emus, config, checks=emitters.CHECKS, reach=reach)
    checked = request.selection.apply(apply_suppressions(
        (*policy_findings, *code_findings), files, ignore=request.ignore_suppressions))
    findings = with_fingerprints(sorted(checked, key=lambda f: f.sort_key))
    nodes, relations = shown_nodes(graph, facts.edges), shown_relations(graph, facts.edges)
    unknowns = sorted(set(unknowns), key=lambda u: (u.file, u.line or 0, u.reason))
    coverage = coverage_of(inventory, files, (emu.location.file for emu in emus),
                           len(unknowns), (code.id for emitter in emitters.EMITTERS
                                           for code in emitter.codes
                                           if request.selection.runs(code.id)))
    placement = place_nodes(facts.sites, nodes, facts.edges, relations,
                            manifests=inventory.manifests, root_project=root_name(root))
    contracts = decision_contracts(facts.sites, facts.edges, relations, graph, emus, findings,
                                   decision_projects(facts),
                                   handlers_by_key(facts.files, facts.sites, facts.knowledge),
                                   declared_atom_values(graph, facts, emus, config, reach))
    reachability = reachability_matrix(emus, findings, frozenset(
        k for a in contracts.actions if a.incomplete for k in a.used_by))
    tools = tool_inventory(facts.sites, facts.edges, nodes, placement, findings,
                           contracts.actions)
    return AuditResult(
        root=root, inventory=inventory, facts=facts, graph=graph, emus=emus, findings=findings,
        unknowns=tuple(unknowns), coverage=coverage,
        reachability=reachability,
        nodes=nodes, relations=relations, placement=placement, contracts=contracts,
        summary=audit_summary(facts.sites, facts.edges, emus, findings, reach),
        finding_facts=finding_facts(facts.sites, emus, findings),
        tools=tools,
        outcomes=outcomes_of(facts.sites, facts.edges, reach, emus, findings, reachability,
                             contracts, tools, facts.knowledge, placement),
        code_authority=code_authority(facts.sites, reach, findings),
        traces=finding_traces(root, facts.sites, nodes, placement, findings,
                              max_file_size=request.discovery.max_file_size),
        lines=sum(f.lines for f in files), notes=inventory.notes,
        repository_path=repository_path(root))

def _policies(root: Path, inventory: Inventory, retention_days: int
              ) -> tuple[tuple[policy.Emu, ...], list[Finding], list[Unknown]]:
    emus: list[policy.Emu] = []
    findings: list[Finding] = []
    unknowns: list[Unknown] = []
    config = policy.PolicyConfig(retention_days=retention_days)
    for directory in inventory.emu_dirs:
        report = policy.validate_directory(root / directory, config, root=root,
                                           lints=emitters.LINTS)
        emus.extend(report.emus)
        findings.extend(report.findings)
        unknowns.extend(Unknown(e.location.file, e.message, e.location.line or None)
                        for e in report.errors)
    return tuple(sorted(emus, key=lambda e: (e.location.file, e.location.line))), findings, unknowns
