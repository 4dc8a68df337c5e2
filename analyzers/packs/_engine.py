"""The one engine that applies every pack: resolved names in, `Site`s out.

Packs are data; this module knows no framework. It
1. rewrites resolved names through the packs' aliases (`ami.` → `memrail.`),
2. matches calls, decorators, class bases and tool parameters against entry patterns — on
   resolved names only, so a local `decide()` or another library's `state()` never matches;
   a `verbs` entry also needs the method's first word in its verb set (`_verbs`),
3. extracts attributes declaratively (`_attrs`, `_expand`), and ranks a call of a tool by
   name by what the name says (`_name_tier`),
4. returns sites sorted by id.

Atom sites are found first because decision and event sites refer to them (`atoms`,
`event_name`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

from topo.analyzers.ir import (Call, DefinitionKind, FileIR, Value, ValueKind, keyed_entries,
                               written_values)
from topo.analyzers.packs._attrs import extract_attrs, locate
from topo.analyzers.packs._conditions import admitted
from topo.analyzers.packs._expand import expand_state_dict
from topo.analyzers.packs._facts import FileFacts, qualified
from topo.analyzers.packs._follow import settled
from topo.analyzers.packs._load import load_packs
from topo.analyzers.packs._model import ENGINE_ATTRS, Entry, Pack, Trigger
from topo.analyzers.packs._name_tier import NameTiers
from topo.analyzers.packs._patterns import Aliases, NameIndex, NamePatterns
from topo.analyzers.packs._verbs import VerbRule, verb_sets
from topo.analyzers.model import AttrValue, Location, Site, SiteKind

__all__ = ["classify", "classify_file", "fingerprint", "factories", "generic_attributes",
           "wrappers", "PackIndex", "ENGINE_ATTRS"]


@dataclass(frozen=True)
class PackIndex:
    """Everything the engine needs from the packs, built once per `classify` call.

    The entries of a (trigger, name, language) are kept (`known`): a run names the same
    callees in many calls."""

    aliases: Aliases
    by_trigger: dict[Trigger, NameIndex[Entry]]
    verb_rules: dict[str, VerbRule]        # entry id → its verb rule (`verbs` entries)
    name_tiers: NameTiers = NameTiers()    # `tier_by_name` entries: tier from a tool's name
    known: dict[tuple[Trigger, str, str], tuple[Entry, ...]] = field(
        default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, packs: Iterable[Pack], extra_aliases: Iterable[tuple[str, str]] = ()
           ) -> PackIndex:
        packs = tuple(packs)
        aliases = tuple(sorted({*extra_aliases, *(a for pack in packs for a in pack.aliases)}))
        rows: dict[Trigger, list[tuple[str, Entry]]] = {trigger: [] for trigger in Trigger}
        for pack in sorted(packs, key=lambda p: p.system):
            for entry in pack.entries:
                rows[entry.on].extend((pattern, entry) for pattern in entry.match)
        sets = verb_sets(packs)
        rules = {entry.id: VerbRule.of(entry, sets) for pack in packs for entry in pack.entries
                 if entry.verbs is not None}
        return cls(Aliases.of(aliases),
                   {trigger: NameIndex.build(items) for trigger, items in rows.items()},
                   rules, NameTiers.of(packs))

    def entries(self, trigger: Trigger, name: str, language: str) -> tuple[Entry, ...]:
        key = (trigger, name, language)
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = self._entries(trigger, name, language)
        return found

    def _entries(self, trigger: Trigger, name: str, language: str) -> tuple[Entry, ...]:
        resolved = name if trigger is Trigger.PARAMETER else self.aliases.rewrite(name)
        found = [entry for entry in self.by_trigger[trigger].lookup(resolved)
                 if language in entry.languages]
        # A verb rule is its family's fallback: an entry that names the call itself wins the
        # site (`boto3.client.delete_*` is deletion, not the family's generic tier).
        return (tuple(entry for entry in found if entry.id not in self.verb_rules)
                + tuple(entry for entry in found if entry.id in self.verb_rules
                        and self.verb_rules[entry.id].allows(resolved)))


def classify(files: Iterable[FileIR], packs: Iterable[Pack] | None = None,
             public_names: Iterable[tuple[str, str]] = (),
             written: Mapping[str, str | None] | None = None) -> tuple[Site, ...]:
    """Every site in `files`, sorted by id. Files that failed to parse have no facts and give
    no sites (their `parse_error` is reported as an unknown elsewhere). `public_names` are
    module aliases of the run (a workspace package's entry module → its package name);
    `written` the callees as the front-end named them, by call id, before cross-module
    resolution followed re-exports into a library's own source (`@openai/agents.shellTool`,
    not `packages/agents-core/src/tool.shellTool`): a call matches by either."""
    index = PackIndex.of(load_packs() if packs is None else packs, public_names)
    sites = [site for file in files for site in classify_file(file, index, written or {})]
    return tuple(sorted(sites, key=lambda site: site.id))


def classify_file(file: FileIR, index: PackIndex,
                  written: Mapping[str, str | None] | None = None) -> tuple[Site, ...]:
    """The sites of one file, deduplicated by id (the first entry in pack order wins)."""
    if file.parse_error is not None:
        return ()
    facts = FileFacts.of(file)
    language = file.language.value
    matches = [(call, entry) for call in file.calls if call.callee
               for entry in _entries_of(index, call, language, written or {})]
    atom_sites = [site for call, entry in matches if entry.site is SiteKind.ATOM
                  for site in _call_sites(entry, call, facts)]
    facts = facts.with_atoms(_by_call(atom_sites))
    sites = atom_sites + [site for call, entry in matches if entry.site is not SiteKind.ATOM
                          for site in _call_sites(entry, call, facts)]
    sites = _listed_once(index.name_tiers.apply(_named_by_key(sites, matches, facts)), matches)
    sites += _class_sites(file, facts, index)
    sites += _parameter_sites(sites, facts, index)
    unique: dict[str, Site] = {}
    for site in sites:
        unique.setdefault(site.id, site)
    return tuple(unique.values())


def fingerprint(file: FileIR, packs: Iterable[Pack] | None = None) -> frozenset[str]:
    """The systems a file uses: packs whose fingerprint module prefixes it imports."""
    imported = set()
    for item in file.imports:
        imported.add(item.module)
        if item.name and item.name not in ("*", "default"):
            imported.add(f"{item.module}.{item.name}")
    return frozenset(
        pack.system for pack in (load_packs() if packs is None else packs)
        if any(name == prefix or name.startswith(prefix + ".")
               for prefix in pack.fingerprint for name in imported))


def factories(packs: Iterable[Pack] | None = None) -> NamePatterns:
    """Calls whose results the packs name methods through (`boto3.client("s3")` →
    `boto3.client.delete_object`). The front-end asks `name in factories(...)` when deciding
    whether a call builds an instance; aliases are applied (`ami.x` is `memrail.x`)."""
    return _pack_names(packs, lambda pack: pack.factories)


def generic_attributes(packs: Iterable[Pack] | None = None) -> dict[str, int]:
    """`pydantic_ai.RunContext.deps` → 0: the attributes of generic classes that hold a type
    argument (`ctx: RunContext[Deps]` makes `ctx.deps` a `Deps`), for the resolution stage.
    Two packs giving one attribute two positions give it none."""
    found: dict[str, int | None] = {}
    for pack in (load_packs() if packs is None else packs):
        for name, index in pack.generic_attributes:
            found[name] = index if found.get(name, index) == index else None
    return {name: index for name, index in found.items() if index is not None}


def wrappers(packs: Iterable[Pack] | None = None) -> NamePatterns:
    """Calls that return their first argument wrapped (`util.promisify(exec)`): the front-ends
    ask `name in wrappers(...)` so that a name bound to the call denotes the argument."""
    return _pack_names(packs, lambda pack: pack.wrappers)


def _pack_names(packs: Iterable[Pack] | None,
                names: Callable[[Pack], tuple[str, ...]]) -> NamePatterns:
    packs = tuple(load_packs() if packs is None else packs)
    aliases = sorted({alias for pack in packs for alias in pack.aliases})
    return NamePatterns.build((name for pack in packs for name in names(pack)), aliases)


def _entries_of(index: PackIndex, call: Call, language: str,
                written: Mapping[str, str | None]) -> tuple[Entry, ...]:
    trigger = _trigger_of(call)
    found = index.entries(trigger, str(call.callee), language)
    before = written.get(call.id)
    if not found and before and before != call.callee:
        found = index.entries(trigger, before, language)
    return found


def _trigger_of(call: Call) -> Trigger:
    return Trigger.DECORATOR if call.decorates is not None else Trigger.CALL


def _by_call(sites: list[Site]) -> dict[str, tuple[Site, ...]]:
    grouped: dict[str, list[Site]] = {}
    for site in sites:
        grouped.setdefault(str(site.attr("call")), []).append(site)
    return {call_id: tuple(group) for call_id, group in grouped.items()}


def _named_by_key(sites: list[Site], matches: list[tuple[Call, Entry]],
                  facts: FileFacts) -> list[Site]:
    """`fallback = "placed_key"`: a call placed under a key of an object literal (`tools: {
    weather: tool({...}) }`, or `{ weather }` after `const weather = tool({...})`) is named by
    that key, as a tool set names its tools; placed under two keys, it stays unnamed."""
    wanted = {call.id: [s.name for s in entry.attrs if s.fallback_to_placed_key]
              for call, entry in matches}
    if not any(wanted.values()):
        return sites
    keys: dict[str, set[str]] = {}
    for scope, line, value in written_values(facts.file):
        for key, item in keyed_entries(value):
            built = item.call if item.kind is ValueKind.CALL else None
            if item.kind is ValueKind.NAME and item.ref and item.ref.isidentifier():
                bound = facts.bound_call(item.ref, scope, line)
                built = bound.id if bound is not None else None
            if built:
                keys.setdefault(built, set()).add(key)
    named = []
    for site in sites:
        call = str(site.attr("call")) if site.kind.declares("call") else ""
        found = keys.get(call, set())
        names = [n for n in wanted.get(call, ()) if site.kind.declares(n) and
                 site.attr(n) is None and (not site.kind.declares(f"{n}_literal")
                                           or site.attr(f"{n}_literal") is None)]
        if names and len(found) == 1:
            key = next(iter(found))
            site = site.with_attrs(**{n: key for n in names})
        named.append(site)
    return named


def _inline_sites(entry: Entry, call: Call, facts: FileFacts) -> list[Site]:
    """One registration per tool written inline where `entry.inline` points: in an object, a
    key whose value is an object literal (named by the key); in a list, a plain function
    (`Agent(tools=[search])`, named after it). A `tool(...)` call, or a name bound to one, is
    registered where it is made. Attrs read the tool as the call's first argument."""
    tools = locate(entry.inline, facts, call) if entry.inline else None
    if not isinstance(tools, Value) or tools.kind not in (ValueKind.DICT, ValueKind.LIST):
        return []
    symbol = qualified(facts.file.module, call.scope)
    sites = []
    for position, (key, item) in enumerate(tools.entries):
        if tools.kind is ValueKind.DICT and (key is None or item.kind is not ValueKind.DICT):
            continue
        if tools.kind is ValueKind.LIST and entry.inline_objects:
            item = _object_literal(item, call, facts)
            if item is None:
                continue
        elif tools.kind is ValueKind.LIST and not _names_function(item, facts):
            continue
        attrs = _named_after_definition(entry, extract_attrs(
            entry.attrs, facts, replace(call, args=(item,), kwargs=())))
        attrs = {"tool_name": key, **attrs} if key is not None else attrs
        if admitted(entry, attrs):
            attrs |= _engine_attrs(entry, callee=call.callee, call=call.id)
            # Two lists of one call (`inputGuardrails`, `outputGuardrails`) keep apart.
            suffix = key or (f"{entry.id}.{position}" if entry.inline_objects
                             else str(position))
            sites.append(_site(entry, facts, call.location, symbol, attrs, suffix, call.id))
    return sites


