"""ACTION-GAP: tools and handlers the selected action needs."""

from __future__ import annotations

from pathlib import Path

import pytest

from emu_repos import emu, findings

DECIDE = ("from memrail import AMIClient\nfrom memrail.atoms import state\n"
          "from memrail.tools import ToolRegistry\n\n"
          'client = AMIClient(project="billing")\nregistry = ToolRegistry()\n\n\n'
          "def decide(ticket):\n"
          "    return client.decide(decision_point='billing.refund',\n"
          "                         context=[state('refund.request_id', ticket.id)])\n")
TRIGGER = "state.refund.request_id EXISTS"
ROUTE = {"type": "route", "destination": "fraud_review"}
PROMPT = {"type": "decision_prompt", "message": "Approve?",
          "options": [{"id": "yes", "label": "Yes"}, {"id": "no", "label": "No"}]}
DIRECTIVE = {"type": "context_directive", "directive": "Be careful."}


def _gaps(root: Path, action: dict | None, extra: str = "") -> list:
    return findings(root, "ACTION-GAP", {"app.py": DECIDE + extra}, [emu(TRIGGER, action=action)])


def test_an_unregistered_tool(tmp_path: Path) -> None:
    [found] = _gaps(tmp_path, None)
    assert found.emu_key == "billing.small_refund" and "`refund_payment`" in found.message


@pytest.mark.parametrize("extra", [
    '\n\n@registry.tool(name="refund_payment", description="x", projects=["billing"])\n'
    "async def refund(args: dict) -> dict:\n    return args\n",
    '\n\ndef run(action):\n'
    '    if action["tool"]["tool_id"] == "refund_payment":\n        return 1\n',
    '\n\nHANDLERS = {"refund_payment": print}\n',
    # A computed tool name may be this one.
    "\n\ndef register(name, handler):\n"
    '    registry.register_tool(name, "x", {}, ["billing"], handler)\n',
])
def test_a_tool_handled_somehow(tmp_path: Path, extra: str) -> None:
    assert _gaps(tmp_path, None, extra) == []


@pytest.mark.parametrize("action", [ROUTE, PROMPT, DIRECTIVE])
def test_unhandled_action_types(tmp_path: Path, action: dict) -> None:
    [found] = _gaps(tmp_path, action)
    assert f"`{action['type']}`" in found.message


@pytest.mark.parametrize(("action", "extra"), [
    (ROUTE, "\n\n@registry.on_route\nasync def go(destination, metadata):\n    return 1\n"),
    (PROMPT, "\n\n@registry.on_decision_prompt\nasync def ask(prompt, options):\n    return 1\n"),
    (DIRECTIVE, '\n\n@registry.on_context_directive("billing.refund")\n'
                "async def say(directive, metadata):\n    return 1\n"),
    (DIRECTIVE, "\n\n@registry.on_context_directive()\n"
                "async def say(directive, metadata):\n    return 1\n"),
    (ROUTE, '\n\ndef run(action):\n    if action["type"] == "route":\n        return 1\n'),
    (PROMPT, '\n\ndef run(action):\n    match action["type"]:\n'
             '        case "decision_prompt":\n            return 1\n'),
    (DIRECTIVE, '\n\ndef prompt(decision):\n'
                '    return [i.action["directive"] for i in decision.selected]\n'),
])
def test_handled_action_types(tmp_path: Path, action: dict, extra: str) -> None:
    assert _gaps(tmp_path, action, extra) == []


def test_a_directive_handler_for_another_point(tmp_path: Path) -> None:
    extra = ('\n\n@registry.on_context_directive("support.reply")\n'
             "async def say(directive, metadata):\n    return 1\n")
    [found] = _gaps(tmp_path, DIRECTIVE, extra)
    assert "`billing.refund`" in found.message and "`support.reply`" in found.message


def test_an_emu_only_repository_is_not_judged(tmp_path: Path) -> None:
    assert findings(tmp_path, "ACTION-GAP", {}, [emu(TRIGGER, action=ROUTE)]) == []


TOOL = '\n\n@registry.tool(name="refund_payment", description="x", projects=["billing"])\n'
ON_ROUTE = "\n\n@registry.on_route\n"


@pytest.mark.parametrize(("extra", "reason"), [
    (TOOL + "async def refund(args: dict) -> dict:\n    raise NotImplementedError\n",
     "a stub: its body does nothing"),
    (TOOL + 'async def refund(args: dict) -> dict:\n    """Later."""\n    pass\n',
     "a stub: its body does nothing"),
    (TOOL + "async def refund(args: dict) -> dict:\n    raise NotImplementedError('soon')\n",
     "a stub: it only raises `NotImplementedError`"),
    (TOOL + "async def refund(args: dict) -> dict:\n    print('refund', args)\n    return None\n",
     "a stub: its body does nothing"),
    (TOOL + "async def refund(args: dict) -> dict:\n    try:\n        await pay(args)\n"
            "    except Exception:\n        pass\n",
     "swallows the errors of `pay`"),
    (TOOL + "async def refund(args: dict) -> dict:\n    try:\n        return await pay(args)\n"
            "    except Exception as error:\n        return {'error': str(error)}\n",
     "swallows the errors of `pay`"),
    ("\n\nfrom slack_sdk import WebClient\nslack = WebClient(token='xoxb-your-token')\n" + TOOL +
     "async def refund(args: dict) -> dict:\n    return slack.chat_postMessage(channel='#x')\n",
     "its credential is not configured: `WebClient(…)` gets `token='xoxb-your-token'`"),
    # The handler is the function the registration names, wherever it is registered.
    ("\n\nasync def refund(args: dict) -> dict:\n    pass\n\n\ndef setup():\n"
     '    registry.register_tool("refund_payment", "x", {}, ["billing"], handler=refund)\n',
     "a stub: its body does nothing"),
])
def test_a_handler_that_cannot_complete_the_tool(tmp_path: Path, extra: str, reason: str) -> None:
    [found] = _gaps(tmp_path, None, extra)
    assert "partially connected" in found.message and reason in found.message, found.message
    assert "`app.refund`" in found.message


