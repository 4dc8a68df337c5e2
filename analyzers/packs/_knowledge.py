"""The pack index the flow stage and the checks ask: the merged pack-level knowledge of one
run's packs (`[tools]`, `identity`, `[[retention]]`, fingerprints).

Built once per run from the loaded packs (`Knowledge.of(packs)`) and carried by the source
facts, so that a check asks "does this registration require approval?" or "how does this store
forget?" and never spells a framework's name. A system's rules are those of the pack that
declares it, and apply to the sites of every entry of that pack (an entry may name its own
system, `prisma` in `db_reads.toml`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from topo.analyzers.model import Site
from topo.analyzers.ir import Call, Value
from topo.analyzers.packs._model import (CanaryDeciderRule, IntentRules, LiveShadowRule, McpServerRule, Pack,
                                         PolicyRead, PolicyWrites, RetentionRule, RouteRule,
                                         StateGraphRules)
from topo.analyzers.packs._patterns import NamePatterns

__all__ = ["Knowledge", "packs_digest", "merged_intent"]


@dataclass(frozen=True, slots=True)
class Knowledge:
    injected_parameters: frozenset[str] = frozenset()
    injected_annotations: tuple[str, ...] = ()
    approval_attributes: tuple[str, ...] = ()
    approval_callbacks: tuple[str, ...] = ()
    approval_decision_keys: tuple[str, ...] = ()
    approval_predicates: tuple[str, ...] = ()
    approval_tool_lists: tuple[str, ...] = ()
    governed_systems: frozenset[str] = frozenset()
    identity: tuple[tuple[str, tuple[str, ...]], ...] = ()     # system → attributes
    retention: tuple[RetentionRule, ...] = ()
    fingerprints: tuple[tuple[str, tuple[str, ...]], ...] = ()  # system → module prefixes
    policy_writes: tuple[tuple[str, PolicyWrites], ...] = ()     # system → rule
    config_settings: tuple[str, ...] = ()                        # settings packs name
    server_secrets: tuple[tuple[str, str], ...] = ()             # (system, variable)
    client_env_prefixes: tuple[str, ...] = ()                    # `NEXT_PUBLIC_`, `VITE_`
    mcp_servers: tuple[McpServerRule, ...] = ()
    routes: tuple[RouteRule, ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()                   # for route decorator patterns
    intent: IntentRules | None = None                            # `[tools.intent]`, merged
    live_shadow: tuple[LiveShadowRule, ...] = ()
    canary_deciders: tuple[CanaryDeciderRule, ...] = ()
    schema_objects: tuple[str, ...] = ()                         # `[schema_fields]` patterns
    schema_types: tuple[tuple[str, str], ...] = ()
    schema_enums: tuple[str, ...] = ()
    state_graphs: StateGraphRules = StateGraphRules()            # `[state_graphs]`, merged
    policy_reads: tuple[PolicyRead, ...] = ()                    # `[[policy_reads]]`
    # The patterns asked about, built once per run (checks ask per call): by pattern tuple.
    matchers: dict[tuple[str, ...], NamePatterns] = field(default_factory=dict, compare=False,
                                                           repr=False)

    @classmethod
    def of(cls, packs: Iterable[Pack]) -> Knowledge:
        packs = tuple(sorted(packs, key=lambda pack: pack.system))
        return cls(
            injected_parameters=frozenset(name for pack in packs
                                          for name in pack.tools.injected_parameters),
            injected_annotations=_union(pack.tools.injected_annotations for pack in packs),
            approval_attributes=_union(pack.tools.approval_attributes for pack in packs),
            approval_callbacks=_union(pack.tools.approval_callbacks for pack in packs),
            approval_decision_keys=_union(pack.tools.approval_decision_keys for pack in packs),
            approval_predicates=_union(pack.tools.approval_predicates for pack in packs),
            approval_tool_lists=_union(pack.tools.approval_tool_lists for pack in packs),
            governed_systems=frozenset(system for pack in packs if pack.tools.governed
                                       for system in _systems(pack)),
            identity=tuple((system, pack.identity) for pack in packs if pack.identity
                           for system in sorted(_systems(pack))),
            retention=tuple(rule for pack in packs for rule in pack.retention),
            fingerprints=tuple((pack.system, pack.fingerprint) for pack in packs),
            policy_writes=tuple((pack.system, rule) for pack in packs
                                for rule in pack.policy_writes),
            config_settings=_union(pack.settings for pack in packs),
            server_secrets=tuple((pack.system, name) for pack in packs
                                 for name in pack.server_secrets),
            client_env_prefixes=_union(pack.client_env_prefixes for pack in packs),
            mcp_servers=tuple(server for pack in packs for server in pack.mcp_servers),
            routes=tuple(rule for pack in packs for rule in pack.routes),
            aliases=tuple(sorted({alias for pack in packs for alias in pack.aliases})),
            intent=merged_intent([pack.tools.intent for pack in packs if pack.tools.intent]),
            live_shadow=tuple(rule for pack in packs for rule in pack.live_shadow),
            canary_deciders=tuple(rule for pack in packs for rule in pack.canary_deciders),
            schema_objects=_union(pack.schema_fields.objects for pack in packs),
            schema_types=tuple(item for pack in packs for item in pack.schema_fields.types),
            schema_enums=_union(pack.schema_fields.enums for pack in packs),
            state_graphs=_merged_graphs([pack.state_graphs for pack in packs]),
            policy_reads=tuple(rule for pack in packs for rule in pack.policy_reads))

    def injected(self, name: str, annotation: str | None) -> bool:
        """A tool parameter the framework fills in (a run context), not the model."""
        return name in self.injected_parameters or \
            any(text in (annotation or "") for text in self.injected_annotations)

    def requires_approval(self, registration: Site) -> bool:
        """The registration says a human approves each call before it runs, its approval
        predicate always asks for one (`approval_asks`, set by flow/approval_predicates.py), or
        an approval gate names it (`approved_by`, flow/named_approvals.py)."""
        return any(registration.attr(name) is True for name in self.approval_attributes) \
            or registration.attr("approval_asks") is True \
            or bool(registration.attr("approved_by"))

    def approved_tools(self, gate: Site) -> tuple[str, ...]:
        """The tools, by exposed name, an approval gate pauses for a human before each call."""
        names: list[str] = []
        for attribute in self.approval_tool_lists:
            value = gate.attr(attribute)
            if isinstance(value, tuple):
                names.extend(str(name) for name in value)
        return tuple(names)

    def approval_predicate(self, registration: Site) -> str | None:
        """The function that decides per call whether a human approves, when one is named."""
        return next((str(registration.attr(name)) for name in self.approval_predicates
                     if registration.attr(name)), None)

    def approval_callback(self, registration: Site) -> str | None:
        """The function that answers the registration's approval requests, when one is named."""
        return next((str(registration.attr(name)) for name in self.approval_callbacks
                     if registration.attr(name)), None)

    def governed(self, registration: Site) -> bool:
        """The tool runs only when an enforced decision selects it, with policy arguments."""
        return registration.system in self.governed_systems

    def identity_attributes(self, system: str) -> tuple[str, ...]:
        """The attributes naming whom a call of `system` acts for, in priority order."""
        return next((names for owner, names in self.identity if owner == system), ())

    def retention_rules(self, store: str) -> tuple[RetentionRule, ...]:
        """How records of `store` leave retrieval after they were written."""
        return tuple(rule for rule in self.retention if rule.store == store)

    def policy_write_rules(self, store: str) -> tuple[PolicyWrites, ...]:
        """What makes a write to `store` policy that later prompts read."""
        return tuple(rule for _, rule in self.policy_writes if rule.store == store)

    def write_modes(self) -> tuple[tuple[str, PolicyWrites], ...]:
        """(system, rule) for each setting that lets a system's memory tools write policy."""
        return tuple(item for item in self.policy_writes if item[1].mode_setting)

    def settings(self) -> tuple[str, ...]:
        """Every setting (or `PREFIX_`) the config reader keeps: those the packs name as
        changing the authority graph and those a retention or policy-write rule reads."""
        return _union([self.config_settings,
                       *((*rule.forget_settings, *rule.keep_settings) for rule in self.retention),
                       *((rule.mode_setting,) for _, rule in self.write_modes()),
                       self.client_secret_names()])

    def prose_paths(self) -> tuple[tuple[str, str], ...]:
        """(store, path prefix) of each policy path (`shared/`): repository Markdown under one
        is prose that store gives every prompt."""
        return tuple(sorted({(rule.store, prefix) for _, rule in self.policy_writes
                             for prefix in rule.path_prefixes}))

    def client_secret_names(self) -> tuple[str, ...]:
        """A server secret under each client-bundle prefix (`NEXT_PUBLIC_MEMEX_ADMIN_SECRET`):
        the names whose mere presence ships the credential to browsers."""
        return tuple(sorted(prefix + name for prefix in self.client_env_prefixes
                            for _, name in self.server_secrets))

    def client_secret(self, variable: str) -> tuple[str, str] | None:
        """(system, secret) when `variable` is a server secret under a client-bundle prefix."""
        return self.client_secrets().get(variable)

    def client_secrets(self) -> dict[str, tuple[str, str]]:
        """Each name `client_secret` answers, with its answer: one table for a check that asks
        about every variable a repository reads."""
        table: dict[str, tuple[str, str]] = {}
        for prefix in self.client_env_prefixes:
            for system, name in self.server_secrets:
                table.setdefault(prefix + name, (system, name))
        return table

    def mcp_server(self, name: str | None) -> McpServerRule | None:
        """The known MCP server a config entry was identified as (`McpServer.known`)."""
        return next((server for server in self.mcp_servers if server.name == name), None)

    def imports_system(self, system: str, modules: Iterable[str]) -> bool:
        """One of `modules` (import specifiers) is `system`'s fingerprint or inside it
        (`memrail.client`, `@memrail/sdk/server`)."""
        prefixes = self.fingerprint(system)
        return any(module == prefix or module.startswith((prefix + ".", prefix + "/"))
                   for module in modules for prefix in prefixes)

    def route_decorators(self) -> NamePatterns:
        """The decorators whose first argument is a route of the app's own server."""
        return NamePatterns.build((name for rule in self.routes for name in rule.decorators),
                                  self.aliases)

    def live_shadow_mode(self, call: Call) -> str | None:
        """The mode, as written, when `call` configures an executor to run shadow selections
        for real (`[[live_shadow]]`); None otherwise."""
        for rule in self.live_shadow:
            if call.callee not in self._names(rule.calls):
                continue
            value = call.kwarg(rule.kwarg) if rule.kwarg else None
            if value is None and len(call.args) > rule.arg:
                value = call.args[rule.arg]
            if value is not None and (value.resolved in rule.modes or
                                      (isinstance(value.literal, str)
                                       and value.literal in rule.modes)):
                return value.text
        return None

    def canary_decider(self, call: Call) -> Value | None:
        """The cohort decision `call` installs for canary selections (`[[canary_deciders]]`),
        when it is one and passes it; None otherwise."""
        for rule in self.canary_deciders:
            if call.callee not in self._names(rule.calls):
                continue
            value = call.kwarg(rule.kwarg) if rule.kwarg else None
            if value is None and rule.object_key:
                value = next((v for a in call.args for k, v in a.entries
                              if k == rule.object_key), None)
            if value is None and not rule.object_key and len(call.args) > rule.arg:
                value = call.args[rule.arg]
            return value
        return None

    def graph_command(self, callee: str | None) -> bool:
        """`callee` is a command a graph node returns (`Command(goto=..., update=...)`)."""
        return callee is not None and \
            callee in self._names(self.state_graphs.commands)

    def builds_object_schema(self, callee: str | None) -> bool:
        """`callee` builds an object schema from a literal of fields (`z.object({...})`)."""
        return callee is not None and \
            callee in self._names(self.schema_objects)

    def field_type(self, callee: str | None) -> str | None:
        """The value type a schema field constructor validates (`z.number()`: `number`);
        `str` for one listing the allowed strings (`z.enum([...])`)."""
        if callee is None:
            return None
        if callee in self._names(self.schema_enums):
            return "str"
        return next((kind for pattern, kind in self.schema_types
                     if callee in self._names((pattern,))), None)

    def lists_field_values(self, callee: str | None) -> bool:
        """The field constructor's first argument lists the allowed strings (`z.enum`)."""
        return callee is not None and \
            callee in self._names(self.schema_enums)

    def _names(self, patterns: tuple[str, ...]) -> NamePatterns:
        found = self.matchers.get(patterns)
        if found is None:
            found = self.matchers[patterns] = NamePatterns.build(patterns, self.aliases)
        return found

    def fingerprint(self, system: str) -> tuple[str, ...]:
        """The module prefixes whose import means "uses `system`"."""
        return next((found for owner, found in self.fingerprints if owner == system), ())


