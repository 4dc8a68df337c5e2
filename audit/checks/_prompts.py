"""The instructions a model call (or an agent a model runs) is given, and the constraints in them.

Prompt text reaches a model through a few conventional places (other-systems.md, O3):
`system=` (Anthropic), `instructions=` (OpenAI Responses, OpenAI Agents, ADK, Agno),
`system_prompt=` (pydantic-ai), `system_message=` (AutoGen), a `{"role": "system", …}` message,
a `("system", …)` tuple or a `SystemMessage(…)` in the message list. For a model-invoked tool,
the instructions are those of the call that hands the tool to the model (`tools=[…]`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from topo.analyzers.ir import Call, FileIR, Value, ValueKind
from topo.audit.checks._registry import CheckContext
from topo.audit.checks._values import Bound, bound, prompt_text
from topo.analyzers.model import Location, Site, SiteKind

__all__ = ["Prompt", "ToolHolder", "prompts_of", "tool_holders", "constraint_in"]

_PROMPT_KWARGS = ("system", "instructions", "system_prompt", "system_message", "systemPrompt")
_MESSAGE_KWARGS = ("messages", "input")
# Imperative constraint vocabulary (other-systems.md, A8): words that only a reader obeys.
_CONSTRAINT = re.compile(
    r"\b(?:never|must not|must never|do not|don't|cannot|unless|"
    r"only\s+(?:\w+\s+){0,4}?(?:if|when|after)|"
    r"not allowed|forbidden|prohibited|under no circumstances|escalate|"
    r"(?:require|requires|required|need|needs|without|ask for|get)\s+(?:\w+\s+){0,2}"
    r"(?:approval|confirmation|consent|sign-off))\b"
    r"|\b(?:above|over|exceeds?|exceeding|more than|greater than)\s+\$\s?\d",
    re.IGNORECASE)
# "If you cannot solve it, say NOT_FOUND": a negation inside a condition on the model's own
# failure says how to answer, not what is forbidden.
_CONDITIONAL_NEGATION = re.compile(
    r"\b(?:if|when|whenever|in case)\s+(?:you|it|they|(?:the|a|an|this|that|any) \w+)\s+$",
    re.IGNORECASE)
_NEGATIONS = frozenset({"cannot", "do not", "don't", "never", "must not", "must never"})
_SNIPPET = 80


@dataclass(frozen=True, slots=True)
class Prompt:
    text: str
    location: Location          # the call that carries it
    carrier: str                # that call, as written: `client.messages.create`, `Agent`


@dataclass(frozen=True, slots=True)
class ToolHolder:
    """A call that hands tools to a model (`Agent(tools=[refund])`, `generateText({ tools:
    { refund } })`): the names it lists and the registration calls (`tool({…})`) it holds."""

    file: FileIR
    call: Call
    names: frozenset[str]
    calls: frozenset[str]


def tool_holders(ctx: CheckContext) -> list[ToolHolder]:
    """Every call that hands tools to a model, read once per check run."""
    found = []
    for file, call in ctx.calls.values():
        tools = _argument(call, "tools")
        listed = bound(ctx, Bound(file, call.scope, tools)) if tools is not None else None
        if listed is None or listed.value.kind not in (ValueKind.LIST, ValueKind.DICT):
            continue
        names, calls = set(), set()
        for _, value in listed.value.entries:
            if value.kind is ValueKind.NAME and value.ref:
                names.add(value.ref.rsplit(".", 1)[-1])
            held = bound(ctx, Bound(listed.file, listed.scope, value)).value
            if held.kind is ValueKind.CALL and held.call:
                calls.add(held.call)
        found.append(ToolHolder(file, call, frozenset(names), frozenset(calls)))
    return found


def prompts_of(ctx: CheckContext, origin: Site, holders: list[ToolHolder]) -> Iterator[Prompt]:
    """Instructions given with an inference call, or with the calls among `holders` that
    expose a tool (its function by name, or its registration call)."""
    if origin.kind is SiteKind.INFERENCE:
        found = ctx.calls.get(str(origin.attr("call")))
        if found is not None:
            yield from _call_prompts(ctx, *found)
    elif origin.kind is SiteKind.TOOL_REGISTRATION:
        name = str(origin.attr("definition") or "").rsplit(".", 1)[-1]
        for holder in holders:
            if (name and name in holder.names) or origin.attr("call") in holder.calls:
                yield from _call_prompts(ctx, holder.file, holder.call)


def constraint_in(text: str) -> str | None:
    """The sentence around the first imperative constraint in `text`, or None."""
    match = next((found for found in _CONSTRAINT.finditer(text)
                  if not _conditional(text, found)), None)
    if match is None:
        return None
    period = text.rfind(". ", 0, match.start())
    begin = max(period + 2 if period >= 0 else 0, text.rfind("\n", 0, match.start()) + 1)
    ends = [i for i in (text.find(". ", match.end()), text.find("\n", match.end())) if i >= 0]
    sentence = " ".join(text[begin:min(ends, default=len(text))].split()).rstrip(".")
    return sentence if len(sentence) <= _SNIPPET else sentence[:_SNIPPET - 1] + "…"


def _conditional(text: str, match: re.Match[str]) -> bool:
    """A negation that opens a condition (`if you cannot …`), not a prohibition."""
    return " ".join(match.group().lower().split()) in _NEGATIONS and \
        _CONDITIONAL_NEGATION.search(text, max(0, match.start() - 40), match.start()) is not None


def _argument(call: Call, name: str) -> Value | None:
    """A keyword argument, or the key of a first-argument object (TS `generateText({…})`)."""
    value = call.kwarg(name)
    if value is None and call.args and call.args[0].kind is ValueKind.DICT:
        value = call.args[0].entry(name)
    return value


def _call_prompts(ctx: CheckContext, file: FileIR, call: Call) -> Iterator[Prompt]:
    for name in _PROMPT_KWARGS:
        value = _argument(call, name)
        if value is not None:
            yield Prompt(prompt_text(ctx, Bound(file, call.scope, value)), call.location,
                         _written(call))
    messages = next((_argument(call, n) for n in _MESSAGE_KWARGS
                     if _argument(call, n) is not None), call.args[0] if call.args else None)
    if messages is not None:
        listed = bound(ctx, Bound(file, call.scope, messages))
        for _, message in listed.value.entries if listed.value.kind is ValueKind.LIST else ():
            system = _system_content(ctx, message)
            if system is not None:
                yield Prompt(prompt_text(ctx, Bound(listed.file, listed.scope, system)),
                             call.location, _written(call))


def _written(call: Call) -> str:
    return f"{call.receiver}.{call.name}" if call.receiver else call.name


def _system_content(ctx: CheckContext, message: Value) -> Value | None:
    """The content of a system message: a role dict, a ("system", …) pair, a SystemMessage."""
    match message.kind:
        case ValueKind.DICT:
            role = message.entry("role")
            if role is not None and role.literal in ("system", "developer"):
                return message.entry("content")
        case ValueKind.LIST if len(message.entries) == 2:
            role, content = message.entries[0][1], message.entries[1][1]
            if role.literal == "system":
                return content
        case ValueKind.CALL:
            found = ctx.calls.get(message.call or "")
            if found and (found[1].callee or found[1].name).endswith("SystemMessage"):
                return found[1].kwarg("content") or (found[1].args or (None,))[0]
    return None

