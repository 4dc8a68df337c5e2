"""Typed rule-pack values: what a pack file says, after schema checking.

Pack files are TOML (`data/<system>.toml`); `_load` validates them against
`pack.schema.json` and builds these frozen values, so the engine never reads a raw dict.
Everything here is plain data: matching and extraction live in `_patterns`, `_attrs` and
`_engine`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from topo.analyzers.model import AttrValue, EdgeKind, SiteKind, Tier
from topo.analyzers.packs._patterns import NamePatterns

__all__ = ["ENGINE_ATTRS", "CanaryDeciderRule", "LiveShadowRule", "PackError", "Trigger", "Extract", "Source", "AttrSpec", "Condition",
           "Judgement", "Expansion", "Entry", "IntentRules", "ToolRules", "RetentionRule",
           "PolicyWrites", "McpServerRule", "RouteRule", "SchemaFields", "Pack"]


# Attributes the engine sets on every site (packs may not declare them):
#   role      the entry's role (an EdgeKind value)
#   entry     the id of the pack entry that matched
#   callee    the resolved name as the front-end gave it (before aliases), call/decorator sites
#   call      the id of the matched call (the decorator call for decorator sites)
#   tier      executor consequence tier (Tier value), when the entry has one
#   enforced  authority entries: whether something enforces the decision
#   base      class_base sites: the matched base class
#   parameter parameter sites: the parameter name
ENGINE_ATTRS = frozenset({"role", "entry", "callee", "call", "tier", "enforced", "base",
                          "parameter"})


class PackError(ValueError):
    """A pack file that cannot be used; the message names the file and the key path."""


class Trigger(enum.Enum):
    """What an entry's `match` patterns are compared with."""

    CALL = "call"              # the resolved callee of a call that is not a decorator
    DECORATOR = "decorator"    # the resolved callee of a decorator; the site is the definition
    CLASS_BASE = "class_base"  # a resolved base class; the site is the class
    PARAMETER = "parameter"    # a parameter name of a definition registered as a tool


class Extract(enum.Enum):
    """How an attribute's value is read from the argument found by its `Source`."""

    LITERAL = "literal"                    # the literal (lists of literals become tuples)
    TYPE = "type"                          # int | float | str | bool | none | dynamic
    TEXT = "text"                          # the source text, literal or not
    KEYS = "keys"                          # the sorted literal keys of a dict literal
    ATOM_CALLS = "atom_calls"              # ids of ATOM-classified calls in a list literal
    CALL_IDS = "call_ids"                  # ids of every call in a list literal
    EVENT_NAME = "event_name"              # `s.v.o` of an event builder / subject-verb-object
    EVENT_NAMES = "event_names"            # the same, for each element of a list literal
    EVENT_ATTRIBUTE_KEYS = "event_attribute_keys"  # literal `attributes={…}` keys of an event
    DEFINITION = "definition"              # qualname of the local function a name refers to
    KNOWN_TEXT = "known_text"              # a string's text, `*` for what only the run knows
    ASKING_KEYS = "asking_keys"            # dict literal keys whose value asks for a human
    MADE_BY = "made_by"                    # the resolved name of the call that made the value
    TIMEZONE = "timezone"                  # a timestamp: aware | naive | unknown (_clock)
    ENTRY_READS = "entry_reads"            # (key, the one access path its value reads) pairs


