"""Engine behaviour that no single pack owns: ids, order, languages, extraction rules."""

from __future__ import annotations

from pathlib import Path

from topo.analyzers.ir import Language
from topo.analyzers.packs import classify, fingerprint, load_packs
from topo.analyzers.model import SiteKind, Unknown
from tests.packs.builders import (FileBuilder, attrs, b, call_value, dict_items, dict_value, n,
                                  s, site_for, sites_of, spread, v)

CUSTOM = '''
system = "demo"
languages = ["python", "typescript"]
fingerprint = ["demo", "@demo/sdk"]
[aliases]
legacy_demo = "demo"
[[entries]]
id = "demo.decide"
on = "call"
match = ["demo.Client.decide"]
site = "decision_call"
role = "authority"
enforced = true
[entries.attrs]
# Names must be declared for decision_call sites (SITE_ATTRIBUTES); the last four exercise a
# positional literal, a type, dict keys and a constant.
decision_point = { kwarg = "decision_point", object_key = "decisionPoint" }
dry_run = { kwarg = "options", object_key = "options", path = "dry_run", default = false }
workspace = { arg = 0 }
project = { arg = 1, as = "type" }
context_calls = { kwarg = "data", as = "keys" }
human_consent = 3
[[entries]]
id = "demo.any_decide"
on = "call"
match = ["demo.*.decide"]
site = "decision_call"
role = "authority"
enforced = false
[[entries]]
id = "demo.ts_only"
on = "call"
match = ["demo.Client.send"]
site = "executor"
role = "execution"
tier = "communication"
languages = ["typescript"]
'''


def custom_packs(tmp_path: Path):
    path = tmp_path / "demo.toml"
    path.write_text(CUSTOM, encoding="utf-8")
    return load_packs([path])


def classify_custom(tmp_path: Path, builder: FileBuilder):
    return classify([builder.build()], custom_packs(tmp_path))


def test_sites_are_sorted_by_id_and_output_is_deterministic():
    fb = FileBuilder()
    for line_callee in ("subprocess.run", "stripe.Refund.create", "openai.OpenAI.responses.create",
                        "os.remove"):
        fb.call(line_callee)
    first = sites_of(fb)
    assert [site.id for site in first] == sorted(site.id for site in first)
    assert first == sites_of(fb)
    reversed_files = classify([fb.build(), FileBuilder(path="b.py", module="b").build()][::-1])
    assert [site.id for site in reversed_files] == [site.id for site in first]


def test_site_id_format_uses_kind_file_line_column():
    fb = FileBuilder(path="pkg/mod.py", module="pkg.mod")
    call = fb.call("os.remove", v("p"))
    [site] = sites_of(fb)
    assert site.id == f"executor:pkg/mod.py:{call.location.line}:{call.location.column}"
    assert site.language == "python" and site.location == call.location


def test_unparseable_file_gives_no_sites():
    fb = FileBuilder()
    fb.call("os.remove")
    broken = fb.build()
    broken = type(broken)(**{**{f: getattr(broken, f) for f in broken.__slots__},
                             "parse_error": Unknown(broken.path, "syntax error", 1)})
    assert classify([broken]) == ()


def test_entry_languages_filter_sites(tmp_path):
    python = FileBuilder()
    python.call("demo.Client.send")
    typescript = FileBuilder(path="src/a.ts", module="src/a", language=Language.TYPESCRIPT)
    ts_call = typescript.call("demo.Client.send")
    assert classify_custom(tmp_path, python) == ()
    [site] = classify_custom(tmp_path, typescript)
    assert site.location == ts_call.location and site.language == "typescript"


def test_typescript_first_argument_object_keys(tmp_path):
    fb = FileBuilder(path="src/a.ts", module="src/a", language=Language.TYPESCRIPT)
    call = fb.call("demo.Client.decide", dict_value(decisionPoint=s("refund"),
                                                    options=dict_value(dry_run=b(True))))
    site = attrs(site_for(classify_custom(tmp_path, fb), SiteKind.DECISION_CALL, call))
    assert site["decision_point"] == "refund" and site["dry_run"] is True


def test_typescript_options_object_that_is_a_variable(tmp_path):
    fb = FileBuilder(path="src/a.ts", module="src/a", language=Language.TYPESCRIPT)
    call = fb.call("demo.Client.decide", v("request"))
    site = attrs(site_for(classify_custom(tmp_path, fb), SiteKind.DECISION_CALL, call))
    assert site["decision_point_literal"] is False and site["decision_point_text"] == "request"


