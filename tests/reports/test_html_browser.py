"""TOPOLOGY_STATE.html in a real headless Chromium (Debian `chromium` + `chromium-driver`).

Driven by Selenium with the system chromedriver (`Service('/usr/bin/chromedriver')`, browser
binary set, `SE_OFFLINE=true`), so nothing is downloaded; Selenium gives a stable API for
clicks and keys, and Chromium's performance log carries the DevTools Network events that
prove the page makes no request besides loading itself. Without Chromium (non-root, no
`make test` install) the tests are skipped with a loud reason, never passed.

Every golden app (corpus/apps/*) and a generated 2,000-file repository are rendered: no console
error, no request, an initial SVG at most MAX_SVG_HEIGHT px tall that draws exactly the
findings' steps, a per-finding view with exactly that finding's steps, search that finds a tool
by name, and label boxes measured with getBBox (none overlaps another or leaves its node, no
edge runs through one). Screenshots land in test-artifacts/ (topology-demo.png,
topology-demo-finding.png, topology-generated.png, topology-generated-finding.png).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from generated_repo import make_repo, tool_names
from reports_helpers import APPS, EPOCH, REPO

from topo.cli.main import cli

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
ARTIFACTS = REPO / "test-artifacts"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1000")
MAX_SVG_HEIGHT = 3000            # "a few screens": the initial SVG as the page lays it out
GOLDEN_APPS = sorted(p.name for p in APPS.iterdir() if p.is_dir())
GENERATED = "generated-2000-files"
SERVICES = 12

webdriver = pytest.importorskip(
    "selenium.webdriver",
    reason="SELENIUM IS NOT INSTALLED: the HTML report was NOT tested in a browser "
           "(pip install -e '.[test]')")
if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    pytest.skip("CHROMIUM IS NOT INSTALLED: the HTML report was NOT tested in a browser. "
                "Run `make test` as root (it installs Debian's chromium and chromium-driver) "
                "or apt-get install chromium chromium-driver", allow_module_level=True)

from selenium.common.exceptions import NoAlertPresentException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

# Every text label of the shown SVGs, in page coordinates, with its node's box; plus whether
# a point sampled every 3 px along each edge falls inside some label (endpoints excluded).
_MEASURE = """
const out = {labels: [], outside: [], crossings: []};
for (const svg of document.querySelectorAll(arguments[0])) {
  if (!svg.getClientRects().length) continue;
  const view = svg.dataset.view, matrix = svg.getScreenCTM();
  const boxes = [];
  for (const text of svg.querySelectorAll('text.label-box')) {
    const b = text.getBBox();
    if (!b.width) continue;
    const label = {view, text: text.textContent, x: b.x, y: b.y, w: b.width, h: b.height};
    boxes.push(label);
    out.labels.push(label);
    const node = text.closest('.node');
    if (node) {
      const r = node.querySelector('rect.box').getBBox();
      if (b.x < r.x || b.y < r.y || b.x + b.width > r.x + r.width + 0.5 ||
          b.y + b.height > r.y + r.height + 0.5) out.outside.push(label);
    }
  }
  for (const path of svg.querySelectorAll('.edges path, .connectors path')) {
    const length = path.getTotalLength();
    for (let at = 3; at < length - 3; at += 3) {
      const p = path.getPointAtLength(at);
      const hit = boxes.find(b => p.x > b.x && p.x < b.x + b.w && p.y > b.y && p.y < b.y + b.h);
      if (hit) { out.crossings.push([view, hit.text, p.x, p.y]); break; }
    }
  }
}
return out;
"""


def _report(root: Path, name: str, out: Path) -> tuple[Path, dict]:
    runner = CliRunner(env={"SOURCE_DATE_EPOCH": EPOCH})
    result = runner.invoke(cli, ["audit", str(root), "-f", "html,yaml", "-o", str(out),
                                 "--no-cache", "-j", "1"])
    assert result.exit_code == 0, result.output
    state = yaml.safe_load((out / "TOPOLOGY_STATE.yaml").read_text(encoding="utf-8"))
    return out / "TOPOLOGY_STATE.html", state


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, tuple[Path, dict]]:
    root = tmp_path_factory.mktemp("html")
    pages = {app: _report(APPS / app, app, root / app) for app in GOLDEN_APPS}
    repo = make_repo(root / "repo" / GENERATED, files=2000, services=SERVICES)
    assert sum(1 for _ in repo.rglob("*.py")) == 2000
    pages[GENERATED] = _report(repo, GENERATED, root / GENERATED)
    return pages


@pytest.fixture(scope="module")
def browser():
    os.environ.setdefault("SE_OFFLINE", "true")    # Selenium Manager must not go online
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    profile = tempfile.mkdtemp(prefix="topo-chromium-")
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def _open(browser, page: Path) -> None:
    browser.set_window_size(1280, 1000)
    browser.get_log("browser")
    browser.get_log("performance")
    browser.get(page.as_uri())


def _requests(browser) -> list[str]:
    urls = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def _step_nodes(finding: dict) -> list[str]:
    return [step["node"] for step in finding["steps"]]


def _drawn(browser, selector: str) -> list[str]:
    return [n.get_attribute("data-id") for n in browser.find_elements(By.CSS_SELECTOR, selector)]


def _assert_labels_clean(browser, selector: str) -> int:
    measured = browser.execute_script(_MEASURE, selector)
    assert measured["outside"] == [], "labels leave their node's box"
    assert measured["crossings"] == [], "edges run through label text"
    labels = measured["labels"]
    by_view: dict[str, list[dict]] = {}
    for label in labels:
        by_view.setdefault(label["view"], []).append(label)
    for boxes in by_view.values():
        boxes.sort(key=lambda b: (b["y"], b["x"]))
        for i, a in enumerate(boxes):       # a sweep over y: only close boxes are compared
            for b in boxes[i + 1:]:
                if b["y"] >= a["y"] + a["h"]:
                    break
                overlap = (a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"])
                assert not overlap, f"labels overlap: {a['text']!r} and {b['text']!r}"
    return len(labels)


def _screenshot(browser, name: str) -> None:
    """The whole page, with the graph's viewport kept at the size a 1000 px window gives."""
    ARTIFACTS.mkdir(exist_ok=True)
    browser.execute_script("const v = document.getElementById('viewport');"
                           "v.style.height = v.getBoundingClientRect().height + 'px'")
    browser.set_window_size(1280, min(12000, browser.execute_script(
        "return document.body.scrollHeight") + 40))
    browser.execute_script("window.scrollTo(0, 0)")
    browser.save_screenshot(str(ARTIFACTS / f"{name}.png"))
    browser.set_window_size(1280, 1000)