@dataclass(frozen=True, slots=True)
class Source:
    """Where an argument comes from. Keyword names are tried first, then the positional
    index (negative counts from the end: -1 is the last argument), then the keys of a
    first-argument object literal (TS style, tried in order); `path` then walks into dict
    literals and keyword arguments of nested calls (`options=InvokeOptions(...)`).
    No location at all means the call itself (for event names built from its keywords).
    `chain` first moves to the first call, in source order, named one of these methods inside
    the matched call's expression (its receiver chain or arguments): the model class of
    `session.query(Refund).filter_by(...).first()` is `{ chain = "query", arg = 0 }`.
    `follow` reads a plain name as the value of its one assignment in the call's scope or an
    enclosing one (`TOKEN_URL = "…"`, `payload = {…}`); `through` sees through calls that
    only re-encode their first argument (`JSON.stringify(payload)`, `json.dumps(body)`)."""

    kwarg: tuple[str, ...] = ()
    arg: int | None = None
    object_key: tuple[str, ...] = ()
    class_attr: str | None = None
    path: tuple[str, ...] = ()
    chain: tuple[str, ...] = ()
    follow: bool = False
    through: tuple[str, ...] = ()

    @property
    def is_call_itself(self) -> bool:
        return (not self.kwarg and self.arg is None and not self.object_key
                and self.class_attr is None)


@dataclass(frozen=True, slots=True)
class AttrSpec:
    """One attribute of a site: a constant (`tier = "money"`) or an extraction."""

    name: str
    constant: AttrValue = None
    source: Source | None = None           # None: the attribute is `constant`
    extract: Extract = Extract.LITERAL
    default: AttrValue = None
    has_default: bool = False              # `default` applies when the argument is absent
    fallback_to_definition_name: bool = False
    fallback_to_placed_key: bool = False   # the key the call is placed under in an object


@dataclass(frozen=True, slots=True)
class Condition:
    """`when` clause: the entry yields a site only if attribute `attr` equals `value`, or one
    of `one_of` when a list is given (or, with `present`, is given at all, literal or not).
    `or_unknown`: a value the code does not spell as a literal holds too (an unknown method
    may mutate). `mentions`: a text that mentions one of these words, case-insensitively,
    each ending where a URL segment or query part ends (`/token` is in `/oauth/token?x`, not
    in `/tokens`; `/api/chat` is not in `/api/chat.postMessage`).
    `has_all` / `has_any`: a list of names (dict keys) with all / at least one of these.
    `starts`: a text whose first word is one of these (`SELECT …` starts with `select`)."""

    attr: str
    value: AttrValue = None
    present: bool = False
    one_of: tuple[AttrValue, ...] = ()
    or_unknown: bool = False
    mentions: tuple[str, ...] = ()
    has_all: tuple[str, ...] = ()
    has_any: tuple[str, ...] = ()
    starts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Judgement:
    """Pack-level `[judgements.<name>]`: a named heuristic over a site's attributes (it holds
    when all its conditions do). An entry's `unless` drops its site when one holds (a POST to
    a token endpoint obtains a credential, it changes nothing); `if_judged` keeps a site only
    when one holds, and such a site is inferred."""

    name: str
    description: str
    conditions: tuple[Condition, ...]


@dataclass(frozen=True, slots=True)
class Expansion:
    """A call whose dict-literal argument becomes one ATOM site per key (Memrail
    `atoms_from_dict(data, prefix=)`, `StateObject(prefix, data)`)."""

    kind: str                  # the expansion algorithm; only "state_dict" for now
    data: Source
    prefix: Source


@dataclass(frozen=True, slots=True)
class Entry:
    """One row of a pack: these resolved names play this role, with these attributes."""

    id: str
    on: Trigger
    match: tuple[str, ...]
    site: SiteKind
    role: EdgeKind
    system: str
    languages: frozenset[str]
    attrs: tuple[AttrSpec, ...] = ()
    tier: Tier | None = None
    enforced: bool | None = None
    inferred: bool = False
    when: tuple[Condition, ...] = ()
    expand: Expansion | None = None
    description: str = ""
    verbs: str | None = None               # a `[verbs]` set: the method's first word decides
    exact_methods: tuple[str, ...] = ()    # … or the method is one of these exactly
    unless: tuple[Judgement, ...] = ()
    if_judged: tuple[Judgement, ...] = ()
    # Tool registrations whose model-invoked functions are methods: of the class itself
    # (`class T(BaseTool): def _run`) or of the object its `definition` argument builds
    # (`ShellTool(executor=ShellExecutor())` runs `ShellExecutor.__call__`). One site each.
    methods: tuple[str, ...] = ()
    # Tools written inline in an object literal (`streamText({ tools: { book: { execute } } })`):
    # one registration per key whose value is an object literal, named by the key, its attrs
    # read from that object as if it were the call's first argument.
    inline: Source | None = None
    # The items of an `inline` list are object literals, or names bound to one in the same
    # file (`inputGuardrails: [{ name, execute }]`, `[mathGuardrail]`), not functions.
    inline_objects: bool = False
    # A call of a remote tool by name (MCP `callTool`): the tier is that of the write verb the
    # name in this attribute begins with (`[tools.intent] verbs`); see `NameTier`.
    tier_by_name: NameTier | None = None


