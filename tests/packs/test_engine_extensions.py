"""Generic engine extensions made for TypeScript packs: `when` one-of lists, `object_key` lists,
negative `arg` indexes, and event objects (`{ event }`, `{ subject, verb, object }`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.analyzers.ir import Language
from topo.analyzers.packs import PackError, classify, load_packs
from topo.analyzers.model import SiteKind
from tests.packs.builders import FileBuilder, attrs, dict_value, s, site_for, v

PACK = '''
system = "ext"
languages = ["typescript"]
[[entries]]
id = "ext.fetch"
on = "call"
match = ["ext.fetch"]
site = "executor"
role = "execution"
tier = "communication"
[entries.attrs]
method = { arg = 1, path = "method" }
[entries.when]
method = ["POST", "DELETE"]
[[entries]]
id = "ext.decide"
on = "call"
match = ["ext.Client.decide"]
site = "decision_call"
role = "authority"
enforced = true
[entries.attrs]
idempotency_key = { object_key = ["context", "atoms"], as = "text" }
[[entries]]
id = "ext.tool"
on = "call"
match = ["ext.Server.tool"]
site = "tool_registration"
role = "execution"
[entries.attrs]
description = { arg = -1, as = "text" }
[[entries]]
id = "ext.emit"
on = "call"
match = ["ext.Client.emit"]
site = "event_emit"
role = "recording"
[entries.attrs]
event_name = { arg = 0, as = "event_name" }
'''


def _classify(tmp_path: Path, builder: FileBuilder):
    path = tmp_path / "ext.toml"
    path.write_text(PACK, encoding="utf-8")
    return classify([builder.build()], load_packs([path]))


def _builder() -> FileBuilder:
    return FileBuilder(path="src/a.ts", module="src/a", language=Language.TYPESCRIPT)


def test_when_list_keeps_a_site_whose_attribute_is_one_of_the_values(tmp_path):
    fb = _builder()
    post = fb.call("ext.fetch", s("u"), dict_value(method=s("POST")))
    get = fb.call("ext.fetch", s("u"), dict_value(method=s("GET")))
    bare = fb.call("ext.fetch", s("u"))
    sites = _classify(tmp_path, fb)
    assert site_for(sites, SiteKind.EXECUTOR, post) is not None
    assert all(site.attr("call") not in (get.id, bare.id) for site in sites)


def test_object_key_list_tries_each_key_in_order(tmp_path):
    fb = _builder()
    first = fb.call("ext.Client.decide", dict_value(atoms=v("a")))
    both = fb.call("ext.Client.decide", dict_value(atoms=v("a"), context=v("c")))
    sites = _classify(tmp_path, fb)
    assert attrs(site_for(sites, SiteKind.DECISION_CALL, first))["idempotency_key"] == "a"
    assert attrs(site_for(sites, SiteKind.DECISION_CALL, both))["idempotency_key"] == "c"


def test_negative_arg_counts_from_the_end(tmp_path):
    fb = _builder()
    two = fb.call("ext.Server.tool", s("name"), v("handler"))
    four = fb.call("ext.Server.tool", s("name"), s("desc"), v("schema"), v("last"))
    sites = _classify(tmp_path, fb)
    assert attrs(site_for(sites, SiteKind.TOOL_REGISTRATION, two))["description"] == "handler"
    assert attrs(site_for(sites, SiteKind.TOOL_REGISTRATION, four))["description"] == "last"


def test_event_objects_give_event_names(tmp_path):
    fb = _builder()
    legacy = fb.call("ext.Client.emit", dict_value(subject=s("agent"), verb=s("sent"),
                                                   object=s("email")))
    dynamic = fb.call("ext.Client.emit", dict_value(subject=v("who"), verb=s("sent"),
                                                    object=s("email")))
    sites = _classify(tmp_path, fb)
    assert attrs(site_for(sites, SiteKind.EVENT_EMIT, legacy))["event_name"] == "agent.sent.email"
    found = attrs(site_for(sites, SiteKind.EVENT_EMIT, dynamic))
    assert found["event_name_literal"] is False and found["event_name_text"] == "who.'sent'.'email'"


def test_when_list_must_hold_scalars(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(PACK.replace('method = ["POST", "DELETE"]', "method = [{ x = 1 }]"),
                    encoding="utf-8")
    with pytest.raises(PackError, match="when.method"):
        load_packs([path])