@pytest.mark.parametrize("app", [*GOLDEN_APPS, GENERATED])
def test_page_opens_on_the_findings_paths(browser, reports, app: str) -> None:
    page, state = reports[app]
    _open(browser, page)
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert severe == []
    requests = _requests(browser)
    assert requests == [page.as_uri()], f"requests besides the file itself: {requests}"
    findings = state["prioritized_findings"]
    wanted = {node for f in findings for node in _step_nodes(f)}
    if wanted:
        drawn = _drawn(browser, ".view[data-view=findings] g.node")
        assert sorted(drawn) == sorted(wanted)          # each step node, once
        assert browser.find_elements(By.CSS_SELECTOR, ".view[data-view=whole] svg") == []
    height = browser.execute_script(
        "const s = document.querySelector('.view:not([hidden]) svg');"
        "return s ? s.getBoundingClientRect().height : 0")
    assert 0 < height <= MAX_SVG_HEIGHT if (wanted or state["graph"]["nodes"]) else height == 0
    assert _assert_labels_clean(browser, ".viewport svg") > 0 or not wanted
    if app != GENERATED:                      # the whole graph, drawn on request, too
        browser.find_element(By.ID, "show-whole").click()
        assert _assert_labels_clean(browser, ".view[data-view=whole] svg") > 0


