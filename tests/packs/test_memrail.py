"""The memrail pack through the engine: decisions, atoms, events, acks, tools, handlers."""

from __future__ import annotations

from topo.analyzers.ir import MODULE_SCOPE
from topo.analyzers.model import SiteKind
from tests.packs.builders import (NONE, FileBuilder, attrs, b, call_value, dict_items,
                                  dict_value, fstring, list_value, n, s, site_for, sites_of,
                                  spread, v)

CLIENT = "memrail.AsyncAMIClient"


def test_decide_is_an_enforced_decision_with_literal_attributes():
    fb = FileBuilder()
    tier = fb.call("memrail.atoms.state", s("customer.tier"), s("gold"), scope="handle")
    intent = fb.call("memrail.atoms.tag", s("intent"), s("refund"), scope="handle")
    decide = fb.call(f"{CLIENT}.decide", scope="handle", decision_point=s("refund.approve"),
                     context=list_value(call_value(tier), call_value(intent)),
                     project=s("support"), workspace=s("prod"))
    site = site_for(sites_of(fb), SiteKind.DECISION_CALL, decide)
    assert site.id == "decision_call:app/agent.py:3:5"
    assert site.symbol == "app.agent.handle" and site.system == "memrail"
    assert site.inferred is False
    assert attrs(site) == {
        "decision_point": "refund.approve", "project": "support", "workspace": "prod",
        "atoms": (tier.id, intent.id), "context_calls": (tier.id, intent.id),
        "dry_run": False, "executes": False, "role": "authority", "enforced": True,
        "entry": "memrail.decide", "callee": f"{CLIENT}.decide", "call": decide.id}


def test_dynamic_decision_point_is_flagged_not_guessed():
    fb = FileBuilder()
    decide = fb.call(f"{CLIENT}.decide", decision_point=v("output.action"), atoms=list_value())
    site = attrs(site_for(sites_of(fb), SiteKind.DECISION_CALL, decide))
    assert "decision_point" not in site
    assert site["decision_point_literal"] is False
    assert site["decision_point_text"] == "output.action"
    assert site["atoms"] == ()


def test_fstring_decision_point_is_not_literal():
    fb = FileBuilder()
    decide = fb.call(f"{CLIENT}.decide_sync", decision_point=fstring("f'refund.{kind}'"))
    site = attrs(site_for(sites_of(fb), SiteKind.DECISION_CALL, decide))
    assert site["decision_point_literal"] is False
    assert site["decision_point_text"] == "f'refund.{kind}'"


def test_missing_decision_point_gives_no_attribute():
    fb = FileBuilder()
    decide = fb.call("memrail.AMIClient.invoke", context=list_value())
    site = attrs(site_for(sites_of(fb), SiteKind.DECISION_CALL, decide))
    assert "decision_point" not in site and "decision_point_literal" not in site


def test_dry_run_through_nested_invoke_options():
    fb = FileBuilder()
    options = fb.call("memrail.models.InvokeOptions", dry_run=b(True), human_consent=b(True))
    decide = fb.call(f"{CLIENT}.decide", decision_point=s("dp"), options=call_value(options))
    site = attrs(site_for(sites_of(fb), SiteKind.DECISION_CALL, decide))
    assert site["dry_run"] is True and site["human_consent"] is True


def test_dry_run_through_dict_options_and_default():
    fb = FileBuilder()
    with_dict = fb.call(f"{CLIENT}.decide", options=dict_value(dry_run=b(True)))
    without = fb.call(f"{CLIENT}.decide", options=dict_value(top_k=n(3)))
    sites = sites_of(fb)
    assert attrs(site_for(sites, SiteKind.DECISION_CALL, with_dict))["dry_run"] is True
    assert attrs(site_for(sites, SiteKind.DECISION_CALL, without))["dry_run"] is False
    assert "human_consent" not in attrs(site_for(sites, SiteKind.DECISION_CALL, without))


def test_options_from_a_variable_are_dynamic():
    fb = FileBuilder()
    decide = fb.call(f"{CLIENT}.decide", options=v("opts"))
    site = attrs(site_for(sites_of(fb), SiteKind.DECISION_CALL, decide))
    assert site["dry_run_literal"] is False and site["dry_run_text"] == "opts"
    assert "dry_run" not in site


