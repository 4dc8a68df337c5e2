"""Reading pack files: TOML → schema check → semantic check → frozen `Pack` values.

Every problem becomes a `PackError` whose message starts with the file and the key path
(`memrail.toml: entries[3].site: …`), because a pack author fixes data, not code. The schema
(`pack.schema.json`) rejects unknown keys; the checks here cover what a schema cannot say
(duplicate ids, a `when` naming an attribute that is never extracted, a tier on a site that is
not an executor, an attribute not declared for the entry's site kind in
`topo.analyzers.model.SITE_ATTRIBUTES`, …).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import tomllib
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from topo.analyzers.packs._model import (McpServerRule, ENGINE_ATTRS, AttrSpec, CanaryDeciderRule,
                                         Condition, Entry,
                                         Expansion, Extract, IntentRules, Judgement,
                                         LiveShadowRule, Pack, PackError, PolicyRead,
                                         PolicyWrites, RetentionRule, RouteRule,
                                         NameTier, SchemaFields, Source, StateGraphRules,
                                         ToolRules, Trigger)
from topo.analyzers.reading import InputRefused, read_bytes
from topo.analyzers.packs._patterns import PatternError, expand_pattern
from topo.analyzers.packs._verbs import verb_segment, verb_sets
from topo.analyzers.model import (LITERAL, NAMES, SITE_ATTRIBUTES, TEXT, AttributeDecl, EdgeKind,
                                  SiteKind, Tier, UndeclaredAttribute)

__all__ = ["load_pack", "load_packs", "default_pack_files", "pack_schema"]

_PACKAGE = "topo.analyzers.packs"
_MAX_REPORTED = 20
# What an entry may read written inline: tools (`{ tools: { book: {...} } }`) and guardrails
# (`inputGuardrails: [{ name, execute }]`).
_INLINE_SITES = frozenset({SiteKind.TOOL_REGISTRATION, SiteKind.APPROVAL_GATE})


def pack_schema() -> dict[str, Any]:
    """The pack JSON Schema shipped beside this module."""
    text = resources.files(_PACKAGE).joinpath("pack.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


def default_pack_files() -> tuple[Path, ...]:
    """The packs shipped with topo, in file-name order."""
    data = resources.files(_PACKAGE).joinpath("data")
    return tuple(sorted((Path(str(item)) for item in data.iterdir()
                         if item.name.endswith(".toml")), key=lambda path: path.name))


@functools.cache
def _shipped_packs() -> tuple[Pack, ...]:
    return _combine([load_pack(path) for path in default_pack_files()])


def load_packs(paths: Iterable[Path | str] | None = None, *,
               extra: Iterable[Path | str] = ()) -> tuple[Pack, ...]:
    """Load and cross-check packs: the shipped ones by default (read once per process, they
    are immutable), or exactly the files given; `extra` files are added to either."""
    extra = tuple(extra)
    if paths is None and not extra:
        return _shipped_packs()
    base = list(_shipped_packs()) if paths is None else [load_pack(Path(p)) for p in paths]
    # a user's pack is named by its path: two of them may share a file name
    return _combine([*base, *(load_pack(Path(path), name=str(path)) for path in extra)])


def load_pack(path: Path | str, *, name: str | None = None) -> Pack:
    """One pack file as a `Pack`, or a `PackError` naming the file (`name`, else the file's
    name) and key path."""
    path = Path(path)
    label = name or path.name
    try:
        # bounded: a pack named by a repository's configuration is input like any other
        data = read_bytes(path)
        raw = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise PackError(f"{label}: not valid TOML: {error}") from None
    except InputRefused as refused:
        raise PackError(f"{label}: cannot read: {refused.reason}") from None
    except RecursionError:
        raise PackError(f"{label}: cannot read: TOML nested too deeply") from None
    _validate(raw, label)
    pack = _build_pack(raw, label)
    return dataclasses.replace(pack, digest=hashlib.sha256(data).hexdigest(),
                               **_pack_rules(raw, label))


def _validate(raw: dict[str, Any], file: str) -> None:
    validator = Draft202012Validator(pack_schema())
    errors = sorted(validator.iter_errors(raw), key=lambda e: (_path_of(e), e.message))
    if errors:
        lines = [f"{file}: {_path_of(error) or '(top level)'}: {error.message}"
                 for error in errors[:_MAX_REPORTED]]
        raise PackError("\n".join(lines))


def _path_of(error: ValidationError) -> str:
    return dotted(tuple(error.absolute_path))


def dotted(path: tuple[str | int, ...]) -> str:
    """`("entries", 3, "site")` → `entries[3].site`."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _build_pack(raw: dict[str, Any], file: str) -> Pack:
    system = raw["system"]
    languages = frozenset(raw["languages"])
    judgements = {name: Judgement(name=name, description=spec["description"],
                                  conditions=tuple(_build_condition(attr, value)
                                                   for attr, value in spec["when"].items()))
                  for name, spec in raw.get("judgements", {}).items()}
    entries = []
    seen: set[str] = set()
    for index, raw_entry in enumerate(raw.get("entries", ())):
        where = f"{file}: entries[{index}]"
        if raw_entry["id"] in seen:
            raise PackError(f"{where}.id: duplicate entry id {raw_entry['id']!r}")
        seen.add(raw_entry["id"])
        entries.append(_build_entry(raw_entry, system, languages, where, judgements))
    for key in ("factories", "wrappers"):
        for index, pattern in enumerate(raw.get(key, ())):
            try:
                expand_pattern(pattern)
            except PatternError as error:
                raise PackError(f"{file}: {key}[{index}]: {error}") from None
    return Pack(system=system, languages=languages,
                fingerprint=tuple(raw.get("fingerprint", ())),
                aliases=tuple(sorted(raw.get("aliases", {}).items())),
                factories=tuple(raw.get("factories", ())),
                wrappers=tuple(raw.get("wrappers", ())),
                generic_attributes=tuple(sorted(raw.get("generic_attributes", {}).items())),
                entries=tuple(entries), file=file, description=raw.get("description", ""),
                verbs=tuple((name, tuple(words)) for name, words in raw.get("verbs", {}).items()),
                judgements=tuple(judgements.values()))


