"""The shipped HTTP pack (data/http.toml) on real client shapes, Python and TypeScript: which
requests are effects, which are a credential, a search or a model call, and what a payment
client makes of a GET."""

from __future__ import annotations

from topo.analyzers.model import SiteKind
from topo.analyzers.packs import classify
from tests.packs.test_end_to_end import line_of, parse
from tests.typescript.ts_helpers import parse_ts

PYTHON = '''
import json
import httpx
import requests
from x402.clients.requests import x402_requests

TOKEN_URL = "https://login.example.com/oauth2/v2.0/token"

def act(base, method, history, account):
    requests.post(TOKEN_URL, data={"grant_type": "client_credentials"})  # token
    requests.post(f"{base}/v1/refunds", json={"charge": "ch_1"})  # refund
    httpx.post("https://api.tavily.com/search", json={"query": "q"})  # search
    requests.post(f"{base}/v1/chat/completions", json={"model": "m", "messages": history})  # llm
    body = {"model": "m", "prompt": "hi"}
    requests.post("http://localhost:8000/generate", data=json.dumps(body))  # proxy
    requests.request("DELETE", f"{base}/users/1")  # delete
    requests.request(method, f"{base}/users/1")  # unknown
    requests.request("GET", f"{base}/users/1")  # read
    with httpx.Client() as client:
        client.request("PATCH", f"{base}/users/1", json={"role": "admin"})  # patch
    session = x402_requests(account)
    session.get("https://paid.example.com/weather")  # paid
'''

TYPESCRIPT = '''
import axios from 'axios';
import ky from 'ky';
import { withPaymentInterceptor } from 'x402-axios';
import { wrapFetchWithPayment as payable } from 'x402-fetch';
const TOKEN_URL = 'https://www.linkedin.com/oauth/v2/accessToken';
const paid = withPaymentInterceptor(axios.create({ baseURL: 'https://paid.example.com' }), wallet);
const payFetch = payable(fetch, wallet);
async function act(base: string, options: RequestInit, messages: unknown[]) {
  await fetch(TOKEN_URL, { method: 'POST', body: form });
  await fetch(`${base}/v2/shares`, { method: 'POST', body: JSON.stringify({ owner }) });
  await fetch(base, { ...options, headers: { Authorization: 'x' } });
  await fetch(base);
  await fetch('/api/llm', { method: 'POST', body: JSON.stringify({ model: 'gpt-4o', messages }) });
  await axios.post('https://api.exa.ai/search', { query: 'q' });
  await axios({ method: 'delete', url: `${base}/items/1` });
  await ky.post(`${base}/orders`, { json: { sku: 'a' } });
  await paid.get('/weather');
  await payFetch('https://paid.example.com/forecast');
}
'''


def _by_line(sites) -> dict[int, tuple[str, str]]:
    return {site.location.line: (site.kind.value, str(site.attr("tier")
                                                      if site.kind is SiteKind.EXECUTOR else ""))
            for site in sites if site.system == "http"}


def _ts_line(start: str) -> int:
    """The line of the statement starting with `start` in TYPESCRIPT as parse_ts numbers it."""
    lines = TYPESCRIPT.lstrip("\n").splitlines()
    [number] = [n for n, text in enumerate(lines, 1) if text.strip().startswith(start)]
    return number


def test_python_requests_are_judged_by_target_and_body():
    found = _by_line(classify([parse(PYTHON)]))
    line = lambda marker: line_of(PYTHON, marker)  # noqa: E731
    for marker in ("token", "search", "read"):
        assert line(marker) not in found, marker
    for marker in ("refund", "delete", "unknown", "patch"):
        assert found[line(marker)] == ("executor", "communication"), marker
    for marker in ("llm", "proxy"):
        assert found[line(marker)] == ("inference", ""), marker
    assert found[line("paid")] == ("executor", "money")


def test_typescript_requests_are_judged_by_target_and_body():
    sites = classify([parse_ts(TYPESCRIPT)])
    found = _by_line(sites)
    for start in ("await fetch(TOKEN_URL", "await fetch(base);", "await axios.post("):
        assert _ts_line(start) not in found, start
    for start in ("await fetch(`${base}/v2/shares`", "await fetch(base, { ...options",
                  "await axios({", "await ky.post("):
        assert found[_ts_line(start)] == ("executor", "communication"), start
    proxy = _ts_line("await fetch('/api/llm'")
    assert found[proxy] == ("inference", "")
    assert found[_ts_line("await paid.get(")] == ("executor", "money")
    assert found[_ts_line("await payFetch(")] == ("executor", "money")
    assert _ts_line("const payFetch = payable(") not in found   # the wrapping pays nothing
    model = next(s for s in sites if s.location.line == proxy and s.system == "http")
    assert model.inferred and model.attr("url_known") == "/api/llm"