def _listed_once(sites: list[Site], matches: list[tuple[Call, Entry]]) -> list[Site]:
    """A function whose own decorator registers it as a tool (`@governed_tool(...)`) keeps
    that registration when a list hands it over again (`with_tools([create_customer])`): the
    decorator says how the tool is governed, the list only repeats it."""
    listing = {call.id for call, entry in matches if entry.inline is not None}
    decorators = {call.id for call, entry in matches if call.decorates is not None
                  and entry.site is SiteKind.TOOL_REGISTRATION}
    decorated = {site.attr("definition") for site in sites
                 if str(site.attr("call")) in decorators and site.attr("definition")}
    return [site for site in sites
            if not (str(site.attr("call")) in listing and site.attr("definition") in decorated)]


def _object_literal(item: Value, call: Call, facts: FileFacts) -> Value | None:
    """A list item written as an object literal, or a name bound to one by its only
    assignment in this file (`const guard: InputGuardrail = { … }`); a call (`defineX({…})`)
    or an imported name is registered where it is made, not here."""
    if item.kind is ValueKind.NAME:
        item = settled(item, call, facts, follow=True, through=())
    return item if item.kind is ValueKind.DICT else None


def _names_function(item: Value, facts: FileFacts) -> bool:
    """A list item that names a function of this file; an imported name may be a tool object
    made elsewhere (registered there), so it is not guessed to be a function."""
    found = facts.local_definition(item.ref) if item.kind is ValueKind.NAME and item.ref \
        else None
    return found is not None and found.kind is not DefinitionKind.CLASS


