"""Tools named by the branches of one handler that receives every tool call.

The MCP low-level server registers a single handler for all tools, `@server.call_tool()
async def call_tool(name, arguments)` (TypeScript: `setRequestHandler(CallToolRequestSchema,
async (request) => …)`), and dispatches on the name: `match name: case GitTools.COMMIT: …`,
`if name == "fetch": …`, `switch (request.params.name) { case "write_file": … }`. Each branch
is a tool the model calls by that name. A pack entry says which handler parameter carries the
name (`dispatch_parameter`, an access path from the parameter's index: `0`, `0.params.name`);
this pass splits such a registration into one per branch, placed at the branch, named by what
the branch compares the name with (a string, a module constant, a repo Enum member or its
`.value`), and marked with the branch (`dispatch_case`) so that a chain through the handler
starts at the tool whose branch it passes. A handler with no naming branch serves one tool
when the server lists exactly one (`listed_by`, the tool descriptions' constructor) and takes
its name. A branch naming several tools (`case A | B`) is a registration of each. A branch
that compares the name with anything not known (a parameter, a call) names none, and a handler
with no naming branch stays one unnamed registration: which tool runs is then not written in
one place.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace

from topo.analyzers.ir import (LITERAL_KINDS, MODULE_SCOPE, Call, Comparison, FileIR, Guard,
                               GuardKind, Value, ValueKind)
from topo.analyzers.model import Location, Site, SiteKind

__all__ = ["split_dispatching", "case_key", "in_case"]

_BRANCHES = (GuardKind.MATCH_CASE, GuardKind.IF)


def case_key(location: Location) -> str:
    """How a branch is named on the sites it creates (`dispatch_case`)."""
    return f"{location.file}:{location.line}:{location.column}"


def in_case(call: Call, site: Site) -> bool:
    """Whether `call` runs only in the branch of dispatched tool `site`; a call outside every
    branch of the handler (shared set-up, a helper called by all) is in each."""
    case = site.attr("dispatch_case")
    if not case:
        return True
    branches = [g for g in call.guards if g.kind in _BRANCHES and g.polarity]
    keys = {case_key(g.location) for g in branches}
    return case in keys or not keys & set(_cases_of(site))


def _cases_of(site: Site) -> tuple[str, ...]:
    return tuple(str(c) for c in site.attr("dispatch_cases") or ())


def split_dispatching(files: tuple[FileIR, ...], sites: tuple[Site, ...],
                      definitions: Mapping[str, tuple[FileIR, object]]) -> tuple[Site, ...]:
    """`sites` with each unnamed dispatching registration replaced by one per named branch."""
    out: list[Site] = []
    for site in sites:
        out.extend(_split(site, files, definitions) if _dispatches(site) else (site,))
    return tuple(out)


def _dispatches(site: Site) -> bool:
    return site.kind is SiteKind.TOOL_REGISTRATION and site.attr("tool_name") is None \
        and site.attr("dispatch_parameter") is not None and bool(site.attr("definition"))


def _split(site: Site, files: tuple[FileIR, ...],
           definitions: Mapping[str, tuple[FileIR, object]]) -> tuple[Site, ...]:
    found = definitions.get(str(site.attr("definition")))
    if found is None:
        return (site,)
    file, definition = found
    tested = _tested_name(definition, str(site.attr("dispatch_parameter")))
    if tested is None:
        return (site,)
    named = dict(_branches(file, definition.qualname, tested, files))
    if not named:
        return (_only_listed(site, file, definition.scope, files),)
    cases = tuple(sorted(case_key(location) for location in named))
    return tuple(_branch_site(site, location, name, index, cases)
                 for location, names in sorted(named.items(), key=lambda kv: kv[0].line)
                 for index, name in enumerate(names))


def _only_listed(site: Site, file: FileIR, scope: str, files: tuple[FileIR, ...]) -> Site:
    """A handler with no naming branch serves one tool when the server lists exactly one
    (`listed_by`: `Tool(name="fetch", …)` in its `list_tools` handler, beside this one)."""
    listed_by = site.attr("listed_by")
    inside = f"{scope}."
    names = {_text(value, file, files) for call in file.calls
             if listed_by and call.callee == listed_by and call.scope.startswith(inside)
             for key, value in call.kwargs if key == "name"}
    if len(names) != 1 or None in names:
        return site
    return site.with_attrs(tool_name=names.pop())


def _tested_name(definition, spec: str) -> str | None:
    """The access path the handler tests: parameter `index` and the path after it."""
    index, _, path = spec.partition(".")
    parameters = [p for p in definition.parameters if p.name not in ("self", "cls")]
    if not index.isdigit() or int(index) >= len(parameters):
        return None
    name = parameters[int(index)].name
    return f"{name}.{path}" if path else name


def _branches(file: FileIR, qualname: str, tested: str,
              files: tuple[FileIR, ...]) -> Iterator[tuple[Location, tuple[str, ...]]]:
    """(branch location, tool names) of every branch in the handler that compares the tested
    name with known names only; aliases (`name = request.params.name`, `const { name } =
    request.params`) are followed one step."""
    aliases = {tested, *_aliases(file, qualname, tested)}
    seen: dict[Location, tuple[str, ...]] = {}
    for guard in _guards(file, qualname):
        if guard.location in seen:
            continue
        names = [_named(c, aliases, file, files) for c in guard.condition.comparisons] \
            if guard.condition else []
        # `case A | B` / `name == a or name == b`: each name, when every alternative is known
        seen[guard.location] = tuple(dict.fromkeys(names)) if names and None not in names \
            else ()
    yield from ((location, names) for location, names in seen.items() if names)


def _guards(file: FileIR, qualname: str) -> Iterator[Guard]:
    inside = (qualname, f"{qualname}.")
    for call in file.calls:
        if call.scope == qualname or call.scope.startswith(inside[1]):
            yield from (g for g in call.guards if g.kind in _BRANCHES and g.polarity)


def _aliases(file: FileIR, qualname: str, tested: str) -> Iterator[str]:
    base, _, last = tested.rpartition(".")
    for assignment in file.assignments:
        if assignment.scope != qualname or assignment.value.kind is not ValueKind.NAME:
            continue
        ref = assignment.value.ref
        if ref == tested and not assignment.element:
            yield assignment.target
        elif base and ref == base and assignment.position == (last,):
            yield assignment.target


def _named(comparison: Comparison, aliases: set[str], file: FileIR,
           files: tuple[FileIR, ...]) -> str | None:
    if comparison.op != "==" or comparison.right is None:
        return None
    for tested, other in ((comparison.left, comparison.right),
                          (comparison.right, comparison.left)):
        if tested.kind is ValueKind.NAME and tested.ref in aliases:
            return _text(other, file, files)
    return None


def _text(value: Value, file: FileIR, files: tuple[FileIR, ...]) -> str | None:
    """The string a compared value is: a literal, a module constant or an Enum member (its
    `.value` too) of this module or of the module an import names."""
    if value.kind is ValueKind.STRING and isinstance(value.literal, str):
        return value.literal
    if value.kind is not ValueKind.NAME or not value.ref:
        return None
    ref = value.ref.removesuffix(".value")
    full = value.resolved.removesuffix(".value") if value.resolved else f"{file.module}.{ref}"
    if ref.count(".") > 1 or full.count(".") < ref.count(".") + 1:
        return None
    if "." in ref:      # `Tools.COMMIT`: a class-level constant
        module, scope, target = full.rsplit(".", 2)
    else:
        (module, target), scope = full.rsplit(".", 1), MODULE_SCOPE
    holder = next((f for f in files if f.module == module), None)
    found = [a.value for a in holder.assignments if a.target == target and a.scope == scope] \
        if holder is not None else []
    if len(found) == 1 and found[0].kind in LITERAL_KINDS and isinstance(found[0].literal, str):
        return found[0].literal
    return None


def _branch_site(site: Site, location: Location, name: str, index: int,
                 cases: tuple[str, ...]) -> Site:
    """The registration of one tool at its branch; a branch naming several tools gives each
    its own site, told apart by a `+n` suffix as other sites at one place are."""
    attrs = {**dict(site.attrs), "tool_name": name, "dispatch_case": case_key(location),
             "dispatch_cases": cases}
    suffix = f"+{index}" if index else ""
    return replace(site, id=f"{site.kind.value}:{case_key(location)}{suffix}",
                   location=location, attrs=tuple(sorted(attrs.items())))
