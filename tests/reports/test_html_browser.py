"""TOPOLOGY_STATE.html in a real headless Chromium (Debian `chromium` + `chromium-driver`).

Driven by Selenium with the system chromedriver (`Service('/usr/bin/chromedriver')`, browser
binary set, `SE_OFFLINE=true`), so nothing is downloaded; Selenium gives a stable API for
clicks and selects, and Chromium's performance log carries the DevTools Network events that
prove the page makes no request besides loading itself. Without Chromium (non-root, no
`make test` install) the tests are skipped with a loud reason, never passed.

A screenshot of the demo report is saved to test-artifacts/topology-demo.png.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from reports_helpers import APPS, EPOCH, REPO

from topo.cli.main import cli

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
ARTIFACTS = REPO / "test-artifacts"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1000")

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
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


def _report(app: str, out: Path) -> tuple[Path, dict]:
    runner = CliRunner(env={"SOURCE_DATE_EPOCH": EPOCH})
    result = runner.invoke(cli, ["audit", str(APPS / app), "-f", "html,yaml", "-o", str(out),
                                 "--no-cache", "-j", "1"])
    assert result.exit_code == 0, result.output
    import yaml
    state = yaml.safe_load((out / "TOPOLOGY_STATE.yaml").read_text(encoding="utf-8"))
    return out / "TOPOLOGY_STATE.html", state


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, tuple[Path, dict]]:
    root = tmp_path_factory.mktemp("html")
    return {app: _report(app, root / app) for app in ("demo_support_agent", "html_injection")}


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


def test_page_loads_without_console_errors_or_network(browser, reports) -> None:
    page, _ = reports["demo_support_agent"]
    _open(browser, page)
    assert browser.find_element(By.ID, "topology").is_displayed()
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert severe == []
    requests = _requests(browser)
    assert requests == [page.as_uri()], f"requests besides the file itself: {requests}"


def test_svg_draws_the_yaml_graph(browser, reports) -> None:
    page, state = reports["demo_support_agent"]
    _open(browser, page)
    nodes = browser.find_elements(By.CSS_SELECTOR, "#nodes > g.node")
    edges = browser.find_elements(By.CSS_SELECTOR, "#edges > g.edge")
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
    lanes = [t.text for t in browser.find_elements(By.CSS_SELECTOR, "text.lane-title")]
    assert lanes == ["OBSERVATION", "INFERENCE", "AUTHORITY", "EXECUTION", "RECORDING"]
    inferred = browser.find_elements(By.CSS_SELECTOR, "#edges > g.edge.inferred")
    assert inferred and all(e.find_element(By.CSS_SELECTOR, "text.edge-label").text
                            == "inferred" for e in inferred)


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
    lit = {n.get_attribute("data-id") for n in
           browser.find_elements(By.CSS_SELECTOR, "#nodes > g.node.hl")}
    assert set(finding["path"]) <= lit
    lit_edges = browser.find_elements(By.CSS_SELECTOR, "#edges > g.edge.hl")
    assert {(e.get_attribute("data-source"), e.get_attribute("data-target"))
            for e in lit_edges} >= set(zip(finding["path"], finding["path"][1:]))
    ARTIFACTS.mkdir(exist_ok=True)
    browser.set_window_size(1280, browser.execute_script(
        "return document.body.scrollHeight") + 40)
    browser.execute_script("window.scrollTo(0, 0)")
    browser.save_screenshot(str(ARTIFACTS / "topology-demo.png"))
    browser.set_window_size(1280, 1000)


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
    ids = browser.execute_script(
        "return JSON.parse(document.getElementById('topo-data').textContent).nodes")
    assert any("<script>alert(1)<!--" in node for node in ids)
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