def test_object_spread_hides_a_missing_key(tmp_path):
    fb = FileBuilder(path="src/a.ts", module="src/a", language=Language.TYPESCRIPT)
    call = fb.call("demo.Client.decide", dict_items(("other", n(1)), (None, spread(v("base")))))
    site = attrs(site_for(classify_custom(tmp_path, fb), SiteKind.DECISION_CALL, call))
    assert site["decision_point_literal"] is False and site["decision_point_text"] == "*base"


def test_double_star_kwargs_make_absent_keywords_dynamic(tmp_path):
    fb = FileBuilder()
    call = fb.call("demo.Client.decide", **{"**": v("params")})
    site = attrs(site_for(classify_custom(tmp_path, fb), SiteKind.DECISION_CALL, call))
    assert site["decision_point_literal"] is False and site["decision_point_text"] == "params"


def test_star_args_hide_later_positions(tmp_path):
    fb = FileBuilder()
    call = fb.call("demo.Client.decide", spread(v("args")), s("x"))
    site = attrs(site_for(classify_custom(tmp_path, fb), SiteKind.DECISION_CALL, call))
    assert site["workspace_literal"] is False and site["project"] == "dynamic"


def test_positional_literals_types_keys_and_constants(tmp_path):
    fb = FileBuilder()
    call = fb.call("demo.Client.decide", s("a"), n(2.5),
                   data=dict_value(zeta=n(1), alpha=n(2)))
    site = attrs(site_for(classify_custom(tmp_path, fb), SiteKind.DECISION_CALL, call))
    assert site["workspace"] == "a" and site["project"] == "float"
    assert site["context_calls"] == ("alpha", "zeta") and site["human_consent"] == 3


def test_keys_of_a_non_dict_are_dynamic(tmp_path):
    fb = FileBuilder()
    call = fb.call("demo.Client.decide", data=v("payload"))
    site = attrs(site_for(classify_custom(tmp_path, fb), SiteKind.DECISION_CALL, call))
    assert site["context_calls_literal"] is False and "context_calls" not in site


def test_aliases_from_custom_packs(tmp_path):
    fb = FileBuilder()
    call = fb.call("legacy_demo.Client.decide", decision_point=s("x"))
    site = site_for(classify_custom(tmp_path, fb), SiteKind.DECISION_CALL, call)
    assert site.attr("callee") == "legacy_demo.Client.decide" and site.system == "demo"


def test_nested_constructor_with_unknown_keyword_is_absent_then_default(tmp_path):
    fb = FileBuilder()
    options = fb.call("demo.Options", top_k=n(3))
    call = fb.call("demo.Client.decide", options=call_value(options))
    site = attrs(site_for(classify_custom(tmp_path, fb), SiteKind.DECISION_CALL, call))
    assert site["dry_run"] is False


def test_same_call_matched_by_two_entries_yields_one_site(tmp_path):
    """`demo.decide` and `demo.any_decide` both match; the first entry in pack order wins."""
    fb = FileBuilder()
    call = fb.call("demo.Client.decide")
    other = fb.call("demo.Other.decide")
    sites = classify_custom(tmp_path, fb)
    assert [(site.location, site.attr("entry")) for site in sites] == [
        (call.location, "demo.decide"), (other.location, "demo.any_decide")]


def test_fingerprint_reports_systems_by_import_prefix():
    fb = FileBuilder()
    fb.imported("memrail.atoms", "state")
    fb.imported("openai")
    fb.imported("stripe")
    fb.imported("agents", "Runner")
    fb.imported("langchain_core.tools", "tool")
    fb.imported("app.memrail_helpers")
    fb.imported("openai_extras")
    assert fingerprint(fb.build()) == frozenset(
        {"memrail", "openai", "sinks", "payments", "openai_agents", "langchain"})


def test_fingerprint_recognises_legacy_ami_and_from_imports():
    fb = FileBuilder()
    fb.imported("ami", "AsyncAMIClient")
    fb.imported("google", "genai")
    assert fingerprint(fb.build()) == frozenset({"memrail", "google_genai"})


def test_fingerprint_of_a_file_without_imports_is_empty():
    assert fingerprint(FileBuilder().build()) == frozenset()


def test_decorator_without_its_definition_falls_back_to_the_call():
    """Front-end gaps must not crash the engine: a decorator naming an unknown definition."""
    fb = FileBuilder()
    call = fb.call("mcp.server.fastmcp.FastMCP.tool", decorates="missing")
    [site] = sites_of(fb)
    assert site.location == call.location and site.symbol == "app.agent.missing"
    assert "tool_name" not in attrs(site)
