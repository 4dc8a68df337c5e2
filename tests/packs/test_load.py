"""Pack files: schema and semantic errors name file and key path; shipped packs are sound."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from topo.analyzers.packs import PackError, load_pack, load_packs
from topo.analyzers.packs._load import default_pack_files, pack_schema
from topo.analyzers.packs._model import ENGINE_ATTRS, Extract, Trigger
from topo.analyzers.packs._patterns import NameIndex
from topo.analyzers.model import ROLE_KINDS, EdgeKind, SiteKind, Tier

GOOD = '''
system = "demo"
languages = ["python"]
fingerprint = ["demo"]
[[entries]]
id = "demo.send"
on = "call"
match = ["demo.Client.send"]
site = "executor"
role = "execution"
tier = "communication"
[entries.attrs]
to = { kwarg = "to" }
'''


def write(tmp_path: Path, text: str, name: str = "demo.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(tmp_path: Path, text: str) -> str:
    with pytest.raises(PackError) as caught:
        load_pack(write(tmp_path, text))
    return str(caught.value)


def test_a_good_pack_loads_into_typed_values(tmp_path):
    pack = load_pack(write(tmp_path, GOOD))
    [entry] = pack.entries
    assert (pack.system, pack.fingerprint, pack.file) == ("demo", ("demo",), "demo.toml")
    assert entry.on is Trigger.CALL and entry.site is SiteKind.EXECUTOR
    assert entry.role is EdgeKind.EXECUTION and entry.tier is Tier.COMMUNICATION
    assert entry.system == "demo" and entry.languages == frozenset({"python"})
    [spec] = entry.attrs
    assert spec.name == "to" and spec.source.kwarg == ("to",) and spec.extract is Extract.LITERAL


def test_unknown_entry_key_names_file_and_path(tmp_path):
    message = error_of(tmp_path, GOOD.replace('role = "execution"',
                                              'role = "execution"\nsevrity = "high"'))
    assert message.startswith("demo.toml: entries[0]: ")
    assert "'sevrity' was unexpected" in message


def test_unknown_attribute_spec_key_names_the_attribute(tmp_path):
    message = error_of(tmp_path, GOOD.replace('to = { kwarg = "to" }', 'to = { kwargs = "to" }'))
    assert "demo.toml: entries[0].attrs.to: " in message and "'kwargs'" in message


def test_unknown_top_level_key_is_rejected(tmp_path):
    message = error_of(tmp_path, "version = 2\n" + GOOD)
    assert message.startswith("demo.toml: (top level): ") and "'version'" in message


def test_bad_site_kind_names_the_site_key(tmp_path):
    message = error_of(tmp_path, GOOD.replace('site = "executor"', 'site = "executer"'))
    assert "demo.toml: entries[0].site: 'executer' is not one of" in message


def test_structural_edge_kind_is_not_a_role(tmp_path):
    message = error_of(tmp_path, GOOD.replace('role = "execution"', 'role = "calls"'))
    assert "entries[0].role: 'calls' is not one of" in message


def test_bare_name_pattern_is_accepted_but_empty_segment_is_not(tmp_path):
    message = error_of(tmp_path, GOOD.replace('"demo.Client.send"', '"demo..send"'))
    assert "entries[0].match[0]" in message


def test_unbalanced_brace_is_a_pattern_error_with_path(tmp_path):
    message = error_of(tmp_path, GOOD.replace('"demo.Client.send"', '"demo.{A,B.send"'))
    assert message.startswith("demo.toml: entries[0].match[0]: ")


def test_toml_syntax_error_names_the_file(tmp_path):
    message = error_of(tmp_path, GOOD + "\n[[entries]\n")
    assert message.startswith("demo.toml: not valid TOML")


def test_duplicate_entry_id_in_one_pack(tmp_path):
    second = GOOD[GOOD.index("[[entries]]"):]
    message = error_of(tmp_path, GOOD + second)
    assert message == "demo.toml: entries[1].id: duplicate entry id 'demo.send'"


def test_when_must_name_an_extracted_attribute(tmp_path):
    message = error_of(tmp_path, GOOD + '[entries.when]\nurgent = true\n')
    assert message.startswith("demo.toml: entries[0].when.urgent: not an attribute")


def test_tier_only_on_executors(tmp_path):
    message = error_of(tmp_path, GOOD.replace('site = "executor"', 'site = "inference"'))
    assert message.startswith("demo.toml: entries[0].tier: only executor sites")


def test_enforced_only_on_authority(tmp_path):
    message = error_of(tmp_path, GOOD.replace('tier = "communication"', 'enforced = true'))
    assert message.startswith("demo.toml: entries[0].enforced: only authority")


def test_engine_attribute_names_are_reserved(tmp_path):
    message = error_of(tmp_path, GOOD.replace('to = { kwarg = "to" }', 'role = "x"'))
    assert message.startswith("demo.toml: entries[0].attrs.role: set by the engine")


def test_fallback_only_where_a_definition_exists(tmp_path):
    message = error_of(tmp_path, GOOD.replace('{ kwarg = "to" }',
                                              '{ kwarg = "to", fallback = "definition_name" }'))
    assert "entries[0].attrs.to.fallback: only decorator and class_base" in message


def test_entry_language_outside_pack_languages(tmp_path):
    message = error_of(tmp_path, GOOD.replace('tier = "communication"',
                                              'tier = "communication"\nlanguages = ["tsx"]'))
    assert message.startswith("demo.toml: entries[0].languages: ['tsx']")


def test_packs_must_not_share_systems_or_entry_ids(tmp_path):
    first = write(tmp_path, GOOD, "a.toml")
    second = write(tmp_path, GOOD, "b.toml")
    with pytest.raises(PackError, match=r"^b.toml: system: 'demo' is also the system of a.toml"):
        load_packs([first, second])
    third = write(tmp_path, GOOD.replace('system = "demo"', 'system = "other"'), "c.toml")
    with pytest.raises(PackError, match=r"entries\[0\].id: 'demo.send' is also an entry"):
        load_packs([first, third])


def test_conflicting_aliases_across_packs(tmp_path):
    first = write(tmp_path, GOOD + '[aliases]\nold = "demo"\n', "a.toml")
    other = GOOD.replace('"demo"', '"other"', 1).replace('id = "demo.send"', 'id = "other.x"')
    second = write(tmp_path, other + '[aliases]\nold = "other"\n', "b.toml")
    with pytest.raises(PackError, match=r"aliases.old: rewrites to 'other' but a.toml"):
        load_packs([first, second])


# --- the shipped packs ----------------------------------------------------------------------

EXPECTED_PACKS = {"memrail", "openai", "anthropic", "langchain", "langgraph", "openai_agents",
                  "mcp", "litellm", "google_genai", "pydantic_ai", "crewai", "llama_index",
                  "sinks", "flags", "entrypoints", "policy"}


def test_every_shipped_pack_loads():
    files = {path.stem for path in default_pack_files()}
    assert EXPECTED_PACKS <= files
    systems = {pack.system for pack in load_packs()}
    assert EXPECTED_PACKS <= systems
    assert len(load_packs()) == len(files)


def test_each_shipped_file_loads_on_its_own():
    # A pack holds site entries, or only pack-level knowledge (intent.toml's `[tools.intent]`,
    # client_bundles.toml's `client_env_prefixes`, policy.toml's `[[policy_reads]]`).
    for path in default_pack_files():
        pack = load_pack(path)
        assert pack.entries or pack.tools.intent or pack.client_env_prefixes or \
            pack.policy_reads, path.name


def test_shipped_packs_are_cached_values():
    assert load_packs() is load_packs()


def test_every_entry_site_is_a_site_kind_and_role_a_role_edge():
    for pack in load_packs():
        for entry in pack.entries:
            assert isinstance(entry.site, SiteKind), entry.id
            assert entry.role in ROLE_KINDS, entry.id
            assert entry.id.startswith(pack.system + "."), entry.id
            assert not {spec.name for spec in entry.attrs} & ENGINE_ATTRS, entry.id


def test_schema_enums_are_the_model_enums():
    """The schema is data for pack authors; it must not drift from topo.analyzers.model."""
    entry = pack_schema()["$defs"]["entry"]["properties"]
    assert set(entry["site"]["enum"]) == {kind.value for kind in SiteKind}
    assert set(entry["role"]["enum"]) == {kind.value for kind in ROLE_KINDS}
    assert set(entry["tier"]["enum"]) == {tier.value for tier in Tier}
    assert set(entry["on"]["enum"]) == {trigger.value for trigger in Trigger}
    spec = pack_schema()["$defs"]["attrSpec"]["then"]["properties"]
    assert set(spec["as"]["enum"]) == {extract.value for extract in Extract}


def test_executors_carry_a_tier_and_authority_says_if_enforced():
    for pack in load_packs():
        for entry in pack.entries:
            if entry.site is SiteKind.EXECUTOR:
                assert entry.tier is not None, entry.id
            if entry.role is EdgeKind.AUTHORITY:
                assert entry.enforced is not None, entry.id


def test_every_shipped_pattern_compiles():
    for pack in load_packs():
        for entry in pack.entries:
            NameIndex.build((pattern, entry) for pattern in entry.match)


def test_no_shipped_pattern_is_a_bare_name():
    """Packs match resolved names: a single-segment call pattern would match a local
    `decide()`; only builtins and parameter names are one segment (or builtins.x)."""
    for pack in load_packs():
        for entry in pack.entries:
            if entry.on is Trigger.PARAMETER:
                continue
            for pattern in entry.match:
                assert "." in pattern and not pattern.startswith(("*", "**")), pattern


def test_pack_files_ship_as_package_data():
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    data = pyproject["tool"]["setuptools"]["package-data"]["topo.analyzers.packs"]
    assert set(data) == {"data/*.toml", "pack.schema.json"}


def test_schema_is_valid_2020_12():
    from jsonschema import Draft202012Validator
    Draft202012Validator.check_schema(pack_schema())
    assert json.dumps(pack_schema()).count('"additionalProperties": false') >= 5


def test_bad_factory_pattern_names_its_index(tmp_path):
    message = error_of(tmp_path, 'factories = ["demo.ok", "demo.{a"]\n' + GOOD)
    assert message.startswith("demo.toml: factories[1]: ")


def test_factories_are_patterns_asked_after_aliases(tmp_path):
    from topo.analyzers.packs import factories
    pack = write(tmp_path, 'factories = ["demo.connect", "demo.*.cursor"]\n'
                 + GOOD + '[aliases]\nold_demo = "demo"\n')
    names = factories(load_packs([pack]))
    assert "demo.connect" in names and "demo.pool.cursor" in names
    assert "old_demo.connect" in names
    assert "demo" not in names and "demo.connect.execute" not in names and None not in names


def test_shipped_factories_cover_names_the_patterns_go_through():
    from topo.analyzers.packs import factories
    names = factories()
    for factory in ("boto3.client", "sqlite3.connect", "langgraph.prebuilt.create_react_agent",
                    "langchain_openai.ChatOpenAI.bind_tools", "ldclient.get"):
        assert factory in names, factory
    assert "os.remove" not in names and "openai.OpenAI" not in names


def test_wrappers_are_patterns_asked_after_aliases(tmp_path):
    from topo.analyzers.packs import wrappers
    text = GOOD.replace('fingerprint = ["demo"]',
                        'fingerprint = ["demo"]\nwrappers = ["demo.wrap"]\n'
                        '[aliases]\n"dm" = "demo"')
    packs = load_packs([write(tmp_path, text)])
    assert "dm.wrap" in wrappers(packs) and "demo.other" not in wrappers(packs)
    with pytest.raises(PackError, match=r"demo.toml: wrappers\[0\]: "):
        load_pack(write(tmp_path, GOOD.replace('fingerprint = ["demo"]',
                                               'fingerprint = ["demo"]\nwrappers = ["a.{b"]')))


def test_policy_reads_load_typed_and_reject_an_unknown_kind(tmp_path):
    text = GOOD + '''
[[policy_reads]]
kind = "role"
description = "role checks"
fields = ["role"]
methods = ["has_perm"]
except_values = ["assistant"]
'''
    [rule] = load_pack(write(tmp_path, text)).policy_reads
    assert (rule.kind, rule.fields, rule.methods, rule.except_values) == \
        ("role", ("role",), ("has_perm",), ("assistant",))
    assert "policy_reads" in error_of(tmp_path, text.replace('kind = "role"', 'kind = "vibe"'))
