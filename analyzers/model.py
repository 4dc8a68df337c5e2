"""The shared vocabulary of every stage: where a fact is, what it is, how facts relate.

Locations, unknowns, classified sites and their kinds, edges, consequence tiers, and the
attributes each site kind may carry (`SITE_ATTRIBUTES`, the one contract between the packs and
engine that write attributes and the checks that read them). This module imports nothing from
the project, so every floor (analyzers, audit, reports, the CLI) may import it; findings, codes
and severities are built on top of it in `topo.audit.model`.
"""

from __future__ import annotations

import difflib
import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

__all__ = ["AttrValue", "AttributeDecl", "AUTHORITY_KINDS", "ENTRY_KINDS", "Edge", "EdgeKind",
           "FLAG", "LITERAL", "Location",
           "LOWEST_LEVEL", "NAMES", "ROLE_KINDS", "SITE_ATTRIBUTES", "Site", "SiteKind", "TEXT",
           "Tier", "UndeclaredAttribute", "Unknown"]


@dataclass(frozen=True, slots=True, order=True)
class Location:
    """A place in an audited file.

    `file` is relative to the audited root with `/` separators; lines are 1-based; columns are
    1-based and counted in characters; the end is exclusive. Front-ends convert their native
    positions into this once, at their boundary.
    """

    file: str
    line: int
    column: int = 1
    end_line: int | None = None
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"



@dataclass(frozen=True, slots=True)
class Unknown:
    """Something the audit could not read or decide: it is reported, never silently dropped."""

    file: str
    reason: str
    line: int | None = None



class EdgeKind(enum.Enum):
    """The five topology roles of seed 000, plus the structural relations beside them."""

    OBSERVATION = "observation"
    INFERENCE = "inference"
    AUTHORITY = "authority"
    EXECUTION = "execution"
    RECORDING = "recording"
    CALLS = "calls"
    BINDS = "binds"
    EMITS = "emits"
    CONSUMES = "consumes"
    REGISTERS = "registers"
    CONTAINS = "contains"      # a function contains a site


ROLE_KINDS = (EdgeKind.OBSERVATION, EdgeKind.INFERENCE, EdgeKind.AUTHORITY, EdgeKind.EXECUTION,
              EdgeKind.RECORDING)


class SiteKind(enum.Enum):
    """What a classified place in the code is (ARCHITECTURE.md, JSON document `sites[].kind`)."""

    DECISION_CALL = "decision_call"
    ATOM = "atom"
    EVENT_EMIT = "event_emit"
    ACK = "ack"
    TOOL_REGISTRATION = "tool_registration"
    ACTION_HANDLER = "action_handler"
    INFERENCE = "inference"
    THRESHOLD = "threshold"
    MODEL_BRANCH = "model_branch"
    APPROVAL_GATE = "approval_gate"
    CONFIG_GATE = "config_gate"
    EXECUTOR = "executor"
    DISPATCHER = "dispatcher"
    FALLBACK = "fallback"
    PROMPT_POLICY = "prompt_policy"
    MEMORY_READ = "memory_read"
    MEMORY_WRITE = "memory_write"
    VALIDATION = "validation"      # a model-derived value checked against a fixed set (zod enum)
    ENTRY_POINT = "entry_point"    # how work starts without a caller in the repo (job, queue…)

    def declares(self, name: str) -> bool:
        """Whether sites of this kind may carry attribute `name`: code that reads an attribute
        over sites of mixed kinds asks this first, since `Site.attr` rejects undeclared names."""
        return name in SITE_ATTRIBUTES[self]


class Tier(enum.Enum):
    """Consequence tier of an executor; it adjusts finding severity (findings.md).

    Tiers are ordered by consequence `level`, 0 the highest: money, deletion, access and code
    execution are irreversible or high-stakes (0); communication, data writes and workflow
    steps (1); no consequence (2). "One tier lower" means one level down (`lowered`): an
    intent executor (a stub tool named `refund_*`) keeps its tier's name and is ranked a level
    below it (the executor's `tier_drop`)."""

    MONEY = "money"
    DELETION = "deletion"
    ACCESS = "access"
    COMMUNICATION = "communication"
    DATA_WRITE = "data_write"
    CODE_EXECUTION = "code_execution"
    WORKFLOW = "workflow"
    NONE = "none"

    @property
    def level(self) -> int:
        """The consequence level, 0 the highest (see the class docstring)."""
        return _TIER_LEVELS[self]

    def lowered(self, drop: int) -> int:
        """The level `drop` tiers below this one, never below the lowest (`Tier.NONE`)."""
        return min(self.level + max(drop, 0), LOWEST_LEVEL)