def test_options_from_a_helper_call_are_dynamic():
    fb = FileBuilder()
    helper = fb.call("app.agent.build_options", dry_run=b(False))
    decide = fb.call(f"{CLIENT}.decide", options=call_value(helper))
    site = attrs(site_for(sites_of(fb), SiteKind.DECISION_CALL, decide))
    assert site["dry_run_literal"] is False


def test_atom_sites_and_their_attributes():
    fb = FileBuilder()
    state = fb.call("memrail.atoms.state", s("refund.amount_cents"), n(7500))
    tag = fb.call("memrail.atoms.tag", s("intent"), v("label"), source=s("ml"))
    by_keyword = fb.call("memrail.atoms.state", key=s("order.paid"), value=b(True))
    sites = sites_of(fb)
    assert attrs(site_for(sites, SiteKind.ATOM, state)) == {
        "kind": "state", "key": "refund.amount_cents", "value": 7500, "value_type": "int",
        "source": "system", "role": "observation", "entry": "memrail.atoms.state",
        "callee": "memrail.atoms.state", "call": state.id}
    tag_attrs = attrs(site_for(sites, SiteKind.ATOM, tag))
    assert tag_attrs["kind"] == "tag" and tag_attrs["key"] == "intent"
    assert tag_attrs["source"] == "ml" and tag_attrs["value_type"] == "dynamic"
    assert tag_attrs["value_literal"] is False and tag_attrs["value_text"] == "label"
    keyword_attrs = attrs(site_for(sites, SiteKind.ATOM, by_keyword))
    assert keyword_attrs["key"] == "order.paid" and keyword_attrs["value_type"] == "bool"


def test_value_types():
    fb = FileBuilder()
    calls = {expected: fb.call("memrail.atoms.state", s(f"a.{expected}"), value)
             for expected, value in [("int", n(1)), ("float", n(1.5)), ("str", s("x")),
                                     ("bool", b(False)), ("none", NONE),
                                     ("str ", fstring("f'{x}'")), ("dynamic", v("x"))]}
    sites = sites_of(fb)
    for expected, call in calls.items():
        assert site_for(sites, SiteKind.ATOM, call).attr("value_type") == expected.strip()


def test_context_list_records_only_atom_calls_and_says_when_incomplete():
    fb = FileBuilder()
    atom = fb.call("memrail.atoms.state", s("a.b"), n(1))
    helper = fb.call("app.agent.more_atoms")
    decide = fb.call(f"{CLIENT}.decide", context=list_value(
        call_value(atom), spread(call_value(helper)), v("extra")))
    site = attrs(site_for(sites_of(fb), SiteKind.DECISION_CALL, decide))
    assert site["atoms"] == (atom.id,)
    assert site["atoms_literal"] is False
    assert site["context_calls"] == (atom.id, helper.id)


def test_context_from_a_variable_is_not_literal():
    fb = FileBuilder()
    decide = fb.call(f"{CLIENT}.decide", atoms=v("atoms"))
    site = attrs(site_for(sites_of(fb), SiteKind.DECISION_CALL, decide))
    assert "atoms" not in site and site["atoms_literal"] is False
    assert site["atoms_text"] == "atoms"


def test_atoms_from_dict_expands_literal_keys_with_skip_rules():
    fb = FileBuilder()
    data = dict_items(
        ("tier", s("gold")), ("lifetime_value", n(1200.5)), ("vip", b(True)),
        ("nickname", NONE),                     # None: skipped
        ("_internal", s("x")),                  # leading underscore: skipped
        ("Bad-Key", s("x")),                    # does not match [a-z][a-z0-9_]*
        ("orders", list_value(s("o1"))),        # lists: skipped
        ("notes", s("x" * 257)),                # longer than 256: skipped
        ("address", dict_value(city=s("Oslo"), zip=NONE)),  # nested: flattened
        ("score", v("risk_score")),             # non-literal: kept, dynamic
    )
    expand = fb.call("memrail.atoms_from_dict", data, prefix=s("customer"))
    atoms = [site for site in sites_of(fb) if site.kind is SiteKind.ATOM]
    by_key = {site.attr("key"): site for site in atoms}
    assert sorted(by_key) == ["customer.address.city", "customer.lifetime_value",
                              "customer.score", "customer.tier", "customer.vip"]
    tier = by_key["customer.tier"]
    assert tier.id == f"atom:app/agent.py:{expand.location.line}:5:customer.tier"
    assert attrs(tier)["value_type"] == "str" and attrs(tier)["prefix"] == "customer"
    assert attrs(tier)["kind"] == "state" and attrs(tier)["expanded"] is True
    assert attrs(tier)["call"] == expand.id and attrs(tier)["source"] == "system"
    assert by_key["customer.lifetime_value"].attr("value_type") == "float"
    assert by_key["customer.score"].attr("value_type") == "dynamic"