@dataclass(frozen=True, slots=True)
class NameTier:
    """`tier_by_name = { attr = "tool_name", reads = "read" }`: an executor that calls a tool
    by name has the tier of the `[tools.intent]` write verb that name begins with
    (`transfer_funds` is money); a name whose first word is in the `reads` verb set
    (`get_balance`) gives no site; any other name, or one the code does not spell, keeps the
    entry's tier and is inferred."""

    attr: str
    reads: str | None = None


@dataclass(frozen=True, slots=True)
class ToolRules:
    """Pack-level `[tools]`: what a system's tool registrations mean beyond their sites.

    `injected_parameters` / `injected_annotations`: parameters the framework fills in (`ctx`,
    `ctx: RunContext[...]`), not the model; an annotation matches when it contains the text.
    `approval_attributes`: registration attributes that, when `true`, mean a human approves
    each call before it runs (`needs_approval`). `approval_callbacks`: registration attributes
    naming the function that answers each approval request in place of a human (`on_approval`);
    `approval_decision_keys`: the keys of that function's returned record that carry the answer
    (`{"approve": ...}`); a bare boolean is the answer too. `approval_predicates`: registration
    attributes naming a function that decides per call whether a human approves it
    (`needs_approval=fn`): one that asks on every call gates the tool like `true`; one that
    answers no for some calls lets those run unreviewed, and is no approval.
    `approval_tool_lists`: approval-gate attributes naming, by exposed name, the tools the gate
    pauses for a human before each call (an agent's middleware, `interrupt_on`): the tools of
    those names that the gate's file registers or imports are approval-gated. `governed`: the system runs a registered tool
    only when an enforced decision selects it, with arguments from policy, not from a model
    (Memrail)."""

    injected_parameters: tuple[str, ...] = ()
    injected_annotations: tuple[str, ...] = ()
    approval_attributes: tuple[str, ...] = ()
    approval_callbacks: tuple[str, ...] = ()
    approval_decision_keys: tuple[str, ...] = ()
    approval_predicates: tuple[str, ...] = ()
    approval_tool_lists: tuple[str, ...] = ()
    governed: bool = False
    intent: IntentRules | None = None


@dataclass(frozen=True, slots=True)
class IntentRules:
    """Pack-level `[tools.intent]`: when a model-callable tool with no recognised effect is an
    executor by intent (analyzers/flow/intent.py). `verbs` pairs each write verb with the tier
    (a `Tier` value) of what it does; such an executor is ranked `tier_drop` levels below that
    tier, unless the name begins with one of `excluded_names` (words: `transfer to` is a
    handoff). `confirmations` are words of a returned text or status that say a write
    happened, `success_keys` keys whose `true` says so; `log_calls` are name patterns of calls
    that only log, so a body made of them is a stub."""

    verbs: tuple[tuple[str, str], ...] = ()
    tier_drop: int = 1
    confirmations: tuple[str, ...] = ()
    success_keys: tuple[str, ...] = ()
    log_calls: tuple[str, ...] = ()
    excluded_names: tuple[str, ...] = ()

    def log_patterns(self) -> NamePatterns:
        """`log_calls` as a set to ask: `"builtins.print" in rules.log_patterns()`."""
        return NamePatterns.build(self.log_calls)