_TIER_LEVELS = {Tier.MONEY: 0, Tier.DELETION: 0, Tier.ACCESS: 0, Tier.CODE_EXECUTION: 0,
                Tier.COMMUNICATION: 1, Tier.DATA_WRITE: 1, Tier.WORKFLOW: 1, Tier.NONE: 2}
LOWEST_LEVEL = _TIER_LEVELS[Tier.NONE]


AttrValue = str | int | float | bool | None | tuple

# Seed 000's audit scope: the ways work starts (`entry_point` sites' `entry_kind`), the most
# specific first: a route whose body is a verified provider webhook is a webhook, not only a
# route. A chain that starts in a model-callable tool has entry kind `tool`.
ENTRY_KINDS = ("webhook", "scheduled_job", "queue_consumer", "cli", "http_route")
# Authority that is not a model (`config_gate` sites' `authority_kind`): configuration policy,
# feature flags and experiments, role or tier branches, database-driven rules.
AUTHORITY_KINDS = ("config", "flag", "role", "rule")


@dataclass(frozen=True, slots=True)
class Site:
    """A classified fact: a call, definition or branch that plays a role in the topology.

    `attrs` holds typed scalar attributes from the rule pack, the engine or the flow stage
    (decision point, atom key, tier…) as sorted (name, value) pairs, so a Site stays hashable
    and deterministic; the names a kind may carry are declared in `SITE_ATTRIBUTES`.
    `inferred` is True when the classification rests on a heuristic rather than an exact API
    match.
    """

    id: str
    kind: SiteKind
    system: str
    language: str
    location: Location
    symbol: str
    attrs: tuple[tuple[str, AttrValue], ...] = ()
    inferred: bool = False

    def attr(self, name: str, default: AttrValue = None) -> AttrValue:
        """The value of attribute `name`, or `default` when this site does not carry it.

        A name not declared for the site's kind (`SITE_ATTRIBUTES`) raises
        `UndeclaredAttribute`: a misspelt read is a bug, not an absent value."""
        if name not in SITE_ATTRIBUTES[self.kind]:
            raise UndeclaredAttribute(self.kind, name)
        for key, value in self.attrs:
            if key == name:
                return value
        return default

    def with_attrs(self, **extra: AttrValue) -> Site:
        """This site with `extra` attributes set (added, or replacing its own), kept sorted:
        later stages mark what the packs found (`protocol`, `tool_name`, `entry_kind`…)."""
        return replace(self, attrs=tuple(sorted((dict(self.attrs) | extra).items())))


@dataclass(frozen=True, slots=True)
class Edge:
    """A role or call edge. An `inference` edge stands for all the model outputs that reach
    its target: `origins` (sorted) lists them and `source` is the first (topo-audit/2)."""

    source: str
    target: str
    kind: EdgeKind
    attrs: tuple[tuple[str, AttrValue], ...] = ()

    @property
    def origins(self) -> tuple[str, ...]:
        """The sources this edge stands for: its `origins`, else its own source."""
        for key, value in self.attrs:
            if key == "origins" and isinstance(value, tuple) and value:
                return value
        return (self.source,)

    def pairs(self) -> Iterator[tuple[str, str]]:
        """(source, target) for each source the edge stands for: one link per origin."""
        for source in self.origins:
            yield source, self.target


# ---- the declared attributes of each site kind -----------------------------------------------

# The AttrValue types an attribute may hold.
TEXT = (str,)
FLAG = (bool,)
NAMES = (tuple,)                                       # a tuple of names, ids or keys
LITERAL = (str, int, float, bool, type(None), tuple)   # whatever literal the audited code wrote