def test_atoms_from_dict_depth_limit_is_seven_parts():
    fb = FileBuilder()
    deep = dict_value(g=s("x"))
    for key in "fedcb":
        deep = dict_value(**{key: deep}, ok=s("y"))
    fb.call("memrail.atoms_from_dict", deep, s("p"))
    keys = {site.attr("key") for site in sites_of(fb) if site.kind is SiteKind.ATOM}
    # p.b.c.d.e.f.g has 7 parts and is kept; nothing deeper exists here.
    assert "p.b.c.d.e.f.g" in keys and "p.ok" in keys
    fb2 = FileBuilder()
    fb2.call("memrail.atoms_from_dict", dict_value(b=deep), s("p"))
    keys2 = {site.attr("key") for site in sites_of(fb2) if site.kind is SiteKind.ATOM}
    assert "p.b.b.c.d.e.ok" in keys2
    assert not any(key and key.count(".") >= 7 for key in keys2)


def test_atoms_from_dict_with_unknown_data_is_one_dynamic_site():
    fb = FileBuilder()
    expand = fb.call("memrail.atoms_from_dict", v("customer"), prefix=s("customer"))
    [site] = [site for site in sites_of(fb) if site.kind is SiteKind.ATOM]
    assert site.id == f"atom:app/agent.py:{expand.location.line}:5"
    assert attrs(site)["prefix"] == "customer" and attrs(site)["key_literal"] is False
    assert "key" not in attrs(site)


def test_dict_spread_inside_the_literal_keeps_known_keys_and_marks_unknown():
    fb = FileBuilder()
    rest = spread(v("rest"))
    fb.call("memrail.atoms_from_dict", dict_items(("a", n(1)), (None, rest)), prefix=s("p"))
    atoms = {site.id.rsplit(":", 1)[-1]: site for site in sites_of(fb)
             if site.kind is SiteKind.ATOM}
    assert set(atoms) == {"p.a", "p.*"}
    assert atoms["p.*"].attr("key_literal") is False


def test_state_object_expands_with_prefix_first():
    fb = FileBuilder()
    fb.call("memrail.StateObject", s("order"), dict_value(total=n(10), _id=s("x")))
    keys = [site.attr("key") for site in sites_of(fb) if site.kind is SiteKind.ATOM]
    assert keys == ["order.total"]


def test_decision_records_atoms_from_dict_call():
    fb = FileBuilder()
    expand = fb.call("memrail.atoms_from_dict", dict_value(tier=s("gold")), prefix=s("c"))
    decide = fb.call(f"{CLIENT}.decide", context=list_value(spread(call_value(expand))))
    site = attrs(site_for(sites_of(fb), SiteKind.DECISION_CALL, decide))
    assert site["atoms"] == (expand.id,) and "atoms_literal" not in site


def test_emit_event_takes_name_and_attribute_keys_from_the_event_builder():
    fb = FileBuilder()
    event = fb.call("memrail.atoms.event", s("order.refund.issued"), ts=v("now"),
                    attributes=dict_value(order_id=v("oid"), amount=n(5)))
    emit = fb.call(f"{CLIENT}.emit_event", call_value(event), project=s("support"))
    sites = sites_of(fb)
    event_atom = attrs(site_for(sites, SiteKind.ATOM, event))
    assert event_atom["kind"] == "event" and event_atom["key"] == "order.refund.issued"
    site = site_for(sites, SiteKind.EVENT_EMIT, emit)
    assert site.attr("event_name") == "order.refund.issued"
    assert site.attr("attribute_keys") == ("amount", "order_id")
    assert site.attr("role") == "recording" and site.attr("project") == "support"


def test_emit_event_with_a_variable_event_is_dynamic():
    fb = FileBuilder()
    emit = fb.call(f"{CLIENT}.emit_event", v("evt"))
    site = attrs(site_for(sites_of(fb), SiteKind.EVENT_EMIT, emit))
    assert site["event_name_literal"] is False and site["event_name_text"] == "evt"


