"""Approvals that fail open: what makes an approval callback approve without a human."""

from __future__ import annotations

from pathlib import Path

import pytest

from topo.analyzers.model import SiteKind
from topo.audit.graph import reaching_chains, sites_of_kind
from topo.audit.graph.failopen import ALWAYS, approval_switch
from topo.audit.pipeline import AuditRequest, run_audit

_PY = '''import os
import subprocess
from agents import Agent, ShellTool
{module}

class Box:
    def __call__(self, request):
        subprocess.run(request.data.action.commands[0], shell=True)


def ask(commands):
{ask}


async def review(ctx, item):
    ok = ask(item.raw_item.action.commands)
    return {{"approve": ok}}


agent = Agent(name="a", tools=[ShellTool(executor=Box(), needs_approval=True, on_approval=review)])
'''

_TS = '''import {{ exec }} from 'node:child_process';
import {{ Agent, shellTool, Shell }} from '@openai/agents';
{module}
class Box implements Shell {{
  async run(action: any) {{ exec(action.commands[0]); return {{ output: [] }}; }}
}}
async function ask(commands: string[]): Promise<boolean> {{
{ask}
}}
export const agent = new Agent({{ name: 'a', tools: [shellTool({{
  shell: new Box(), needsApproval: true,
  onApproval: async (_ctx, item) => {{ const approve = await ask([]); return {{ approve }}; }},
}})] }});
'''


def _switch(tmp_path: Path, name: str, text: str):
    (tmp_path / name).write_text(text)
    result = run_audit(AuditRequest(root=tmp_path, jobs=1, cache_dir=None))
    tools = [t for t in sites_of_kind(result.graph, SiteKind.TOOL_REGISTRATION)
             if t.attr("on_approval")]
    assert tools, "the registration names its approval callback"
    return approval_switch(result.facts, tools[0])


@pytest.mark.parametrize(("module", "ask", "switch"), [
    ('AUTO = os.environ.get("OPS_AUTO") == "1"',
     '    if AUTO:\n        return True\n    return input("ok? ") == "y"', "OPS_AUTO"),
    ("", '    if os.getenv("OPS_YES"):\n        return True\n    return input("ok? ") == "y"',
     "OPS_YES"),
    ("", '    print(commands)\n    return True', ALWAYS),
    ("", '    return input("ok? ") == "y"', None),
    # A condition on the request, not on the environment: no switch.
    ("", '    if not commands:\n        return True\n    return input("ok? ") == "y"', None),
    # Recursion is followed a bounded number of times.
    ("", '    if commands:\n        return ask(commands[1:])\n    return False', None),
])
def test_python_callbacks(tmp_path: Path, module: str, ask: str, switch) -> None:
    assert _switch(tmp_path, "app.py", _PY.format(module=module, ask=ask)) == switch


@pytest.mark.parametrize(("module", "ask", "switch"), [
    ("", "  if (process.env.SHELL_YES === '1') { return true; }\n  return false;", "SHELL_YES"),
    ("const AUTO = process.env.HITL_AUTO === '1';",
     "  if (AUTO) { return true; }\n  return commands.length > 9;", "HITL_AUTO"),
    ("", "  const answer = await Promise.resolve('y');\n  return answer === 'y';", None),
])
def test_typescript_callbacks(tmp_path: Path, module: str, ask: str, switch) -> None:
    assert _switch(tmp_path, "app.ts", _TS.format(module=module, ask=ask)) == switch


def test_a_callback_the_repository_does_not_define_is_no_switch(tmp_path: Path) -> None:
    text = _PY.format(module="from approvals import review as external", ask="    return True")
    text = text.replace("on_approval=review", "on_approval=external")
    assert _switch(tmp_path, "app.py", text) is None


def test_a_predicate_that_reads_the_environment_is_a_switch(tmp_path: Path) -> None:
    module = 'def unattended():\n    return os.environ.get("OPS_MODE", "").lower() == "auto"\n'
    ask = '    if unattended():\n        return True\n    return input("ok? ") == "y"'
    assert _switch(tmp_path, "app.py", _PY.format(module=module, ask=ask)) == "OPS_MODE"
    # The same predicate over the request is no switch.
    module = 'def unattended(commands):\n    return len(commands) == 0\n'
    ask = '    if unattended(commands):\n        return True\n    return input("ok? ") == "y"'
    assert _switch(tmp_path, "app.py", _PY.format(module=module, ask=ask)) is None


@pytest.mark.parametrize(("fixture", "governed", "fails_open"), [
    ("bad_approval_env_switch", False, ("OPS_UNATTENDED",)),
    ("good_approval_prompt_only", True, ()),
])
def test_a_chain_through_a_switched_approval_is_not_governed(fixture, governed, fails_open):
    root = Path(__file__).resolve().parents[2] / "corpus" / "checks" / "UNGOVERNED-PATH" / fixture
    result = run_audit(AuditRequest(root=root, jobs=1, cache_dir=None))
    [executor] = sites_of_kind(result.graph, SiteKind.EXECUTOR)
    chains = reaching_chains(result.graph, result.facts).of(executor)
    assert chains and all(c.governed == governed for c in chains)
    assert {s for c in chains for _, s in c.fails_open} == set(fails_open)


_PREDICATE = '''import shutil
from agents import Agent, function_tool
{module}

@function_tool(needs_approval={predicate})
def purge(path: str) -> str:
    shutil.rmtree(path)
    return "purged"


agent = Agent(name="ops", tools=[purge])
'''


@pytest.mark.parametrize(("module", "predicate", "asks"), [
    ("async def always(ctx, params, call_id):\n    print(params)\n    return True",
     "always", True),
    ("", "True", True),
    ("", "False", False),
    ("async def never(ctx, params, call_id):\n    return False", "never", False),
    ("async def never(ctx, params, call_id):\n    if params:\n        return None\n"
     "    return 0", "never", False),
    ("async def silent(ctx, params, call_id):\n    print(params)", "silent", False),
    # Asking for some calls only lets the others run unreviewed.
    ("async def big(ctx, params, call_id):\n    return params['path'].startswith('/')",
     "big", False),
    ("async def big(ctx, params, call_id):\n    if params['path'] == '/':\n"
     "        return True\n    return False", "big", False),
    # Not read: a lambda's body, a predicate from a library.
    ("", "lambda ctx, params, call_id: True", False),
    ("from approvals import policy", "policy", False),
])
def test_an_approval_predicate_gates_the_tool_only_when_it_always_asks(
        tmp_path: Path, module, predicate, asks) -> None:
    (tmp_path / "app.py").write_text(_PREDICATE.format(module=module, predicate=predicate))
    result = run_audit(AuditRequest(root=tmp_path, jobs=1, cache_dir=None))
    [executor] = sites_of_kind(result.graph, SiteKind.EXECUTOR)
    chains = reaching_chains(result.graph, result.facts).of(executor)
    assert chains and all(c.governed == asks for c in chains)
    findings = [f for f in result.findings if f.code.id == "UNGOVERNED-PATH"]
    assert bool(findings) is not asks
    conditional = "big" in predicate
    assert any("lets some calls run without a human" in f.message
               for f in findings) is conditional