def _intent_rules(raw: dict[str, Any] | None, file: str) -> IntentRules | None:
    """`[tools.intent]` (the schema checked its shape and tier names); a verb listed under
    two tiers would make an executor's tier depend on the order, so it is an error."""
    if raw is None:
        return None
    verbs: dict[str, str] = {}
    for tier, words in sorted(raw["verbs"].items()):
        for word in words:
            if word in verbs:
                raise PackError(f"{file}: tools.intent.verbs.{tier}: {word!r} is already a "
                                f"{verbs[word]} verb")
            verbs[word] = tier
    for index, pattern in enumerate(raw.get("log_calls", ())):
        try:
            expand_pattern(pattern)
        except PatternError as error:
            raise PackError(f"{file}: tools.intent.log_calls[{index}]: {error}") from None
    return IntentRules(verbs=tuple(sorted(verbs.items())), tier_drop=raw.get("tier_drop", 1),
                       confirmations=tuple(raw.get("confirmations", ())),
                       success_keys=tuple(raw.get("success_keys", ())),
                       log_calls=tuple(raw.get("log_calls", ())),
                       excluded_names=tuple(raw.get("excluded_names", ())))


def _pack_rules(raw: dict[str, Any], file: str) -> dict[str, Any]:
    """The pack-level knowledge keys: `[tools]`, `identity`, `[[retention]]`,
    `[[policy_writes]]`, `settings`, `server_secrets`, `client_env_prefixes`, `[[mcp_servers]]`,
    `[[routes]]`, `[[live_shadow]]`, `[[canary_deciders]]`, `[schema_fields]`,
    `[[policy_reads]]`, `[state_graphs]`."""
    tools = raw.get("tools", {})
    # Both name site attributes that checks read: they must be declared (model.SITE_ATTRIBUTES),
    # so a pack maps its framework's own spelling onto a declared name in an entry's `attrs`.
    for key in ("approval_attributes", "approval_callbacks", "approval_predicates"):
        for index, name in enumerate(tools.get(key, ())):
            if not SiteKind.TOOL_REGISTRATION.declares(name):
                raise PackError(f"{file}: tools.{key}[{index}]: "
                                f"{UndeclaredAttribute(SiteKind.TOOL_REGISTRATION, name)}")
    for index, name in enumerate(tools.get("approval_tool_lists", ())):
        if not SiteKind.APPROVAL_GATE.declares(name):
            raise PackError(f"{file}: tools.approval_tool_lists[{index}]: "
                            f"{UndeclaredAttribute(SiteKind.APPROVAL_GATE, name)}")
    for index, name in enumerate(raw.get("identity", ())):
        if not any(kind.declares(name) for kind in SiteKind):
            raise PackError(f"{file}: identity[{index}]: {name!r} is not a declared site "
                            "attribute (analyzers/model.py SITE_ATTRIBUTES)")
    rules = []
    for index, rule in enumerate(raw.get("retention", ())):
        if rule.get("keep_settings") and not rule.get("forget_settings"):
            raise PackError(f"{file}: retention[{index}].keep_settings: cancels forgetting, "
                            "so it needs forget_settings")
        rules.append(RetentionRule(
            store=rule["store"], ttl_seconds=rule.get("ttl_seconds"),
            records=rule.get("records", ""), absence=rule.get("absence", ""),
            forget_settings=tuple(rule.get("forget_settings", ())),
            keep_settings=tuple(rule.get("keep_settings", ()))))
    return {"tools": ToolRules(
                injected_parameters=tuple(tools.get("injected_parameters", ())),
                injected_annotations=tuple(tools.get("injected_annotations", ())),
                approval_attributes=tuple(tools.get("approval_attributes", ())),
                approval_callbacks=tuple(tools.get("approval_callbacks", ())),
                approval_decision_keys=tuple(tools.get("approval_decision_keys", ())),
                approval_predicates=tuple(tools.get("approval_predicates", ())),
                approval_tool_lists=tuple(tools.get("approval_tool_lists", ())),
                governed=tools.get("governed", False),
                intent=_intent_rules(tools.get("intent"), file)),
            "identity": tuple(raw.get("identity", ())),
            "retention": tuple(rules),
            "policy_writes": tuple(
                PolicyWrites(store=rule["store"], intents=tuple(rule.get("intents", ())),
                             path_prefixes=tuple(rule.get("path_prefixes", ())),
                             mode_setting=rule.get("mode_setting", ""),
                             mode_value=rule.get("mode_value", ""))
                for rule in raw.get("policy_writes", ())),
            "settings": tuple(raw.get("settings", ())),
            "server_secrets": tuple(raw.get("server_secrets", ())),
            "client_env_prefixes": tuple(raw.get("client_env_prefixes", ())),
            "mcp_servers": tuple(_mcp_server(server, raw["system"], f"{file}: mcp_servers[{i}]")
                                 for i, server in enumerate(raw.get("mcp_servers", ()))),
            "routes": tuple(_route(rule, f"{file}: routes[{i}]")
                            for i, rule in enumerate(raw.get("routes", ()))),
            "live_shadow": tuple(_live_shadow(rule, f"{file}: live_shadow[{i}]")
                                 for i, rule in enumerate(raw.get("live_shadow", ()))),
            "canary_deciders": tuple(
                _canary_decider(rule, f"{file}: canary_deciders[{i}]")
                for i, rule in enumerate(raw.get("canary_deciders", ()))),
            "schema_fields": _schema_fields(raw.get("schema_fields"), file),
            "policy_reads": tuple(
                PolicyRead(kind=rule["kind"], description=rule["description"],
                           calls=tuple(rule.get("calls", ())),
                           paths=tuple(rule.get("paths", ())),
                           fields=tuple(rule.get("fields", ())),
                           methods=tuple(rule.get("methods", ())),
                           except_values=tuple(rule.get("except_values", ())),
                           stores=tuple(rule.get("stores", ())))
                for rule in raw.get("policy_reads", ())),
            "state_graphs": _state_graphs(raw.get("state_graphs"), file, raw["system"])}