def test_emit_events_lists_every_event_name():
    fb = FileBuilder()
    first = fb.call("memrail.atoms.event", s("a.b.c"))
    second = fb.call("memrail.atoms.event", topic=s("project.d.e.f"))
    emit = fb.call(f"{CLIENT}.emit_events", list_value(call_value(first), call_value(second)))
    site = attrs(site_for(sites_of(fb), SiteKind.EVENT_EMIT, emit))
    assert site["event_names"] == ("a.b.c", "project.d.e.f")
    assert "event_names_literal" not in site


def test_ingest_event_joins_subject_verb_object():
    fb = FileBuilder()
    emit = fb.call(f"{CLIENT}.ingest_event", subject=s("agent"), verb=s("sent"),
                   object=s("email"), attributes=dict_value(customer_id=v("cid")))
    dynamic = fb.call(f"{CLIENT}.ingest_event", subject=s("agent"), verb=v("verb"),
                      object=s("email"))
    sites = sites_of(fb)
    site = site_for(sites, SiteKind.EVENT_EMIT, emit)
    assert site.attr("event_name") == "agent.sent.email" and site.inferred is True
    assert site.attr("attribute_keys") == ("customer_id",)
    dynamic_attrs = attrs(site_for(sites, SiteKind.EVENT_EMIT, dynamic))
    assert dynamic_attrs["event_name_literal"] is False
    assert dynamic_attrs["event_name_text"] == "'agent'.verb.'email'"


def test_batch_ingest_events_reads_event_inputs():
    fb = FileBuilder()
    one = fb.call("memrail.EventInput", subject=s("a"), verb=s("b"), object=s("c"))
    emit = fb.call("memrail.AMIClient.batch_ingest_events",
                   events=list_value(call_value(one), v("other")))
    site = attrs(site_for(sites_of(fb), SiteKind.EVENT_EMIT, emit))
    assert site["event_names"] == ("a.b.c",) and site["event_names_literal"] is False


def test_ack():
    fb = FileBuilder()
    ack = fb.call(f"{CLIENT}.ack", v("item.activation_id"), s("acknowledged"), code=s("SUCCESS"))
    site = attrs(site_for(sites_of(fb), SiteKind.ACK, ack))
    assert site["activation_id"] == "item.activation_id" and site["status"] == "acknowledged"
    assert site["code"] == "SUCCESS" and site["role"] == "recording"


def test_tool_decorator_puts_the_site_on_the_definition():
    fb = FileBuilder()
    decorator, definition = fb.decorated(
        "issue_refund", "memrail.ToolRegistry.tool", s("refund.issue"), s("Refund"),
        dict_value(amount=v("int")), projects=list_value(s("support")))
    site = site_for(sites_of(fb), SiteKind.TOOL_REGISTRATION, location=definition.location)
    assert site.symbol == "app.agent.issue_refund"
    assert site.id == f"tool_registration:app/agent.py:{definition.location.line}:1"
    assert attrs(site)["tool_name"] == "refund.issue"
    assert attrs(site)["projects"] == ("support",)
    assert attrs(site)["definition"] == "app.agent.issue_refund"
    assert attrs(site)["call"] == decorator.id and attrs(site)["role"] == "execution"


def test_tool_decorator_name_by_keyword_and_by_function_name():
    fb = FileBuilder()
    _, named = fb.decorated("a", "memrail.AMIClient.tool", name=s("tool.a"))
    _, unnamed = fb.decorated("b", "memrail.AsyncAMIClient.tool", description=s("d"))
    _, dynamic = fb.decorated("c", "memrail.ToolRegistry.tool", name=v("NAME"))
    sites = sites_of(fb)
    assert site_for(sites, SiteKind.TOOL_REGISTRATION,
                    location=named.location).attr("tool_name") == "tool.a"
    assert site_for(sites, SiteKind.TOOL_REGISTRATION,
                    location=unnamed.location).attr("tool_name") == "b"
    dynamic_attrs = attrs(site_for(sites, SiteKind.TOOL_REGISTRATION,
                                   location=dynamic.location))
    assert "tool_name" not in dynamic_attrs and dynamic_attrs["tool_name_literal"] is False


def test_register_tool_names_the_handler_definition():
    fb = FileBuilder()
    fb.define("send_email", parameters=("to", "body"))
    register = fb.call("memrail.ToolRegistry.register_tool", name=s("email.send"),
                       handler=v("send_email"), projects=list_value(s("p")))
    site = attrs(site_for(sites_of(fb), SiteKind.TOOL_REGISTRATION, register))
    assert site["tool_name"] == "email.send" and site["definition"] == "app.agent.send_email"