def packs_digest(packs: Iterable[Pack]) -> str:
    """One digest over the packs' file contents (part of the per-file cache key: a pack's
    factories change what the Python front-end resolves)."""
    parts = sorted(f"{pack.file}\0{pack.digest}" for pack in packs)
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()


def merged_intent(rules: list[IntentRules]) -> IntentRules | None:
    """The packs' `[tools.intent]` as one: a verb keeps the tier of the first pack (by system)
    that lists it; the largest `tier_drop` wins."""
    if not rules:
        return None
    verbs: dict[str, str] = {}
    for rule in rules:
        for verb, tier in rule.verbs:
            verbs.setdefault(verb, tier)
    return IntentRules(verbs=tuple(sorted(verbs.items())),
                       tier_drop=max(rule.tier_drop for rule in rules),
                       confirmations=_union(rule.confirmations for rule in rules),
                       success_keys=_union(rule.success_keys for rule in rules),
                       log_calls=_union(rule.log_calls for rule in rules),
                       excluded_names=_union(rule.excluded_names for rule in rules))


def _systems(pack: Pack) -> set[str]:
    return {pack.system} | {entry.system for entry in pack.entries}


def _merged_graphs(rules: list[StateGraphRules]) -> StateGraphRules:
    """Every pack's `[state_graphs]` as one: each list united; a keyword's first spelling
    (by system) wins."""
    fields = ("builders", "nodes", "edges", "routers", "start", "end", "commands", "goto",
              "update", "sends", "compile", "pause_before", "pause_after")
    keywords: dict[str, str] = {}
    for rule in rules:
        for role, kwarg in rule.keywords:
            keywords.setdefault(role, kwarg)
    system = next((rule.system for rule in rules if rule.builders), "")
    return StateGraphRules(**{name: _union(getattr(rule, name) for rule in rules)
                              for name in fields}, keywords=tuple(sorted(keywords.items())),
                           system=system)


def _union(groups: Iterable[Iterable[str]]) -> tuple[str, ...]:
    return tuple(sorted({name for group in groups for name in group}))

