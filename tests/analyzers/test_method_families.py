"""A dispatch that calls a method on an object it looked up (`tool_dict[name].execute(**args)`)
runs one family of overriding methods: the only one, or the nearest by package."""

from __future__ import annotations

from topo.analyzers.flow.derived import _nearest, method_families
from tests.analyzers.ir_helpers import parse

BASE = '''
class Tool:
    async def execute(self, **kwargs):
        raise NotImplementedError
'''
TOOLS = '''
from {package}.base import Tool

class Write(Tool):
    async def execute(self, path):
        open(path, "w")

class Alone:
    def run(self):
        pass
'''


def _files(*packages: str):
    return [item for package in packages for item in (
        parse(BASE, path=f"{package}/base.py", module=f"{package}.base"),
        parse(TOOLS.format(package=package), path=f"{package}/tools.py",
              module=f"{package}.tools"))]


def test_a_family_is_a_base_method_and_its_overrides_and_a_lone_method_is_none() -> None:
    families = method_families(_files("ops"))
    assert families["execute"] == (("ops.base.Tool.execute", "ops.tools.Write.execute"),)
    assert "run" not in families


def test_of_several_families_the_dispatch_runs_the_one_nearest_by_package() -> None:
    families = method_families(_files("ops", "docs.bot"))["execute"]
    assert len(families) == 2
    assert _nearest(families, "ops.loop") == ("ops.base.Tool.execute", "ops.tools.Write.execute")
    assert _nearest(families, "docs.bot.loop")[0] == "docs.bot.base.Tool.execute"
    assert _nearest(families, "cli.main") == ()          # near neither: no guess
    assert _nearest(families[:1], "cli.main") == families[0]   # the only family