def test_action_handlers():
    fb = FileBuilder()
    _, route = fb.decorated("on_route", "memrail.ToolRegistry.on_route", bare=True)
    _, directive = fb.decorated("on_dir", "memrail.AMIClient.on_context_directive",
                                s("refund.approve"), project=s("support"))
    sites = sites_of(fb)
    assert site_for(sites, SiteKind.ACTION_HANDLER,
                    location=route.location).attr("action_type") == "route"
    directive_attrs = attrs(site_for(sites, SiteKind.ACTION_HANDLER,
                                     location=directive.location))
    assert directive_attrs["action_type"] == "context_directive"
    assert directive_attrs["decision_point"] == "refund.approve"
    assert directive_attrs["project"] == "support"


def test_legacy_ami_package_is_memrail():
    fb = FileBuilder()
    decide = fb.call("ami.AsyncAMIClient.decide", decision_point=s("dp"))
    atom = fb.call("ami.atoms.state", s("a.b"), n(1))
    sites = sites_of(fb)
    site = site_for(sites, SiteKind.DECISION_CALL, decide)
    assert site.system == "memrail" and site.attr("callee") == "ami.AsyncAMIClient.decide"
    assert site_for(sites, SiteKind.ATOM, atom).attr("key") == "a.b"


def test_decoys_are_not_classified():
    fb = FileBuilder()
    fb.call("app.local.decide", decision_point=s("dp"))
    fb.call("otherlib.AsyncAMIClient.decide", decision_point=s("dp"))
    fb.call("otherlib.state", s("a.b"), n(1))
    fb.call("amigo.atoms.state", s("a.b"), n(1))
    fb.call(None, decision_point=s("dp"))
    fb.decorated("t", "app.registry.tool", s("name"))
    fb.call("memrail.atoms.state.extra", s("a.b"))
    assert sites_of(fb) == ()


def test_decide_and_execute_executes():
    fb = FileBuilder()
    call = fb.call(f"{CLIENT}.decide_and_execute", decision_point=s("dp"), auto_ack=b(True))
    site = attrs(site_for(sites_of(fb), SiteKind.DECISION_CALL, call))
    assert site["executes"] is True and site["auto_ack"] is True
    assert site["entry"] == "memrail.decide_and_execute"


def test_module_level_symbol_is_the_module():
    fb = FileBuilder()
    call = fb.call(f"{CLIENT}.decide", scope=MODULE_SCOPE)
    assert site_for(sites_of(fb), SiteKind.DECISION_CALL, call).symbol == "app.agent"


def test_state_object_to_atoms_counts_as_its_constructor_in_the_context():
    fb = FileBuilder()
    built = fb.call("memrail.StateObject", s("order"), dict_value(total=n(1)), scope="f")
    fb.assign("obj", call_value(built), scope="f")
    via_variable = fb.call("memrail.StateObject.to_atoms", scope="f", receiver="obj")
    chained_built = fb.call("memrail.StateObject", s("cust"), dict_value(tier=s("x")), scope="f")
    chained = fb.call("memrail.StateObject.to_atoms", scope="f", receiver="StateObject()",
                      same_place_as=chained_built)
    unknown = fb.call("memrail.StateObject.to_atoms", scope="f", receiver="make()")
    decide = fb.call(f"{CLIENT}.decide", scope="f", context=list_value(
        spread(call_value(via_variable)), spread(call_value(chained)),
        spread(call_value(unknown))))
    site = attrs(site_for(sites_of(fb), SiteKind.DECISION_CALL, decide))
    assert site["atoms"] == (built.id, chained_built.id)
    assert site["atoms_literal"] is False
    assert site["context_calls"] == (via_variable.id, chained.id, unknown.id)


def test_chained_calls_at_one_position_keep_distinct_site_ids():
    """The front-end suffixes ids of calls starting at the same place (`a.py:3:5+1`)."""
    fb = FileBuilder()
    first = fb.call(f"{CLIENT}.decide", decision_point=s("a"))
    second = fb.call("memrail.AMIClient.decide", same_place_as=first)
    ids = [site.id for site in sites_of(fb)]
    assert ids == [f"decision_call:{first.id}", f"decision_call:{second.id}"]
    assert second.id == first.id + "+1"
