"""The web page in a real headless Chromium (Debian's chromium + chromium-driver, via selenium):
type a query, see a figure hit with its thumbnail, open it at its page, keep a screenshot."""

from __future__ import annotations

import shutil

import pytest

from .servers import ARTIFACTS, make_library, running_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER),
                                reason="needs Debian's chromium and chromium-driver (apt-get install, see .ci/run)")


@pytest.fixture
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def test_search_a_figure_see_its_thumbnail_open_the_pdf_at_its_page(tmp_path, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select, WebDriverWait

    db = make_library(tmp_path)
    wait = WebDriverWait(browser, 20)
    with running_server(db) as (url, _):
        browser.get(url + "/")
        wait.until(lambda d: "papers" in d.find_element(By.ID, "status").text)
        assert "5 papers · 0 pending" in browser.find_element(By.ID, "status").text
        browser.find_element(By.ID, "q").send_keys("western blot of phosphorylated STAT3")
        Select(browser.find_element(By.ID, "kind")).select_by_value("figure")
        browser.find_element(By.CSS_SELECTOR, "form button").click()

        hit_css = "section.paper[data-paper^='okafor-wounds'] .hit"
        hit = wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, hit_css)))
        assert "Figure 1" in hit.text and "p. 1" in hit.text
        assert hit.find_element(By.TAG_NAME, "mark").text  # the query's words are highlighted
        thumb = hit.find_element(By.CSS_SELECTOR, "img.thumb")
        wait.until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", thumb))
        assert browser.execute_script("return arguments[0].naturalWidth", thumb) >= 400
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "web-search-figure.png"))

        before = set(browser.window_handles)
        hit.click()
        wait.until(lambda d: len(d.window_handles) > len(before))
        browser.switch_to.window((set(browser.window_handles) - before).pop())
        wait.until(lambda d: "/pdf" in d.current_url)
        assert browser.current_url.endswith("/pdf#page=1") and "/papers/okafor-wounds" in browser.current_url
        browser.save_screenshot(str(ARTIFACTS / "web-opened-pdf.png"))
    assert (ARTIFACTS / "web-search-figure.png").stat().st_size > 10_000


def test_a_hit_from_a_markdown_paper_opens_in_its_section(tmp_path, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    db = make_library(tmp_path)
    wait = WebDriverWait(browser, 20)
    with running_server(db) as (url, _):
        browser.get(url + "/?query=bleaching+by+depth&mode=lexical")
        hit = wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "section[data-paper='mbeki2022coral'] .hit")))
        hit.click()
        target = wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, "#reader .unit.target")))
        assert target.text and len(browser.window_handles) == 1
        browser.save_screenshot(str(ARTIFACTS / "web-unit-in-section.png"))
