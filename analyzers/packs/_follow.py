"""Reading a value through what the code plainly says it is: a name's one assignment, a call
that only re-encodes its argument (`JSON.stringify(payload)`), and the known text of a URL.

Nothing here guesses: a name assigned twice, a parameter, an attribute or any other call
stays what it was, and the attribute reader records it as not literal.
"""

from __future__ import annotations

from topo.analyzers.ir import Call, Value, ValueKind, scope_chain
from topo.analyzers.packs._facts import FileFacts

__all__ = ["settled", "known_text"]

_MAX_STEPS = 8   # `a = b`, `b = c` chains end here; a cycle cannot loop


def settled(value: Value, call: Call, facts: FileFacts, *, follow: bool,
            through: tuple[str, ...]) -> Value:
    """`value` with names followed to their one assignment (`follow`) and calls named in
    `through` replaced by their first argument."""
    for _ in range(_MAX_STEPS):
        nested = facts.calls.get(value.call or "") if value.kind is ValueKind.CALL else None
        if nested is not None and nested.callee in through and nested.args:
            value = nested.args[0]
        elif follow and value.kind is ValueKind.NAME:
            assigned = _assigned(value, call, facts)
            if assigned is None:
                return value
            value = assigned
        else:
            return value
    return value


def _assigned(name: Value, call: Call, facts: FileFacts) -> Value | None:
    """The value of a plain name's only assignment in the innermost scope (of the call's
    scope chain) that assigns it."""
    if not (name.ref or "").isidentifier():
        return None
    for scope in scope_chain(call.scope):
        found = [a for a in facts.file.assignments if a.target == name.ref and a.scope == scope]
        if found:
            only = found[0]
            if len(found) > 1 or only.element or only.augmented:
                return None     # reassigned or destructured: which value is not plain
            return only.value
    return None


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
