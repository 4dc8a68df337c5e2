"""A pack may set only the attributes declared for its entry's site kind (`SITE_ATTRIBUTES`),
with the declared types; anything else is a `PackError` naming the file and key path."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.analyzers.packs import PackError, load_pack

PACK = '''
system = "demo"
languages = ["python"]
[[entries]]
id = "demo.send"
on = "call"
match = ["demo.Client.send"]
site = "executor"
role = "execution"
tier = "communication"
[entries.attrs]
channel = "email"
to = { kwarg = "to", as = "text" }
[[entries]]
id = "demo.decide"
on = "call"
match = ["demo.Client.decide"]
site = "decision_call"
role = "authority"
enforced = true
[entries.attrs]
decision_point = { kwarg = "decision_point" }
executes = false
'''


def _load(tmp_path: Path, text: str):
    path = tmp_path / "demo.toml"
    path.write_text(text, encoding="utf-8")
    return load_pack(path)


def _error(tmp_path: Path, old: str, new: str) -> str:
    assert old in PACK
    with pytest.raises(PackError) as caught:
        _load(tmp_path, PACK.replace(old, new))
    return str(caught.value)


def test_declared_attributes_load(tmp_path):
    pack = _load(tmp_path, PACK)
    assert [[spec.name for spec in entry.attrs] for entry in pack.entries] == \
        [["channel", "to"], ["decision_point", "executes"]]


def test_a_misspelt_attribute_names_file_key_path_and_the_likely_name(tmp_path):
    message = _error(tmp_path, 'decision_point = {', 'decision_pont = {')
    assert message == ("demo.toml: entries[1].attrs.decision_pont: 'decision_pont' is not an "
                       "attribute of decision_call sites (did you mean 'decision_point'?)")


def test_an_attribute_of_another_site_kind_is_rejected(tmp_path):
    message = _error(tmp_path, 'channel = "email"', 'provider = "demo"')
    assert message.startswith("demo.toml: entries[0].attrs.provider: 'provider' is not an "
                              "attribute of executor sites")


def test_a_constant_of_the_wrong_type_is_rejected(tmp_path):
    message = _error(tmp_path, 'executes = false', 'executes = "no"')
    assert message == "demo.toml: entries[1].attrs.executes: 'no' is not bool, the type of " \
                      "'executes'"


def test_a_default_of_the_wrong_type_is_rejected(tmp_path):
    message = _error(tmp_path, 'executes = false', 'executes = { kwarg = "x", default = 1 }')
    assert message.startswith("demo.toml: entries[1].attrs.executes.default: 1 is not bool")


def test_an_extraction_that_gives_another_type_is_rejected(tmp_path):
    # `literal` copies whatever the code wrote; `channel` holds text.
    message = _error(tmp_path, 'channel = "email"', 'channel = { kwarg = "channel" }')
    assert message.startswith("demo.toml: entries[0].attrs.channel.as: 'literal' gives str or "
                              "int or float or bool or none or tuple, but 'channel' of executor "
                              "sites holds str")


def test_text_extraction_fits_a_text_attribute(tmp_path):
    pack = _load(tmp_path, PACK.replace('channel = "email"',
                                        'channel = { kwarg = "channel", as = "text" }'))
    assert pack.entries[0].attrs[0].name == "channel"


def test_a_literal_read_needs_a_declared_non_literal_form(tmp_path):
    # `tool_name` on approval gates is set by the engine from the tool; it has no
    # `tool_name_literal` / `tool_name_text`, which a literal read of a variable would give.
    text = PACK.replace('site = "executor"\nrole = "execution"\ntier = "communication"',
                        'site = "approval_gate"\nrole = "authority"')
    text = text.replace('channel = "email"\nto = { kwarg = "to", as = "text" }',
                        'tool_name = { kwarg = "name" }')
    with pytest.raises(PackError) as caught:
        _load(tmp_path, text)
    assert str(caught.value).startswith("demo.toml: entries[0].attrs.tool_name: 'tool_name' of "
                                        "approval_gate sites has no declared non-literal form")
