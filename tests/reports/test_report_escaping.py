"""Repository text is data in every view: HTML text, attributes, the JSON data island and
Mermaid labels never let `</script>`, `<!--` or quotes change the document."""

from __future__ import annotations

import json
import re

from reports_helpers import GENERATED, document_of

from topo.reports.html_report import html_from_state, json_island
from topo.reports.markdown_report import markdown_from_state, mermaid_label
from topo.reports.svg_layout import COLLAPSE_THRESHOLD, layout_graph
from topo.reports.topology import topology_state

HOSTILE = "</script><script>alert(1)</script>"


def injection_html() -> str:
    return html_from_state(topology_state(document_of("html_injection"), generated=GENERATED))


def test_json_island_cannot_close_its_script() -> None:
    island = str(json_island({"x": HOSTILE + "<!--\u2028&"}))
    assert "<" not in island and ">" not in island and "&" not in island
    assert "\u2028" not in island
    assert json.loads(island) == {"x": HOSTILE + "<!--\u2028&"}


def test_injection_fixture_is_escaped_everywhere() -> None:
    page = injection_html()
    assert HOSTILE not in page
    assert "<script>alert(1)" not in page and "<!-- <img" not in page
    assert len(re.findall(r"<script\b", page)) == 2
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert 'x&#34;&#39;&gt;&lt;script&gt;alert(1)&lt;!--' in page     # the directory name
    island = page.split('<script type="application/json" id="topo-data">', 1)[1]
    island = island.split("</script>", 1)[0]
    assert "<" not in island
    assert any("<script>alert(1)<!--" in entry[2]                  # a file, in the search
               for entry in json.loads(island)["search"])


def test_page_is_self_contained() -> None:
    page = injection_html()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "@import" not in page and "url(http" not in page
    assert "default-src 'none'" in page


def test_mermaid_labels_hold_no_markup() -> None:
    label = mermaid_label('a"b<c>d`e|f[g]#h\nnext')
    assert not set('"<>`|[]\n') & set(label)
    markdown = markdown_from_state(topology_state(document_of("html_injection"),
                                                  generated=GENERATED))
    mermaid = markdown.split("```mermaid", 1)[1].split("```", 1)[0]
    assert "<script" not in mermaid and '"><' not in mermaid
    table = markdown.split("## Findings", 1)[1]
    assert "<script>" not in table and "&lt;script&gt;" in table


def test_large_graphs_collapse_by_module() -> None:
    nodes = [{"id": f"executor:m{i % 7}.py:{i}:1", "kind": "executor", "lane": "execution",
              "project": "app", "file": f"m{i % 7}.py", "symbol": f"m{i % 7}.f", "line": i,
              "label": "effect", "inferred": False} for i in range(COLLAPSE_THRESHOLD + 1)]
    nodes.append({"id": "inference:a.py:1:1", "kind": "inference", "lane": "inference",
                  "project": "app", "file": "a.py", "symbol": "a.f", "line": 1,
                  "label": "model", "inferred": False})
    edges = [{"source": "inference:a.py:1:1", "target": n["id"], "kind": "inference",
              "inferred": False} for n in nodes[:-1]]
    finding = {"id": "AUTH-001", "severity": "critical",
               "path": [nodes[-1]["id"], nodes[3]["id"]], "evidence": {"file": "m3.py", "line": 3}}
    layout = layout_graph({"nodes": nodes, "edges": edges}, [finding])
    assert layout.collapsed
    assert len(layout.nodes) == 8 and len(layout.edges) == 7
    assert sum(node["count"] for node in layout.nodes) == len(nodes)
    highlight = layout.highlights["AUTH-001"]
    assert {layout.nodes[i]["file"] for i in highlight["nodes"]} == {"a.py", "m3.py"}
    assert len(highlight["edges"]) == 1
