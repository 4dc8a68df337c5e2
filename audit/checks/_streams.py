"""Streams that report a failure as an event, consumed by loops that never look for it.

Seed 002, "Provider failures, observability, and shutdown": MemoRizz `run_stream()` "always
emits a terminal error event containing error_code, exception_type, and optional
provider_status_code"; "Hosts that prefer exception propagation can opt in"
(`raise_on_provider_error=True`). A host loop that forwards every chunk and tests none of them
for an error turns a provider failure into a short, normal-looking answer (M11). Which calls
stream their errors is pack data (`errors_in_stream`, `raise_on_error` on the site).
"""

from __future__ import annotations

from collections.abc import Iterator

from topo.analyzers.ir import FileIR, Guard, GuardKind
from topo.analyzers.model import Site, SiteKind
from topo.audit.checks._registry import CheckContext
from topo.audit.graph.build import sites_of_kind

__all__ = ["unchecked_streams"]

# A test of a chunk that mentions this word looks for the error event (`chunk.type ==
# "error"`, `"error_code" in chunk`, `isinstance(chunk, ErrorEvent)`).
_ERROR_WORD = "error"
_TESTS = (GuardKind.IF, GuardKind.MATCH_CASE, GuardKind.TERNARY, GuardKind.BOOL_OP,
          GuardKind.EARLY_EXIT, GuardKind.WHILE)


def unchecked_streams(ctx: CheckContext) -> Iterator[tuple[Site, Guard]]:
    """(stream call site, the loop over it) for each loop that tests no chunk for an error."""
    for site in sites_of_kind(ctx.graph, SiteKind.INFERENCE):
        if site.attr("errors_in_stream") is not True or site.attr("raise_on_error") is True:
            continue
        found = ctx.calls.get(str(site.attr("call")))
        if found is None:
            continue
        file, call = found
        for loop in _loops_over(file, call.id, call.scope):
            if not _tests_for_errors(file, loop):
                yield site, loop


def _loops_over(file: FileIR, call_id: str, scope: str) -> list[Guard]:
    """`for chunk in agent.run_stream(q)`, or a loop over a name the call's result is
    assigned to (`stream = agent.run_stream(q)` … `for chunk in stream`)."""
    names = {a.target for a in file.assignments
             if a.scope == scope and a.value.call == call_id}
    loops: dict[tuple[int, int], Guard] = {}
    for block in file.blocks:
        guard = block.guard
        if block.scope != scope or guard.kind is not GuardKind.LOOP or guard.condition is None:
            continue
        if call_id in guard.condition.calls or names & set(guard.condition.reads):
            loops[(guard.location.line, guard.location.column)] = guard
    return list(loops.values())


def _tests_for_errors(file: FileIR, loop: Guard) -> bool:
    """A test inside the loop's body whose condition mentions an error."""
    for block in file.blocks:
        if loop not in block.guards or block.guard is loop:
            continue
        condition = block.guard.condition
        if block.guard.kind in _TESTS and condition is not None and \
                _ERROR_WORD in condition.text.lower():
            return True
    return False
