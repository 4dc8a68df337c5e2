"""What the code says about its Memrail integration, for the policy ⟷ code checks.

INVOKE-GAP, ATOM-GAP, ACTION-GAP, COHERENCE-GAP and BINDING-MISMATCH all compare EMUs with
the same few facts: the decision calls and the point each names, the project each decides in,
the tools the code registers, and the tool an EMU selects. They live here, once.

These checks are about Memrail by definition, so they name it through the one constant
`MEMRAIL`; what Memrail's code looks like (its fingerprint) comes from its pack.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from topo.analyzers.flow.facts import SourceFacts
from topo.analyzers.ir import Call, FileIR, ValueKind
from topo.analyzers.packs import Knowledge
from topo.analyzers.paths import root_of
from topo.audit.checks._registry import CheckContext
from topo.audit.graph.build import sites_of_kind
from topo.audit.graph.chains import call_index
from topo.analyzers.model import Site, SiteKind
from topo.audit.policy import Emu

__all__ = ["MEMRAIL", "has_app_code", "partial_code", "decision_calls", "literal_point",
           "calls_by_point", "decision_project", "decision_projects", "site_project",
           "memrail_tools", "emu_tool_id", "repo_projects"]

MEMRAIL = "memrail"   # the system of memrail.toml
_CLIENTS = frozenset({"AMIClient", "AsyncAMIClient"})


def has_app_code(ctx: CheckContext) -> bool:
    """True when the EMUs sit next to application code we could read. An EMU-only repository
    is a policy repository: its code lives elsewhere, so "no code invokes it" says nothing."""
    return any(file.parse_error is None for file in ctx.facts.files)


def partial_code(ctx: CheckContext) -> bool:
    """True when some source file could not be read: an absence claim may then be wrong."""
    return any(file.parse_error is not None for file in ctx.facts.files)


def decision_calls(ctx: CheckContext) -> list[Site]:
    """Memrail decision calls (`decide`, `decide_and_execute`, …), in site id order."""
    return [s for s in sites_of_kind(ctx.graph, SiteKind.DECISION_CALL) if s.system == MEMRAIL]


def literal_point(site: Site) -> str | None:
    """The decision point a call names literally; None when unnamed or computed."""
    point = site.attr("decision_point")
    return point if isinstance(point, str) and site.attr("decision_point_literal") is not False \
        else None


def calls_by_point(ctx: CheckContext) -> dict[str, list[Site]]:
    """Decision calls by the point they name literally: each one is a caller of its EMUs.
    Computed once per check, not per EMU (a repository may hold thousands of EMUs)."""
    found: dict[str, list[Site]] = {}
    for site in decision_calls(ctx):
        point = literal_point(site)
        if point is not None:
            found.setdefault(point, []).append(site)
    return found


def decision_project(ctx: CheckContext, site: Site) -> str | None:
    """The project a decision call decides in: its own `project=`, else the `project=` of the
    client it is called on (`AMIClient(project="support")`), else None (config or environment,
    which we do not read)."""
    return site_project(site, ctx.calls, ctx.facts.knowledge)


def decision_projects(facts: SourceFacts) -> dict[str, str]:
    """`decision_project` of every Memrail decision call of the repository that says one, by
    site id (for the report's decision points, computed outside any check)."""
    calls = call_index(facts)
    found = {}
    for site in facts.sites:
        if site.kind is SiteKind.DECISION_CALL and site.system == MEMRAIL:
            project = site_project(site, calls, facts.knowledge)
            if project is not None:
                found[site.id] = project
    return found


def site_project(site: Site, calls: Mapping[str, tuple[FileIR, Call]],
                 knowledge: Knowledge) -> str | None:
    if site.attr("project_literal") is False:
        return None
    own = site.attr("project")
    if isinstance(own, str):
        return own
    found = calls.get(str(site.attr("call")))
    if found is None:
        return None
    file, call = found
    return _client_project(knowledge, file, call)


def _client_project(knowledge: Knowledge, file: FileIR, call: Call) -> str | None:
    constructors = [c for c in file.calls if _is_client(knowledge, c)]
    if call.receiver:
        bound = [a for a in file.assignments if a.target in (call.receiver, root_of(call.receiver))
                 and a.value.kind is ValueKind.CALL and a.scope in _chain(call.scope)]
        made = {a.value.call for a in bound}
        chosen = [c for c in constructors if c.id in made]
        if chosen:
            constructors = chosen
    projects = {_project_kwarg(c) for c in constructors}
    return projects.pop() if len(projects) == 1 else None


def _is_client(knowledge: Knowledge, call: Call) -> bool:
    """A Memrail client constructor: the callee's package is Memrail's fingerprint (its pack)."""
    return _constructs_client(knowledge.fingerprint(MEMRAIL), call)


def _constructs_client(fingerprint: tuple[str, ...], call: Call) -> bool:
    parts = (call.callee or "").split(".")
    return parts[0] in fingerprint and parts[-1] in _CLIENTS


def _project_kwarg(call: Call) -> str | None:
    """`AMIClient(project="p")`, or TypeScript's `new AMIClient({ project: 'p' })`."""
    value = call.kwarg("project")
    if value is None and call.args:
        value = call.args[0].entry("project")
    return value.literal if value is not None and value.kind is ValueKind.STRING else None


def _chain(scope: str) -> set[str]:
    parts = scope.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1)} | {"<module>"}


def memrail_tools(ctx: CheckContext) -> list[Site]:
    """Memrail tool registrations (`@registry.tool`, `register_tool`), in site id order."""
    return [s for s in sites_of_kind(ctx.graph, SiteKind.TOOL_REGISTRATION)
            if s.system == MEMRAIL]


def emu_tool_id(emu: Emu) -> str | None:
    """The tool a `tool_call` EMU selects: `tool.tool_id`, `tool.name`, the flat SDK form
    `tool: "<name>"`, or `action.name` (the executor accepts all four)."""
    if emu.action.get("type") != "tool_call":
        return None
    tool = emu.action.get("tool")
    if isinstance(tool, str):
        return tool
    if isinstance(tool, dict):
        for key in ("tool_id", "name"):
            if isinstance(tool.get(key), str):
                return tool[key]
    name = emu.action.get("name")
    return name if isinstance(name, str) else None


def repo_projects(ctx: CheckContext) -> Iterator[str]:
    """Every project the code names literally: decisions, clients, emits, tool registrations."""
    for site in ctx.facts.sites:
        if site.system != MEMRAIL:
            continue
        for name in ("project", "projects"):
            value = site.attr(name) if site.kind.declares(name) else None
            if isinstance(value, str):
                yield value
            elif isinstance(value, tuple):
                yield from (v for v in value if isinstance(v, str))
    fingerprint = ctx.facts.knowledge.fingerprint(MEMRAIL)     # asked once, not per call
    for file in ctx.facts.files:
        for call in file.calls:
            if _constructs_client(fingerprint, call) and _project_kwarg(call):
                yield str(_project_kwarg(call))
