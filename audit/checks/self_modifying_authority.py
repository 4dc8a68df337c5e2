"""SELF-MODIFYING-AUTHORITY: model output (or request content) is written to what later runs
read as policy.

Other-systems.md H6 and A11: Mubit `optimize_prompt` → `activate_prompt_version` with no human
step ("never grant `optimize_prompt` a path to activation", U12); `remember(intent="rule")` or
a global lesson whose content is model output (U16); MemexAI writes to `shared/**` (read back
into every prompt block) whose content is model output, or request content (seed 003 X5:
anyone who sends the request writes every user's prompt block); MemoRizz
`with_continual_learning(enabled=True)`; a key-value memory write (LangGraph `BaseStore.put`)
of model output under the namespace and key a read in the repository returns into a model's
prompt. The cycle INF → write → next run's prompt → INF lets the model rewrite its own future
rules.

Deployment settings count too (H6, X4, X18): `MEMEX_SHARED_WRITE_MODE=rw` in a `.env*` file, a
compose `environment:` block or an MCP server's `env`, in a repository that hands MemexAI memory
tools to a model (a toolset in code, or the MemexAI MCP server), is reported at the setting.
Which writes are policy, and which setting allows them, is pack data (`[[policy_writes]]`).
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.analyzers.flow.dataflow import Flow
from topo.audit import codes
from topo.audit.checks._memory import is_request_value, request_flow, value_of
from topo.audit.checks._registry import CheckContext, check
from topo.analyzers.model import Site, SiteKind
from topo.analyzers.packs import PolicyWrites
from topo.audit.model import Finding

__all__ = ["self_modifying_authority"]

_MemoryKey = tuple[object, ...]      # (store, namespace parts, key), or () when not literal



@check(codes.SELF_MODIFYING_AUTHORITY)
def self_modifying_authority(ctx: CheckContext) -> Iterator[Finding]:
    request: list[Flow] = []     # request-body flow, computed for the first policy write only
    prompt_reads = _prompt_reads(ctx)
    for site in ctx.facts.sites:
        reason = _reason(ctx, site, request, prompt_reads)
        if reason is not None:
            yield ctx.finding(codes.SELF_MODIFYING_AUTHORITY, location=site.location,
                              symbol=site.symbol, message=reason)
    yield from _shared_write_mode(ctx)


def _shared_write_mode(ctx: CheckContext) -> Iterator[Finding]:
    for system, rule in ctx.facts.knowledge.write_modes():
        yield from _write_mode(ctx, system, rule)


def _write_mode(ctx: CheckContext, system: str, rule: PolicyWrites) -> Iterator[Finding]:
    settings = [s for s in ctx.facts.configs.setting(rule.mode_setting)
                if (s.value or "").strip().lower() == rule.mode_value.lower()]
    if not settings:
        return
    holders = [s.location for s in ctx.facts.sites if s.kind is SiteKind.TOOL_REGISTRATION
               and s.attr("framework") == system and s.attr("memory_tools")]
    holders += [server.location for server in ctx.facts.configs.servers
                if (known := ctx.facts.knowledge.mcp_server(server.known)) is not None
                and known.system == system
                and not server.disabled]
    if not holders:
        return
    written = ", ".join(f"`{prefix}**`" for prefix in rule.path_prefixes) or \
        ", ".join(f"intent={intent}" for intent in rule.intents)
    for setting in settings:
        yield ctx.finding(
            codes.SELF_MODIFYING_AUTHORITY, location=setting.location, symbol=setting.name,
            message=f"`{rule.mode_setting}={rule.mode_value}` lets the agents' memory tools "
                    f"write {written}, which every later prompt block reads as policy: model "
                    "output becomes the rules of the next run",
            related=tuple(holders[:3]))


def _reason(ctx: CheckContext, site: Site, request: list[Flow],
            prompt_reads: dict[_MemoryKey, Site]) -> str | None:
    callee = site.attr("callee")
    if site.kind is SiteKind.PROMPT_POLICY and site.attr("self_modifying") is True:
        return f"`{callee}` lets the agent learn from its own runs: its output becomes its context"
    if site.kind is SiteKind.PROMPT_POLICY and site.attr("activation") is True:
        file, call = ctx.calls[str(site.attr("call"))]
        if site.attr("auto_activate") is True:
            return f"`{callee}` activates the prompt a model wrote, with no human review"
        if ctx.facts.model.argument_labels(file, call) and \
                not ctx.facts.authority.argument_labels(file, call) and \
                not any(ctx.facts.authority.condition_labels(file, call.scope, g.condition)
                        for g in call.guards):
            return (f"`{callee}` activates a version that model output chose, with no human "
                    f"approval before it")
        return None
    if site.kind is SiteKind.MEMORY_WRITE:
        return _policy_write(ctx, site, request) if _is_policy_write(ctx, site) \
            else _prompt_memory_write(ctx, site, prompt_reads)
    return None


def _policy_write(ctx: CheckContext, site: Site, request: list[Flow]) -> str | None:
    """A policy write whose content is model output, or request content (seed 003: "Keep
    private user facts, secrets, raw transcripts, and untrusted external content out of
    `shared/**`"): either way the next prompt's rules are written by someone no one reviewed."""
    file, call = ctx.calls[str(site.attr("call"))]
    content = value_of(call, "content", "lines")
    if content is None and len(call.args) > 1:
        content = call.args[1]
    if content is None:
        return None
    target = site.attr("path") or f"intent={site.attr('intent')}"
    callee = site.attr("callee")
    if ctx.facts.model.value_labels(file, call.scope, content):
        return (f"`{callee}` writes model output `{content.text}` to `{target}`, which "
                f"later prompts read as policy")
    request[:] = request or [request_flow(ctx)]
    if is_request_value(request[0], file, call.scope, content):
        return (f"`{callee}` writes request content `{content.text}` to `{target}`, which "
                f"every later prompt reads as policy: whoever sends the request writes the rules")
    return None


def _prompt_memory_write(ctx: CheckContext, site: Site,
                         prompt_reads: dict[_MemoryKey, Site]) -> str | None:
    """A key-value memory write of model output under a namespace and key that a read in the
    repository returns into a model's prompt: the next run's instructions, written by the model.
    A write under an approval or a decision is reviewed."""
    read = prompt_reads.get(_memory_key(site))
    if read is None:
        return None
    file, call = ctx.calls[str(site.attr("call"))]
    if not ctx.facts.model.argument_labels(file, call) or \
            ctx.facts.authority.argument_labels(file, call) or \
            any(ctx.facts.authority.condition_labels(file, call.scope, g.condition)
                for g in call.guards):
        return None
    where = "/".join(str(p) for p in _parts(site.attr("namespace"))) + f"/{site.attr('store_key')}"
    return (f"`{site.attr('callee')}` writes model output to memory `{where}`, which "
            f"`{read.symbol}` (line {read.location.line}) reads back into a model's prompt: the "
            f"model rewrites the instructions of later runs, with no human review")


def _prompt_reads(ctx: CheckContext) -> dict[_MemoryKey, Site]:
    """For each literal store, namespace and key, the first read whose value reaches the
    arguments of an inference call (inference sites in order, then reads by id); computed once
    per run, and only when some memory write names a namespace and key."""
    if not any(s.kind is SiteKind.MEMORY_WRITE and _memory_key(s) for s in ctx.facts.sites):
        return {}
    reads = {s.id: s for s in ctx.facts.sites
             if s.kind is SiteKind.MEMORY_READ and _memory_key(s)}
    found: dict[_MemoryKey, Site] = {}
    read_ids = frozenset(reads)
    for inference in ctx.facts.sites if read_ids else ():
        if inference.kind is SiteKind.INFERENCE and str(inference.attr("call")) in ctx.calls:
            file, call = ctx.calls[str(inference.attr("call"))]
            for read_id in sorted(ctx.facts.memory.argument_labels(file, call) & read_ids):
                found.setdefault(_memory_key(reads[read_id]), reads[read_id])
    return found


def _memory_key(site: Site) -> _MemoryKey:
    """(store, namespace parts, key) of a key-value memory site; empty when either the
    namespace or the key is not a literal."""
    namespace, key = _parts(site.attr("namespace")), site.attr("store_key")
    if not namespace or not isinstance(key, str):
        return ()
    return (site.attr("store"), namespace, key)


def _parts(namespace: object) -> tuple[object, ...]:
    """A namespace as its literal parts (`("rules",)`, or a one-part string)."""
    if isinstance(namespace, tuple):
        return namespace
    return (namespace,) if isinstance(namespace, str) else ()


def _is_policy_write(ctx: CheckContext, site: Site) -> bool:
    path = site.attr("path")
    for rule in ctx.facts.knowledge.policy_write_rules(str(site.attr("store"))):
        if rule.intents:
            return site.attr("intent") in rule.intents
        return isinstance(path, str) and path.startswith(rule.path_prefixes)
    return False
