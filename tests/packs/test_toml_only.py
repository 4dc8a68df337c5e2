"""Framework knowledge is data: a pack written here, and no Python change, adds sites and
findings to a real audit (issue #11, "adding a framework = adding a pack").

Each test audits the same tiny app twice through `run_audit`, with and without one extra pack
(`AuditRequest.extra_packs`), and asserts what the pack adds at its line. Packs are TOML
written in the test; invented package names (`acme_*`) guarantee no shipped pack knows them.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from topo.audit.pipeline import AuditRequest, AuditResult, run_audit

TOOL_PACK = '''
system = "acme_agents"
languages = ["python"]
fingerprint = ["acme_agents"]

[tools]
injected_parameters = ["session"]

[[entries]]
id = "acme_agents.tool"
on = "decorator"
match = ["acme_agents.tool"]
site = "tool_registration"
role = "execution"
[entries.attrs]
tool_name = { kwarg = "name", fallback = "definition_name" }
needs_approval = { kwarg = "human_review", default = false }
'''

TOOL_APP = '''
import stripe
from acme_agents import tool

@tool(name="refund")
def refund(charge_id: str):
    stripe.Refund.create(charge=charge_id)
'''

SINK_PACK = '''
system = "acme_pay"
languages = ["python"]
fingerprint = ["acme_pay"]

[[entries]]
id = "acme_pay.transfer"
on = "call"
match = ["acme_pay.Transfer.create"]
site = "executor"
role = "execution"
tier = "money"
'''

SINK_APP = '''
import acme_pay
from openai import OpenAI

client = OpenAI()

def pay(invoice: str) -> None:
    answer = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": invoice}])
    amount = answer.choices[0].message.content
    acme_pay.Transfer.create(amount=amount, invoice=invoice)
'''

STORE_PACK = '''
system = "acme_mem"
languages = ["python"]
fingerprint = ["acme_mem"]
{retention}
[[entries]]
id = "acme_mem.find"
on = "call"
match = ["acme_mem.Memory.find"]
site = "memory_read"
role = "observation"
[entries.attrs]
store = "acme_mem"
operation = "lookup"

[[entries]]
id = "acme_mem.save"
on = "call"
match = ["acme_mem.Memory.save"]
site = "memory_write"
role = "recording"
[entries.attrs]
store = "acme_mem"
operation = "write"
'''

TTL_RULE = '''
[[retention]]
store = "acme_mem"
ttl_seconds = 3600
records = "acme memories"
absence = 'no memory of a refund is not "never refunded"'
'''

FORGET_RULE = '''
[[retention]]
store = "acme_mem"
forget_settings = ["ACME_MEM_FORGET"]
keep_settings = ["ACME_MEM_KEEP"]
'''

# The write follows the effect, so without a retention rule "found nothing" is trustworthy.
STORE_APP = '''
import stripe
from acme_mem import Memory

memory = Memory()

def refund(charge_id: str) -> None:
    if not memory.find(key=charge_id):
        stripe.Refund.create(charge=charge_id)
        memory.save(key=charge_id, value="refunded")
'''


def _audit(tmp_path: Path, files: dict[str, str], pack: str | None) -> AuditResult:
    root = tmp_path / "repo"
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    extra: tuple[Path, ...] = ()
    if pack is not None:
        (tmp_path / "acme.toml").write_text(pack, encoding="utf-8")
        extra = (tmp_path / "acme.toml",)
    result = run_audit(AuditRequest(root=root, jobs=1, extra_packs=extra))
    assert result.unknowns == (), result.unknowns
    return result


def _line(source: str, text: str) -> int:
    """The line of the first occurrence of `text` in `source`, as audited."""
    lines = textwrap.dedent(source).lstrip("\n").splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


def _found(result: AuditResult, code: str) -> list[tuple[int, str]]:
    return [(f.location.line, f.message) for f in result.findings if f.code.id == code]


def test_a_new_frameworks_tool_registration(tmp_path: Path) -> None:
    files = {"app.py": TOOL_APP}
    with_pack = _audit(tmp_path / "with", files, TOOL_PACK)
    [tool] = [s for s in with_pack.facts.sites if s.kind.value == "tool_registration"]
    assert (tool.system, tool.location.line, tool.attr("tool_name")) == \
        ("acme_agents", _line(TOOL_APP, "def refund"), "refund")
    [(line, message)] = _found(with_pack, "UNGOVERNED-PATH")
    assert line == _line(TOOL_APP, "stripe.Refund") and "through tool `refund`" in message
    without = _audit(tmp_path / "without", files, None)
    assert _found(without, "UNGOVERNED-PATH") == []
    assert not any(s.kind.value == "tool_registration" for s in without.facts.sites)


def test_a_new_frameworks_approval_attribute_governs_its_tools(tmp_path: Path) -> None:
    reviewed = TOOL_APP.replace('@tool(name="refund")', '@tool(name="refund", human_review=True)')
    assert _found(_audit(tmp_path / "reviewed", {"app.py": reviewed}, TOOL_PACK),
                  "UNGOVERNED-PATH") == []
    # The framework's own spelling is mapped onto the declared approval attribute by the
    # pack; without that one line the same keyword means nothing.
    plain_pack = TOOL_PACK.replace('needs_approval = { kwarg = "human_review", default = false }\n', "")
    assert plain_pack != TOOL_PACK
    assert [line for line, _ in _found(_audit(tmp_path / "plain", {"app.py": reviewed},
                                              plain_pack), "UNGOVERNED-PATH")] == \
        [_line(reviewed, "stripe.Refund")]


def test_a_new_frameworks_injected_parameter_is_not_model_input(tmp_path: Path) -> None:
    branchy = TOOL_APP.replace("def refund(charge_id: str):\n",
                               "def refund(charge_id: str, session):\n    if session.ok:\n")
    branchy = branchy.replace("    stripe.Refund", "        stripe.Refund")

    def branches(pack: str) -> list[int]:
        result = _audit(tmp_path / str(len(pack)), {"app.py": branchy}, pack)
        return [s.location.line for s in result.facts.sites if s.kind.value == "model_branch"]

    assert branches(TOOL_PACK) == []
    assert branches(TOOL_PACK.replace('injected_parameters = ["session"]\n', "")) == \
        [_line(branchy, "if session.ok")]


def test_a_new_sdk_sink_family(tmp_path: Path) -> None:
    files = {"app.py": SINK_APP}
    with_pack = _audit(tmp_path / "with", files, SINK_PACK)
    [(line, message)] = _found(with_pack, "UNGOVERNED-PATH")
    assert line == _line(SINK_APP, "acme_pay.Transfer")
    assert "`acme_pay.Transfer.create` (money)" in message
    without = _audit(tmp_path / "without", files, None)
    assert _found(without, "UNGOVERNED-PATH") == []
    assert not any(s.kind.value == "executor" for s in without.facts.sites)


def test_a_new_memory_store_retention_ttl(tmp_path: Path) -> None:
    files = {"app.py": STORE_APP}
    [(line, message)] = _found(_audit(tmp_path / "ttl", files,
                                      STORE_PACK.format(retention=TTL_RULE)), "GHOST-NEGATIVE")
    assert line == _line(STORE_APP, "memory.find")
    assert message.endswith('retention: acme memories expire (ttl 3600 s), so no memory of a '
                            'refund is not "never refunded"')
    assert _found(_audit(tmp_path / "none", files, STORE_PACK.format(retention="")),
                  "GHOST-NEGATIVE") == []


def test_a_new_memory_store_forget_setting(tmp_path: Path) -> None:
    pack = STORE_PACK.format(retention=FORGET_RULE)
    forget = {"app.py": STORE_APP, ".env": "ACME_MEM_FORGET=1\n"}
    [(line, message)] = _found(_audit(tmp_path / "forget", forget, pack), "GHOST-NEGATIVE")
    assert line == _line(STORE_APP, "memory.find") and "`ACME_MEM_FORGET=1` in `.env`" in message
    kept = {"app.py": STORE_APP, ".env": "ACME_MEM_FORGET=1\nACME_MEM_KEEP=1\n"}
    assert _found(_audit(tmp_path / "kept", kept, pack), "GHOST-NEGATIVE") == []
    assert _found(_audit(tmp_path / "off", {"app.py": STORE_APP, ".env": "ACME_MEM_FORGET=0\n"},
                         pack), "GHOST-NEGATIVE") == []


NOTES_PACK = '''
system = "acme_notes"
languages = ["python"]
fingerprint = ["acme_notes"]
{policy}
[[entries]]
id = "acme_notes.write"
on = "call"
match = ["acme_notes.Notes.write"]
site = "memory_write"
role = "recording"
[entries.attrs]
store = "acme_notes"
path = { kwarg = "path" }
'''

NOTES_POLICY = '''
[[policy_writes]]
store = "acme_notes"
path_prefixes = ["rules/"]
'''

NOTES_APP = '''
from acme_notes import Notes
from openai import OpenAI

client = OpenAI()
notes = Notes()

def learn(task: str) -> None:
    answer = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": task}])
    notes.write(path="rules/refunds.md", content=answer.choices[0].message.content)
    notes.write(path="drafts/refunds.md", content=answer.choices[0].message.content)
'''


def test_a_new_memory_stores_policy_paths(tmp_path: Path) -> None:
    files = {"app.py": NOTES_APP}
    [(line, message)] = _found(_audit(tmp_path / "policy", files,
                                      NOTES_PACK.replace("{policy}", NOTES_POLICY)),
                               "SELF-MODIFYING-AUTHORITY")
    assert line == _line(NOTES_APP, "rules/refunds.md") and "`rules/refunds.md`" in message
    assert _found(_audit(tmp_path / "plain", files, NOTES_PACK.replace("{policy}", "")),
                  "SELF-MODIFYING-AUTHORITY") == []


MCP_PACK = '''
system = "acme_memory"
languages = ["python"]
fingerprint = ["acme_memory"]
settings = ["ACME_MEMORY_MODE"]

[[mcp_servers]]
name = "acme_memory"
packages = ["@acme/memory-mcp"]
tools = ["acme_recall", "acme_wipe"]
destructive = ["acme_wipe"]

[[entries]]
id = "acme_memory.recall"
on = "call"
match = ["acme_memory.Client.recall"]
site = "memory_read"
role = "observation"
'''

MCP_CONFIG = '''
{"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@acme/memory-mcp"]{filter}}}}
'''


def test_a_new_memory_systems_mcp_server_and_settings(tmp_path: Path) -> None:
    """A known MCP server (what it hands the model, what of that deletes) and the settings the
    config reader keeps are pack data."""
    files = {"app.py": "print('agent')\n", ".mcp.json": MCP_CONFIG.replace("{filter}", ""),
             ".env": "ACME_MEMORY_MODE=rw\nACME_MEMORY_TOKEN=s3cret\n"}
    with_pack = _audit(tmp_path / "with", files, MCP_PACK)
    [(line, message)] = _found(with_pack, "DESTRUCTIVE-MEMORY-TOOL")
    assert line == 1 and "`memory` (acme_memory) hands the model `acme_wipe`" in message
    assert [(s.name, s.value) for s in with_pack.facts.configs.settings] == \
        [("ACME_MEMORY_MODE", "rw")]   # kept because the pack names it; the token never is
    filtered = dict(files, **{".mcp.json": MCP_CONFIG.replace(
        "{filter}", ', "disabledTools": ["acme_wipe"]')})
    assert _found(_audit(tmp_path / "filtered", filtered, MCP_PACK), "DESTRUCTIVE-MEMORY-TOOL") == []
    without = _audit(tmp_path / "without", files, None)
    assert _found(without, "DESTRUCTIVE-MEMORY-TOOL") == []
    assert without.facts.configs.settings == ()
