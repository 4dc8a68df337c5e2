"""The tools inventory and the finding traces are the pipeline's (audit/tool_inventory.py,
audit/finding_traces.py), written additively to the JSON document and TOPOLOGY_STATE."""

from __future__ import annotations

from pathlib import Path

from reports_helpers import APPS, GENERATED, document_of

from topo.analyzers.model import Edge, EdgeKind, Location, Site, SiteKind
from topo.audit import codes
from topo.audit.finding_traces import finding_traces
from topo.audit.model import Finding, Severity
from topo.audit.placement import NodePlacement, Placement
from topo.audit.tool_inventory import ADVISORY, ENFORCED, NO_EFFECT, NONE, tool_inventory
from topo.reports.topology import topology_state


def _site(site_id: str, kind: SiteKind, line: int, **attrs) -> Site:
    return Site(site_id, kind, "code", "python", Location("svc/tools.py", line), "svc.tools.f",
                tuple(sorted(attrs.items())))


def _tools(authority: list[tuple[str, str, bool]], findings: tuple[Finding, ...] = ()):
    sites = (_site("reg", SiteKind.TOOL_REGISTRATION, 1, tool_name="wipe", framework="mcp"),
             _site("rm", SiteKind.EXECUTOR, 2, callee="shutil.rmtree", tier="destructive"),
             _site("prompt", SiteKind.PROMPT_POLICY, 3, enforced=False),
             _site("approve", SiteKind.APPROVAL_GATE, 4, enforced=True),
             _site("lonely", SiteKind.TOOL_REGISTRATION, 9, tool_name="noop"))
    edges = (Edge("reg", "rm", EdgeKind.EXECUTION),
             *(Edge(s, t, EdgeKind.AUTHORITY, (("enforced", e),)) for s, t, e in authority))
    placement = Placement((NodePlacement("prompt", "authority", "svc", ADVISORY),
                           NodePlacement("approve", "authority", "svc", ENFORCED)))
    return {t.name: t for t in tool_inventory(sites, edges, (), placement, findings, ())}


def test_governance_is_the_weakest_effects() -> None:
    assert _tools([])["wipe"].governance == NONE
    assert _tools([("prompt", "rm", False)])["wipe"].governance == ADVISORY
    assert _tools([("approve", "reg", True)])["wipe"].governance == ENFORCED
    assert _tools([("approve", "rm", True)])["wipe"].effects[0].governance == ENFORCED
    lonely = _tools([])["noop"]
    assert (lonely.governance, lonely.effects, lonely.framework) == (NO_EFFECT, (), "unknown")


def test_an_output_validator_is_an_entry_but_no_tool() -> None:
    sites = (_site("check", SiteKind.TOOL_REGISTRATION, 1, receives="output"),
             _site("reg", SiteKind.TOOL_REGISTRATION, 5, tool_name="wipe"))
    assert [t.name for t in tool_inventory(sites, (), (), Placement(()), (), ())] == ["wipe"]


def test_declared_hints_are_evidence_and_disagreement_leaves_them_out() -> None:
    sites = (_site("a", SiteKind.TOOL_REGISTRATION, 1, tool_name="write", read_only_hint=False,
                   destructive_hint=True),
             _site("b", SiteKind.TOOL_REGISTRATION, 5, tool_name="write", read_only_hint=True,
                   read_only_hint_literal=False),
             _site("c", SiteKind.TOOL_REGISTRATION, 9, tool_name="list", read_only_hint=True))
    tools = {t.name: t for t in tool_inventory(sites, (), (), Placement(()), (), ())}
    assert tools["write"].hints == (("destructive_hint", True),)
    assert tools["list"].hints == (("read_only_hint", True),)


def test_an_ungoverned_path_finding_overrides_governance() -> None:
    finding = Finding(codes.UNGOVERNED_PATH, Severity.CRITICAL, "reaches rm",
                      Location("svc/tools.py", 2), path=("reg", "rm"), fingerprint="fp1:x")
    wipe = _tools([("approve", "reg", True)], (finding,))["wipe"]
    assert (wipe.governance, wipe.findings) == (NONE, ("fp1:x",))
    assert _tools([("approve", "reg", True)], (finding,))["noop"].findings == ()


