"""The verb rule: under a resolved client root, the called method's first word decides.

An SDK exposes hundreds of methods; listing each write is a race the catalog loses. An entry
with `verbs = "<set>"` instead matches the client root with a wildcard segment (`stripe.**.*`,
`slack_sdk.WebClient.{chat,files}_*`, `googleapiclient.discovery.build.**.*.execute`) and
keeps a call only when the text that segment's `*` matched (the method) starts with a verb of
the named set (`[verbs]` of any pack), or is one of the entry's `exact_methods`. Words split at
`_`, `$` and camelCase humps, so `finalize_invoice`, `finalizeInvoice` and
`FinalizeInvoiceCommand` all start with `finalize`. A method whose first word is in no set
gives no site: an unknown verb is never guessed to be a write.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from topo.analyzers.packs._model import Entry, Pack, PackError
from topo.analyzers.packs._patterns import PatternError, expand_pattern

__all__ = ["words", "verb_segment", "compile_verb_pattern", "verb_sets", "VerbRule"]

_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def words(method: str) -> tuple[str, ...]:
    """`finalizeInvoice` → (finalize, invoice); `files_sharedPublicURL` → (files, shared,
    public, url); `$executeRaw` → (execute, raw); `PutObjectCommand` → (put, object, command)."""
    return tuple(word.lower() for word in _WORD.findall(method))


def verb_segment(name: str) -> int | None:
    """The index of the segment whose `*` names the method: the last one that has a `*` and
    is not `**`; None when there is none or that segment has more than one `*`."""
    segments = name.split(".")
    for index in range(len(segments) - 1, -1, -1):
        segment = segments[index]
        if "*" in segment and segment != "**":
            return index if segment.count("*") == 1 else None
    return None


def compile_verb_pattern(name: str) -> re.Pattern[str]:
    """An anchored expression for one expanded name whose method segment's `*` is the group
    `method` (`slack_sdk.WebClient.chat_*` captures `postMessage` of `chat_postMessage`)."""
    at = verb_segment(name)
    if at is None:
        raise PatternError(f"{name!r}: a verbs entry needs one segment with a single '*' "
                           "(the method), such as 'stripe.**.*'")
    pieces = []
    for index, segment in enumerate(name.split(".")):
        if segment == "**":
            pieces.append(r"[^.]+(?:\.[^.]+)*")
        elif index == at:
            before, after = segment.split("*")
            pieces.append(f"{re.escape(before)}(?P<method>[^.]+){re.escape(after)}")
        else:
            pieces.append("[^.]*".join(re.escape(part) for part in segment.split("*")))
    return re.compile(r"\.".join(pieces))


def verb_sets(packs: Iterable[Pack]) -> dict[str, frozenset[str]]:
    """The `[verbs]` sets of all packs by name; every set an entry names must exist, and a
    name is defined once."""
    packs = tuple(packs)
    sets: dict[str, tuple[frozenset[str], str]] = {}
    for pack in packs:
        for name, verbs in pack.verbs:
            if name in sets:
                raise PackError(f"{pack.file}: verbs.{name}: also defined by {sets[name][1]}")
            sets[name] = (frozenset(verbs), pack.file)
    for pack in packs:
        for index, entry in enumerate(pack.entries):
            if entry.verbs is not None and entry.verbs not in sets:
                raise PackError(f"{pack.file}: entries[{index}].verbs: no verb set "
                                f"{entry.verbs!r} (known: {sorted(sets)})")
            reads = entry.tier_by_name.reads if entry.tier_by_name else None
            if reads is not None and reads not in sets:
                raise PackError(f"{pack.file}: entries[{index}].tier_by_name.reads: no verb "
                                f"set {reads!r} (known: {sorted(sets)})")
    return {name: words for name, (words, _) in sets.items()}


@dataclass(frozen=True)
class VerbRule:
    """Decides, for a verbs entry that matched a name, whether its method is a listed verb."""

    verbs: frozenset[str]
    methods: frozenset[str]
    patterns: tuple[re.Pattern[str], ...]

    @classmethod
    def of(cls, entry: Entry, sets: Mapping[str, frozenset[str]]) -> VerbRule:
        return cls(sets.get(entry.verbs or "", frozenset()), frozenset(entry.exact_methods),
                   tuple(compile_verb_pattern(name) for pattern in entry.match
                         for name in expand_pattern(pattern)))

    def allows(self, name: str) -> bool:
        for pattern in self.patterns:
            found = pattern.fullmatch(name)
            if found is None:
                continue
            method = found.group("method")
            split = words(method)
            if method in self.methods or (split and split[0] in self.verbs):
                return True
        return False
