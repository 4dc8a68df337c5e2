"""Whether a site's attributes satisfy an entry's `when` conditions and its judgements.

A condition compares what the code wrote, never a guess: a value that is not a literal
matches only `present` and `or_unknown`, so a heuristic (`unless` a token endpoint) cannot
drop an effect whose URL nobody can read.
"""

from __future__ import annotations

from topo.analyzers.model import AttrValue
from topo.analyzers.packs._model import Condition, Entry

__all__ = ["holds", "admitted"]


def admitted(entry: Entry, attrs: dict[str, AttrValue]) -> bool:
    """The entry yields a site for these attributes: its `when` holds, none of its `unless`
    judgements does, and one of its `if_judged` judgements does (when it names any)."""
    if not holds(entry.when, attrs):
        return False
    if any(holds(judgement.conditions, attrs) for judgement in entry.unless):
        return False
    return not entry.if_judged or any(holds(judgement.conditions, attrs)
                                      for judgement in entry.if_judged)


def holds(conditions: tuple[Condition, ...], attrs: dict[str, AttrValue]) -> bool:
    return all(_holds_one(condition, attrs) for condition in conditions)


def _holds_one(condition: Condition, attrs: dict[str, AttrValue]) -> bool:
    unknown = attrs.get(f"{condition.attr}_literal") is False
    if condition.present:
        return condition.attr in attrs or unknown
    if condition.or_unknown and unknown:
        return True
    value = attrs.get(condition.attr, _ABSENT)
    if condition.mentions:
        return isinstance(value, str) and any(_mentions(value, word)
                                              for word in condition.mentions)
    if condition.starts:
        return isinstance(value, str) \
            and _first_word(value) in {word.lower() for word in condition.starts}
    if condition.has_all or condition.has_any:
        return _has(value, condition)
    wanted = condition.one_of or (condition.value,)
    # `needs_approval=1` is not `True`: compare types too.
    return any(type(value) is type(option) and value == option for option in wanted)


def _first_word(text: str) -> str:
    """The text's first word, lowercased: `  (SELECT 1)` → `select`."""
    stripped = text.lstrip().lstrip("(").lstrip()
    end = 0
    while end < len(stripped) and (stripped[end].isalpha() or stripped[end] == "_"):
        end += 1
    return stripped[:end].lower()


def _mentions(text: str, word: str) -> bool:
    """`word` occurs in `text` (case-insensitively) and ends where a URL segment or query
    part ends: at the end of the text or before one of `/?#&=;`. `.`, `-`, `_` and a `*` hole
    continue the word: `/api/chat` is not in `/api/chat.postMessage`."""
    text, word = text.lower(), word.lower()
    start = text.find(word)
    while start != -1:
        end = start + len(word)
        if end == len(text) or text[end] in _WORD_ENDS:
            return True
        start = text.find(word, start + 1)
    return False


_WORD_ENDS = frozenset("/?#&=;")


def _has(value: object, condition: Condition) -> bool:
    if not isinstance(value, tuple):
        return False
    names = set(value)
    return set(condition.has_all) <= names and (not condition.has_any
                                                or bool(names & set(condition.has_any)))


_ABSENT = object()
