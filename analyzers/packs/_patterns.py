"""Name patterns of pack entries, and the alias rewrite applied before matching.

A pattern is a resolved dotted name with three conveniences, so that a pack row stays short:
- `{a,b}` inside a segment: alternatives (`openai.{OpenAI,AsyncOpenAI}.responses.create`);
- `*` inside a segment: any characters except `.` (`boto3.client.delete_*`); a segment that is
  exactly `*` matches one whole segment;
- a `**` segment: one or more segments (`sklearn.**.predict`, `llama_index.**`).
Alternatives are expanded into exact names at load, so most lookups are a dict hit; only
patterns with `*` are compiled to anchored regular expressions.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["PatternError", "expand_pattern", "compile_pattern", "NameIndex", "NamePatterns",
           "Aliases", "rewrite"]

T = TypeVar("T")


class PatternError(ValueError):
    """A pattern that cannot be read (unbalanced or nested braces, empty alternative)."""


def expand_pattern(pattern: str) -> tuple[str, ...]:
    """Every alternative spelled out: `a.{B,C}.d` → (`a.B.d`, `a.C.d`), in written order."""
    parts: list[tuple[str, ...]] = []
    rest = pattern
    while rest:
        open_at = rest.find("{")
        close_at = rest.find("}")
        if open_at < 0:
            if close_at >= 0:
                raise PatternError(f"{pattern!r}: '}}' without '{{'")
            parts.append((rest,))
            break
        if close_at < open_at:
            raise PatternError(f"{pattern!r}: '}}' without '{{'")
        inner = rest[open_at + 1:close_at]
        if "{" in inner:
            raise PatternError(f"{pattern!r}: nested '{{' is not supported")
        choices = tuple(inner.split(","))
        if any(not choice or "." in choice for choice in choices):
            raise PatternError(f"{pattern!r}: alternatives must be non-empty and inside one "
                               "segment")
        parts.extend([(rest[:open_at],), choices])
        rest = rest[close_at + 1:]
    if "," in "".join(part[0] for part in parts if len(part) == 1):
        raise PatternError(f"{pattern!r}: ',' outside '{{…}}'")
    names = tuple("".join(combo) for combo in itertools.product(*parts))
    for name in names:
        if any("**" in segment and segment != "**" for segment in name.split(".")):
            raise PatternError(f"{pattern!r}: '**' must be a whole segment")
    return names


def compile_pattern(name: str) -> re.Pattern[str]:
    """An anchored expression for one expanded name that contains `*`."""
    pieces = []
    for segment in name.split("."):
        if segment == "**":
            pieces.append(r"[^.]+(?:\.[^.]+)*")
        elif segment == "*":
            pieces.append(r"[^.]+")
        else:
            pieces.append("[^.]*".join(re.escape(part) for part in segment.split("*")))
    return re.compile(r"\.".join(pieces))


def _has_wildcard(name: str) -> bool:
    return "*" in name


@dataclass(frozen=True)
class NameIndex(Generic[T]):
    """Resolved name → the items whose patterns match it, in the order they were added.

    Wildcard patterns are bucketed by their first segment when it is literal (almost all of
    them: `langchain_openai.*…`), so a name only meets the expressions that could match it.
    """

    exact: dict[str, tuple[T, ...]] = field(default_factory=dict)
    wildcards: dict[str, tuple[tuple[re.Pattern[str], T], ...]] = field(default_factory=dict)

    @classmethod
    def build(cls, rows: Iterable[tuple[str, T]]) -> NameIndex[T]:
        exact: dict[str, list[T]] = {}
        wildcards: dict[str, list[tuple[re.Pattern[str], T]]] = {}
        for pattern, item in rows:
            for name in expand_pattern(pattern):
                if _has_wildcard(name):
                    first = name.split(".", 1)[0]
                    bucket = "" if _has_wildcard(first) else first
                    wildcards.setdefault(bucket, []).append((compile_pattern(name), item))
                else:
                    exact.setdefault(name, []).append(item)
        return cls({name: tuple(items) for name, items in exact.items()},
                   {bucket: tuple(items) for bucket, items in wildcards.items()})

    def lookup(self, name: str) -> tuple[T, ...]:
        """Items matching `name`, each once, exact matches first."""
        found: list[T] = []
        for item in self.exact.get(name, ()):
            if item not in found:
                found.append(item)
        first = name.split(".", 1)[0]
        for bucket in (first, ""):
            for expression, item in self.wildcards.get(bucket, ()):
                if item not in found and expression.fullmatch(name):
                    found.append(item)
        return tuple(found)


def rewrite(name: str, aliases: Iterable[tuple[str, str]]) -> str:
    """Apply the longest matching module-prefix alias once: `ami.AMIClient.decide` →
    `memrail.AMIClient.decide`. A prefix matches whole segments only (`amix` is not `ami`)."""
    return Aliases.of(aliases).rewrite(name)


@dataclass(frozen=True)
class Aliases:
    """Module-prefix aliases by prefix, so that a rewrite asks for the name's own prefixes (a
    few) instead of trying every alias: names are rewritten once per call of a run."""

    targets: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, aliases: Iterable[tuple[str, str]]) -> Aliases:
        targets: dict[str, str] = {}
        for prefix, target in aliases:
            targets.setdefault(prefix, target)      # of two equal prefixes, the first wins
        return cls(targets)

    def rewrite(self, name: str) -> str:
        """`rewrite(name, aliases)`: the name itself, then each prefix ending before a `.`,
        longest first."""
        end = len(name)
        while end >= 0:
            target = self.targets.get(name[:end])
            if target is not None:
                return target + name[end:]
            end = name.rfind(".", 0, end)
        return name


@dataclass(frozen=True)
class NamePatterns:
    """A set of names given by patterns, asked after alias rewriting: `name in patterns`.

    Answers are kept per name (`known`): a run asks about the same few thousand callees for
    every call that names them."""

    index: NameIndex[bool]
    aliases: Aliases = field(default_factory=Aliases)
    known: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def build(cls, patterns: Iterable[str], aliases: Iterable[tuple[str, str]] = ()
              ) -> NamePatterns:
        return cls(NameIndex.build((pattern, True) for pattern in patterns), Aliases.of(aliases))

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        found = self.known.get(name)
        if found is None:
            found = self.known[name] = bool(self.index.lookup(self.aliases.rewrite(name)))
        return found
