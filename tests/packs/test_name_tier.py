"""`tier_by_name`: a call of a tool by name is ranked by what the name says it does."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.analyzers.packs import PackError, classify, load_packs
from tests.packs.builders import FileBuilder, s, v

DEMO = '''
system = "demo"
languages = ["python"]
[verbs]
demo_read = ["get", "list", "search"]
[tools.intent]
excluded_names = ["transfer to"]
[tools.intent.verbs]
money = ["transfer", "pay"]
deletion = ["delete"]
[[entries]]
id = "demo.call_tool"
on = "call"
match = ["demo.Session.call_tool"]
site = "executor"
role = "execution"
tier = "communication"
tier_by_name = { attr = "tool_name", reads = "demo_read" }
[entries.attrs]
tool_name = { arg = 0 }
'''


def _packs(tmp_path: Path, text: str = DEMO):
    path = tmp_path / "demo.toml"
    path.write_text(text, encoding="utf-8")
    return load_packs([path])


def _sites(tmp_path: Path, *args):
    fb = FileBuilder()
    fb.call("demo.Session.call_tool", *args)
    return classify([fb.build()], _packs(tmp_path))


@pytest.mark.parametrize(("name", "tier", "verb"), [
    ("transfer_funds", "money", "transfer"),
    ("payInvoice", "money", "pay"),
    ("delete-file", "deletion", "delete"),
])
def test_a_write_name_gives_its_verbs_tier(tmp_path, name, tier, verb):
    [site] = _sites(tmp_path, s(name))
    assert site.attr("tier") == tier and site.attr("intent_verb") == verb
    assert site.attr("tool_name") == name and not site.inferred


@pytest.mark.parametrize("name", ["get_balance", "listTools", "search_docs"])
def test_a_read_name_is_no_executor(tmp_path, name):
    assert _sites(tmp_path, s(name)) == ()


@pytest.mark.parametrize("args", [(s("add"),), (s("transfer_to_billing"),), (v("name"),), ()])
def test_an_unknown_excluded_unspelled_or_absent_name_keeps_the_default_inferred(tmp_path, args):
    [site] = _sites(tmp_path, *args)
    assert site.attr("tier") == "communication" and site.inferred
    assert site.attr("intent_verb") is None


def test_tier_by_name_needs_a_default_tier_and_its_attribute(tmp_path):
    with pytest.raises(PackError, match=r"entries\[0\].tier_by_name: needs a default `tier`"):
        _packs(tmp_path, DEMO.replace('tier = "communication"\n', ""))
    with pytest.raises(PackError, match=r"'tool_name' among the entry's attrs"):
        _packs(tmp_path, DEMO.replace("tool_name = { arg = 0 }\n", 'channel = "mcp"\n'))


def test_the_reads_set_must_exist(tmp_path):
    with pytest.raises(PackError, match=r"entries\[0\].tier_by_name.reads: no verb set 'demo_red'"):
        _packs(tmp_path, DEMO.replace('reads = "demo_read"', 'reads = "demo_red"'))
