"""Segment rules of `state.…`, `tag.…` and `event.…` accessors, checked on one lexed token.

The lexer takes any dotted word as one token, so these checks can point at the faulty segment
and say what to write: lowercase (`state.User.Tier`), a namespace (`state.tier`), one tag
segment, or `subject.verb.object` for events.
"""

from __future__ import annotations

import re

from topo.audit.dsl.ast import EventRef, StateRef, TagRef, TextSpan
from topo.audit.dsl.lexer import Token
from topo.audit.dsl._stream import TokenStream

__all__ = ["state_ref", "tag_ref", "event_ref", "segments_of", "is_state_key",
           "STATE_SEGMENTS"]

SEGMENT = re.compile(r"[a-z][a-z0-9_]*")
_WELL_FORMED = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*")   # every segment a SEGMENT
STATE_SEGMENTS = range(2, 8)     # 2 to 7 segments after `state.` (the SDK builder's rule)
EVENT_SEGMENTS = (3, 4)          # subject.verb.object, optionally after a project slug


def segments_of(stream: TokenStream, token: Token) -> list[str]:
    """The segments after the prefix, once every segment (prefix included) is well formed."""
    parts = token.text.split(".")
    if _WELL_FORMED.fullmatch(token.text):  # the usual case: no segment to blame
        return parts[1:]
    offset = token.span.start
    for part in parts:
        span = TextSpan(offset, offset + len(part))
        if part != part.lower():
            stream.fail("DSL-KEY-CASE", f"accessor segment `{part}` is not lowercase", span,
                        f"write `{token.text.lower()}`")
        if not SEGMENT.fullmatch(part):
            what = ("is empty" if not part else
                    f"`{part}` does not start with a letter" if not SEGMENT.match(part[0]) else
                    f"`{part}` has characters other than a-z, 0-9 and `_`")
            stream.fail("DSL-KEY-SEGMENT", f"accessor segment {what}",
                        span if part else TextSpan(offset - 1, offset),
                        "segments are lowercase letters, digits and `_`, starting with a letter")
        offset += len(part) + 1
    return parts[1:]


def is_state_key(key: str) -> bool:
    """True for a key the `state.` accessor accepts, without its prefix (`customer.id`)."""
    parts = key.split(".")
    return len(parts) in STATE_SEGMENTS and all(SEGMENT.fullmatch(p) for p in parts)


def state_ref(stream: TokenStream, token: Token) -> StateRef:
    parts = segments_of(stream, token)
    if len(parts) not in STATE_SEGMENTS:
        if len(parts) < STATE_SEGMENTS.start:
            name = parts[0] if parts else "key"
            message = f"state key `{'.'.join(parts)}` is not namespaced"
            hint = f"name it `state.<namespace>.{name}`, such as `state.user.{name}`"
        else:
            message = f"state key has {len(parts)} segments; at most 7 are allowed"
            hint = "shorten the key"
        stream.fail("DSL-STATE-KEY-SEGMENTS", message, token.span, hint)
    return StateRef(".".join(parts), token.span)


def tag_ref(stream: TokenStream, token: Token) -> TagRef:
    parts = segments_of(stream, token)
    if len(parts) != 1:
        message = ("a tag accessor names its kind: `tag.<kind>`" if not parts else
                   f"tag `{'.'.join(parts)}` has {len(parts)} segments; tags have one")
        hint = "nested keys belong in `state.`" if parts else "such as `tag.intent`"
        stream.fail("DSL-TAG-SEGMENTS", message, token.span, hint)
    return TagRef(parts[0], token.span)


def event_ref(stream: TokenStream, token: Token) -> EventRef:
    parts = segments_of(stream, token)
    if len(parts) not in EVENT_SEGMENTS:
        stream.fail("DSL-EVENT-NAME-SVO",
                    f"event name `{'.'.join(parts)}` has {len(parts)} segments; events are "
                    f"`subject.verb.object`, optionally after a project slug", token.span,
                    "such as `event.user.failed.login`")
    project = parts[0] if len(parts) == 4 else None
    subject, verb, obj = parts[-3:]
    return EventRef(subject, verb, obj, project, token.span)
