"""The verb rule: under a client root, a method's first word decides; unknown verbs give no site."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.analyzers.packs import PackError, classify, load_pack, load_packs
from topo.analyzers.packs._patterns import PatternError
from topo.analyzers.packs._verbs import VerbRule, compile_verb_pattern, verb_segment, words
from topo.analyzers.model import SiteKind
from tests.packs.builders import FileBuilder

DEMO = '''
system = "demo"
languages = ["python"]
[verbs]
demo_write = ["create", "finalize", "post", "put"]
demo_read = ["get", "list"]
[[entries]]
id = "demo.write"
on = "call"
match = ["demo.Client.**.*", "demo.Chat.{chat,files}_*", "demo.build.**.*.execute"]
verbs = "demo_write"
exact_methods = ["sharedPublicURL"]
site = "executor"
role = "execution"
tier = "money"
'''


def write(tmp_path: Path, text: str, name: str = "demo.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("method", "expected"), [
    ("finalizeInvoice", ("finalize", "invoice")),
    ("finalize_invoice", ("finalize", "invoice")),
    ("sharedPublicURL", ("shared", "public", "url")),
    ("PutObjectCommand", ("put", "object", "command")),
    ("$executeRaw", ("execute", "raw")),
    ("upload_v2", ("upload", "v", "2")),
    ("create", ("create",)),
])
def test_words_split_snake_camel_and_pascal_case(method, expected):
    assert words(method) == expected


@pytest.mark.parametrize(("name", "segment"), [
    ("stripe.**.*", 2), ("a.b.chat_*", 2), ("g.build.**.*.execute", 3), ("a.b.c", None),
    ("a.**", None), ("a.*_*", None),
])
def test_the_method_segment_is_the_last_single_star_segment(name, segment):
    assert verb_segment(name) == segment


def test_a_pattern_without_a_method_segment_is_an_error():
    with pytest.raises(PatternError):
        compile_verb_pattern("demo.Client.create")


def _rule(tmp_path) -> VerbRule:
    [entry] = load_pack(write(tmp_path, DEMO)).entries
    return VerbRule.of(entry, {"demo_write": frozenset({"create", "finalize", "post", "put"})})


@pytest.mark.parametrize(("name", "allowed"), [
    ("demo.Client.invoices.create", True),
    ("demo.Client.invoices.finalizeInvoice", True),
    ("demo.Client.v1.invoices.finalize_invoice", True),
    ("demo.Client.billing_portal.sessions.create", True),
    ("demo.Client.invoices.list", False),              # a read
    ("demo.Client.invoices.retrieve", False),          # a read nobody listed
    ("demo.Client.webhooks.constructEvent", False),    # an unknown verb is never guessed
    ("demo.Client.invoices.created_at", False),        # `created` is not `create`
    ("demo.Chat.chat_postMessage", True),              # the literal prefix is not the verb
    ("demo.Chat.files_sharedPublicURL", True),         # an exact extra method
    ("demo.Chat.files_info", False),
    ("demo.Chat.conversations_create", False),         # prefix not among the alternatives
    ("demo.build.users.messages.send.execute", False),  # `send` is not in this set
    ("demo.build.users.drafts.create.execute", True),   # the verb sits before `.execute`
    ("demo.build.users.drafts.list.execute", False),
])
def test_verb_rule_both_ways(tmp_path, name, allowed):
    assert _rule(tmp_path).allows(name) is allowed


def test_the_engine_keeps_writes_and_drops_reads(tmp_path):
    packs = load_packs([write(tmp_path, DEMO)])
    fb = FileBuilder()
    create = fb.call("demo.Client.invoices.create")
    fb.call("demo.Client.invoices.list")
    fb.call("demo.Client.invoices.constructEvent")
    [site] = classify([fb.build()], packs)
    assert site.kind is SiteKind.EXECUTOR and site.location == create.location
    assert site.attr("entry") == "demo.write" and site.attr("tier") == "money"


def test_exact_methods_need_verbs(tmp_path):
    with pytest.raises(PackError, match=r"demo.toml: entries\[0\].exact_methods: .*give `verbs`"):
        load_pack(write(tmp_path, DEMO.replace('verbs = "demo_write"\n', "")))


def test_a_verbs_entry_needs_a_method_segment(tmp_path):
    text = DEMO.replace('"demo.Client.**.*", ', '"demo.Client.create", ')
    with pytest.raises(PackError, match=r"entries\[0\].match\[0\]: 'demo.Client.create'"):
        load_pack(write(tmp_path, text))


def test_an_unknown_verb_set_is_named(tmp_path):
    text = DEMO.replace('verbs = "demo_write"', 'verbs = "demo_wrte"')
    with pytest.raises(PackError, match=r"entries\[0\].verbs: no verb set 'demo_wrte'"):
        load_packs([write(tmp_path, text)])


def test_a_verb_set_is_defined_once(tmp_path):
    other = DEMO.replace('system = "demo"', 'system = "other"').replace("demo.write", "other.w")
    with pytest.raises(PackError, match=r"verbs.demo_write: also defined by demo.toml"):
        load_packs([write(tmp_path, DEMO), write(tmp_path, other, "other.toml")])


@pytest.mark.parametrize("words_text", ['["Create"]', '[]', '["create", "create"]'])
def test_verb_words_are_lowercase_unique_and_not_empty(tmp_path, words_text):
    with pytest.raises(PackError, match=r"demo.toml: verbs.demo_write"):
        load_pack(write(tmp_path, DEMO.replace('["create", "finalize", "post", "put"]',
                                               words_text)))


def test_shipped_write_and_read_verbs_are_disjoint():
    sets = {name: set(verbs) for pack in load_packs() for name, verbs in pack.verbs}
    assert sets["write"] and sets["read"] and not sets["write"] & sets["read"]


def test_a_verb_entry_yields_to_an_entry_that_names_the_call(tmp_path):
    specific = '''
system = "zzz"
languages = ["python"]
[[entries]]
id = "zzz.delete"
on = "call"
match = ["demo.Client.invoices.delete_*"]
site = "executor"
role = "execution"
tier = "deletion"
'''
    packs = load_packs([write(tmp_path, DEMO.replace('"put"]', '"put", "delete"]')),
                        write(tmp_path, specific, "zzz.toml")])
    fb = FileBuilder()
    fb.call("demo.Client.invoices.delete_draft")
    fb.call("demo.Client.invoices.create")
    first, second = classify([fb.build()], packs)
    assert (first.attr("entry"), first.attr("tier")) == ("zzz.delete", "deletion")
    assert (second.attr("entry"), second.attr("tier")) == ("demo.write", "money")


def test_verbs_only_on_calls(tmp_path):
    with pytest.raises(PackError, match=r"entries\[0\].verbs: .*`on` must be 'call'"):
        load_pack(write(tmp_path, DEMO.replace('on = "call"', 'on = "decorator"')))
