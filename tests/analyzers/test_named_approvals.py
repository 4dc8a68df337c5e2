"""An agent's human-in-the-loop middleware approves the tools it names, as the file that holds
it can name them: registered there or imported; a same-named tool of another agent is not."""

from __future__ import annotations

from topo.analyzers.flow.facts import source_facts
from topo.analyzers.model import SiteKind
from tests.analyzers.ir_helpers import parse

TOOLS = '''
from langchain.tools import tool

@tool
def send_email(to: str) -> str:
    """Send."""
    return to

@tool
def archive(path: str) -> str:
    """Archive."""
    return path

@tool
def search(query: str) -> str:
    """Search."""
    return query
'''
AGENT = '''
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from app.tools import archive, search, send_email

ASK = {"send_email": True, "search": False,
       "archive": {"allowed_decisions": ["approve"], "when": lambda request: True}}
agent = create_agent(model="openai:gpt-4o", tools=[send_email, archive, search],
                     middleware=[HumanInTheLoopMiddleware(interrupt_on=ASK)])
'''
OTHER = '''
from langchain.tools import tool

@tool
def send_email(to: str) -> str:
    """Another agent's tool of the same name."""
    return to
'''


def test_the_middleware_approves_the_tools_it_asks_about_where_its_file_can_name_them() -> None:
    files = [parse(TOOLS, path="app/tools.py", module="app.tools"),
             parse(AGENT, path="app/agent.py", module="app.agent"),
             parse(OTHER, path="other/tools.py", module="other.tools")]
    sites = source_facts(files).sites
    [gate] = [s for s in sites if s.kind is SiteKind.APPROVAL_GATE]
    assert gate.attr("approves_tools") == ("send_email",)     # False and `when` ask nothing
    approved = {(s.location.file, s.attr("tool_name")): s.attr("approved_by") for s in sites
                if s.kind is SiteKind.TOOL_REGISTRATION}
    assert approved == {("app/tools.py", "send_email"): gate.id,
                        ("app/tools.py", "archive"): None, ("app/tools.py", "search"): None,
                        ("other/tools.py", "send_email"): None}
