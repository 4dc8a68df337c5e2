"""UNTRUSTED-IDENTITY: the identity that scopes memory or signs an approval comes from the
request body, the model, or a constant.

Seed 003, "Never let an untrusted browser or client choose the `userId` directly" (MemexAI
"does not authenticate your end user", X2/X7); seed 002, approvals record the approver
(`approve(…, approver_id=…)`, M6) and must name an authenticated operator; other-systems.md
O5/H8. A client that picks the user id reads and writes another user's memory; a model or a
hard-coded string as approver makes the approval log meaningless.

A credential that grants the identity counts too (seed 003, Admin Console: "Keep both values
out of untrusted browsers", X8): a system's server secret (`server_secrets`: MemexAI's admin
secret or agent key) named with a client-bundle prefix (`client_env_prefixes`:
`NEXT_PUBLIC_MEMEX_ADMIN_SECRET`), set in a `.env*`/compose/MCP `env` block or read in code, is
shipped to every browser: any visitor is the operator, or picks any `userId`. And a call
that must name its tenant scope and names none (`scope_required`: MemoRizz
`generate_summaries(days_back=7)`, seed 002 "Explicit compaction scope") takes it from
whichever request ran last.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterator

from topo.analyzers.ir import LITERAL_KINDS, MODULE_SCOPE, FileIR, Value
from topo.audit import codes
from topo.audit.checks._memory import is_request_value, request_flow, value_of
from topo.audit.checks._registry import CheckContext, check
from topo.analyzers.model import Location, SiteKind
from topo.audit.model import Finding

__all__ = ["untrusted_identity"]

_IDENTITY_KEYS = ("user_id", "userId", "approver_id")
_ENV_READ = re.compile(r"\benv(?:\.|\[\s*[\"'])([A-Z][A-Z0-9_]*)")


@check(codes.UNTRUSTED_IDENTITY)
def untrusted_identity(ctx: CheckContext) -> Iterator[Finding]:
    yield from _identities(ctx)
    yield from _unscoped(ctx)
    yield from _client_secrets(ctx)


def _unscoped(ctx: CheckContext) -> Iterator[Finding]:
    """Calls that must name their tenant scope (`scope_required`: a background compaction)
    and name none of it: the identity is whatever request ran last (seed 002, M6)."""
    for site in ctx.facts.sites:
        if not (site.kind.declares("scope_required") and site.attr("scope_required") is True):
            continue
        names = (*ctx.facts.knowledge.identity_attributes(site.system), "memory_id")
        if any(site.kind.declares(n) and site.attr(n) is not None for n in names):
            continue
        scope = ", ".join(f"`{n}=`" for n in names if site.kind.declares(n))
        yield ctx.finding(
            codes.UNTRUSTED_IDENTITY, location=site.location, symbol=site.symbol,
            message=f"`{site.attr('callee')}` names no tenant scope ({scope}): a background "
                    "task then takes its tenant from whichever request ran last")


def _identities(ctx: CheckContext) -> Iterator[Finding]:
    request = None
    for site in ctx.facts.sites:
        key = next((name for name in ctx.facts.knowledge.identity_attributes(site.system)
                    if site.kind.declares(name) and site.attr(name) is not None), None)
        if key is None:
            continue
        file, call = ctx.calls[str(site.attr("call"))]
        value = value_of(call, *((key,) if key == "approver_id" else _IDENTITY_KEYS))
        if value is None and site.attr("operation") == "scope" and call.args:
            value = call.args[0]
        if value is None:
            continue
        request = request if request is not None else request_flow(ctx)
        if is_request_value(request, file, call.scope, value):
            trust = "the request body or query"
        elif ctx.facts.model.value_labels(file, call.scope, value):
            trust = "model output"
        elif key == "approver_id" and value.kind in LITERAL_KINDS and \
                site.kind is SiteKind.APPROVAL_GATE:
            trust = "a constant"
        else:
            continue
        yield ctx.finding(
            codes.UNTRUSTED_IDENTITY, location=site.location, symbol=site.symbol,
            message=f"`{site.attr('callee')}` takes its {key.replace('Id', '_id')} "
                    f"`{value.text}` from {trust}",
            snippet=value.text)


def _client_secrets(ctx: CheckContext) -> Iterator[Finding]:
    """Server secrets under a client-bundle prefix, where a config sets one and where code
    reads one (once per line and name)."""
    secrets = ctx.facts.knowledge.client_secrets()
    if not secrets:
        return
    for setting in ctx.facts.configs.settings:
        found = secrets.get(setting.name)
        if found is not None:
            yield _client_secret(ctx, setting.name, found, setting.location, setting.name)
    for file in ctx.facts.files:
        seen: set[tuple[int, str]] = set()
        for location, scope, value in _values(file):
            for variable in _env_names(value, secrets):
                found = secrets[variable]
                if (location.line, variable) in seen:
                    continue
                seen.add((location.line, variable))
                symbol = file.module if scope == MODULE_SCOPE else f"{file.module}.{scope}"
                yield _client_secret(ctx, variable, found, location, symbol)


def _env_names(value: Value, wanted: Container[str]) -> list[str]:
    """The `wanted` environment variables a value reads: `process.env.X`, `process.env["X"]`
    and `import.meta.env.X` (which the front-ends record as text only)."""
    names = {name for read in value.reads if (name := read.rsplit(".", 1)[-1]) in wanted}
    if "env" in value.text:     # what `_ENV_READ` needs, asked before the expression runs
        names.update(name for name in _ENV_READ.findall(value.text) if name in wanted)
    return sorted(names)


def _values(file: FileIR) -> Iterator[tuple[Location, str, Value]]:
    for assignment in file.assignments:
        yield assignment.location, assignment.scope, assignment.value
    for call in file.calls:
        for value in (*call.args, *(v for _, v in call.kwargs)):
            yield call.location, call.scope, value


def _client_secret(ctx: CheckContext, variable: str, found: tuple[str, str],
                   location: Location, symbol: str) -> Finding:
    system, secret = found
    return ctx.finding(
        codes.UNTRUSTED_IDENTITY, location=location, symbol=symbol,
        message=f"`{variable}` ships {system}'s server credential `{secret}` to every "
                "browser: any visitor holds it and can do whatever it allows",
        snippet=variable)