@pytest.mark.parametrize("app", [*GOLDEN_APPS, GENERATED])
def test_each_finding_view_shows_exactly_its_path(browser, reports, app: str) -> None:
    page, state = reports[app]
    _open(browser, page)
    for finding in state["prioritized_findings"][:60]:
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})",
                               browser.find_element(By.ID, f"f-{finding['id']}"))
        browser.find_element(By.ID, f"f-{finding['id']}").click()
        assert _drawn(browser, "#finding-view g.node") == list(dict.fromkeys(
            _step_nodes(finding)))
        steps = browser.find_elements(By.CSS_SELECTOR, "#finding-view ol.steps li code")
        assert [s.text for s in steps] == [f"{s['file']}:{s['line']}" for s in finding["steps"]]
        excerpt = finding["excerpt"]
        if isinstance(excerpt, dict):
            numbers = browser.find_elements(By.CSS_SELECTOR, "#finding-view pre .ln .no")
            assert [n.text for n in numbers] == [
                str(excerpt["start"] + i) for i in range(len(excerpt["lines"]))]
            hit = browser.find_element(By.CSS_SELECTOR, "#finding-view pre .ln.hit")
            assert hit.get_attribute("textContent") == \
                f"{excerpt['line']}{excerpt['lines'][excerpt['line'] - excerpt['start']]}"
        _assert_labels_clean(browser, "#finding-view svg")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    if app == GENERATED:
        ARTIFACTS.mkdir(exist_ok=True)
        browser.find_element(By.ID, "finding-view").screenshot(
            str(ARTIFACTS / "topology-generated-finding.png"))


@pytest.mark.parametrize("app, tool", [("demo_support_agent", "refund_payment"),
                                       ("mcp_destructive_tools", "drop_customer"),
                                       (GENERATED, "refund_order_7")])
def test_search_finds_a_tool_by_name(browser, reports, app: str, tool: str) -> None:
    page, state = reports[app]
    _open(browser, page)
    assert tool in {t["name"] for t in state["tools"]}
    box = browser.find_element(By.ID, "search")
    box.send_keys(tool)
    first = browser.find_element(By.CSS_SELECTOR, "#search-results button.hit")
    assert first.get_attribute("data-kind") == "tool" and f"· {tool} —" in first.text
    box.send_keys(Keys.ENTER)
    [row] = browser.find_elements(By.CSS_SELECTOR, "#tools-table tr.found")
    assert row.get_attribute("data-tool") == tool
    box.clear()
    box.send_keys("subprocess.run")          # code: the effect excerpts and callees
    kinds = {b.get_attribute("data-kind") for b in
             browser.find_elements(By.CSS_SELECTOR, "#search-results button.hit")}
    assert kinds >= ({"finding", "tool"} if app == GENERATED else set())


def test_tools_inventory_lists_every_tool(browser, reports) -> None:
    page, state = reports[GENERATED]
    _open(browser, page)
    names = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#tools-table .tool-name")]
    assert sorted(names) == tool_names(SERVICES) == sorted(t["name"] for t in state["tools"])
    row = browser.find_element(By.CSS_SELECTOR, "#tools-table tr[data-tool=run_command_3]")
    assert "subprocess.run" in row.text and "code_execution" in row.text
    assert row.find_element(By.CSS_SELECTOR, "td.gov-none").text == "none"
    header = browser.find_element(By.CSS_SELECTOR, "#tools-table th:first-child button")
    header.click()
    header.click()                            # descending
    names = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#tools-table .tool-name")]
    assert names == sorted(names, reverse=True)