@pytest.mark.parametrize("extra", [
    TOOL + "async def refund(args: dict) -> dict:\n    return await pay(args)\n",
    TOOL + "async def refund(args: dict) -> dict:\n    return args\n",
    # A failure logged and raised again reaches the executor.
    TOOL + "async def refund(args: dict) -> dict:\n    try:\n        await pay(args)\n"
           "    except Exception:\n        print('failed')\n        raise\n",
    # A fallback that carries on is no swallowed failure.
    TOOL + "async def refund(args: dict) -> dict:\n    try:\n        data = parse(args)\n"
           "    except ValueError:\n        data = {}\n    return await pay(data)\n",
    "\n\nimport os\nfrom slack_sdk import WebClient\n"
    "slack = WebClient(token=os.environ['SLACK_TOKEN'])\n" + TOOL +
    "async def refund(args: dict) -> dict:\n    return slack.chat_postMessage(channel='#x')\n",
    # A retry of the effect in the handler surfaces the second failure.
    "\n\nimport stripe\n" + TOOL +
    "async def refund(args: dict) -> dict:\n    try:\n        return stripe.Refund.create(charge='c')\n"
    "    except stripe.error.RateLimitError:\n        return stripe.Refund.create(charge='c')\n",
    # Request options that are no credential.
    "\n\nimport stripe\n" + TOOL +
    "async def refund(args: dict) -> dict:\n"
    "    return stripe.Refund.create(charge='c', idempotency_key=None, page_token='')\n",
    # One complete handler among stubs is enough.
    TOOL + "async def refund(args: dict) -> dict:\n    pass\n" + TOOL +
    "async def refund_v2(args: dict) -> dict:\n    return await pay(args)\n",
])
def test_a_handler_that_completes_the_tool(tmp_path: Path, extra: str) -> None:
    assert _gaps(tmp_path, None, extra) == []


@pytest.mark.parametrize(("action", "extra", "reason"), [
    (ROUTE, ON_ROUTE + "async def go(destination, metadata):\n    return None\n",
     "a stub: its body does nothing"),
    (ROUTE, '\n\nQUEUES = {"manual_review": "q1"}\n' + ON_ROUTE +
     "async def go(destination, metadata):\n    return await push(QUEUES[destination])\n",
     "its destination `fraud_review` is not in `QUEUES` (`manual_review`)"),
    (ROUTE, '\n\nQUEUES = {"manual_review": "q1"}\n' + ON_ROUTE +
     "async def go(destination, metadata):\n    return await push(QUEUES.get(destination))\n",
     "its destination `fraud_review` is not in `QUEUES`"),
    (PROMPT, "\n\n@registry.on_decision_prompt\nasync def ask(prompt, options):\n    pass\n",
     "a stub: its body does nothing"),
])
def test_a_handler_that_cannot_complete_the_action(tmp_path: Path, action: dict, extra: str,
                                                   reason: str) -> None:
    [found] = _gaps(tmp_path, action, extra)
    assert "partially connected" in found.message and reason in found.message, found.message


def test_a_route_table_that_holds_the_destination(tmp_path: Path) -> None:
    extra = '\n\nQUEUES = {"fraud_review": "q1"}\n' + ON_ROUTE + \
        "async def go(destination, metadata):\n    return await push(QUEUES[destination])\n"
    assert _gaps(tmp_path, ROUTE, extra) == []


@pytest.mark.parametrize(("extra", "found"), [
    # A generic tool_call branch dispatching through the app's own table handles tools the
    # code defines under the EMU's tool id...
    ('\n\nTOOLS = {}\n\n\nasync def refund_payment(args):\n    return await pay(args)\n\n\n'
     "def run(action):\n"
     '    if action["type"] == "tool_call":\n'
     '        return TOOLS[action["tool"]["tool_id"]](action["tool"]["args"])\n', False),
    # ... and not a tool nothing defines or registers.
    ('\n\nTOOLS = {}\n\n\ndef run(action):\n'
     '    if action["type"] == "tool_call":\n'
     '        return TOOLS[action["tool"]["tool_id"]](action["tool"]["args"])\n', True),
])
def test_a_generic_tool_call_branch(tmp_path: Path, extra: str, found: bool) -> None:
    assert bool(_gaps(tmp_path, None, extra)) is found