def test_the_document_lists_every_tool_by_its_exposed_name() -> None:
    document = document_of("mcp_destructive_tools")
    tools = {t["name"]: t for t in document["tools"]}
    assert sorted(tools) == ["count_customers", "delete_path", "drop_customer", "run_shell"]
    assert tools["drop_customer"]["framework"] == "mcp"
    assert tools["drop_customer"]["governance"] == NONE
    assert [e["tier"] for e in tools["delete_path"]["effects"]] == ["deletion"]
    assert tools["count_customers"]["governance"] == NO_EFFECT
    ungoverned = {f["id"] for f in document["findings"] if f["code"] == "UNGOVERNED-PATH"}
    assert {i for t in tools.values() for i in t["findings"]} >= ungoverned
    state = topology_state(document_of("demo_support_agent"), generated=GENERATED)
    demo = {t["name"]: t for t in state["tools"]}
    assert demo["refund_payment"]["governance"] == ENFORCED
    assert demo["escalate_ticket"]["registered"] is False      # named by an EMU only
    assert demo["escalate_ticket"]["findings"] == ["AUTH-005"]


def test_traces_are_the_path_with_lanes_roles_and_the_effects_code() -> None:
    document = document_of("demo_support_agent")
    finding = next(f for f in document["findings"] if f["code"] == "UNGOVERNED-PATH")
    assert [s["node"] for s in finding["steps"]] == finding["path"]
    assert [s["role"] for s in finding["steps"]] == ["proposal", "authority", "effect"]
    assert finding["effect"] == finding["path"][-1]
    excerpt = finding["excerpt"]
    source = (APPS / "demo_support_agent" / excerpt["file"]).read_text("utf-8").splitlines()
    assert excerpt["line"] == finding["line"]
    assert excerpt["lines"] == [line.rstrip() for line in
                                source[excerpt["start"] - 1:excerpt["line"] + 2]]
    ghost = next(f for f in document["findings"] if f["code"] == "GHOST-EVENT")
    assert "path" not in ghost and ghost["steps"]           # traced to its own place and EMU
    assert all(s["file"] == ghost["file"] or s["node"].startswith("emu:")
               for s in ghost["steps"])


def test_an_unreadable_file_leaves_the_excerpt_out(tmp_path: Path) -> None:
    effect = _site("rm", SiteKind.EXECUTOR, 2, callee="shutil.rmtree", tier="destructive")
    finding = Finding(codes.UNGOVERNED_PATH, Severity.CRITICAL, "reaches rm",
                      Location("svc/tools.py", 2), path=("rm",), fingerprint="fp1:x")
    placement = Placement((NodePlacement("rm", "execution", "svc"),))
    [missing] = finding_traces(tmp_path, (effect,), (), placement, (finding,))
    assert missing.excerpt is None and missing.effect == "rm"
    (tmp_path / "svc").mkdir()
    (tmp_path / "svc" / "tools.py").write_text("import shutil\nshutil.rmtree(x)\n" + "y" * 400,
                                               encoding="utf-8")
    [found] = finding_traces(tmp_path, (effect,), (), placement, (finding,))
    assert found.excerpt is not None
    assert (found.excerpt.start, found.excerpt.lines[:2]) == (1, ("import shutil",
                                                                  "shutil.rmtree(x)"))
    assert found.excerpt.lines[2].endswith("…") and len(found.excerpt.lines[2]) == 160


def test_an_intent_executor_says_what_it_does_instead_of_a_callee() -> None:
    document = document_of("intent_tools")
    [seat] = [t for t in document["tools"] if t["name"] == "update_seat"]
    assert [e["callee"] for e in seat["effects"]] == \
        ["update (stub or in-memory: writes_state)"]