def test_whole_graph_is_drawn_only_on_request(browser, reports) -> None:
    page, state = reports["demo_support_agent"]
    _open(browser, page)
    assert browser.find_elements(By.CSS_SELECTOR, ".view[data-view=whole] svg") == []
    browser.find_element(By.ID, "show-whole").click()
    nodes = browser.find_elements(By.CSS_SELECTOR, ".view[data-view=whole] g.node")
    edges = browser.find_elements(By.CSS_SELECTOR, ".view[data-view=whole] g.edge")
    assert len(nodes) == len(state["graph"]["nodes"])
    assert len(edges) == len(state["graph"]["edges"])
    ids = {node.get_attribute("data-id") for node in nodes}
    assert {"executor:support_agent/refunds.py:16:9", "threshold:support_agent/refunds.py:15:8",
            "decision_point:support.refund", "emu:support.refund_escalate",
            "event:agent.sent.email", "tool:escalate_ticket"} <= ids
    pairs = {(e.get_attribute("data-kind"), e.get_attribute("data-source"),
              e.get_attribute("data-target")) for e in edges}
    assert ("authority", "threshold:support_agent/refunds.py:15:8",
            "executor:support_agent/refunds.py:16:9") in pairs
    assert ("binds", "emu:support.refund_small", "decision_point:support.refund") in pairs
    lanes = [t.text for t in browser.find_elements(
        By.CSS_SELECTOR, ".view[data-view=whole] text.lane-title")]
    assert lanes == ["OBSERVATION", "INFERENCE", "AUTHORITY", "EXECUTION", "RECORDING"]
    inferred = browser.find_elements(By.CSS_SELECTOR, ".view[data-view=whole] g.edge.inferred")
    assert inferred and all("(inferred)" in e.find_element(By.TAG_NAME, "title")
                            .get_attribute("textContent") for e in inferred)
    assert _assert_labels_clean(browser, ".view[data-view=whole] svg") > 3 * len(nodes)


def test_large_whole_graph_waits_behind_the_control(browser, reports) -> None:
    page, state = reports[GENERATED]
    _open(browser, page)
    assert len(state["graph"]["nodes"]) > 2000
    assert page.stat().st_size <= 5 * 1024 * 1024      # the whole graph waits, compactly
    assert browser.find_elements(By.CSS_SELECTOR, ".view[data-view=whole] svg") == []
    _screenshot(browser, "topology-generated")
    browser.find_element(By.ID, "show-whole").click()
    boxes = browser.find_elements(By.CSS_SELECTOR, ".view[data-view=whole] g.node.k-module")
    assert len(boxes) > 300                   # collapsed by module, drawn because asked for
    height = browser.execute_script(
        "return document.querySelector('.view[data-view=whole] svg')"
        ".getBoundingClientRect().height")
    assert 400 < height <= MAX_SVG_HEIGHT     # a viewport onto it, panned and zoomed


def test_pan_zoom_and_fit_from_the_keyboard(browser, reports) -> None:
    page, _ = reports[GENERATED]
    _open(browser, page)

    def box() -> list[float]:
        return [float(v) for v in browser.execute_script(
            "return document.querySelector('.view[data-view=findings] svg')"
            ".getAttribute('viewBox')").split()]
    viewport = browser.find_element(By.ID, "viewport")
    viewport.send_keys("1")
    start = box()
    assert start[2] == pytest.approx(1240, abs=1)        # 1:1, top left
    viewport.send_keys("+")
    assert box()[2] < start[2]
    viewport.send_keys(Keys.ARROW_DOWN)
    assert box()[1] > start[1]
    viewport.send_keys("0")
    fitted = box()
    height = browser.execute_script(
        "return +document.querySelector('.view[data-view=findings] svg').dataset.height")
    assert fitted[3] >= height and fitted[2] >= 1240      # everything in view
    browser.find_element(By.CSS_SELECTOR, "button[data-zoom=actual]").click()
    assert box() == start
    ActionChains(browser).click_and_hold(viewport).move_by_offset(-120, -80).release().perform()
    dragged = box()
    assert dragged[0] > start[0] and dragged[1] > start[1] and dragged[2] == start[2]
    ActionChains(browser).scroll_from_origin(ScrollOrigin.from_element(viewport), 0, 300) \
        .perform()                            # focused by the drag: the wheel zooms out
    assert box()[2] > dragged[2]


def test_enter_on_a_node_selects_a_finding_through_it(browser, reports) -> None:
    page, state = reports["demo_support_agent"]
    _open(browser, page)
    finding = next(f for f in state["prioritized_findings"] if f["code"] == "UNGOVERNED-PATH")
    node = browser.find_element(
        By.CSS_SELECTOR, f".view[data-view=findings] g.node[data-id='{finding['path'][-1]}']")
    node.send_keys(Keys.ENTER)
    chosen = browser.find_element(By.ID, "finding-view").get_attribute("data-finding")
    through = [f["id"] for f in state["prioritized_findings"]
               if finding["path"][-1] in _step_nodes(f)]
    assert chosen == through[0]


