"""Reading a value through what the code plainly says it is: a name's one assignment, a call
that only re-encodes its argument (`JSON.stringify(payload)`), and the known text of a URL.

Nothing here guesses: a name assigned twice, a parameter, an attribute or any other call
stays what it was, and the attribute reader records it as not literal. The one partial
answer is `Appended`, for a known text only: a name built by one assignment and then only
`+=` appends (`query = "SELECT …"`, `query += " AND x = ?"`) is known to start with its
first value, and nothing is said of how it ends.
"""

from __future__ import annotations

from dataclasses import dataclass

from topo.analyzers.ir import Assignment, Call, Value, ValueKind, scope_chain
from topo.analyzers.packs._facts import FileFacts

__all__ = ["Appended", "settled", "known_text"]


@dataclass(frozen=True, slots=True)
class Appended:
    """A name whose value is `start` followed by what later `+=` appends add."""

    start: Value

_MAX_STEPS = 8   # `a = b`, `b = c` chains end here; a cycle cannot loop


def settled(value: Value, call: Call, facts: FileFacts, *, follow: bool,
            through: tuple[str, ...], appended: bool = False,
            elements: bool = False) -> Value | Appended:
    """`value` with names followed to their one assignment (`follow`) and calls named in
    `through` replaced by their first argument. With `appended`, a name built by one
    assignment and then appends is `Appended` (its start); otherwise it stays the name. With
    `elements`, a name bound by a destructuring (`fd, path = tempfile.mkstemp()`) is followed
    to the destructured value: what made it, not what it is."""
    for _ in range(_MAX_STEPS):
        nested = facts.calls.get(value.call or "") if value.kind is ValueKind.CALL else None
        if nested is not None and nested.callee in through and nested.args:
            value = nested.args[0]
        elif follow and value.kind is ValueKind.NAME:
            found = _assignments(value, call, facts)
            if len(found) == 1 and not found[0].augmented and (elements
                                                                or not found[0].element):
                value = found[0].value
            elif appended and _built_by_appends(found):
                start = settled(found[0].value, call, facts, follow=follow, through=through)
                return Appended(start)
            else:
                return value     # reassigned or destructured: which value is not plain
        else:
            return value
    return value


def _assignments(name: Value, call: Call, facts: FileFacts) -> list[Assignment]:
    """The assignments of a plain name in the innermost scope (of the call's scope chain)
    that assigns it, in source order."""
    if not (name.ref or "").isidentifier():
        return []
    for scope in scope_chain(call.scope):
        found = [a for a in facts.file.assignments if a.target == name.ref and a.scope == scope]
        if found:
            return found
    return []


def _built_by_appends(found: list[Assignment]) -> bool:
    """One plain assignment, first in the source, and only `+=` appends after it."""
    first, *rest = found or [None]
    return first is not None and bool(rest) and not first.element and not first.augmented \
        and all(a.augmented and not a.element and _after(a, first) for a in rest)


def _after(later: Assignment, first: Assignment) -> bool:
    return (later.location.line, later.location.column) > \
        (first.location.line, first.location.column)


def known_text(value: Value) -> str | None:
    """What a string argument is known to say: a literal's text, or a template's / f-string's
    literal parts with `*` for each hole (`${base}/oauth/token` → `*/oauth/token`); None for
    anything else (a name, a call, a concatenation)."""
    if value.kind is ValueKind.STRING and isinstance(value.literal, str):
        return value.literal
    if value.kind is not ValueKind.FORMAT:
        return None
    text = value.text
    if text.startswith("`"):
        return _holes(text.strip("`"), "${")
    body = text.lstrip("fFrRbBuU")
    quote = body[:3] if body[:3] in ('"""', "'''") else body[:1]
    if not quote or not body.endswith(quote) or len(body) < 2 * len(quote):
        return None     # truncated source text: its end is not known
    return _holes(body[len(quote):-len(quote)], "{").replace("{{", "{").replace("}}", "}")


def _holes(text: str, opening: str) -> str:
    """`text` with every `{…}` hole (nested braces included) replaced by `*`; `{{` in an
    f-string is a literal brace, not a hole."""
    out, index = [], 0
    while index < len(text):
        if text.startswith(opening, index) and not (opening == "{" and
                                                    text.startswith("{{", index)):
            depth, index = 1, index + len(opening)
            while index < len(text) and depth:
                depth += {"{": 1, "}": -1}.get(text[index], 0)
                index += 1
            out.append("*")
        elif opening == "{" and text.startswith(("{{", "}}"), index):
            out.append(text[index:index + 2])
            index += 2
        else:
            out.append(text[index])
            index += 1
    return "".join(out)
