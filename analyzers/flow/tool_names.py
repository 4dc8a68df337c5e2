"""Tools named where another module places them.

A tool set names its tools by their keys (`streamText({ tools: { weather: weatherTool } })`),
and apps often build the tool in one module and place it in another:
`export const weatherTool = tool({ … })` in `tool/weather-tool.ts`, `tools: { weather:
weatherTool }` in the agent. The pack engine names a registration by the key it is placed under
in its own file (`fallback = "placed_key"`); this pass, which sees every file, does the same
across modules: a registration still unnamed whose call is bound to a module-level name takes
the key of the object-literal entries, anywhere in the repository, whose value is that name
imported (or written in place, `{ weatherTool }`), or whose value calls the function that
returns it (a tool factory, `shell: shellTool()`). Placed under several keys, it has no one
name (which one the model sees depends on the caller): it is exposed under each
(`placed_names`), and the tools inventory lists it under each.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from topo.analyzers.ir import (MODULE_SCOPE, FileIR, Value, ValueKind, keyed_entries,
                               written_values)
from topo.analyzers.model import Site, SiteKind
from topo.analyzers.packs import Pack

__all__ = ["named_by_placement"]


def named_by_placement(files: tuple[FileIR, ...], sites: tuple[Site, ...],
                       packs: Iterable[Pack]) -> tuple[Site, ...]:
    """`sites` with unnamed registrations of a placed-key entry named across modules."""
    placed = {entry.id for pack in packs for entry in pack.entries
              if any(spec.name == "tool_name" and spec.fallback_to_placed_key
                     for spec in entry.attrs)}
    wanted = {_exported(files, site): site.id for site in sites
              if site.kind is SiteKind.TOOL_REGISTRATION and site.attr("entry") in placed
              and site.attr("tool_name") is None and site.attr("tool_name_literal") is None}
    wanted.pop(None, None)
    if not wanted:
        return sites
    keys: dict[str, set[str]] = {}
    for file in files:
        for key, item in _placements(file):
            name = item.resolved or (f"{file.module}.{item.ref}" if item.ref else None)
            if name in wanted:
                keys.setdefault(wanted[name], set()).add(key)
    return tuple(_named(site, keys.get(site.id, set())) for site in sites)


def _exported(files: tuple[FileIR, ...], site: Site) -> str | None:
    """`module.name` of the module-level name the registering call is bound to, or of the
    module-level function that returns it (a tool factory, `export function shellTool() {
    return tool({…}) }`, placed as `shell: shellTool()`)."""
    call = str(site.attr("call"))
    file = next((f for f in files if f.path == site.location.file), None)
    for assignment in file.assignments if file is not None else ():
        if assignment.scope == MODULE_SCOPE and assignment.value.kind is ValueKind.CALL \
                and assignment.value.call == call and assignment.target.isidentifier():
            return f"{file.module}.{assignment.target}"
    factories = {d.qualname for d in file.definitions if d.scope == MODULE_SCOPE} \
        if file is not None else set()
    for returned in file.returns if file is not None else ():
        if returned.scope in factories and returned.value is not None \
                and returned.value.kind is ValueKind.CALL and returned.value.call == call:
            return f"{file.module}.{returned.scope}"
    return None


def _placements(file: FileIR) -> Iterator[tuple[str, Value]]:
    """(key, value) of every object-literal entry whose value is a plain name, or the call of
    a function (`shell: shellTool()`), as the name of what is placed."""
    callees = {call.id: call.callee for call in file.calls}
    for _, _, value in written_values(file):
        for key, item in keyed_entries(value):
            if item.kind is ValueKind.NAME and item.ref and item.ref.isidentifier():
                yield key, item
            elif item.kind is ValueKind.CALL and callees.get(item.call or ""):
                yield key, Value(ValueKind.NAME, item.text, resolved=callees[item.call])


def _named(site: Site, keys: set[str]) -> Site:
    """Named by its one key; placed under several, the tool is exposed under each
    (`placed_names`) and has no one name."""
    if not keys:
        return site
    named = {"tool_name": keys.pop()} if len(keys) == 1 else {"placed_names": tuple(sorted(keys))}
    return site.with_attrs(**named)