def test_code_filter_hides_other_codes(browser, reports) -> None:
    page, _ = reports["demo_support_agent"]
    _open(browser, page)
    rows = browser.find_elements(By.CSS_SELECTOR, "tr.finding")
    assert {r.get_attribute("data-code") for r in rows} >= {"GHOST-EVENT", "UNGOVERNED-PATH"}
    Select(browser.find_element(By.ID, "filter-code")).select_by_value("GHOST-EVENT")
    for row in rows:
        assert row.is_displayed() == (row.get_attribute("data-code") == "GHOST-EVENT")
    Select(browser.find_element(By.ID, "filter-code")).select_by_value("")
    browser.find_element(By.CSS_SELECTOR, "input[name=severity][value=critical]").click()
    for row in rows:
        assert row.is_displayed() == (row.get_attribute("data-severity") != "critical")


def test_clicking_a_finding_highlights_its_path(browser, reports) -> None:
    page, state = reports["demo_support_agent"]
    _open(browser, page)
    finding = next(f for f in state["prioritized_findings"] if f["code"] == "UNGOVERNED-PATH")
    browser.find_element(By.ID, f"f-{finding['id']}").click()
    lit = set(_drawn(browser, ".view[data-view=findings] g.node.hl"))
    assert lit == set(finding["path"])
    lit_edges = browser.find_elements(By.CSS_SELECTOR, ".view[data-view=findings] g.edge.hl")
    assert {(e.get_attribute("data-source"), e.get_attribute("data-target"))
            for e in lit_edges} >= set(zip(finding["path"], finding["path"][1:]))
    _screenshot(browser, "topology-demo")
    browser.find_element(By.ID, "finding-view").screenshot(
        str(ARTIFACTS / "topology-demo-finding.png"))


def test_injection_fixture_runs_no_script(browser, reports) -> None:
    page, _ = reports["html_injection"]
    _open(browser, page)
    assert browser.execute_script("return typeof window.__injected") == "undefined"
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text
    assert len(browser.find_elements(By.TAG_NAME, "script")) == 2
    assert browser.find_elements(By.TAG_NAME, "img") == []
    body = browser.find_element(By.TAG_NAME, "body").text
    assert "</script><script>window.__injected=1</script>" in body
    assert "</script><script>alert(1)</script>" in body
    entries = browser.execute_script(
        "return JSON.parse(document.getElementById('topo-data').textContent).search")
    assert any("<script>alert(1)<!--" in entry[2] for entry in entries)   # a file name
    search = browser.find_element(By.ID, "search")
    search.send_keys("<script>")
    assert browser.find_elements(By.CSS_SELECTOR, "#search-results button.hit")
    assert browser.execute_script("return typeof window.__injected") == "undefined"
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_the_label_measure_catches_overlaps_clipping_and_crossings(browser, reports) -> None:
    """The geometry check above can fail: a moved label, a long one and an edge drawn across
    a node are each caught."""
    page, _ = reports["demo_support_agent"]
    breakages = {
        "labels leave": "const t = document.querySelector('.viewport .node text.label');"
                        "t.textContent = 'x'.repeat(80); t.removeAttribute('textLength');",
        "overlap": "const [a, b] = document.querySelectorAll('.viewport .node');"
                   "const ta = a.querySelector('text.label'), tb = b.querySelector('text.label');"
                   "const r = b.querySelector('rect.box');"
                   "a.querySelector('rect.box').setAttribute('y', r.getAttribute('y'));"
                   "a.querySelector('rect.box').setAttribute('x', r.getAttribute('x'));"
                   "for (const t of a.querySelectorAll('text')) {"
                   "  t.setAttribute('x', tb.getAttribute('x'));"
                   "  t.setAttribute('y', tb.getAttribute('y')); }",
        "run through": "const r = document.querySelector('.viewport .node rect.box').getBBox();"
                       "const p = document.querySelector('.viewport .edges path');"
                       "p.setAttribute('d', `M${r.x - 20},${r.y + 30} H${r.x + r.width + 20}`);",
    }
    for expected, script in breakages.items():
        _open(browser, page)
        browser.execute_script(script)
        with pytest.raises(AssertionError, match=expected):
            _assert_labels_clean(browser, ".viewport svg")
