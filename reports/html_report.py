"""`-f html`: TOPOLOGY_STATE.html, one self-contained page derived from TOPOLOGY_STATE.

Seed 000 asks for a view that works offline with no framework, CDN or network request, escapes
repository text, and adds no facts: the page renders the same view-model as the YAML. Safety:
- jinja2 autoescaping for every value in HTML text and attributes;
- the data the script needs travels in a `<script type="application/json">` island whose JSON
  has `<`, `>`, `&`, U+2028 and U+2029 as `\\u` escapes, so no `</script>` or `<!--` can close
  or change it, and the script reads it with JSON.parse;
- a Content-Security-Policy that allows no network source at all and only the one inline
  script whose SHA-256 it names: injected markup could neither load nor run anything.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import jinja2
from markupsafe import Markup

from topo.reports.paths import outgoing
from topo.reports.search_index import search_entries
from topo.reports.svg_layout import COLLAPSE_THRESHOLD, layout_findings, layout_graph, \
    layout_path
from topo.reports.topology import SEVERITIES, generated_at, topology_state

__all__ = ["render_html", "html_from_state", "json_island", "codespans"]

# Beside this module (package data): found the same way in a wheel, a checkout or an editable
# install, which importlib.resources does not promise for every editable-install layout.
_TEMPLATES = Path(__file__).resolve().parent / "templates"
_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
                 "\u2029": "\\u2029"}


def render_html(document: dict) -> str:
    return html_from_state(topology_state(document, generated=generated_at()))


def html_from_state(state: dict) -> str:
    """The page opens on the findings' subgraph; the whole graph waits in a <template> (not
    drawn) until asked for, unless there is no finding and it is small."""
    findings = state["prioritized_findings"]
    graph = state["graph"]
    subgraph = layout_findings(graph, findings)
    whole = layout_graph(graph, findings)
    out = outgoing(graph)
    paths = {finding["id"]: layout_path(graph, finding, out) for finding in findings}
    start = "findings" if findings or len(graph["nodes"]) > COLLAPSE_THRESHOLD else "whole"
    script = _asset("topology.js")
    data = {"start": start,
            "views": {"findings": subgraph.highlights, "whole": whole.highlights},
            "search": search_entries(state, subgraph, whole)}
    return _environment().get_template("topology.html").render(
        state=state, subgraph=subgraph, whole=whole, paths=paths, start=start,
        severities=SEVERITIES, codes=sorted({f["code"] for f in findings}),
        points=sorted({f["decision_point"] for f in findings}),
        threshold=COLLAPSE_THRESHOLD, data_island=json_island(data),
        style=Markup(_asset("topology.css")), script=Markup(script),
        script_hash=_sha256(script))


def json_island(data: object) -> Markup:
    """JSON that is inert inside `<script type="application/json">`: no `<`, `>` or `&`."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return Markup("".join(_JSON_ESCAPES.get(c, c) for c in text))


def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(_TEMPLATES), autoescape=True,
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True)
    environment.filters["codespans"] = codespans
    return environment


def codespans(text: str) -> Markup:
    """A finding message's `code` spans as <code>, every part escaped."""
    parts = str(text).split("`")
    if len(parts) % 2 == 0:          # an unpaired backtick: plain text
        return Markup.escape(text)
    return Markup("").join(Markup("<code>%s</code>") % part if i % 2 else Markup.escape(part)
                           for i, part in enumerate(parts))


def _asset(name: str) -> str:
    return (_TEMPLATES / name).read_text("utf-8")


def _sha256(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
