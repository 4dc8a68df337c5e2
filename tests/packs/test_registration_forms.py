"""Registration forms: `methods` (a tool whose model-invoked functions are methods, of the
registered class or of the object handed over: one registration per method), `inline` (tools
written as object literals, one per key), and the names a call matches by (the callee as the
front-end wrote it; a workspace package's entry module by its package name)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from textwrap import dedent

import pytest

from topo.analyzers.model import SiteKind
from topo.analyzers.packs import PackError, classify, load_pack, load_packs
from topo.analyzers.python.frontend import parse_python
from tests.typescript.ts_helpers import parse_ts

PACK = '''
system = "kit"
languages = ["python"]
fingerprint = ["kit"]
[[entries]]
id = "kit.runner_tool"
on = "call"
match = ["kit.RunnerTool"]
site = "tool_registration"
role = "execution"
methods = ["__call__", "cancel"]
[entries.attrs]
definition = { kwarg = "runner", as = "definition" }
tool_name = { kwarg = "name", default = "runner" }
[[entries]]
id = "kit.base"
on = "class_base"
match = ["kit.BaseTool"]
site = "tool_registration"
role = "execution"
methods = ["_run", "_arun"]
[entries.attrs]
tool_name = { class_attr = "name", fallback = "definition_name" }
'''


def _tools(tmp_path: Path, source: str) -> dict[str, tuple[str, object, object]]:
    pack = tmp_path / "kit.toml"
    pack.write_text(PACK, encoding="utf-8")
    file = parse_python("app.py", dedent(source), "app")
    return {site.id: (site.symbol, site.attr("definition"), site.attr("tool_name"))
            for site in classify([file], load_packs([pack]))
            if site.kind is SiteKind.TOOL_REGISTRATION}


def test_an_object_built_in_place_registers_the_methods_its_class_defines(tmp_path):
    found = _tools(tmp_path, """
        from kit import RunnerTool
        class Local:
            def __call__(self, request): ...
            def helper(self): ...
        tool = RunnerTool(runner=Local(), name="shell")
        """)
    assert found == {"tool_registration:app.py:6:8:__call__":
                     ("app.Local.__call__", "app.Local.__call__", "shell")}


def test_an_imported_class_registers_every_listed_method(tmp_path):
    found = _tools(tmp_path, """
        from kit import RunnerTool
        from tools.shell import Remote
        def build():
            runner = Remote()
            return RunnerTool(runner=runner)
        """)
    assert sorted(d for _, d, _ in found.values()) == ["tools.shell.Remote.__call__",
                                                      "tools.shell.Remote.cancel"]
    assert {name for _, _, name in found.values()} == {"runner"}


def test_an_unreadable_object_is_labelled_not_guessed(tmp_path):
    found = _tools(tmp_path, """
        from kit import RunnerTool
        def build(runner):
            return RunnerTool(runner=runner)
        """)
    [(symbol, definition, name)] = found.values()
    assert (symbol, definition, name) == ("app.build", None, "runner")


def test_a_class_base_registers_each_model_invoked_method_it_defines(tmp_path):
    found = _tools(tmp_path, """
        from kit import BaseTool
        class Refund(BaseTool):
            name = "refund"
            def _run(self, order_id: str): ...
            def describe(self): ...
        class Inherits(BaseTool):
            name = "inherits"
        """)
    assert found == {
        "tool_registration:app.py:5:5:_run": ("app.Refund._run", "app.Refund._run", "refund"),
        "tool_registration:app.py:7:1": ("app.Inherits", "app.Inherits", "inherits")}


@pytest.mark.parametrize("change", [
    ('site = "tool_registration"\nrole = "execution"\nmethods = ["__call__", "cancel"]',
     'site = "executor"\nrole = "execution"\nmethods = ["__call__", "cancel"]'),
    ('definition = { kwarg = "runner", as = "definition" }\n', ''),
])
def test_methods_need_a_registration_with_a_class_or_an_object(tmp_path, change):
    path = tmp_path / "kit.toml"
    path.write_text(PACK.replace(*change), encoding="utf-8")
    with pytest.raises(PackError, match=r"entries\[0\]\.methods: only tool_registration"):
        load_pack(path)


INLINE = '''
system = "kit"
languages = ["typescript"]
fingerprint = ["kit"]
[[entries]]
id = "kit.generate"
on = "call"
match = ["kit.generate"]
site = "tool_registration"
role = "execution"
inline = { object_key = "tools" }
[entries.attrs]
definition = { object_key = "execute", as = "definition" }
description = { object_key = "description", as = "text" }
[entries.when]
definition = { present = true }
'''


def _ts_tools(tmp_path: Path, source: str, pack: str = INLINE, **kwargs) -> dict:
    path = tmp_path / "kit.toml"
    path.write_text(pack, encoding="utf-8")
    return {site.id: (site.attr("tool_name"), site.attr("definition"))
            for site in classify([parse_ts(source)], load_packs([path]), **kwargs)
            if site.kind is SiteKind.TOOL_REGISTRATION}


def test_tools_written_inline_are_one_registration_per_key(tmp_path):
    found = _ts_tools(tmp_path, """
        import { generate } from 'kit';
        const made = { execute: async () => 1 };
        export async function POST() {
          return generate({
            tools: {
              deleteFile: { description: 'Delete', execute: async ({ path }) => path },
              askUser: { description: 'The client answers' },
              made,
              ...others,
            },
          });
        }
        """)
    assert found == {"tool_registration:src/app/agent.ts:4:10:deleteFile":
                     ("deleteFile", "src/app/agent.POST.tools.deleteFile.execute")}


def test_inline_needs_a_call_registration(tmp_path):
    path = tmp_path / "kit.toml"
    path.write_text(INLINE.replace('site = "tool_registration"', 'site = "executor"'),
                    encoding="utf-8")
    with pytest.raises(PackError, match=r"entries\[0\]\.inline: only tool_registration"):
        load_pack(path)


GUARDS = '''
system = "kit"
languages = ["typescript"]
fingerprint = ["kit"]
[[entries]]
id = "kit.guards"
on = "call"
match = ["kit.Agent"]
site = "approval_gate"
role = "authority"
inline = { arg = 0, path = "guards" }
inline_objects = true
[entries.attrs]
definition = { object_key = "execute", as = "definition" }
verdict_key = "tripped"
'''


def test_inline_objects_are_one_site_per_object_literal_or_name_bound_to_one(tmp_path):
    path = tmp_path / "kit.toml"
    path.write_text(GUARDS, encoding="utf-8")
    source = """
        import { Agent, defineGuard } from 'kit';
        import { shared } from './shared';
        const named = { name: 'n', execute: async () => ({ tripped: true }) };
        const built = defineGuard({ execute: async () => ({ tripped: false }) });
        new Agent({ guards: [named, { execute: async (x) => ({ tripped: x }) }, built, shared] });
        """
    found = {site.id: site.attr("definition")
             for site in classify([parse_ts(source)], load_packs([path]))
             if site.kind is SiteKind.APPROVAL_GATE}
    # A call (registered where it is made) and an imported name are not read here.
    assert found == {
        "approval_gate:src/app/agent.ts:5:1:kit.guards.0": "src/app/agent.named.execute",
        "approval_gate:src/app/agent.ts:5:1:kit.guards.1": "src/app/agent.guards.execute"}


def test_inline_objects_need_an_inline_list(tmp_path):
    path = tmp_path / "kit.toml"
    path.write_text(GUARDS.replace('inline = { arg = 0, path = "guards" }\n', ''),
                    encoding="utf-8")
    with pytest.raises(PackError, match=r"entries\[0\]\.inline_objects"):
        load_pack(path)


PUBLIC = INLINE.replace('match = ["kit.generate"]', 'match = ["@acme/kit.generate"]')


def test_a_library_example_matches_by_package_and_by_the_name_it_wrote(tmp_path):
    source = """
        import { generate } from '@acme/kit';
        generate({ tools: { wipe: { execute: async () => 1 } } });
        """
    ir = parse_ts(source)
    [call] = [c for c in ir.calls if c.name == "generate"]
    # What the front-end names through the workspace: the package's entry module.
    moved = replace(ir, calls=tuple(replace(c, callee="packages/kit/src/index.generate")
                                    if c.id == call.id else c for c in ir.calls))
    path = tmp_path / "kit.toml"
    path.write_text(PUBLIC, encoding="utf-8")
    packs = load_packs([path])
    assert [s.attr("tool_name") for s in classify([moved], packs)] == []
    public = [("packages/kit/src/index", "@acme/kit")]
    assert [s.attr("tool_name") for s in classify([moved], packs, public)] == ["wipe"]
    # Resolution followed a re-export into the library's source: the written name still counts.
    resolved = replace(moved, calls=tuple(replace(c, callee="packages/kit/src/gen.generate")
                                          if c.id == call.id else c for c in moved.calls))
    written = {call.id: "packages/kit/src/index.generate"}
    assert [s.attr("tool_name") for s in classify([resolved], packs, public, written)] == \
        ["wipe"]


def test_a_placed_key_names_only_calls(tmp_path):
    path = tmp_path / "kit.toml"
    path.write_text(PACK.replace('tool_name = { class_attr = "name", fallback = "definition_name" }',
                                 'tool_name = { fallback = "placed_key" }'), encoding="utf-8")
    with pytest.raises(PackError, match=r"entries\[1\]\.attrs: only a call is placed under a key"):
        load_pack(path)