def _state_graphs(raw: dict[str, Any] | None, file: str, system: str) -> StateGraphRules:
    if raw is None:
        return StateGraphRules()
    for key in ("builders", "start", "end", "commands", "sends"):
        for pattern in raw.get(key, ()):
            try:
                expand_pattern(pattern)
            except PatternError as error:
                raise PackError(f"{file}: state_graphs.{key}: {error}") from None
    return StateGraphRules(**{key: tuple(raw.get(key, ())) for key in (
        "builders", "nodes", "edges", "routers", "start", "end", "commands", "goto", "update",
        "sends", "compile", "pause_before", "pause_after")}, system=system,
        keywords=tuple(sorted(raw.get("keywords", {}).items())))


def _schema_fields(raw: dict[str, Any] | None, file: str) -> SchemaFields:
    if raw is None:
        return SchemaFields()
    types = raw.get("types", {})
    for key, patterns in (("objects", raw["objects"]), ("types", list(types)),
                          ("enums", raw.get("enums", ()))):
        for pattern in patterns:
            try:
                expand_pattern(pattern)
            except PatternError as error:
                raise PackError(f"{file}: schema_fields.{key}: {error}") from None
    return SchemaFields(objects=tuple(raw["objects"]), types=tuple(sorted(types.items())),
                        enums=tuple(raw.get("enums", ())))