@dataclass(frozen=True, slots=True)
class RetentionRule:
    """Pack-level `[[retention]]`: records of a memory store (the `store` attribute of its
    sites) leave retrieval after they were written, so a lookup finding nothing does not mean
    nothing was written. Either they expire (`ttl_seconds`, with `records` naming them and
    `absence` saying what an empty lookup is not), or enabling one of `forget_settings` (an
    env/config setting) drops or rewrites them, unless one of `keep_settings` is enabled."""

    store: str
    ttl_seconds: int | None = None
    records: str = ""
    absence: str = ""
    forget_settings: tuple[str, ...] = ()
    keep_settings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PolicyWrites:
    """Pack-level `[[policy_writes]]`: which writes to a memory store (its sites' `store`)
    later prompts read as policy: those with one of `intents`, else those whose `path` starts
    with one of `path_prefixes`. `mode_setting` = `mode_value` (an env/config setting) lets
    the model's memory tools of this system make such writes."""

    store: str
    intents: tuple[str, ...] = ()
    path_prefixes: tuple[str, ...] = ()
    mode_setting: str = ""
    mode_value: str = ""


@dataclass(frozen=True, slots=True)
class McpServerRule:
    """Pack-level `[[mcp_servers]]`: an MCP server of the pack's system as MCP client configs
    name it (a package in `command`/`args`, else a hint word, which is inferred), the tools
    it hands the model, and which of them delete or overwrite memory."""

    name: str
    system: str
    packages: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    destructive: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PolicyRead:
    """Pack-level `[[policy_reads]]`: reads whose test in a branch is authority that is not a
    model (`kind`: config, flag, role or rule): calls (`os.getenv`), access paths as written
    (`process.env.*`),
    last fields (`role`, `tier`), or rows of memory-read stores (`database`)."""

    kind: str
    description: str
    calls: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    fields: tuple[str, ...] = ()
    methods: tuple[str, ...] = ()
    except_values: tuple[str, ...] = ()
    stores: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RouteRule:
    """Pack-level `[[routes]]`: how the app's own server maps a path to a handler, so that a
    request to a relative URL (`fetch('/api/llm')`) can be followed into the repository. Either
    by file (`files = ["app/{path}/route"]`: the functions named in `handlers` in that file
    handle `/{path}`) or by decorator (`@app.post("/chat/")`: the decorated function handles
    the path in the decorator's first argument or `path=` / `rule=`)."""

    description: str
    files: tuple[str, ...] = ()
    handlers: tuple[str, ...] = ()
    decorators: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LiveShadowRule:
    """Pack-level `[[live_shadow]]`: a call that configures how an executor treats shadow
    selections (`calls`), and the mode values that make it run them for real (`modes`: the
    resolved name of an enum member, `memrail.ShadowMode.EXECUTE_AND_COMPARE`, or a literal
    string, `"execute"`). The mode is the call's argument `arg` or keyword `kwarg`."""

    description: str
    calls: tuple[str, ...]
    modes: tuple[str, ...]
    arg: int = 0
    kwarg: str = ""


@dataclass(frozen=True, slots=True)
class CanaryDeciderRule:
    """Pack-level `[[canary_deciders]]`: a call that installs the application's canary cohort
    decision (`calls`), the decider being the call's argument `arg`, keyword `kwarg`, or key
    `object_key` of an object literal argument (TypeScript options)."""

    description: str
    calls: tuple[str, ...]
    arg: int = 0
    kwarg: str = ""
    object_key: str = ""


