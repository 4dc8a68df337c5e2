"""The tier of a call that runs a tool by name: what the called tool's name says it does.

A remote tool call (MCP `client.callTool({ name: "transfer_funds" })`, a raw JSON-RPC
`tools/call`) runs code topo cannot see; its name is all the call says. An entry with
`tier_by_name` reads that name and ranks the call by the write verb it begins with, using the
packs' `[tools.intent] verbs` (the same words that make a stub tool an intent executor), so the
verbs live in one place: `transfer_funds` is money, `delete_file` deletion. A name whose first
word is a read verb (`get_balance`, `list_tools`) is no executor. Any other name, or one the
code does not spell (`callTool({ name })`), keeps the entry's tier and is inferred: an unknown
tool is never guessed to be harmless.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from topo.analyzers.model import Site
from topo.analyzers.packs._knowledge import merged_intent
from topo.analyzers.packs._model import Pack
from topo.analyzers.packs._verbs import verb_sets, words

__all__ = ["NameTiers"]


@dataclass(frozen=True, slots=True)
class _Rule:
    attr: str
    reads: frozenset[str]


@dataclass(frozen=True, slots=True)
class NameTiers:
    """The `tier_by_name` entries of a run's packs (by entry id) and the verbs they rank by."""

    rules: tuple[tuple[str, _Rule], ...] = ()
    writes: tuple[tuple[str, str], ...] = ()           # write verb → tier (a Tier value)
    excluded: tuple[tuple[str, ...], ...] = ()         # names that begin so are no write

    @classmethod
    def of(cls, packs: Iterable[Pack]) -> NameTiers:
        packs = tuple(packs)
        sets = verb_sets(packs)
        intent = merged_intent([pack.tools.intent for pack in packs if pack.tools.intent])
        rules = tuple((entry.id, _Rule(entry.tier_by_name.attr,
                                       sets.get(entry.tier_by_name.reads or "", frozenset())))
                      for pack in packs for entry in pack.entries if entry.tier_by_name)
        return cls(rules, intent.verbs if intent else (),
                   tuple(tuple(text.split()) for text in intent.excluded_names)
                   if intent else ())

    def apply(self, sites: Iterable[Site]) -> list[Site]:
        """The sites with each `tier_by_name` executor ranked by its tool's name; a read-named
        one is dropped."""
        rules = dict(self.rules)
        found = []
        for site in sites:
            rule = rules.get(str(site.attr("entry")))
            ranked = site if rule is None else self._ranked(site, rule)
            if ranked is not None:
                found.append(ranked)
        return found

    def _ranked(self, site: Site, rule: _Rule) -> Site | None:
        name = site.attr(rule.attr)
        split = words(name) if isinstance(name, str) else ()
        if split and split[0] in rule.reads:
            return None
        tier = dict(self.writes).get(split[0]) if split else None
        if tier is None or any(split[:len(phrase)] == phrase for phrase in self.excluded):
            return replace(site, inferred=True)
        return site.with_attrs(tier=tier, intent_verb=split[0])
