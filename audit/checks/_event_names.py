"""When two event names are "the same event, written differently".

Seed 000, "A negative event guard always passes": "compare exact name order"; its example is
`agent.sent.email` in a trigger against an emitter of `agent.email.sent`. Two names drift when
they have the same number of segments and, for the best pairing of segments (any order), the
segments differ by at most two edits in all, each segment that differs by less than half its
length (so `sent`/`seen` or `ok`/`no` stay different words). Segments are compared in the
singular (`emails`, `replies` → `email`, `reply`); a transposition counts as one edit
(`emial` → `email`).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import permutations

__all__ = ["drifted_names", "MAX_EDITS"]

MAX_EDITS = 2


def drifted_names(name: str, emitted: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """The emitted names that `name` drifts from, each with how: `same words in another
    order` or `a near-miss spelling`.

    >>> drifted_names("agent.sent.email", ["agent.email.sent", "user.created.account"])
    (('agent.email.sent', 'same words in another order'),)
    """
    found = []
    for other in sorted(set(emitted)):
        how = _drift(name, other)
        if how is not None:
            found.append((other, how))
    return tuple(found)


def _drift(name: str, other: str) -> str | None:
    mine, theirs = name.split("."), other.split(".")
    if name == other or len(mine) != len(theirs):
        return None
    best = min(_cost(mine, arrangement) for arrangement in permutations(theirs))
    if best > MAX_EDITS:
        return None
    if best == 0 and sorted(mine) == sorted(theirs):
        return "same words in another order"
    return "a near-miss spelling"


def _cost(mine: list[str], theirs: tuple[str, ...]) -> int:
    """Edits between paired segments; a pairing with an unrecognisable segment costs more than
    any drift allows."""
    total = 0
    for a, b in zip(mine, theirs, strict=True):
        a, b = _singular(a), _singular(b)
        edits = _edits(a, b)
        if edits and edits * 2 >= min(len(a), len(b)):
            return MAX_EDITS + 1
        total += edits
    return total


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _edits(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions and adjacent
    transpositions, each one edit."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], previous2[j - 2] + 1)
        previous2, previous = previous, row
    return previous[len(b)]
