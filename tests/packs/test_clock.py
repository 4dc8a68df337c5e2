"""Event timestamps read through the memrail pack: aware, naive or unknown (`_clock`)."""

from __future__ import annotations

import textwrap

import pytest

from topo.analyzers.model import SiteKind
from topo.analyzers.packs import classify, factories
from topo.analyzers.python import parse_python
from topo.analyzers.typescript.frontend import parse_typescript

FACTORIES = factories()
PY = """
from datetime import datetime, timezone
import datetime as dt
import time
from memrail import AMIClient
from memrail.atoms import event
ami = AMIClient()
def record(x, clock):
    stamp = datetime.now()
    ami.emit_event(event("a.b.c", ts={ts}))
"""


def _py_zone(ts: str) -> tuple[str | None, str | None]:
    source = textwrap.dedent(PY).replace("{ts}", ts)
    sites = classify([parse_python("app.py", source, "app", strict=True, factories=FACTORIES)])
    [atom] = [s for s in sites if s.kind is SiteKind.ATOM]
    return atom.attr("timestamp_zone"), atom.attr("timestamp")


@pytest.mark.parametrize("ts, zone", [
    ("datetime.now()", "naive"),
    ("datetime.now(None)", "naive"),
    ("dt.datetime.utcnow()", "naive"),
    ("datetime.today()", "naive"),
    ("datetime.fromtimestamp(x)", "naive"),
    ("datetime.utcfromtimestamp(x)", "naive"),
    ("datetime(2026, 5, 1, 9, 30)", "naive"),
    ("datetime.now().isoformat()", "naive"),
    ("datetime.fromisoformat('2026-05-01T09:30:00')", "naive"),
    ("stamp", "naive"),
    ("datetime.now(timezone.utc)", "aware"),
    ("datetime.now(tz=timezone.utc)", "aware"),
    ("datetime.fromtimestamp(x, timezone.utc)", "aware"),
    ("datetime(2026, 5, 1, tzinfo=timezone.utc)", "aware"),
    ("datetime.utcnow().replace(tzinfo=timezone.utc)", "aware"),
    ("datetime.now().astimezone()", "aware"),
    ("datetime.fromisoformat('2026-05-01T09:30:00+00:00')", "aware"),
    ("'2026-05-01T09:30:00Z'", "aware"),
    ("time.time()", "aware"),
    ("clock()", "unknown"),
    ("x", "unknown"),
    ("x.isoformat()", "unknown"),
])
def test_python_timestamps(ts: str, zone: str) -> None:
    assert _py_zone(ts)[0] == zone


def test_the_text_is_the_followed_value() -> None:
    assert _py_zone("stamp") == ("naive", "datetime.now()")


def _ts_zones(source: str) -> list[tuple[str, str | None]]:
    file = parse_typescript("src/app.ts", textwrap.dedent(source), "src/app")
    sites = sorted(classify([file]), key=lambda s: s.location)
    return [(s.kind.value, s.attr("timestamp_zone")) for s in sites
            if s.kind in (SiteKind.ATOM, SiteKind.EVENT_EMIT)]


def test_typescript_timestamps() -> None:
    zones = _ts_zones("""
        import { AMIClient, event } from '@memrail/sdk';
        const ami = new AMIClient();
        const local = new Date('2026-05-01T09:30:00');
        export async function record(d: Date) {
          event('a.b.c', { ts: new Date() });
          event('a.b.c', { ts: Date.now() });
          event('a.b.c', { ts: new Date().toISOString() });
          event('a.b.c', { ts: new Date('2026-05-01T09:30:00.000Z') });
          event('a.b.c', { ts: new Date().toLocaleString() });
          event('a.b.c', { ts: new Date(2026, 4, 1) });
          event('a.b.c', { ts: local });
          event('a.b.c', { ts: d });
          event('a.b.c', { ts: d.toLocaleString() });
          await ami.emitEvent({ subject: 'a', verb: 'b', object: 'c', ts: new Date().toString() });
        }
    """)
    assert zones == [("atom", z) for z in ("aware", "aware", "aware", "aware", "naive", "naive",
                                           "naive", "unknown", "unknown")] \
        + [("event_emit", "naive")]