def _route(raw: dict[str, Any], where: str) -> RouteRule:
    for index, pattern in enumerate(raw.get("files", ())):
        if pattern.count("{path}") != 1:
            raise PackError(f"{where}.files[{index}]: a file pattern holds `{{path}}` once")
    for index, pattern in enumerate(raw.get("decorators", ())):
        try:
            expand_pattern(pattern)
        except PatternError as error:
            raise PackError(f"{where}.decorators[{index}]: {error}") from None
    return RouteRule(description=raw["description"], files=tuple(raw.get("files", ())),
                     handlers=tuple(raw.get("handlers", ())),
                     decorators=tuple(raw.get("decorators", ())))


def _call_patterns(patterns: list[str], where: str) -> None:
    for index, pattern in enumerate(patterns):
        try:
            expand_pattern(pattern)
        except PatternError as error:
            raise PackError(f"{where}.calls[{index}]: {error}") from None


def _canary_decider(raw: dict[str, Any], where: str) -> CanaryDeciderRule:
    _call_patterns(raw["calls"], where)
    return CanaryDeciderRule(description=raw["description"], calls=tuple(raw["calls"]),
                             arg=raw.get("arg", 0), kwarg=raw.get("kwarg", ""),
                             object_key=raw.get("object_key", ""))


def _live_shadow(raw: dict[str, Any], where: str) -> LiveShadowRule:
    _call_patterns(raw["calls"], where)
    return LiveShadowRule(description=raw["description"], calls=tuple(raw["calls"]),
                          modes=tuple(raw["modes"]), arg=raw.get("arg", 0),
                          kwarg=raw.get("kwarg", ""))


def _mcp_server(raw: dict[str, Any], system: str, where: str) -> McpServerRule:
    unknown = sorted(set(raw.get("destructive", ())) - set(raw["tools"]))
    if unknown:
        raise PackError(f"{where}.destructive: {unknown} not among the server's tools")
    if not raw.get("packages") and not raw.get("hints"):
        raise PackError(f"{where}: a server is known by its packages or its hints; give one")
    return McpServerRule(name=raw["name"], system=system, packages=tuple(raw.get("packages", ())),
                         hints=tuple(raw.get("hints", ())), tools=tuple(raw["tools"]),
                         destructive=tuple(raw.get("destructive", ())))


def _build_entry(raw: dict[str, Any], system: str, languages: frozenset[str],
                 where: str, judgements: dict[str, Judgement]) -> Entry:
    for index, pattern in enumerate(raw["match"]):
        try:
            expand_pattern(pattern)
        except PatternError as error:
            raise PackError(f"{where}.match[{index}]: {error}") from None
    entry_languages = frozenset(raw.get("languages", languages))
    if not entry_languages <= languages:
        raise PackError(f"{where}.languages: {sorted(entry_languages - languages)} "
                        f"not among the pack's languages {sorted(languages)}")
    entry = Entry(
        id=raw["id"], on=Trigger(raw["on"]), match=tuple(raw["match"]),
        site=SiteKind(raw["site"]), role=EdgeKind(raw["role"]),
        system=raw.get("system", system), languages=entry_languages,
        attrs=tuple(_build_attr(name, spec, f"{where}.attrs.{name}")
                    for name, spec in raw.get("attrs", {}).items()),
        tier=Tier(raw["tier"]) if "tier" in raw else None,
        enforced=raw.get("enforced"), inferred=raw.get("inferred", False),
        when=tuple(_build_condition(name, value) for name, value in raw.get("when", {}).items()),
        expand=_build_expansion(raw["expand"]) if "expand" in raw else None,
        description=raw.get("description", ""), verbs=raw.get("verbs"),
        exact_methods=tuple(raw.get("exact_methods", ())),
        methods=tuple(raw.get("methods", ())),
        inline=_build_source(raw["inline"]) if "inline" in raw else None,
        inline_objects=raw.get("inline_objects", False),
        tier_by_name=NameTier(raw["tier_by_name"]["attr"], raw["tier_by_name"].get("reads"))
        if "tier_by_name" in raw else None,
        unless=_judgements(raw, "unless", judgements, where),
        if_judged=_judgements(raw, "if_judged", judgements, where))
    _check_entry(entry, where)
    return entry