def _call_sites(entry: Entry, call: Call, facts: FileFacts) -> list[Site]:
    if entry.inline is not None:
        return _inline_sites(entry, call, facts)
    definition = None
    location, symbol = call.location, qualified(facts.file.module, call.scope)
    if call.decorates is not None:
        definition = facts.definitions.get(call.decorates)
        symbol = qualified(facts.file.module, call.decorates)
        location = definition.location if definition is not None else call.location
    attrs = _named_after_definition(entry, extract_attrs(entry.attrs, facts, call, definition))
    if not admitted(entry, attrs):
        return []
    attrs |= _engine_attrs(entry, callee=call.callee, call=call.id)
    if call.decorates is not None:
        attrs["definition"] = symbol
    # A call site is anchored on the call id, which stays unique for chained calls that start
    # at the same position (`Anthropic().messages.create`); a decorator site on its definition.
    anchor = call.id if call.decorates is None else None
    if entry.methods:
        return _method_sites(entry, facts, location, symbol, attrs, anchor)
    if entry.expand is None:
        return [_site(entry, facts, location, symbol, attrs, anchor=anchor)]
    return [_site(entry, facts, location, symbol, attrs | atom.attrs, atom.suffix, anchor)
            for atom in expand_state_dict(entry.expand, call, facts)]