@dataclass(frozen=True, slots=True)
class SchemaFields:
    """Pack-level `[schema_fields]`: the calls that build an object schema from a literal of
    fields, each field constructor's value type, and the constructors whose first argument
    lists the allowed strings (patterns, as in `match`)."""

    objects: tuple[str, ...] = ()
    types: tuple[tuple[str, str], ...] = ()
    enums: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StateGraphRules:
    """Pack-level `[state_graphs]`: how an app wires a graph of nodes that share a state.

    `builders` are the constructor patterns of a graph builder (`StateGraph(State)`); on one,
    or on a step chained on one, a method in `nodes` registers a node (`name, action`
    positionally; a lone function is a node named after itself), one in `edges` adds an edge
    (`source, target`), one in `routers` adds conditional edges (`source, router, path_map`);
    `keywords` names each of those roles' keyword argument. `start`/`end` are the graph's
    entry and exit constants; `commands` the calls (or constructors) a node returns whose
    `goto` keys name the next node and whose `update` keys write state; `sends` the calls a
    router (or node) makes to run a node with a state of its own (`Send("node", {...})`);
    `compile` the builder methods whose `pause_before` / `pause_after` keywords (or keys of
    an options object) name the nodes the graph pauses before or after for a human."""

    builders: tuple[str, ...] = ()
    nodes: tuple[str, ...] = ()
    edges: tuple[str, ...] = ()
    routers: tuple[str, ...] = ()
    start: tuple[str, ...] = ()
    end: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    goto: tuple[str, ...] = ()
    update: tuple[str, ...] = ()
    sends: tuple[str, ...] = ()      # `Send(node, state)`: run `node` with that state
    compile: tuple[str, ...] = ()    # builder methods that compile the graph
    pause_before: tuple[str, ...] = ()   # their keywords (or option keys) naming breakpoints
    pause_after: tuple[str, ...] = ()
    system: str = ""                 # the pack declaring the rules (for breakpoint sites)
    keywords: tuple[tuple[str, str], ...] = ()     # role (`action`) -> keyword (`action`)

    def keyword(self, role: str) -> str | None:
        return next((kwarg for name, kwarg in self.keywords if name == role), None)


@dataclass(frozen=True, slots=True)
class Pack:
    """All that one pack file knows about one system."""

    system: str
    languages: frozenset[str]
    fingerprint: tuple[str, ...]           # module prefixes whose import means "uses system"
    aliases: tuple[tuple[str, str], ...]   # module-prefix rewrites applied before matching
    factories: tuple[str, ...] = ()        # patterns of calls whose results name methods
    wrappers: tuple[str, ...] = ()         # calls returning their first argument, wrapped
    # `class.attribute` of a generic class → the type argument it holds (`RunContext.deps`)
    generic_attributes: tuple[tuple[str, int], ...] = ()
    entries: tuple[Entry, ...] = ()
    file: str = ""
    description: str = ""
    tools: ToolRules = ToolRules()
    identity: tuple[str, ...] = ()         # attributes naming whom a call acts for, in order
    retention: tuple[RetentionRule, ...] = ()
    policy_writes: tuple[PolicyWrites, ...] = ()
    settings: tuple[str, ...] = ()         # config settings (or `PREFIX_`) the reader keeps
    server_secrets: tuple[str, ...] = ()   # credential variables only a server may hold
    client_env_prefixes: tuple[str, ...] = ()   # variable prefixes bundlers ship to browsers
    mcp_servers: tuple[McpServerRule, ...] = ()
    verbs: tuple[tuple[str, tuple[str, ...]], ...] = ()  # named verb sets (`[verbs]`)
    judgements: tuple[Judgement, ...] = ()
    routes: tuple[RouteRule, ...] = ()
    live_shadow: tuple[LiveShadowRule, ...] = ()
    canary_deciders: tuple[CanaryDeciderRule, ...] = ()
    schema_fields: SchemaFields = SchemaFields()
    state_graphs: StateGraphRules = StateGraphRules()
    policy_reads: tuple[PolicyRead, ...] = ()
    digest: str = ""                       # sha256 of the pack file's bytes