def _judgements(raw: dict[str, Any], key: str, judgements: dict[str, Judgement],
                where: str) -> tuple[Judgement, ...]:
    found = []
    for index, name in enumerate(raw.get(key, ())):
        if name not in judgements:
            raise PackError(f"{where}.{key}[{index}]: {name!r} is not one of the pack's "
                            f"judgements {sorted(judgements)}")
        found.append(judgements[name])
    return tuple(found)


def _build_source(raw: dict[str, Any]) -> Source:
    kwarg = raw.get("kwarg", ())
    object_key = raw.get("object_key", ())
    chain = raw.get("chain", ())
    return Source(kwarg=(kwarg,) if isinstance(kwarg, str) else tuple(kwarg),
                  arg=raw.get("arg"),
                  object_key=(object_key,) if isinstance(object_key, str) else tuple(object_key),
                  class_attr=raw.get("class_attr"),
                  path=tuple(raw["path"].split(".")) if "path" in raw else (),
                  chain=(chain,) if isinstance(chain, str) else tuple(chain),
                  follow=raw.get("follow", False),
                  # alternatives spelled out: `json.{dumps,dump}` is two exact names
                  through=tuple(name for pattern in raw.get("through", ())
                                for name in expand_pattern(pattern)))


def _build_attr(name: str, raw: Any, where: str) -> AttrSpec:
    if not isinstance(raw, dict):
        # A TOML array constant is a tuple of names: site attributes stay hashable.
        return AttrSpec(name=name, constant=tuple(raw) if isinstance(raw, list) else raw)
    for index, pattern in enumerate(raw.get("through", ())):
        try:
            if "*" in pattern or not expand_pattern(pattern):
                raise PatternError(f"{pattern!r}: `through` names calls exactly (no `*`)")
        except PatternError as error:
            raise PackError(f"{where}.through[{index}]: {error}") from None
    spec = AttrSpec(name=name, source=_build_source(raw),
                    extract=Extract(raw.get("as", "literal")),
                    default=raw.get("default"), has_default="default" in raw,
                    fallback_to_definition_name=raw.get("fallback") == "definition_name",
                    fallback_to_placed_key=raw.get("fallback") == "placed_key")
    if spec.source.is_call_itself and spec.fallback_to_placed_key and not spec.source.path:
        return spec      # only the key it is placed under names it (`{ weather: tool(...) }`)
    if spec.source.is_call_itself and spec.source.path:
        raise PackError(f"{where}.path: a path needs an argument to start from "
                        "(arg, kwarg, object_key or class_attr)")
    if spec.source.is_call_itself and spec.extract not in _CALL_ITSELF_EXTRACTS:
        raise PackError(f"{where}: needs arg, kwarg, object_key or class_attr "
                        f"(only {sorted(e.value for e in _CALL_ITSELF_EXTRACTS)} read the call "
                        "itself)")
    return spec


# Extractions that can read the call itself: `ingest_event(subject=, verb=, object=)`; its
# `text` is the name the call is written with (`payFetch` for a call of a wrapped fetch).
_CALL_ITSELF_EXTRACTS = frozenset({Extract.EVENT_NAME, Extract.EVENT_ATTRIBUTE_KEYS,
                                   Extract.TEXT})


def _build_condition(name: str, raw: Any) -> Condition:
    if isinstance(raw, dict):
        return Condition(attr=name, present=raw.get("present", False),
                         one_of=tuple(raw.get("in", ())), or_unknown=raw.get("or_unknown", False),
                         mentions=tuple(raw.get("mentions", ())),
                         has_all=tuple(raw.get("has_all", ())),
                         has_any=tuple(raw.get("has_any", ())),
                         starts=tuple(raw.get("starts", ())))
    if isinstance(raw, list):
        return Condition(attr=name, one_of=tuple(raw))
    return Condition(attr=name, value=raw)


