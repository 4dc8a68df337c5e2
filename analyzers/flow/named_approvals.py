"""Tools approved by name: an agent's human-in-the-loop middleware lists, by exposed name, the
tools it pauses for a human before each call (LangChain `HumanInTheLoopMiddleware(interrupt_on=
{"send_email": True, "search": False})`, JS `humanInTheLoopMiddleware({ interruptOn })`).

The packs say which approval-gate attributes hold such a list (`approval_tool_lists`). A tool
registration of a listed name is approval-gated (`approved_by`: the gate) when the gate's file
registers it or imports the module that does: the agent that takes the middleware is built
from the tools its file can name. A tool of the same name elsewhere in the repository (another
agent's) is not, and a name the list leaves out, sets to `False`, or asks about only for some
calls (`when`), runs unreviewed.
"""

from __future__ import annotations

from collections.abc import Iterable

from topo.analyzers.ir import FileIR
from topo.analyzers.model import Site, SiteKind
from topo.analyzers.packs import Knowledge

__all__ = ["mark_named_approvals"]


def mark_named_approvals(files: Iterable[FileIR], sites: Iterable[Site],
                         knowledge: Knowledge) -> tuple[Site, ...]:
    """Registrations an approval gate names get `approved_by`; other sites are unchanged."""
    sites = tuple(sites)
    gates = [(gate, names) for gate in sites if gate.kind is SiteKind.APPROVAL_GATE
             and gate.attr("enforced") is not False
             and (names := frozenset(knowledge.approved_tools(gate)))]
    if not gates:
        return sites
    files = tuple(files)
    modules = {file.path: file.module for file in files}
    holders = {gate.location.file for gate, _ in gates}
    reachable = {file.path: {file.module, *(item.module for item in file.imports),
                             *(f"{item.module}.{item.name}" for item in file.imports
                               if item.name)}
                 for file in files if file.path in holders}
    marked = []
    for site in sites:
        if site.kind is SiteKind.TOOL_REGISTRATION and not site.attr("approved_by"):
            module = modules.get(site.location.file)
            gate = next((gate for gate, names in gates if site.attr("tool_name") in names
                         and module in reachable.get(gate.location.file, ())), None)
            if gate is not None:
                site = site.with_attrs(approved_by=gate.id)
        marked.append(site)
    return tuple(marked)