@dataclass(frozen=True, slots=True)
class AttributeDecl:
    """One attribute a site kind may carry.

    `dynamic`: the value is read from the audited code, and when it is not a literal the site
    carries `<name>_literal = False` and `<name>_text = <source text>` instead (packs/_attrs.py);
    those two are declared with it, so checks can say "decision point is not a literal".
    """

    name: str
    type: tuple[type, ...]
    meaning: str
    dynamic: bool = False

    def companions(self) -> tuple[AttributeDecl, ...]:
        """The `<name>_literal` and `<name>_text` declarations of a dynamic attribute."""
        if not self.dynamic:
            return ()
        return (AttributeDecl(f"{self.name}_literal", FLAG, f"False when {self.name} is not a "
                              "literal in the code"),
                AttributeDecl(f"{self.name}_text", TEXT, f"the source text of a non-literal "
                              f"{self.name}"))


class UndeclaredAttribute(KeyError):
    """A read of an attribute that the site's kind does not declare: a programming error."""

    def __init__(self, kind: SiteKind, name: str) -> None:
        super().__init__(kind, name)
        self.kind, self.name = kind, name

    def __str__(self) -> str:
        close = difflib.get_close_matches(self.name, sorted(SITE_ATTRIBUTES[self.kind]), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"{self.name!r} is not an attribute of {self.kind.value} sites{hint}"


def _a(name: str, type: tuple[type, ...], meaning: str, dynamic: bool = False) -> AttributeDecl:
    return AttributeDecl(name, type, meaning, dynamic)


# Set by the pack engine on a site of any kind a pack entry names (`site` is free in a pack);
# the flow stage also sets `call` on dispatchers.
_ENGINE = (
    _a("role", TEXT, "the matched entry's topology role (an EdgeKind value)"),
    _a("entry", TEXT, "the id of the pack entry that matched"),
    _a("callee", TEXT, "the resolved name of the matched call or decorator"),
    _a("call", TEXT, "the id of the matched call (the decorator call for decorator sites)"),
    _a("definition", TEXT, "the qualified name of the decorated function or class"),
    _a("enforced", FLAG, "authority entries: whether something enforces the decision"),
    _a("base", TEXT, "class_base sites: the matched base class"),
    _a("parameter", TEXT, "parameter sites: the tool parameter's name"),
    _a("tool_name", LITERAL, "parameter sites: the name of the tool the parameter belongs to"),
)
# Memory systems (Mubit, MemexAI, memorizz, databases): which store, which operation.
_STORE = _a("store", TEXT, "the system whose state is read or written (`database` for SQL)")
_OPERATION = _a("operation", TEXT, "the API operation (recall, remember, forget, handoff, …)")
_SESSION = _a("session_id", TEXT, "the source text of the session argument")
# HTTP requests (executors, and inference through a model endpoint or proxy).
_URL_KNOWN = _a("url_known", TEXT, "what the code says of the URL: its literal text, `*` for each "
                "part only the run knows (absent when nothing is known)")
_BODY_KEYS = _a("body_keys", NAMES, "the literal keys of the request body", True)
# THRESHOLD and MODEL_BRANCH: a test of a model-derived value (flow/derived.py).
_TEST = (
    _a("op", TEXT, "the comparison operator (`match` for a match statement)"),
    _a("operand", TEXT, "the source text of the model-derived side"),
    _a("value", LITERAL, "the other side: its literal, or its source text"),
    _a("value_side", TEXT, "`left` when the other side is the left operand"),
    _a("value_kind", TEXT, "`name` when the other side is a name, not a literal"),
    _a("origins", NAMES, "ids of the inference sites whose output reaches the test"),
    _a("derives", TEXT, "the name the test's result is stored in (`approved = bool(re.search("
                        "…))`): a later `if approved:` only asks this test"),
)

_DECLARATIONS: dict[SiteKind, tuple[AttributeDecl, ...]] = {
    SiteKind.DECISION_CALL: (
        _a("decision_point", LITERAL, "the decision point the call asks about", True),
        _a("project", LITERAL, "the project argument", True),
        _a("workspace", LITERAL, "the workspace argument", True),
        _a("atoms", NAMES, "ids of the ATOM-classified calls in the context list", True),
        _a("context_calls", NAMES, "ids of every call in the context list", True),
        _a("dry_run", LITERAL, "the dry-run option (a dry run executes nothing)", True),
        _a("auto_ack", LITERAL, "whether the SDK acknowledges the decision itself", True),
        _a("human_consent", LITERAL, "the human-consent option", True),
        _a("idempotency_key", TEXT, "the source text of the idempotency key"),
        _a("executes", FLAG, "whether the call also executes the selected action"),
    ),
    SiteKind.ATOM: (
        _a("kind", TEXT, "state, tag or event"),
        _a("key", LITERAL, "the atom key (`customer.tier`, an event topic)", True),
        _a("value", LITERAL, "the atom value", True),
        _a("value_type", TEXT, "the static type of the value as Memrail sees it, or `dynamic`"),
        _a("source", LITERAL, "the atom's declared source (`system`, `ml`, …)", True),
        _a("source_declared", LITERAL, "the source as the code writes it (none: the SDK's "
                                       "default, `system`)", True),
        _a("attribute_keys", NAMES, "the literal keys of an event's attributes", True),
        _a("attribute_reads", NAMES, "events: (attribute, the access path its value reads) "
                                     "pairs", True),
        _a("timestamp", TEXT, "events: the source text of the timestamp given"),
        _a("timestamp_zone", TEXT, "events: whether that timestamp is `aware`, `naive` or "
                                   "`unknown`"),
        _a("expanded", FLAG, "the atom comes from expanding a dict (atoms_from_dict)"),
        _a("prefix", LITERAL, "expanded atoms: the key prefix", True),
        _a("data_text", TEXT, "expanded atoms: the source text of a dict that cannot be read"),
        _a("conditional", FLAG, "the atom is built, or added to its list, under a condition"),
        _a("condition", TEXT, "the source text of that condition"),
    ),
    SiteKind.EVENT_EMIT: (
        _STORE, _OPERATION, _SESSION,
        _a("event_name", LITERAL, "the emitted event's `subject.verb.object`", True),
        _a("event_names", NAMES, "the same, for each event of a batch", True),
        _a("attribute_keys", NAMES, "the literal keys of the event's attributes", True),
        _a("timestamp", TEXT, "the source text of a timestamp given with the emit itself"),
        _a("timestamp_zone", TEXT, "whether that timestamp is `aware`, `naive` or `unknown`"),
        _a("project", LITERAL, "the project argument", True),
        _a("workspace", LITERAL, "the workspace argument", True),
        _a("outcome", LITERAL, "a recorded outcome or score", True),
        _a("signal", LITERAL, "a recorded outcome signal", True),
        _a("rationale", TEXT, "the source text of the recorded rationale"),
        _a("verified_in_production", LITERAL, "whether the outcome was verified", True),
    ),
    SiteKind.ACK: (
        _a("activation_id", TEXT, "the source text of the acknowledged activation"),
        _a("status", LITERAL, "the acknowledged status", True),
        _a("code", LITERAL, "the acknowledged result code", True),
        _a("project", LITERAL, "the project argument", True),
        _a("workspace", LITERAL, "the workspace argument", True),
        _a("batch", FLAG, "the call acknowledges several decisions at once"),
    ),
    SiteKind.TOOL_REGISTRATION: (
        _a("tool_name", LITERAL, "the name the model calls the tool by", True),
        _a("definition", TEXT, "the qualified name of the registered function", True),
        _a("framework", TEXT, "the framework that hands the tool to a model"),
        _a("projects", LITERAL, "the projects a Memrail tool is registered for", True),
        _a("timeout_ms", LITERAL, "the handler's registered timeout, in milliseconds", True),
        _a("description", TEXT, "the source text of the tool description"),
        _a("schema", TEXT, "the source text of the parameter schema"),
        _a("input_schema", TEXT, "the source text of the input schema"),
        _a("tools", TEXT, "builder registrations: the source text of the tool list"),
        _a("registration", TEXT, "how the tools are registered (`builder`)"),
        _a("augment", LITERAL, "the builder's augment option", True),
        _a("needs_approval", LITERAL, "the framework's approval flag", True),
        _a("requires_approval", LITERAL, "the framework's approval flag", True),
        _a("approval_reason", TEXT, "the source text of the approval reason"),
        _a("on_approval", TEXT, "the qualified name of the function that answers each "
                                "approval request (`onApproval`)", True),
        _a("approval_predicate", TEXT, "the qualified name of the function that decides, per "
           "call, whether a human approves it (`needs_approval=fn`)", True),
        _a("approval_asks", FLAG, "the approval predicate asks for a human on every call: "
           "the tool is approval-gated"),
        _a("approval_conditional", FLAG, "the approval predicate asks for a human on some "
           "calls only: the others run unreviewed"),
        _a("approved_by", TEXT, "the approval gate that names the tool among those it pauses "
           "for a human before each call (an agent's human-in-the-loop middleware)"),
        _a("side_effects", LITERAL, "whether the tool declares side effects", True),
        _a("deterministic", LITERAL, "whether the tool declares itself deterministic", True),
        _a("memory_tools", TEXT, "memory toolkits: `agentic` or `raw` memory operations"),
        _a("needs_prompt_block", FLAG, "memory tools that assume the system's prompt block "
           "(its policy and index) in the same model call"),
        _a("destructive", FLAG, "the tools can delete memory"),
        _a("receives", TEXT, "`output`: the framework hands the function the model's output "
                             "(an output validator), not a tool call; it is no tool"),
        _a("read_only_hint", LITERAL, "MCP annotation readOnlyHint (a client hint)", True),
        _a("destructive_hint", LITERAL, "MCP annotation destructiveHint (a client hint)", True),
        _a("idempotent_hint", LITERAL, "MCP annotation idempotentHint (a client hint)", True),
        _a("placed_names", NAMES, "the keys a tool set places an unnamed tool under, when "
                                  "there are several (each caller exposes it by its own)"),
        _a("dispatch_parameter", TEXT, "one handler receives every tool call and dispatches "
                                       "on this parameter (its index, then an access path: "
                                       "`0`, `0.params.name`)"),
        _a("dispatch_case", TEXT, "the branch of a dispatching handler that runs this tool "
                                  "(file:line:column)"),
        _a("dispatch_cases", NAMES, "every branch of that handler that names a tool"),
        _a("request_schema", TEXT, "the request a low-level MCP handler is set for "
                                   "(`CallToolRequestSchema`), as written"),
        _a("listed_by", TEXT, "the constructor of the tool descriptions such a handler's "
                              "server lists (`mcp.types.Tool`, its `name` keyword)"),
    ),
    SiteKind.ACTION_HANDLER: (
        _a("action_type", TEXT, "the handled action type"),
        _a("decision_point", LITERAL, "the decision point whose actions it handles", True),
        _a("project", LITERAL, "the project argument", True),
    ),
    SiteKind.INFERENCE: (
        _a("provider", TEXT, "the model provider"),
        _a("api", TEXT, "the provider API (`chat.completions`, `responses`, …)"),
        _a("operation", TEXT, "the framework operation (invoke, agent, bind_tools, …)"),
        _a("model", LITERAL, "the model argument", True),
        _a("tools", TEXT, "the source text of the tools argument"),
        _a("tool_choice", LITERAL, "the tool-choice argument", True),
        _a("response_format", TEXT, "the source text of the response format"),
        _a("instructions", TEXT, "the source text of the instructions"),
        _a("system_prompt", TEXT, "the source text of the system prompt"),
        _a("config", TEXT, "the source text of the generation config"),
        _a("agent", TEXT, "the source text of the agent that runs"),
        _a("max_steps", TEXT, "the source text of the step limit"),
        _a("user_id", TEXT, "the source text of the user identity argument"),
        _a("proposal_id", TEXT, "the source text of the resumed proposal"),
        _a("continue_model", LITERAL, "whether the model continues after the approval", True),
        _a("errors_in_stream", FLAG, "a failure arrives as a terminal error event in the "
           "stream, not as an exception"),
        _a("raise_on_error", LITERAL, "whether the stream raises on a provider failure", True),
        _a("evidence_only", LITERAL, "whether the answer is restricted to evidence", True),
        _a("mode", LITERAL, "the recall mode", True),
        _a("auto_activate", LITERAL, "whether the optimised prompt is activated unreviewed",
           True),
        _URL_KNOWN, _BODY_KEYS,
        _a("route", TEXT, "a request to the app's own server: the handler it reaches, which "
           "calls a model"),
    ),
    SiteKind.THRESHOLD: _TEST,
    SiteKind.MODEL_BRANCH: (
        *_TEST,
        _a("protocol", FLAG, "the test checks the tool-call protocol or a value's shape"),
    ),
    SiteKind.APPROVAL_GATE: (
        _STORE, _OPERATION, _SESSION,
        _a("approver", TEXT, "who approves (`human`, `model`)"),
        _a("approver_id", TEXT, "the source text of the approver identity"),
        _a("needs_approval", LITERAL, "the framework's approval flag", True),
        _a("requires_approval", LITERAL, "the framework's approval flag", True),
        _a("interrupt_before", LITERAL, "the nodes a graph pauses before", True),
        _a("interrupt_after", LITERAL, "the nodes a graph pauses after", True),
        _a("approves_tools", NAMES, "the tools, by exposed name, the gate pauses for a human "
           "before each call of (LangChain `HumanInTheLoopMiddleware(interrupt_on={...})`)"),
        _a("prompt", TEXT, "the source text of what the interrupt shows"),
        _a("accepts", LITERAL, "whether the interrupt offers the human an accepting answer "
           "(Agent Inbox `allow_accept`); False: it only asks or notifies", True),
        _a("requested_action", LITERAL, "the action a handoff asks approval for", True),
        _a("from_agent_id", LITERAL, "the handing-off agent", True),
        _a("to_agent_id", LITERAL, "the agent asked for a verdict", True),
        _a("handoff_id", TEXT, "the source text of the handoff a verdict answers"),
        _a("await_verdict", LITERAL, "whether the handoff waits for the verdict", True),
        _a("verdict", LITERAL, "the verdict given", True),
        _a("verdict_keyword", TEXT, "the keyword argument that carries a guardrail's verdict "
                                    "(its tripwire)"),
        _a("definition", TEXT, "the qualified name of the decorated function, or of a "
                               "guardrail's function (its `execute`)", True),
        _a("verdict_key", TEXT, "the key of the record a guardrail's function (`definition`) "
                                "returns that carries its verdict (`tripwireTriggered`)"),
    ),
    SiteKind.CONFIG_GATE: (
        _a("flag", LITERAL, "the feature flag, setting or environment variable read", True),
        _a("default", LITERAL, "the value used when the flag cannot be read", True),
        _a("authority_kind", TEXT, "which authority that is not a model (an AUTHORITY_KINDS "
                                   "value): config, flag, role or rule"),
        _a("op", TEXT, "a derived gate: the comparison operator (`truthy` for a bare test)"),
        _a("operand", TEXT, "a derived gate: the source text of the tested side"),
        _a("value", LITERAL, "a derived gate: the other side, its literal or its source text"),
        _a("value_side", TEXT, "a derived gate: `left` when the other side is the left operand"),
        _a("sources", NAMES, "a rule gate: ids of the database reads whose rows it tests"),
    ),
    SiteKind.EXECUTOR: (
        _a("tier", TEXT, "the consequence tier (a Tier value)"),
        _a("amount", LITERAL, "the amount moved", True),
        _a("charge", TEXT, "the source text of the charge or payment intent"),
        _a("channel", TEXT, "the communication channel (email, message, http)"),
        _a("to", LITERAL, "the recipient", True),
        _a("method", LITERAL, "the HTTP method", True),
        _a("url", LITERAL, "the URL called", True),
        _URL_KNOWN, _BODY_KEYS,
        _a("called_as", TEXT, "the name the call is written with (`payFetch`, a local name for "
           "what a wrapper returned)"),
        _a("path", LITERAL, "the file path written or deleted", True),
        _a("path_made_by", TEXT, "the resolved name of the call that made the path (or file "
           "descriptor) written or deleted, through a name's one assignment or destructuring: "
           "`tempfile.mkstemp` for `fd, path = tempfile.mkstemp()`"),
        _a("mode", LITERAL, "the mode a file is opened in (`w`, `a`, `x`, `r+`, …)", True),
        _a("sql", LITERAL, "the SQL statement", True),
        _a("sql_known", TEXT, "what the code says of the SQL statement: its literal text (through "
           "a name's one assignment), `*` for each part only the run knows (an f-string's holes, "
           "what `+=` appends); absent when nothing is known"),
        _a("command", LITERAL, "the command run", True),
        _a("shell", LITERAL, "whether the command runs through a shell", True),
        _a("source_code", TEXT, "the source text of the evaluated code"),
        # Remote tool calls (MCP `callTool`, a JSON-RPC `tools/call`): the tier is the called
        # tool's, by the write verb its name begins with (`intent_verb`).
        _a("tool_name", LITERAL, "the name of the remote tool called", True),
        _a("rpc_method", LITERAL, "the JSON-RPC method of a request body (`tools/call`)", True),
        # Intent executors (flow/intent.py): a model-callable tool named for a write whose body
        # has no recognised effect, only a stub or an in-memory one.
        _a("stub_or_in_memory", FLAG, "the effect is a stub or in-memory: the tool is "
           "consequential by its name, not by a recognised API"),
        _a("intent_verb", TEXT, "the write verb the tool's exposed name (or a remote tool's "
           "name) begins with"),
        _a("intent_evidence", TEXT, "why the body counts: writes_state, "
           "returns_confirmation, empty_body or logs_only"),
        _a("evidence_text", TEXT, "the source text of that write or return"),
        _a("tier_drop", (int,), "consequence levels below the tier's own (Tier.lowered)"),
    ),
    SiteKind.DISPATCHER: (
        _a("function", TEXT, "the source text of the expression that picks the function"),
        _a("targets", NAMES, "the functions of the dispatch table it indexes"),
        _a("origins", NAMES, "ids of the inference sites whose output picks the function"),
    ),
    SiteKind.FALLBACK: (
        _a("handler", TEXT, "the exception handler's text"),
        _a("controls", NAMES, "ids of the control calls (decisions, approvals) in the `try`"),
    ),
    SiteKind.PROMPT_POLICY: (
        _STORE, _SESSION,
        _a("policy", TEXT, "what kind of policy text (memory_rule, prompt_version, …)"),
        _a("policy_target", TEXT, "which prompt blocks the policy applies to"),
        _a("activation", LITERAL, "the call activates a prompt version", True),
        _a("auto_activate", LITERAL, "whether a prompt is activated without review", True),
        _a("self_modifying", FLAG, "the agent's own output becomes its policy"),
        _a("enabled", LITERAL, "whether continual learning is switched on", True),
        _a("intent", LITERAL, "the rule's intent", True),
        _a("content", TEXT, "the source text of the policy content"),
        _a("name", TEXT, "the source text of the playbook name"),
        _a("skill_type", LITERAL, "the playbook's skill type", True),
        _a("version_id", TEXT, "the source text of the activated version"),
        _a("agent_id", TEXT, "the source text of the agent identity"),
        _a("model_routing", FLAG, "the configured model plans which agent or delegate acts"),
        _a("direct_exposure", FLAG, "every registered tool schema is shown to the model, "
           "without the runtime's per-turn selection and allowlisted invocation"),
        _a("exposure_limit", LITERAL, "the most tools the system calls a small tool set for "
           "direct exposure", True),
        _a("disclosure", LITERAL, "whether the runtime selects the tool schemas shown each "
           "turn (progressive disclosure)", True),
        _a("mode", LITERAL, "the orchestration mode the code names", True),
    ),
    SiteKind.MEMORY_READ: (
        _STORE, _OPERATION, _SESSION,
        _a("exhaustive", FLAG, "an empty result means the thing does not exist (a lookup)"),
        _a("implicit", FLAG, "memory injected into a model, not a lookup"),
        _a("injection", TEXT, "how memory is injected (process, wrapped_model, framework)"),
        _a("delivers_rules", FLAG, "the read returns rules the model is told to follow"),
        _a("query", TEXT, "the source text of the query"),
        _a("key", TEXT, "the source text of the key read"),
        _a("entry_types", TEXT, "the source text of the entry types recalled"),
        _a("mode", LITERAL, "the recall mode", True),
        _a("evidence_only", LITERAL, "whether only evidence is recalled", True),
        _a("auto_extract", LITERAL, "whether the instrumentation extracts memories itself",
           True),
        _a("status", LITERAL, "the proposal status read", True),
        _a("actor", LITERAL, "the actor a scope reads as", True),
        _a("user_id", TEXT, "the source text of the user identity argument"),
        _a("agent_id", TEXT, "the source text of the agent identity"),
        _a("table", TEXT, "the source text of the table or model class read"),
        _a("path", LITERAL, "the file path read", True),
        _a("sql", LITERAL, "the SQL statement", True),
        _a("namespace", LITERAL, "the namespace of a key-value memory store read", True),
        _a("store_key", LITERAL, "the key of a key-value memory store read", True),
    ),
    SiteKind.MEMORY_WRITE: (
        _STORE, _OPERATION, _SESSION,
        _a("destructive", FLAG, "the write deletes memory"),
        _a("asynchronous", FLAG, "the write lands after the call returns (ingest job)"),
        _a("completed_by", NAMES, "asynchronous writes: the method names of the calls that wait "
           "until the write has landed (an ingest-job poll)"),
        _a("fail_open", FLAG, "write errors are logged and dropped"),
        _a("author", TEXT, "who writes the memory (`model`)"),
        _a("content", TEXT, "the source text of the content written"),
        _a("intent", LITERAL, "the memory's intent (fact, lesson, …)", True),
        _a("lesson_scope", LITERAL, "who shares the lesson", True),
        _a("reason", TEXT, "the source text of the write reason"),
        _a("upsert_key", TEXT, "the source text of the upsert key"),
        _a("idempotency_key", TEXT, "the source text of the idempotency key"),
        _a("user_id", TEXT, "the source text of the user identity argument"),
        _a("memory_id", TEXT, "the source text of the memory scope argument"),
        _a("scope_required", FLAG, "the call must name its tenant scope (a background "
           "compaction): without one it acts on whichever request ran last"),
        _a("path", LITERAL, "the file path written", True),
        _a("namespace", LITERAL, "the namespace of a key-value memory store written", True),
        _a("store_key", LITERAL, "the key of a key-value memory store written", True),
    ),
    SiteKind.VALIDATION: (
        _a("validator", TEXT, "the validator (`zod.enum`)"),
        _a("value", TEXT, "the source text of the validated value"),
    ),
    SiteKind.ENTRY_POINT: (
        _a("entry_kind", TEXT, "how the work starts (an ENTRY_KINDS value)"),
        _a("definition", TEXT, "the qualified name of the function that runs", True),
        _a("schedule", LITERAL, "scheduled jobs: the schedule as written", True),
        _a("queue", LITERAL, "queue consumers: the queue, topic or channel consumed", True),
        _a("path", LITERAL, "routes and webhooks: the path handled", True),
        _a("method", LITERAL, "routes: the HTTP method handled", True),
        _a("verified_by", TEXT, "webhooks: the call that verifies the provider's signature"),
    ),
}


def _declared(kind: SiteKind) -> Mapping[str, AttributeDecl]:
    table: dict[str, AttributeDecl] = {}
    for decl in (*_ENGINE, *_DECLARATIONS[kind]):   # a kind's own declaration wins
        table[decl.name] = decl
        table.update((companion.name, companion) for companion in decl.companions())
    return MappingProxyType(table)


SITE_ATTRIBUTES: Mapping[SiteKind, Mapping[str, AttributeDecl]] = MappingProxyType(
    {kind: _declared(kind) for kind in SiteKind})