def _named_after_definition(entry: Entry, attrs: dict[str, AttrValue]) -> dict[str, AttrValue]:
    """`fallback = "definition_name"` on a call: `Tool(search)` is named `search`, after the
    function its `definition` attribute names (never after a lambda or an unread argument)."""
    named = attrs.get("definition")
    last = named.rsplit(".", 1)[-1] if isinstance(named, str) else ""
    if not last.isidentifier():
        return attrs
    return attrs | {spec.name: last for spec in entry.attrs if spec.fallback_to_definition_name
                    and spec.name not in attrs and f"{spec.name}_literal" not in attrs}


def _class_sites(file: FileIR, facts: FileFacts, index: PackIndex) -> list[Site]:
    sites = []
    language = file.language.value
    for definition in file.definitions:
        if definition.kind is not DefinitionKind.CLASS:
            continue
        seen: set[str] = set()
        for base in definition.bases:
            for entry in index.entries(Trigger.CLASS_BASE, base, language):
                if entry.id in seen:
                    continue
                seen.add(entry.id)
                attrs = extract_attrs(entry.attrs, facts, None, definition)
                if admitted(entry, attrs):
                    symbol = qualified(file.module, definition.qualname)
                    attrs |= _engine_attrs(entry, base=base) | {"definition": symbol}
                    sites += _method_sites(entry, facts, definition.location, symbol, attrs)
    return sites


