"""The one way to add a check: a function decorated with the codes it may emit.

`@check(codes.X, codes.Y)` turns a generator function into a `Check`; `ctx.finding()` refuses
any code the check did not declare (flake8-async's `error_codes` idea). Checks are pure: they
read the context and yield findings — no globals, no I/O, no printing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

import networkx as nx

from topo.analyzers.flow.facts import SourceFacts
from topo.analyzers.ir import Call, FileIR
from topo.analyzers.model import Location, Site, Tier
from topo.audit.graph.chains import Reach
from topo.audit.model import Code, Finding, Severity
from topo.audit.policy import Emu

__all__ = ["Check", "CheckConfig", "CheckContext", "FactIndex", "check", "executor_severity",
           "severity_for"]


@dataclass(frozen=True, slots=True)
class CheckConfig:
    max_path: int = 8          # call hops followed back from an executor
    max_chains: int = 64       # call chains examined per executor
    retention_days: int = 90


@dataclass(frozen=True, slots=True)
class FactIndex:
    """Lookups the checks make many times, built once per run: a scan of every file or site
    per question is quadratic on a large repository (hundreds of decisions, thousands of
    files)."""

    by_path: Mapping[str, FileIR]
    by_module: Mapping[str, FileIR]          # the first file, in path order, of each module
    sites_by_call: Mapping[str, tuple[Site, ...]]   # a site's `call` attribute -> the sites

    @classmethod
    def of(cls, facts: SourceFacts) -> FactIndex:
        by_module: dict[str, FileIR] = {}
        for file in facts.files:
            by_module.setdefault(file.module, file)
        sites: dict[str, list[Site]] = defaultdict(list)
        for site in facts.sites:
            call = site.attr("call")
            if call:
                sites[str(call)].append(site)
        return cls({file.path: file for file in facts.files}, by_module,
                   {call: tuple(found) for call, found in sites.items()})


@dataclass(frozen=True, slots=True)
class CheckContext:
    graph: nx.MultiDiGraph
    facts: SourceFacts
    emus: tuple[Emu, ...]
    config: CheckConfig
    calls: Mapping[str, tuple[FileIR, Call]]
    reach: Reach = field(compare=False, repr=False)   # the graph's chain query, once per run
    index: FactIndex = field(compare=False, repr=False)
    allowed: frozenset[str] = frozenset()

    def finding(self, code: Code, *, location: Location, message: str, symbol: str = "",
                emu_key: str | None = None, snippet: str = "", path: tuple[str, ...] = (),
                related: tuple[Location, ...] = (), severity: Severity | None = None,
                inferred: bool = False, unmatchable: bool = False) -> Finding:
        if code.id not in self.allowed:
            raise ValueError(f"this check did not declare {code.id}")
        return Finding(code=code, severity=severity or code.default_severity, message=message,
                       location=location, symbol=symbol, emu_key=emu_key, snippet=snippet,
                       inferred=inferred, related=related, path=path, unmatchable=unmatchable)


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    codes: tuple[Code, ...]
    run: Callable[[CheckContext], Iterator[Finding]] = field(repr=False)


def check(*codes: Code) -> Callable[[Callable[[CheckContext], Iterator[Finding]]], Check]:
    def register(function: Callable[[CheckContext], Iterator[Finding]]) -> Check:
        return Check(function.__name__, codes, function)
    return register


# Consequence tiers (findings.md: "defaults may be raised or lowered by the consequence tier"):
# the code's default drops by the executor's consequence level (`Tier.level`: money, deletion,
# access and code execution keep it; communication, data writes and workflow steps are one
# level lower; no tier two), plus its `tier_drop` (an intent executor is one tier lower). An
# unknown tier counts as level 1. Never below low.
_ORDER = (Severity.LOW, Severity.MEDIUM, Severity.HIGH, Severity.CRITICAL)


def severity_for(code: Code, tier: object, tier_drop: object = 0) -> Severity:
    """The code's default severity adjusted by an executor's consequence tier."""
    drop = tier_drop if isinstance(tier_drop, int) and not isinstance(tier_drop, bool) else 0
    try:
        drop = Tier(str(tier)).lowered(drop)
    except ValueError:
        drop = 1 + drop
    return _ORDER[max(0, _ORDER.index(code.default_severity) - drop)]


def executor_severity(code: Code, executor: Site) -> Severity:
    """`severity_for` with an executor site's own `tier` and `tier_drop`."""
    return severity_for(code, executor.attr("tier"), executor.attr("tier_drop", 0))
