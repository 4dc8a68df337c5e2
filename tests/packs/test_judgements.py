"""Pack judgements and the readers they need: `unless` / `if_judged`, the `mentions`,
`has_all` / `has_any` and `or_unknown` conditions, `follow` / `through` sources and
`known_text`. A judgement drops or keeps a site only on what the code says; a value nobody
can read keeps the effect."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.analyzers.ir import Value, ValueKind
from topo.analyzers.model import SiteKind
from topo.analyzers.packs import PackError, classify, load_packs
from topo.analyzers.packs._follow import known_text
from tests.packs.builders import FileBuilder, attrs, call_value, dict_value, s, v

PACK = '''
system = "web"
languages = ["python"]
[judgements.token]
description = "Token endpoints obtain a credential."
[judgements.token.when]
url_known = { mentions = ["/token", "/oauth"] }
[judgements.model_body]
description = "A model-shaped body asks a model."
[judgements.model_body.when]
body_keys = { has_all = ["model"], has_any = ["messages", "prompt"] }

[[entries]]
id = "web.post"
on = "call"
match = ["web.post"]
site = "executor"
role = "execution"
tier = "communication"
unless = ["token", "model_body"]
[entries.attrs]
url_known = { arg = 0, as = "known_text", follow = true }
body_keys = { kwarg = "json", as = "keys", follow = true, through = ["json.dumps"] }

[[entries]]
id = "web.model"
on = "call"
match = ["web.post"]
site = "inference"
role = "inference"
if_judged = ["model_body"]
[entries.attrs]
body_keys = { kwarg = "json", as = "keys", follow = true, through = ["json.dumps"] }

[[entries]]
id = "web.request"
on = "call"
match = ["web.request"]
site = "executor"
role = "execution"
[entries.attrs]
method = { arg = 0 }
[entries.when]
method = { in = ["POST", "DELETE"], or_unknown = true }
'''


def _packs(tmp_path: Path, text: str = PACK):
    path = tmp_path / "web.toml"
    path.write_text(text, encoding="utf-8")
    return load_packs([path])


def site_for(sites, kind: SiteKind, call):
    """The site of `kind` at `call`, or None."""
    found = [site for site in sites if site.kind is kind and site.attr("call") == call.id]
    assert len(found) <= 1, found
    return found[0] if found else None


def _executor(tmp_path: Path, fb: FileBuilder, call) -> dict | None:
    found = site_for(classify([fb.build()], _packs(tmp_path)), SiteKind.EXECUTOR, call)
    return None if found is None else attrs(found)


def _fstring(text: str) -> Value:
    return Value(ValueKind.FORMAT, text, reads=("base",))


@pytest.mark.parametrize(("url", "dropped"), [
    ("https://auth.example.com/oauth2/token", True),
    ("https://auth.example.com/oauth/authorize?x=1", True),
    ("https://api.example.com/TOKEN", True),              # case-insensitive
    ("https://api.example.com/tokens/transfer", False),   # `/token` must end a word
    ("https://api.example.com/token.json", False),        # `.` continues the word
    ("https://api.example.com/v1/refunds", False),
])
def test_unless_drops_a_site_whose_url_mentions_a_word(tmp_path, url, dropped):
    fb = FileBuilder()
    post = fb.call("web.post", s(url))
    assert (_executor(tmp_path, fb, post) is None) is dropped


def test_a_template_is_judged_on_its_literal_parts_and_a_name_on_its_one_assignment(tmp_path):
    fb = FileBuilder()
    fb.assign("TOKEN_URL", s("https://auth.example.com/oauth/token"))
    fb.assign("TWICE", s("https://auth.example.com/oauth/token"))
    fb.assign("TWICE", s("https://api.example.com/refunds"))
    template = fb.call("web.post", _fstring('f"{base}/oauth/token"'))
    constant = fb.call("web.post", v("TOKEN_URL"))
    reassigned = fb.call("web.post", v("TWICE"))
    parameter = fb.call("web.post", v("url"))
    assert _executor(tmp_path, fb, template) is None
    assert _executor(tmp_path, fb, constant) is None
    # Nobody can say which URL these are: the effect stays, with no known text.
    assert "url_known" not in _executor(tmp_path, fb, reassigned)
    assert "url_known" not in _executor(tmp_path, fb, parameter)


def test_a_model_shaped_body_is_inference_not_an_effect(tmp_path):
    fb = FileBuilder()
    dumps = fb.call("json.dumps", v("payload"))
    fb.assign("payload", dict_value(model=s("m"), messages=v("history")))
    proxied = fb.call("web.post", s("/api/llm"), json=call_value(dumps))
    plain = fb.call("web.post", s("/api/orders"), json=dict_value(model=s("sku-1"), qty=s("1")))
    sites = classify([fb.build()], _packs(tmp_path))
    model = site_for(sites, SiteKind.INFERENCE, proxied)
    assert model is not None and model.inferred
    assert attrs(model)["body_keys"] == ("messages", "model")
    assert site_for(sites, SiteKind.EXECUTOR, proxied) is None
    # `model` alone (a product model) is no model call.
    assert site_for(sites, SiteKind.EXECUTOR, plain) is not None
    assert site_for(sites, SiteKind.INFERENCE, plain) is None


def test_or_unknown_keeps_a_method_the_code_does_not_spell(tmp_path):
    fb = FileBuilder()
    post = fb.call("web.request", s("POST"))
    get = fb.call("web.request", s("GET"))
    unknown = fb.call("web.request", v("method"))
    assert _executor(tmp_path, fb, post)["method"] == "POST"
    assert _executor(tmp_path, fb, get) is None
    assert _executor(tmp_path, fb, unknown)["method_literal"] is False


@pytest.mark.parametrize(("text", "known"), [
    ('f"{base}/oauth/token"', "*/oauth/token"),
    ("f'{a}{b}/x?q={c[\"k\"]}'", "**/x?q=*"),
    ('f"{{literal}}/{x}"', "{literal}/*"),
    ("`${base}/v1/${id}/refund`", "*/v1/*/refund"),
    ('f"https://api/{x}', None),            # truncated: the end is not known
])
def test_known_text_of_templates(text, known):
    assert known_text(_fstring(text)) == known


def test_known_text_of_other_values_is_unknown():
    assert known_text(s("https://x/y")) == "https://x/y"
    assert known_text(v("url")) is None
    assert known_text(Value(ValueKind.OTHER, 'BASE + "/token"')) is None


def test_an_unknown_judgement_name_is_a_pack_error(tmp_path):
    with pytest.raises(PackError, match=r"entries\[0\]\.unless\[1\]: 'nope' is not one of"):
        _packs(tmp_path, PACK.replace('unless = ["token", "model_body"]',
                                      'unless = ["token", "nope"]'))


def test_a_judgement_must_read_attributes_of_the_entry(tmp_path):
    with pytest.raises(PackError, match=r"entries\[2\]\.unless: judgement 'token' reads "
                                        r"\['url_known'\]"):
        _packs(tmp_path, PACK.replace('[entries.attrs]\nmethod = { arg = 0 }',
                                      'unless = ["token"]\n[entries.attrs]\nmethod = { arg = 0 }'))


@pytest.mark.parametrize("bad", [
    'url_known = { mentions = [] }',
    'url_known = { mentions = ["/x"], present = true }',
    'url_known = { contains = ["/x"] }',
    'url_known = { or_unknown = true }',
])
def test_judgement_conditions_are_schema_checked(tmp_path, bad):
    text = PACK.replace('url_known = { mentions = ["/token", "/oauth"] }', bad)
    with pytest.raises(PackError, match=r"judgements\.token\.when\.url_known"):
        _packs(tmp_path, text)


def test_a_judgement_needs_a_description(tmp_path):
    text = PACK.replace('description = "Token endpoints obtain a credential."\n', "")
    with pytest.raises(PackError, match=r"judgements\.token: 'description' is a required"):
        _packs(tmp_path, text)


def test_shipped_judgements_describe_themselves_and_entries_using_them_too():
    for pack in load_packs():
        for judgement in pack.judgements:
            assert judgement.description.strip(), judgement.name
        for entry in pack.entries:
            if entry.unless or entry.if_judged:
                assert entry.description.strip(), entry.id


def test_through_names_calls_exactly(tmp_path):
    text = PACK.replace('through = ["json.dumps"] }\n\n[[entries]]\nid = "web.model"',
                        'through = ["json.{dumps,dump}"] }\n\n[[entries]]\nid = "web.model"')
    [pack] = _packs(tmp_path, text)
    assert pack.entries[0].attrs[1].source.through == ("json.dumps", "json.dump")
    with pytest.raises(PackError, match=r"entries\[0\]\.attrs\.body_keys\.through\[0\]"):
        _packs(tmp_path, text.replace("json.{dumps,dump}", "json.*"))


def test_starts_reads_the_first_word_of_a_literal_text() -> None:
    from topo.analyzers.packs._conditions import holds
    from topo.analyzers.packs._model import Condition
    select = (Condition(attr="sql", starts=("select",)),)
    assert holds(select, {"sql": "  (SELECT id FROM orders)"})
    assert not holds(select, {"sql": "UPDATE orders SET note = 'select'"})
    assert not holds(select, {"sql": "selection"})
    # An f-string nobody can read keeps the effect.
    assert not holds(select, {"sql_literal": False, "sql_text": "f'SELECT {x}'"})


def test_shipped_raw_sql_entries_drop_a_literal_select() -> None:
    fb = FileBuilder()
    fb.call("sqlite3.connect.cursor.execute", s("SELECT name FROM users"))
    fb.call("sqlite3.connect.cursor.execute", s("DELETE FROM users"))
    fb.call("asyncpg.Connection.execute", s("select 1"))
    executors = [site for site in classify([fb.build()], load_packs())
                 if site.kind is SiteKind.EXECUTOR]
    assert [site.attr("sql") for site in executors] == ["DELETE FROM users"]


def test_shipped_raw_sql_entries_read_what_a_query_is_known_to_start_with() -> None:
    fb = FileBuilder()
    fb.assign("search", s("SELECT * FROM flights WHERE 1 = 1"))       # then only appends
    fb.assign("search", s(" AND arrival = ?"), augmented=True)
    fb.assign("purge", s("SELECT * FROM tickets"))                    # then reassigned
    fb.assign("purge", s("DELETE FROM tickets"))
    fb.assign("grow", s(" WHERE id = ?"), augmented=True)             # an append first
    fb.assign("grow", s("SELECT * FROM tickets"))
    execute = "sqlite3.connect.cursor.execute"
    reads = [fb.call(execute, v("search")), fb.call(execute, _fstring('f"SELECT * FROM {t}"'))]
    writes = [fb.call(execute, v("purge")), fb.call(execute, v("grow")),
              fb.call(execute, _fstring('f"{verb} FROM {t}"'))]
    executors = {site.attr("call"): site for site in classify([fb.build()], load_packs())
                 if site.kind is SiteKind.EXECUTOR}
    assert not any(call.id in executors for call in reads)
    assert [executors[call.id].attr("sql_known") for call in writes] == [None, None, "* FROM *"]
    # What is known of an appended name is its start, never a whole statement.
    fb = FileBuilder()
    fb.assign("q", s("UPDATE t SET a = 1"))
    fb.assign("q", s(", b = 2"), augmented=True)
    update = fb.call(execute, v("q"))
    [site] = [x for x in classify([fb.build()], load_packs()) if x.kind is SiteKind.EXECUTOR]
    assert site.attr("call") == update.id
    assert site.attr("sql_known") == "UPDATE t SET a = 1*"
    assert site.attr("sql_literal") is False and site.attr("sql_text") == "q"



def test_made_by_names_the_call_that_made_a_path_through_a_destructuring() -> None:
    fb = FileBuilder()
    made = call_value(fb.call("tempfile.mkstemp"))
    fb.assign("handle", made, element=True)            # handle, temp_path = tempfile.mkstemp()
    fb.assign("temp_path", made, element=True)
    fb.assign("kept", v("path_argument"))
    scratch = fb.call("os.unlink", v("temp_path"))
    kept = fb.call("os.unlink", v("kept"))
    executors = {site.attr("call"): site for site in classify([fb.build()], load_packs())
                 if site.kind is SiteKind.EXECUTOR}
    assert scratch.id not in executors                 # the code's own scratch file
    assert kept.id in executors and executors[kept.id].attr("path_made_by") is None
