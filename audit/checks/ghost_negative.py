"""GHOST-NEGATIVE: a consequential effect runs because a memory or database lookup found
nothing, and that absence does not mean "it never happened".

Other-systems.md §4.6 generalises Memrail's ghost guard (GHOST-EVENT) to memory and databases:
`if not client.recall(...)["evidence"]: refund()`, `if (!(await db.refund.findFirst(…)))`,
`if not session.query(Refund).filter_by(…).first()`. A database lookup's producers are inserts
into the same table (the model class, or the SQL `FROM`/`INTO` table).
Each negative guard is resolved to the writes that would make the lookup non-empty and is
reported with exactly one cause, the first that holds, in this order:

1. no producer — nothing in the repository writes what the lookup reads;
2. model-dependent producer — only the model writes it (memory tools handed to the model,
   `memorize`), so absence means "the model did not comply";
3. retention — the record expires or the store forgets or rewrites it by configuration, as
   the store's pack says in `[[retention]]` (MemoRizz approval proposals, ttl 900 s;
   `MUBIT_CL_FORGET=1`, `MEMEX_DREAM_ENABLED=true` in `.env*`, compose `environment:` or MCP
   server `env`); a ttl is reported before the other causes, settings in this place;
4. fail-open producer — every write swallows its own failure (`except …: pass`, a handler
   that logs and carries on, or a write site a pack marks `fail_open = true`);
5. producer on the error path only / producer before the outcome — the write sits in an
   `except` handler, or before the effect in the same function;
6. scope mismatch — every producer writes under another run/session than the lookup reads;
7. asynchronous write — a Mubit `remember` earlier in the same function, with no
   `get_ingest_job` poll before the lookup;
8. non-exhaustive recall — similarity or BM25 retrieval used as an existence check.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from topo.analyzers.ir import FileIR, GuardKind, Value, ValueKind
from topo.audit import codes
from topo.audit.checks._memory import is_negative, memory_reads, read_labels, retention_settings
from topo.audit.checks._registry import CheckContext, check, executor_severity
from topo.audit.graph.build import sites_of_kind
from topo.analyzers.model import Site, SiteKind
from topo.audit.model import Finding

__all__ = ["ghost_negative"]

_GUARDS = (GuardKind.IF, GuardKind.EARLY_EXIT, GuardKind.BOOL_OP, GuardKind.TERNARY)
_INSERTS = ("create", "createMany", "upsert", "createManyAndReturn")
_ORM_ADDS = ("add", "add_all", "merge")


@dataclass(frozen=True, slots=True)
class _Guarded:
    read: Site
    executor: Site
    where: object          # the guard's location
    function: str          # the scope of the executor call


@check(codes.GHOST_NEGATIVE)
def ghost_negative(ctx: CheckContext) -> Iterator[Finding]:
    reads = memory_reads(ctx)
    if not reads:
        return
    found: dict[str, _Guarded] = {}
    for executor in sites_of_kind(ctx.graph, SiteKind.EXECUTOR):
        for chain in ctx.reach.of(executor):
            for hop in chain.hops:
                for guard in hop.call.guards:
                    if guard.kind not in _GUARDS:
                        continue
                    for read_id, comparison in read_labels(ctx, hop.file, hop.call.scope,
                                                           guard, reads).items():
                        if is_negative(guard, comparison) and read_id not in found:
                            found[read_id] = _Guarded(reads[read_id], executor,
                                                      comparison.location,
                                                      chain.hops[-1].call.scope)
    for read_id in sorted(found):
        guarded = found[read_id]
        cause = _cause(ctx, guarded)
        if cause is None:
            continue
        read, executor = guarded.read, guarded.executor
        yield ctx.finding(
            codes.GHOST_NEGATIVE, location=guarded.where, symbol=read.symbol,
            message=f"`{executor.attr('callee') or executor.symbol}` runs when "
                    f"`{read.attr('callee')}` finds nothing: {cause}",
            path=(read.id, executor.id), related=(read.location, executor.location),
            severity=executor_severity(codes.GHOST_NEGATIVE, executor))


def _cause(ctx: CheckContext, guarded: _Guarded) -> str | None:
    read = guarded.read
    for rule in ctx.facts.knowledge.retention_rules(str(read.attr("store"))):
        if rule.ttl_seconds is not None:
            return (f"retention: {rule.records} expire (ttl {rule.ttl_seconds} s), so "
                    f"{rule.absence}")
    code_producers, model_producers = _producers(ctx, read)
    if not code_producers and not model_producers:
        return "no producer: nothing in the repository writes what it looks up"
    if not code_producers:
        return ("model-dependent producer: only the model writes it "
                f"(`{model_producers[0].attr('callee')}`)")
    settings = retention_settings(ctx, str(read.attr("store")))
    if settings:
        return (f"retention: `{settings[0].name}={settings[0].value}` in "
                f"`{settings[0].location.file}` lets the store drop or rewrite what was "
                "written, so finding nothing is not \"never happened\"")
    if all(_fails_open(ctx, p) for p in code_producers):
        return ("fail-open producer: every write swallows its own failure (an `except` that "
                "does not re-raise, or an adapter documented to fail open), so a lost write "
                "reads as \"never happened\"")
    if all(_on_error_path(ctx, p) for p in code_producers):
        return "producer on the error path only: every write sits in an exception handler"
    if all(_before(p, guarded.executor) for p in code_producers):
        return "producer before the outcome: every write precedes the effect"
    scope = _scope(read)
    if scope and all(_scope(p) and _scope(p) != scope for p in code_producers):
        return (f"scope mismatch: the lookup reads `{scope}` but every write goes to "
                f"`{_scope(code_producers[0])}`")
    if _async_before(ctx, read, code_producers):
        return ("asynchronous write: `remember` earlier in the same function is not indexed "
                "yet (no `get_ingest_job` poll before the lookup)")
    if read.attr("exhaustive") is False:
        return ("non-exhaustive recall: similarity retrieval returns the top matches, not "
                "proof of absence")
    return None


def _producers(ctx: CheckContext, read: Site) -> tuple[list[Site], list[Site]]:
    code: list[Site] = []
    model: list[Site] = []
    store = read.attr("store")
    for site in ctx.facts.sites:
        if store == "database":
            table = _table(read)
            if site.kind is SiteKind.EXECUTOR and site.system == read.system:
                inserted = _inserted_table(ctx, site)
                # A table the lookup names dynamically is filled by any insert.
                if inserted is not None and (inserted == table or not table):
                    code.append(site)
        elif site.kind is SiteKind.MEMORY_WRITE and site.attr("store") == store and \
                site.attr("destructive") is not True and _matches(read, site):
            (model if site.attr("author") == "model" else code).append(site)
        elif site.kind is SiteKind.TOOL_REGISTRATION and site.attr("memory_tools") and \
                site.system == store:
            model.append(site)
    return code, model


def _matches(read: Site, write: Site) -> bool:
    """A write that could make this lookup non-empty: the same path for exact reads, an
    entry type the recall asks for."""
    if read.attr("operation") == "read" and read.attr("path") and write.attr("path"):
        return read.attr("path") == write.attr("path")
    wanted = read.attr("entry_types")
    intent = write.attr("intent")
    if isinstance(wanted, str) and isinstance(intent, str):
        return f'"{intent}"' in wanted or f"'{intent}'" in wanted
    return True


def _table(read: Site) -> str:
    """The table a database lookup reads: the model class (`query(Refund)`,
    `select(Refund)`), the SQL `FROM` table, or the Prisma model (`db.refund.findFirst`)."""
    if isinstance(read.attr("table"), str):
        return _model_name(str(read.attr("table")))
    if read.attr("sql") is not None or read.system != "prisma":
        return _sql_table(read.attr("sql"), "FROM")
    parts = str(read.attr("callee")).split(".")
    return parts[-2] if len(parts) >= 2 else ""


def _inserted_table(ctx: CheckContext, site: Site) -> str | None:
    """The table an executor inserts into, or None when it inserts nothing readable:
    `session.add(Refund(...))` (or of a name bound to `Refund(...)`), `INSERT INTO refunds`
    SQL, a Prisma `db.refund.create`."""
    method = str(site.attr("callee")).rsplit(".", 1)[-1]
    if site.attr("sql") is not None:
        return _sql_table(site.attr("sql"), "INTO") or None
    if method in _ORM_ADDS:
        found = ctx.calls.get(str(site.attr("call")))
        if found is None or not found[1].args:
            return None
        return _constructed(found[0], found[1].scope, found[1].args[0], found[1].location.line)
    if method in _INSERTS:
        parts = str(site.attr("callee")).split(".")
        return parts[-2] if len(parts) >= 2 else None
    return None


def _constructed(file: FileIR, scope: str, value: Value, line: int) -> str | None:
    """The class a value builds: `Refund(...)` written in place, or the latest assignment
    `refund = Refund(...)` above in the same scope."""
    if value.kind is ValueKind.NAME and value.ref:
        bound = [a for a in file.assignments if a.target == value.ref and a.scope == scope
                 and a.location.line <= line and a.value.kind is ValueKind.CALL]
        if not bound:
            return None
        value = max(bound, key=lambda a: a.location.line).value
    if value.kind is not ValueKind.CALL:
        return None
    return _model_name(value.text.split("(", 1)[0])


def _model_name(text: str) -> str:
    return text.strip().rsplit(".", 1)[-1]


def _sql_table(sql: object, keyword: str) -> str:
    """The identifier after `FROM` (a SELECT) or `INTO` (an INSERT) in literal SQL, lower
    case and unquoted; "" when the text is not literal or has no such clause."""
    if not isinstance(sql, str):
        return ""
    words = sql.replace("(", " ( ").replace(",", " , ").split()
    if keyword == "INTO" and (not words or words[0].upper() not in ("INSERT", "REPLACE")):
        return ""
    for index, word in enumerate(words[:-1]):
        if word.upper() == keyword:
            return words[index + 1].strip('"`[]').rsplit(".", 1)[-1].lower()
    return ""


def _scope(site: Site) -> str:
    return " ".join(str(site.attr("session_id") or "").split())


def _on_error_path(ctx: CheckContext, site: Site) -> bool:
    found = ctx.calls.get(str(site.attr("call")))
    return found is not None and any(g.kind is GuardKind.EXCEPT for g in found[1].guards)


def _fails_open(ctx: CheckContext, site: Site) -> bool:
    """A write whose failure is swallowed: a pack marks it `fail_open` (an adapter that logs
    and drops write errors), or it sits in a `try` whose handler does not end by raising."""
    if site.kind.declares("fail_open") and site.attr("fail_open") is True:
        return True
    found = ctx.calls.get(str(site.attr("call")))
    if found is None:
        return False
    file, call = found
    return any(block.guard.kind is GuardKind.EXCEPT and call.id in block.guard.try_calls
               and block.guard.exits != "raise" for block in file.blocks)


def _before(producer: Site, executor: Site) -> bool:
    return producer.symbol == executor.symbol and \
        producer.location.file == executor.location.file and \
        producer.location.line < executor.location.line


def _async_before(ctx: CheckContext, read: Site, producers: list[Site]) -> bool:
    earlier = [p for p in producers if p.kind.declares("asynchronous")
               and p.attr("asynchronous") is True
               and p.symbol == read.symbol and p.location.file == read.location.file
               and p.location.line < read.location.line]
    if not earlier:
        return False
    waits = earlier[0].attr("completed_by") or ()    # the pack names the poll calls
    polled = any(call.name in waits and
                 file.path == read.location.file and
                 earlier[0].location.line < call.location.line < read.location.line
                 for file, call in ctx.calls.values())
    return not polled
