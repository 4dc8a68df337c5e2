"""DESTRUCTIVE-MEMORY-TOOL: the model can delete or overwrite memory, with no gate.

Seed 004, MCP: "`mubit_forget` is exposed by default … there is no gating" (U9); seed 003:
"Add raw tools only when the agent has a reason to manage files directly" (X11: raw
`memory_write`/`memory_patch` overwrite files, last write wins); seed 002: a governed tool
with `side_effects=True, requires_approval=False` runs without the approval pause
(other-systems.md H12). Memory the model can erase is evidence the model can erase.

Reported at a raw memory toolset handed to a model, at a destructive memory operation
(`forget`, `delete_run`, `delete_scope`, `clear()`) in the body of a model-invocable tool that
requires no approval, and at an MCP client config entry (`claude_desktop_config.json`,
`.cursor/mcp.json`, any `mcpServers`) that spawns a known memory server whose destructive
tools the client does not filter out (analyzers/mcp_servers.toml).
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.audit import codes
from topo.analyzers.discovery.configs import known_servers
from topo.audit.graph.chains import ENTRY_APPROVAL_ATTRS
from topo.audit.checks._registry import CheckContext, check
from topo.analyzers.model import SiteKind
from topo.audit.model import Finding

__all__ = ["destructive_memory_tool"]


@check(codes.DESTRUCTIVE_MEMORY_TOOL)
def destructive_memory_tool(ctx: CheckContext) -> Iterator[Finding]:
    tools = {}
    for site in ctx.facts.sites:
        if site.kind is not SiteKind.TOOL_REGISTRATION:
            continue
        if site.attr("memory_tools") and site.attr("destructive") is True:
            yield ctx.finding(
                codes.DESTRUCTIVE_MEMORY_TOOL, location=site.location, symbol=site.symbol,
                message=f"`{site.attr('callee')}` hands the model raw memory tools that "
                        f"overwrite files, with no gate")
        elif site.attr("definition") and site.system != "memrail" and \
                not any(site.attr(a) is True for a in ENTRY_APPROVAL_ATTRS):
            tools[str(site.attr("definition"))] = site
    for site in ctx.facts.sites:
        tool = tools.get(site.symbol)
        if site.kind is SiteKind.MEMORY_WRITE and site.attr("destructive") is True and tool:
            yield ctx.finding(
                codes.DESTRUCTIVE_MEMORY_TOOL, location=site.location, symbol=site.symbol,
                message=f"`{site.attr('callee')}` deletes memory inside the model-invocable "
                        f"tool `{site.symbol}`, which requires no approval",
                related=(tool.location,))
    yield from _mcp_servers(ctx)


def _mcp_servers(ctx: CheckContext) -> Iterator[Finding]:
    for server in ctx.facts.configs.servers:
        known = known_servers().get(server.known or "")
        exposed = [t for t in known.destructive if server.exposes(t)] if known else []
        if exposed:
            tools = ", ".join(f"`{t}`" for t in exposed)
            yield ctx.finding(
                codes.DESTRUCTIVE_MEMORY_TOOL, location=server.location, symbol=server.name,
                message=f"the MCP server `{server.name}` ({known.system}) hands the model "
                        f"{tools}, which {'delete' if len(exposed) > 1 else 'deletes'} or "
                        f"{'overwrite' if len(exposed) > 1 else 'overwrites'} memory with no "
                        f"gate; filter {'them' if len(exposed) > 1 else 'it'} out of the "
                        f"client's tool list",
                inferred=server.inferred)