def _build_expansion(raw: dict[str, Any]) -> Expansion:
    return Expansion(kind=raw["kind"], data=_build_source(raw["data"]),
                     prefix=_build_source(raw["prefix"]))


def _check_entry(entry: Entry, where: str) -> None:
    """What the schema cannot say: fields that only make sense together."""
    names = {spec.name for spec in entry.attrs}
    reserved = sorted(names & ENGINE_ATTRS)
    if reserved:
        raise PackError(f"{where}.attrs.{reserved[0]}: set by the engine on every site; "
                        "use the entry's own key (tier, enforced) or another name")
    for condition in entry.when:
        if condition.attr not in names:
            raise PackError(f"{where}.when.{condition.attr}: not an attribute of this entry "
                            f"(attrs: {sorted(names)})")
    for key, judgements in (("unless", entry.unless), ("if_judged", entry.if_judged)):
        for judgement in judgements:
            missing = sorted({c.attr for c in judgement.conditions} - names)
            if missing:
                raise PackError(f"{where}.{key}: judgement {judgement.name!r} reads {missing}, "
                                f"not attributes of this entry (attrs: {sorted(names)})")
    if entry.tier is not None and entry.site is not SiteKind.EXECUTOR:
        raise PackError(f"{where}.tier: only executor sites carry a tier "
                        f"(site is {entry.site.value!r})")
    if entry.enforced is not None and entry.role is not EdgeKind.AUTHORITY:
        raise PackError(f"{where}.enforced: only authority entries say whether they are "
                        f"enforced (role is {entry.role.value!r})")
    if entry.expand is not None and entry.site is not SiteKind.ATOM:
        raise PackError(f"{where}.expand: only atom entries expand a dict into atoms")
    if entry.tier_by_name is not None and (entry.tier is None
                                           or entry.tier_by_name.attr not in names):
        raise PackError(f"{where}.tier_by_name: needs a default `tier` and the attribute "
                        f"{entry.tier_by_name.attr!r} among the entry's attrs")
    if entry.exact_methods and entry.verbs is None:
        raise PackError(f"{where}.exact_methods: exact methods complete a verb set; give "
                        "`verbs`")
    if entry.verbs is not None and entry.on is not Trigger.CALL:
        raise PackError(f"{where}.verbs: a verb names a called method; `on` must be 'call'")
    if entry.verbs is not None:
        for index, pattern in enumerate(entry.match):
            for name in expand_pattern(pattern):
                if verb_segment(name) is None:
                    raise PackError(f"{where}.match[{index}]: {name!r}: a verbs entry needs "
                                    "one segment with a single '*' (the method)")
    on_object = entry.on is Trigger.CLASS_BASE or \
        (entry.on is Trigger.CALL and "definition" in names)
    if entry.methods and (entry.site is not SiteKind.TOOL_REGISTRATION or not on_object):
        raise PackError(f"{where}.methods: only tool_registration entries on a class base, or on "
                        "a call with a `definition` attribute naming the object, have methods")
    if entry.inline is not None and (entry.site not in _INLINE_SITES
                                     or entry.on is not Trigger.CALL or entry.methods):
        raise PackError(f"{where}.inline: only tool_registration and approval_gate entries on "
                        "a call (without methods) read what is written inline")
    if entry.inline_objects and entry.inline is None:
        raise PackError(f"{where}.inline_objects: says what an `inline` list holds; the entry "
                        "has no `inline`")
    if entry.on not in (Trigger.DECORATOR, Trigger.CLASS_BASE) and "definition" not in names:
        for spec in entry.attrs:
            if spec.fallback_to_definition_name:
                raise PackError(f"{where}.attrs.{spec.name}.fallback: only decorator and "
                                "class_base entries, and entries with a `definition` "
                                "attribute, have a definition with a name")
    if entry.on is not Trigger.CALL and any(s.fallback_to_placed_key for s in entry.attrs):
        raise PackError(f"{where}.attrs: only a call is placed under a key (fallback "
                        "placed_key)")
    if entry.on is Trigger.PARAMETER and any(spec.source for spec in entry.attrs):
        raise PackError(f"{where}.attrs: parameter entries take constant attributes only")
    for spec in entry.attrs:
        _check_declared(spec, entry.site, f"{where}.attrs.{spec.name}")