def _method_sites(entry: Entry, facts: FileFacts, location: Location, symbol: str,
                  attrs: dict[str, AttrValue], anchor: str | None = None) -> list[Site]:
    """One registration per method the model invokes (`entry.methods`) of the class that
    `definition` names. A class of this file offers only the methods it defines (one that
    inherits them all keeps the class-level site), each placed on its method like a decorated
    function; an imported one, every listed method, placed on the registering call."""
    owner = attrs.get("definition")
    if not entry.methods or not isinstance(owner, str):
        return [_site(entry, facts, location, symbol, attrs, anchor=anchor)]
    local = facts.local_definition(owner)
    methods = [m for m in entry.methods
               if local is None or f"{local.qualname}.{m}" in facts.definitions]
    if not methods:
        return [_site(entry, facts, location, symbol, attrs, anchor=anchor)]
    sites = []
    for method in methods:
        where, named = location, symbol
        if local is not None:
            where, named = facts.definitions[f"{local.qualname}.{method}"].location, \
                qualified(facts.file.module, f"{local.qualname}.{method}")
        sites.append(_site(entry, facts, where, named,
                           attrs | {"definition": f"{owner}.{method}"}, method, anchor))
    return sites


def _parameter_sites(sites: list[Site], facts: FileFacts, index: PackIndex) -> list[Site]:
    """Tool parameters that the model fills in (`approved: bool`) on definitions registered
    as tools in this file."""
    found = []
    language = facts.file.language.value
    for tool in sites:
        if tool.kind is not SiteKind.TOOL_REGISTRATION or not tool.attr("definition"):
            continue
        definition = facts.local_definition(str(tool.attr("definition")))
        if definition is None:
            continue
        symbol = qualified(facts.file.module, definition.qualname)
        for parameter in definition.parameters:
            for entry in index.entries(Trigger.PARAMETER, parameter.name, language):
                attrs = extract_attrs(entry.attrs, facts, None, definition)
                attrs |= _engine_attrs(entry, parameter=parameter.name)
                attrs |= {"definition": symbol, "tool_name": tool.attr("tool_name")}
                found.append(_site(entry, facts, definition.location, symbol, attrs,
                                   parameter.name))
    return found


def _engine_attrs(entry: Entry, **extra: AttrValue) -> dict[str, AttrValue]:
    attrs: dict[str, AttrValue] = {"role": entry.role.value, "entry": entry.id, **extra}
    if entry.tier is not None:
        attrs["tier"] = entry.tier.value
    if entry.enforced is not None:
        attrs["enforced"] = entry.enforced
    return attrs


def _site(entry: Entry, facts: FileFacts, location: Location, symbol: str,
          attrs: dict[str, AttrValue], suffix: str | None = None,
          anchor: str | None = None) -> Site:
    """`<kind>:<file>:<line>:<col>[:<suffix>]`; the anchor is the call id for call sites."""
    anchor = anchor or f"{location.file}:{location.line}:{location.column}"
    site_id = f"{entry.site.value}:{anchor}"
    if suffix:
        site_id += f":{suffix}"
    return Site(id=site_id, kind=entry.site, system=entry.system,
                language=facts.file.language.value, location=location, symbol=symbol,
                attrs=tuple(sorted(attrs.items())),
                inferred=entry.inferred or bool(entry.if_judged))
