"""Requests to the app's own server (flow/routes.py): a relative URL whose route handler calls a
model is inference; any other request keeps its effect."""

from __future__ import annotations

import textwrap

import pytest

from topo.analyzers.flow.facts import source_facts
from topo.analyzers.flow.routes import _file_route, _matches
from topo.analyzers.model import SiteKind
from topo.analyzers.packs import PackError, RouteRule, factories, load_packs
from topo.analyzers.python.frontend import parse_python
from tests.typescript.ts_helpers import parse_ts

CLIENT = """
export async function ask(text: string) {
  return fetch('/api/ask', { method: 'POST', body: JSON.stringify({ text }) });
}
export async function save(text: string) {
  return fetch('/api/save', { method: 'POST', body: JSON.stringify({ text }) });
}
export async function item(id: string) {
  return fetch(`/api/items/${id}`, { method: 'DELETE' });
}
export async function chat(form: FormData) {
  return fetch('/chat/', { method: 'POST', body: form });
}
"""
ASK = """
import { generateText } from 'ai';
import { openai } from '@ai-sdk/openai';
export async function POST(req: Request) {
  const { text } = await req.json();
  return Response.json(await answer(text));
}
async function answer(text: string) {
  return generateText({ model: openai('gpt-4o-mini'), prompt: text });
}
"""
SAVE = """
export async function POST(req: Request) {
  return fetch('https://store.example/records', { method: 'POST', body: await req.text() });
}
"""
ITEM = """
import { generateText } from 'ai';
import { openai } from '@ai-sdk/openai';
export async function DELETE(req: Request) {
  return generateText({ model: openai('gpt-4o-mini'), prompt: 'why?' });
}
"""
SERVER = """
import fastapi
from openai import OpenAI

app = fastapi.FastAPI()
client = OpenAI()

@app.post("/chat/")
async def post_chat(prompt: str) -> str:
    return client.responses.create(model="gpt-4o-mini", input=prompt).output_text
"""


def _facts(**extra: str):
    files = [parse_ts(CLIENT, path="src/client.ts"),
             parse_ts(ASK, path="src/app/api/ask/route.ts"),
             parse_ts(SAVE, path="src/app/(store)/api/save/route.ts"),
             parse_ts(ITEM, path="src/app/api/items/[id]/route.ts")]
    if "server" in extra:
        files.append(parse_python("server.py", textwrap.dedent(extra["server"]), "server",
                                  strict=True, factories=factories()))
    return source_facts(files)


def _requests(result) -> dict[str, tuple[str, str | None]]:
    return {site.symbol.rsplit(".", 1)[-1]:
            (site.kind.value, site.attr("route") if site.kind is SiteKind.INFERENCE else None)
            for site in result.sites if site.system == "http"
            and site.location.file == "src/client.ts"}


def test_a_request_to_a_model_calling_route_is_inference():
    found = _requests(_facts(server=SERVER))
    assert found["ask"] == ("inference", "src/app/api/ask/route.POST")
    assert found["item"] == ("inference", "src/app/api/items/[id]/route.DELETE")
    assert found["chat"] == ("inference", "server.post_chat")
    # The save route only writes on: the request stays an effect.
    assert found["save"] == ("executor", None)


def test_a_route_that_is_not_in_the_repository_keeps_the_effect():
    found = _requests(_facts())
    assert found["chat"] == ("executor", None)
    inference = next(s for s in _facts().sites if s.kind is SiteKind.INFERENCE
                     and s.system == "http" and s.attr("route") is not None)
    assert inference.inferred and inference.attr("url_known") == "/api/ask"


@pytest.mark.parametrize(("path", "segments"), [
    ("src/app/api/ask/route.ts", (("api", "ask"), "src")),
    ("examples/web/app/(group)/api/x/route.js", (("api", "x"), "examples/web")),
    ("app/route.ts", None),                    # the root route has no path to name
    ("src/app/api/ask/page.tsx", None),
])
def test_file_routes(path, segments):
    rule = RouteRule(description="d", files=("app/{path}/route",), handlers=("POST",))
    assert _file_route(path, rule) == segments


@pytest.mark.parametrize(("wanted", "route", "matches"), [
    (("api", "items", "*"), ("api", "items", "[id]"), True),
    (("api", "items", "7"), ("api", "items", "[id]"), True),
    (("api", "items"), ("api", "items", "[id]"), False),
    (("api", "a", "b"), ("api", "[...rest]"), True),
    (("api", "ask"), ("api", "save"), False),
])
def test_route_matching(wanted, route, matches):
    assert _matches(wanted, route) is matches


@pytest.mark.parametrize(("routes", "message"), [
    ('files = ["app/route"]\nhandlers = ["POST"]', r"routes\[0\]\.files\[0\]: a file pattern"),
    ('files = ["app/{path}/route"]', r"routes\[0\]"),               # handlers missing
    ('decorators = ["fastapi.{a"]', r"routes\[0\]\.decorators\[0\]"),
])
def test_bad_route_rules_are_pack_errors(tmp_path, routes, message):
    path = tmp_path / "web.toml"
    path.write_text('system = "web"\nlanguages = ["python"]\n[[routes]]\ndescription = "d"\n'
                    f'{routes}\n[[entries]]\nid = "web.x"\non = "call"\nmatch = ["web.x"]\n'
                    'site = "executor"\nrole = "execution"\n', encoding="utf-8")
    with pytest.raises(PackError, match=message):
        load_packs([path])


def test_the_request_method_picks_among_handlers_of_one_path():
    server = SERVER + '''
@app.get("/chat/")
async def get_chat() -> list:
    return []
'''
    assert _requests(_facts(server=server))["chat"] == ("inference", "server.post_chat")


def test_in_a_monorepo_the_requesting_app_s_own_route_answers():
    files = [parse_ts(CLIENT.replace("'/api/save'", "'/api/ask'"), path="one/src/client.ts"),
             parse_ts(ASK, path="one/src/app/api/ask/route.ts"),
             parse_ts(SAVE, path="two/app/api/ask/route.ts")]
    result = source_facts(files)
    routes = {site.attr("route") for site in result.sites
              if site.kind is SiteKind.INFERENCE and site.system == "http"}
    assert routes == {"one/src/app/api/ask/route.POST"}