# The types each extraction can give (packs/_attrs.py); `literal` copies what the code wrote.
_EXTRACTED_TYPES = {Extract.LITERAL: LITERAL, Extract.TYPE: TEXT, Extract.TEXT: TEXT,
                    Extract.KEYS: NAMES, Extract.ATOM_CALLS: NAMES, Extract.CALL_IDS: NAMES,
                    Extract.EVENT_NAME: LITERAL, Extract.EVENT_NAMES: NAMES,
                    Extract.EVENT_ATTRIBUTE_KEYS: NAMES, Extract.DEFINITION: TEXT,
                    Extract.KNOWN_TEXT: TEXT, Extract.TIMEZONE: TEXT,
                    Extract.ENTRY_READS: NAMES, Extract.ASKING_KEYS: NAMES,
                    Extract.MADE_BY: TEXT}
# Extractions that never fall back to `<name>_literal = False` / `<name>_text`.
_NEVER_DYNAMIC = frozenset({Extract.TYPE, Extract.TEXT, Extract.KNOWN_TEXT, Extract.TIMEZONE,
                            Extract.ASKING_KEYS, Extract.MADE_BY})


def _check_declared(spec: AttrSpec, kind: SiteKind, where: str) -> None:
    """The attribute is declared for the site kind, and what the pack can put in it has the
    declared type: checks read only declared attributes (`Site.attr`)."""
    decl = SITE_ATTRIBUTES[kind].get(spec.name)
    if decl is None:
        raise PackError(f"{where}: {UndeclaredAttribute(kind, spec.name)}")
    if spec.source is None:
        _check_type(decl, spec.constant, where)
        return
    if spec.has_default:
        _check_type(decl, spec.default, f"{where}.default")
    if spec.fallback_to_definition_name:
        _check_type(decl, "", f"{where}.fallback")
    if not set(_EXTRACTED_TYPES[spec.extract]) <= set(decl.type):
        raise PackError(f"{where}.as: {spec.extract.value!r} gives "
                        f"{_type_names(_EXTRACTED_TYPES[spec.extract])}, but {spec.name!r} of "
                        f"{kind.value} sites holds {_type_names(decl.type)}")
    if spec.extract not in _NEVER_DYNAMIC and not decl.dynamic:
        raise PackError(f"{where}: {spec.name!r} of {kind.value} sites has no declared "
                        f"non-literal form ({spec.name}_literal, {spec.name}_text), which "
                        f"{spec.extract.value!r} gives for a value that is not a literal")


def _check_type(decl: AttributeDecl, value: object, where: str) -> None:
    if type(value) not in decl.type:
        raise PackError(f"{where}: {value!r} is not {_type_names(decl.type)}, the type of "
                        f"{decl.name!r}")


def _type_names(types: tuple[type, ...]) -> str:
    return " or ".join("none" if t is type(None) else t.__name__ for t in types)


def _combine(packs: list[Pack]) -> tuple[Pack, ...]:
    """Cross-pack checks: systems and entry ids are unique, aliases agree, verb sets an entry
    names exist once."""
    systems: dict[str, str] = {}
    entry_ids: dict[str, str] = {}
    aliases: dict[str, tuple[str, str]] = {}
    for pack in packs:
        if pack.system in systems:
            raise PackError(f"{pack.file}: system: {pack.system!r} is also the system of "
                            f"{systems[pack.system]}")
        systems[pack.system] = pack.file
        for index, entry in enumerate(pack.entries):
            if entry.id in entry_ids:
                raise PackError(f"{pack.file}: entries[{index}].id: {entry.id!r} is also an "
                                f"entry of {entry_ids[entry.id]}")
            entry_ids[entry.id] = pack.file
        for prefix, target in pack.aliases:
            if prefix in aliases and aliases[prefix][0] != target:
                raise PackError(f"{pack.file}: aliases.{prefix}: rewrites to {target!r} but "
                                f"{aliases[prefix][1]} rewrites it to {aliases[prefix][0]!r}")
            aliases[prefix] = (target, pack.file)
    verb_sets(packs)
    return tuple(sorted(packs, key=lambda pack: pack.system))
