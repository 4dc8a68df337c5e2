"""Name patterns: exact names, `*` in a segment, `**` segments, `{a,b}`, aliases."""

from __future__ import annotations

import pytest

from topo.analyzers.packs._patterns import NameIndex, PatternError, expand_pattern, rewrite


def matches(pattern: str, name: str) -> bool:
    return NameIndex.build([(pattern, "hit")]).lookup(name) == ("hit",)


@pytest.mark.parametrize(("pattern", "name", "expected"), [
    ("stripe.Refund.create", "stripe.Refund.create", True),
    ("stripe.Refund.create", "stripe.Refund.create_later", False),
    ("stripe.Refund.create", "app.stripe.Refund.create", False),
    ("stripe.*.create", "stripe.Charge.create", True),
    ("stripe.*.create", "stripe.Charge.sub.create", False),
    ("stripe.*.create", "stripe.create", False),
    ("boto3.client.delete_*", "boto3.client.delete_object", True),
    ("boto3.client.delete_*", "boto3.client.put_object", False),
    ("boto3.client.attach_*_policy", "boto3.client.attach_role_policy", True),
    ("boto3.client.attach_*_policy", "boto3.client.attach_role", False),
    ("llama_index.**", "llama_index.core.VectorStoreIndex.as_query_engine.query", True),
    ("llama_index.**", "llama_index", False),
    ("llama_index.**", "llama_indexer.x", False),
    ("sklearn.**.predict", "sklearn.svm.SVC.predict", True),
    ("sklearn.**.predict", "sklearn.predict", False),
    ("sklearn.**.predict", "sklearn.svm.SVC.predict_proba", False),
    ("*.grant_role", "iam.grant_role", True),
    ("*.grant_role", "iam.admin.grant_role", False),
    ("**.grant_role", "iam.admin.grant_role", True),
    ("openai.{OpenAI,AsyncOpenAI}.responses.create", "openai.AsyncOpenAI.responses.create", True),
    ("openai.{OpenAI,AsyncOpenAI}.responses.create", "openai.Other.responses.create", False),
])
def test_pattern_matching(pattern, name, expected):
    assert matches(pattern, name) is expected


def test_alternatives_expand_in_written_order():
    assert expand_pattern("a.{B,C}.{d,e}") == ("a.B.d", "a.B.e", "a.C.d", "a.C.e")


@pytest.mark.parametrize("bad", ["a.{B,C", "a.B}.c", "a.{B,{C}}", "a.{B,}.c", "a.{B.x,C}",
                                 "a.b**", "a,b.c"])
def test_malformed_patterns_are_errors(bad):
    with pytest.raises(PatternError):
        expand_pattern(bad)


def test_lookup_returns_each_item_once_exact_first():
    index = NameIndex.build([("x.*", "wild"), ("x.y", "exact"), ("x.{y,z}", "exact")])
    assert index.lookup("x.y") == ("exact", "wild")
    assert index.lookup("x.z") == ("exact", "wild")


def test_alias_rewrites_whole_leading_segments_only():
    aliases = [("ami", "memrail")]
    assert rewrite("ami.AsyncAMIClient.decide", aliases) == "memrail.AsyncAMIClient.decide"
    assert rewrite("ami", aliases) == "memrail"
    assert rewrite("amigo.decide", aliases) == "amigo.decide"
    assert rewrite("app.ami.decide", aliases) == "app.ami.decide"


def test_longest_alias_wins():
    aliases = [("a", "x"), ("a.b", "y")]
    assert rewrite("a.b.c", aliases) == "y.c"
    assert rewrite("a.c", aliases) == "x.c"


def test_wildcards_in_different_buckets_are_all_consulted():
    index = NameIndex.build([("a.*", "by-prefix"), ("*.b", "leading"), ("**", "anything"),
                             ("c.*", "other-prefix")])
    assert index.lookup("a.b") == ("by-prefix", "leading", "anything")
    assert index.lookup("c.d") == ("other-prefix", "anything")
