"""The pack index: pack-level keys (`[tools]`, `identity`, `[[retention]]`) are schema-checked
and merged into `Knowledge`, which the flow stage and the checks ask instead of literals."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.analyzers.ir import Call, Value, ValueKind
from topo.analyzers.model import Location, Site, SiteKind
from topo.analyzers.packs import Knowledge, PackError, load_pack, load_packs, packs_digest

HEAD = '''
system = "demo"
languages = ["python"]
fingerprint = ["demo", "@demo/sdk"]
identity = ["approver_id", "user_id"]
{extra}
[[entries]]
id = "demo.send"
on = "call"
match = ["demo.Client.send"]
site = "executor"
role = "execution"
'''


def _pack(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "demo.toml"
    path.write_text(HEAD.format(extra=extra), encoding="utf-8")
    return path


def _error(tmp_path: Path, extra: str) -> str:
    with pytest.raises(PackError) as caught:
        load_pack(_pack(tmp_path, extra))
    return str(caught.value)


def _site(system: str, **attrs: object) -> Site:
    return Site(id="tool_registration:a.py:1:1", kind=SiteKind.TOOL_REGISTRATION, system=system,
                language="python", location=Location("a.py", 1), symbol="a.f",
                attrs=tuple(sorted(attrs.items())))


def test_the_shipped_packs_hold_what_the_code_used_to_spell() -> None:
    knowledge = Knowledge.of(load_packs())
    assert knowledge.injected_parameters == {"ctx", "context", "run_context", "config",
                                             "runtime", "state"}
    assert set(knowledge.injected_annotations) == {"RunContext", "Context", "RunnableConfig",
                                                   "ToolRuntime"}
    assert knowledge.approval_attributes == ("needs_approval", "requires_approval")
    assert (knowledge.approval_callbacks, knowledge.approval_decision_keys) == \
        (("on_approval",), ("approve",))
    assert knowledge.governed_systems == {"memrail"}
    assert knowledge.identity_attributes("memorizz") == ("approver_id", "user_id")
    assert knowledge.identity_attributes("mubit") == knowledge.identity_attributes("memexai") \
        == ("user_id",)
    assert knowledge.identity_attributes("openai") == ()
    [ttl] = knowledge.retention_rules("memorizz")
    assert (ttl.ttl_seconds, ttl.records) == (900, "approval proposals")
    [forget] = knowledge.retention_rules("mubit")
    assert (forget.forget_settings, forget.keep_settings) == (("MUBIT_CL_FORGET",),
                                                              ("MUBIT_CL_UNFORGET",))
    [(system, shared)] = knowledge.write_modes()
    assert (system, shared.store, shared.path_prefixes, shared.mode_setting, shared.mode_value) \
        == ("memexai", "memexai", ("shared/",), "MEMEX_SHARED_WRITE_MODE", "rw")
    [rules] = knowledge.policy_write_rules("mubit")
    assert rules.intents == ("rule", "lesson")
    # The config reader's settings: the packs' `settings` plus those their rules read.
    assert knowledge.config_settings == (
        "AMI_PROJECT", "MEMEX_DREAM_ENABLED", "MEMEX_SEARCH_MODE", "MEMEX_SHARED_WRITE_MODE",
        "MUBIT_CL_", "MUBIT_CONTROL_", "MUBIT_CORE_ENABLE_", "MUBIT_TRANSPORT")
    assert set(knowledge.settings()) == {*knowledge.config_settings, "MUBIT_CL_FORGET",
                                         "MUBIT_CL_UNFORGET", *knowledge.client_secret_names()}
    # Server credentials under a client-bundle prefix: kept by name, to be reported.
    assert "NEXT_PUBLIC_MEMEX_ADMIN_SECRET" in knowledge.client_secret_names()
    assert knowledge.client_secret("VITE_MEMEX_API_KEY") == ("memexai", "MEMEX_API_KEY")
    assert knowledge.client_secret("MEMEX_ADMIN_SECRET") is None
    assert knowledge.client_secret("NEXT_PUBLIC_MEMEX_URL") is None
    mubit, memex = knowledge.mcp_server("mubit"), knowledge.mcp_server("memexai")
    assert (mubit.system, mubit.packages, mubit.destructive) == \
        ("mubit", ("@mubit-ai/mcp",), ("mubit_forget",)) and len(mubit.tools) == 21
    assert (memex.hints, memex.destructive) == (("memex",), ("memory_write", "memory_patch"))
    assert knowledge.mcp_server(None) is None and knowledge.mcp_server("other") is None
    assert set(knowledge.fingerprint("memrail")) == {"memrail", "ami", "@memrail/sdk",
                                                     "@memrail/ami-sdk"}


def test_tool_rules_are_read_and_asked(tmp_path: Path) -> None:
    pack = load_pack(_pack(tmp_path, '[tools]\ninjected_parameters = ["deps"]\n'
                                     'injected_annotations = ["DemoContext"]\n'
                                     'approval_attributes = ["side_effects"]\ngoverned = true\n'
                                     'approval_callbacks = ["on_approval"]\n'))
    knowledge = Knowledge.of([pack])
    assert knowledge.approval_callback(_site("other", on_approval="app.review")) == "app.review"
    assert knowledge.approval_callback(_site("other", side_effects=True)) is None
    assert knowledge.injected("deps", None) and knowledge.injected("x", "DemoContext[int]")
    assert not knowledge.injected("x", "int")
    assert knowledge.requires_approval(_site("other", side_effects=True))
    assert not knowledge.requires_approval(_site("other", side_effects=1))
    assert knowledge.governed(_site("demo")) and not knowledge.governed(_site("other"))
    assert knowledge.identity_attributes("demo") == ("approver_id", "user_id")
    assert knowledge.imports_system("demo", ["@demo/sdk/server"])
    assert knowledge.imports_system("demo", ["demo.client"])
    assert not knowledge.imports_system("demo", ["demolition", "@demo/sdkx"])


def test_approval_and_identity_names_must_be_declared_site_attributes(tmp_path: Path) -> None:
    message = _error(tmp_path, '[tools]\napproval_attributes = ["needs_aproval"]\n')
    assert message.startswith("demo.toml: tools.approval_attributes[0]: 'needs_aproval' is not "
                              "an attribute of tool_registration sites (did you mean "
                              "'needs_approval'?)"), message
    message = _error(tmp_path, '[tools]\napproval_callbacks = ["on_aproval"]\n')
    assert message.startswith("demo.toml: tools.approval_callbacks[0]: 'on_aproval' is not "
                              "an attribute of tool_registration sites"), message
    path = tmp_path / "demo.toml"
    path.write_text(HEAD.replace('"approver_id", ', '"operator_id", ').format(extra=""))
    with pytest.raises(PackError) as caught:
        load_pack(path)
    assert str(caught.value).startswith("demo.toml: identity[0]: 'operator_id' is not a "
                                        "declared site attribute")


def test_an_mcp_server_is_known_by_a_package_or_a_hint_and_deletes_only_its_tools(
        tmp_path: Path) -> None:
    assert _error(tmp_path, '[[mcp_servers]]\nname = "demo"\ntools = ["a"]\n') \
        .startswith("demo.toml: mcp_servers[0]: a server is known by its packages or its hints")
    assert _error(tmp_path, '[[mcp_servers]]\nname = "demo"\npackages = ["@demo/mcp"]\n'
                  'tools = ["a"]\ndestructive = ["b"]\n') \
        .startswith("demo.toml: mcp_servers[0].destructive: ['b'] not among the server's tools")
    assert _error(tmp_path, 'settings = ["demo_mode"]\n').startswith("demo.toml: settings[0]")


def test_unknown_tool_keys_are_schema_errors_with_the_key_path(tmp_path: Path) -> None:
    message = _error(tmp_path, '[tools]\napproval_attribute = ["reviewed"]\n')
    assert message.startswith("demo.toml: tools: ") and "approval_attribute" in message


def test_a_retention_rule_needs_a_ttl_with_its_words_or_forget_settings(tmp_path: Path) -> None:
    assert _error(tmp_path, '[[retention]]\nstore = "demo"\nttl_seconds = 60\n') \
        .startswith("demo.toml: retention[0]: ")
    assert "retention[0].forget_settings" in _error(
        tmp_path, '[[retention]]\nstore = "demo"\nforget_settings = ["demo_forget"]\n')
    assert _error(tmp_path, '[[retention]]\nstore = "demo"\nttl_seconds = 60\nrecords = "r"\n'
                            'absence = "a"\nkeep_settings = ["DEMO_KEEP"]\n') == \
        "demo.toml: retention[0].keep_settings: cancels forgetting, so it needs forget_settings"


def test_the_packs_digest_follows_their_content(tmp_path: Path) -> None:
    before = packs_digest([load_pack(_pack(tmp_path))])
    assert packs_digest([load_pack(_pack(tmp_path))]) == before
    assert packs_digest([load_pack(_pack(tmp_path, "# a comment\n"))]) != before


def test_extra_packs_are_added_to_the_shipped_ones(tmp_path: Path) -> None:
    packs = load_packs(extra=[_pack(tmp_path)])
    assert {"demo", "memrail"} <= {pack.system for pack in packs}
    assert len(packs) == len(load_packs()) + 1


LIVE_SHADOW = '''
[[live_shadow]]
description = "configure the shadow lane"
calls = ["demo.Executor.configure_shadow"]
modes = ["demo.Mode.EXECUTE", "execute"]
kwarg = "mode"
'''


def _call(callee: str, *args: Value, **kwargs: Value) -> Call:
    where = Location("app.py", 1, 1)
    return Call(id="app.py:1:1", callee=callee, name=callee.rsplit(".", 1)[-1], receiver=None,
                location=where, statement=where, scope="<module>", args=args,
                kwargs=tuple(kwargs.items()))


def test_a_live_shadow_mode_is_the_call_and_a_mode_the_pack_names(tmp_path: Path) -> None:
    knowledge = Knowledge.of([load_pack(_pack(tmp_path, LIVE_SHADOW))])
    member = Value(ValueKind.NAME, "Mode.EXECUTE", resolved="demo.Mode.EXECUTE")
    literal = Value(ValueKind.STRING, '"execute"', literal="execute")
    other = Value(ValueKind.NAME, "Mode.SKIP", resolved="demo.Mode.SKIP")
    assert knowledge.live_shadow_mode(_call("demo.Executor.configure_shadow", member)) == \
        "Mode.EXECUTE"
    assert knowledge.live_shadow_mode(_call("demo.Executor.configure_shadow", mode=literal)) \
        == '"execute"'
    assert knowledge.live_shadow_mode(_call("demo.Executor.configure_shadow", other)) is None
    assert knowledge.live_shadow_mode(_call("demo.Executor.configure", member)) is None


def test_a_live_shadow_rule_needs_valid_call_patterns(tmp_path: Path) -> None:
    bad = LIVE_SHADOW.replace('"demo.Executor.configure_shadow"', '"demo.{a,b.c}.x"')
    assert "live_shadow[0].calls[0]" in _error(tmp_path, bad)
    assert "modes" in _error(tmp_path, LIVE_SHADOW.replace(
        'modes = ["demo.Mode.EXECUTE", "execute"]\n', ""))


CANARY = '''
[[canary_deciders]]
description = "install the cohort decision"
calls = ["demo.Executor.configure_canary"]
kwarg = "decider"

[[canary_deciders]]
description = "install the cohort decision (options object)"
calls = ["demo.Client.configureCanary"]
object_key = "decider"
'''


def test_a_canary_decider_is_the_argument_the_pack_names(tmp_path: Path) -> None:
    knowledge = Knowledge.of([load_pack(_pack(tmp_path, CANARY))])
    decider = Value(ValueKind.NAME, "in_pilot", ref="in_pilot")
    options = Value(ValueKind.DICT, "{ decider: in_pilot }", entries=(("decider", decider),))
    assert knowledge.canary_decider(_call("demo.Executor.configure_canary", decider)) == decider
    assert knowledge.canary_decider(
        _call("demo.Executor.configure_canary", decider=decider)) == decider
    assert knowledge.canary_decider(_call("demo.Client.configureCanary", options)) == decider
    assert knowledge.canary_decider(_call("demo.Client.configureCanary")) is None
    assert knowledge.canary_decider(_call("demo.Executor.configure", decider)) is None