def test_an_entry_kept_as_related_location_still_reaches_the_effect() -> None:
    """One finding per effect keeps the second writer as a related location, not on the path:
    the inventory still gives that tool the effect and the finding."""
    sites = (_site("reg", SiteKind.TOOL_REGISTRATION, 1, tool_name="add", framework="mcp"),
             _site("reg2", SiteKind.TOOL_REGISTRATION, 5, tool_name="delete", framework="mcp"),
             _site("read", SiteKind.TOOL_REGISTRATION, 7, tool_name="list", framework="mcp"),
             _site("save", SiteKind.EXECUTOR, 9, callee="fs.writeFile", tier="data_write"))
    finding = Finding(codes.UNGOVERNED_PATH, Severity.HIGH, "reaches save",
                      Location("svc/tools.py", 9), path=("reg", "save"),
                      related=(Location("svc/tools.py", 1), Location("svc/tools.py", 5)),
                      fingerprint="fp1:s")
    tools = {t.name: t for t in tool_inventory(sites, (), (), Placement(()), (finding,), ())}
    for name in ("add", "delete"):
        assert [e.site for e in tools[name].effects] == ["save"], name
        assert (tools[name].governance, tools[name].findings) == (NONE, ("fp1:s",))
    assert (tools["list"].effects, tools["list"].findings) == ((), ())


def test_every_writer_of_a_shared_sink_lists_it_and_a_reader_does_not() -> None:
    tools = {t["name"]: t for t in document_of("mcp_shared_sink")["tools"]}
    for writer in ("add_note", "delete_notes"):
        assert [e["callee"] for e in tools[writer]["effects"]] == ["fs.promises.writeFile"]
        assert tools[writer]["governance"] == NONE and tools[writer]["findings"]
    assert (tools["list_notes"]["effects"], tools["list_notes"]["findings"]) == ([], [])


def test_a_handler_for_every_tool_is_one_tool_per_branch() -> None:
    """MCP low-level servers: each branch on the called name is that tool, with the effects
    of its branch only; a branch naming two tools is both; a lone tool is named by the one
    `Tool(name=…)` its server lists."""
    tools = {t["name"]: t for t in document_of("mcp_lowlevel_py")["tools"]}
    assert sorted(tools) == ["archive_note", "purge_notes", "read_note", "restore_note",
                             "stamp", "write_note"]
    effects = {name: [e["callee"] for e in tool["effects"]] for name, tool in tools.items()}
    assert effects == {"archive_note": [], "purge_notes": ["shutil.rmtree"], "read_note": [],
                       "restore_note": [], "stamp": ["pathlib.Path.touch"],
                       "write_note": ["pathlib.Path.write_text"]}
    assert all(not tools[n]["findings"] for n in ("archive_note", "read_note", "restore_note"))
    ts = {t["name"]: t for t in document_of("mcp_lowlevel_ts")["tools"]}
    assert {n: [e["callee"] for e in t["effects"]] for n, t in ts.items()} == {
        "delete_note": ["fs.promises.rm"], "read_note": [],
        "write_note": ["fs.promises.writeFile"]}


def test_a_finding_through_a_dispatching_handler_names_its_branch_tool() -> None:
    document = document_of("mcp_lowlevel_py")
    messages = sorted(f["message"] for f in document["findings"]
                      if f["code"] == "UNGOVERNED-PATH")
    assert [m.split("`")[1] for m in messages] == ["purge_notes", "stamp", "write_note"]


def test_tools_are_named_where_tool_sets_place_them() -> None:
    """A factory's tool by the key its call is placed under, a returned tool set by its keys,
    a tool placed under two keys under each, and a tool placed nowhere under no name."""
    tools = {t["name"]: t for t in document_of("vercel_tool_placements")["tools"]}
    assert sorted(tools) == ["currentTime", "getWeather", "shell",
                             "unknown (tool_registration:tool/lonely-tool.ts:4:27)", "weather"]
    assert tools["getWeather"]["registrations"] == tools["weather"]["registrations"]
    assert [e["callee"] for e in tools["shell"]["effects"]] == ["child_process.execSync"]
    assert tools["shell"]["findings"] and not tools["weather"]["findings"]
