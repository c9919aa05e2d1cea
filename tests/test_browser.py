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
def browser(monkeypatch):
    monkeypatch.setenv("SE_AVOID_STATS", "true")  # selenium sends no usage statistics anywhere
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console: CSP violations show there
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def csp_violations(browser) -> list[str]:
    """Console messages since the last call that say the Content-Security-Policy refused something."""
    return [e["message"] for e in browser.get_log("browser") if "Content Security Policy" in e["message"]]


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
        browser.find_element(By.CSS_SELECTOR, "#filters summary").click()  # the filters fold open
        Select(browser.find_element(By.ID, "kind")).select_by_value("figure")
        browser.find_element(By.CSS_SELECTOR, "form button").click()

        hit_css = "section.paper[data-paper^='okafortrans'] .hit"
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
        assert browser.current_url.endswith("/pdf#page=1") and "/papers/okafortrans" in browser.current_url
        browser.save_screenshot(str(ARTIFACTS / "web-opened-pdf.png"))
        assert csp_violations(browser) == []  # the strict policy refused nothing the page and the PDF need
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


def test_no_confident_match_banner_relevance_filters_and_a_paper_page_at_390px(tmp_path, browser):
    """The banner says so when nothing answers; each hit shows its relevance; the labelled filters
    reach the API; a paper page shows metadata, sections and figure thumbnails; all at phone width."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    db = make_library(tmp_path)
    wait = WebDriverWait(browser, 20)
    # a phone's viewport (a desktop window cannot be made this narrow)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with running_server(db) as (url, _):
        browser.get(url + "/?query=qqxv+zzyzx+wumpus&mode=lexical")
        banner = wait.until(ec.visibility_of_element_located((By.ID, "banner")))
        assert "No confident match" in banner.text
        browser.save_screenshot(str(ARTIFACTS / "web-no-confident-match-390.png"))

        browser.get(url + "/?query=macrophages+inflammatory&author=okafor")
        hit = wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, ".hit .relevance")))
        assert hit.text.startswith("relevance 0.") or hit.text == "relevance 1.00"
        assert not browser.find_element(By.ID, "banner").is_displayed()
        papers = {s.get_attribute("data-paper") for s in browser.find_elements(By.CSS_SELECTOR, "section.paper")}
        assert papers and all(p.startswith("okafor") for p in papers)  # the author filter reached the search
        for control in browser.find_elements(By.CSS_SELECTOR, "form input, form select"):  # every control labelled
            assert control.get_attribute("id") and browser.find_elements(
                By.XPATH, f"//label[@for='{control.get_attribute('id')}' or .//*[@id='{control.get_attribute('id')}']]")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390  # no sideways scroll

        paper = browser.find_element(By.CSS_SELECTOR, "section.paper[data-paper^='okafortrans'] h2 a")
        paper.click()
        page = wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "article.paper-page")))
        thumb = wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, ".object img.thumb")))
        wait.until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", thumb))
        assert "Open PDF" in page.text and "Sections (" in page.text and "Figure 1" in page.text
        assert browser.find_element(By.LINK_TEXT, "Open PDF").get_attribute("href").endswith("/pdf")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
        browser.save_screenshot(str(ARTIFACTS / "web-paper-page-390.png"))
        favicon = browser.execute_script("return document.querySelector('link[rel=icon]').href")
        assert favicon.endswith("/favicon.svg")
        assert csp_violations(browser) == []
    assert (ARTIFACTS / "web-paper-page-390.png").stat().st_size > 10_000


def test_api_docs_load_offline_from_packaged_assets(tmp_path, browser):
    """/docs (Swagger UI) and /redoc render with no network: their scripts come from this server."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    db = make_library(tmp_path)
    with running_server(db) as (url, _):
        browser.get(url + "/docs")
        WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".opblock-summary-path"))
        paths = {e.text for e in browser.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")}
        assert "/api/search" in {p.replace("\u200b", "") for p in paths}
        scripts = browser.execute_script("return [...document.scripts].map(s => s.src).filter(Boolean)")
        assert scripts and all(s.startswith(url) for s in scripts)
        browser.get(url + "/redoc")
        WebDriverWait(browser, 20).until(lambda d: "search" in d.find_element(By.TAG_NAME, "body").text.lower())
        # ReDoc asks a CDN for its logo: refusing it is the policy working (the page is whole offline)
        assert [m for m in csp_violations(browser) if "https://" not in m] == []


def test_a_paper_page_shows_related_papers_the_reading_list_and_ask_quotes(tmp_path, browser):
    """The discovery views in the page: a paper's Related panel says why and opens the related paper;
    the reading list holds only works the library lacks, each with the library papers citing it; Ask
    shows evidence cards whose quote is the paper's own sentence."""
    from urllib.parse import quote

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    from papershelf import Library

    from .citation_fixtures import write_papers
    from .conftest import HASH

    write_papers(tmp_path / "papers")
    db = tmp_path / "library.db"
    with Library(str(db)) as lib:
        assert not lib.add([str(tmp_path / "papers")]).failed
        lib.embed(HASH)
        ids = {s.paper.title: s.paper.id for s in lib.papers()}
        to_read = [i.reference.title or i.reference.text for i in lib.reading_list().items]
    survey, attention = ids["A Survey of Scholarly Search"], ids["Graph Attention for Citation Recommendation"]
    wait = WebDriverWait(browser, 20)
    with running_server(db) as (url, _):
        browser.get(f"{url}/?paper={survey}")
        wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "section.related li")))
        items = {li.get_attribute("data-paper"): li.text
                 for li in browser.find_elements(By.CSS_SELECTOR, "section.related li")}
        assert survey not in items and "cited by this paper" in items[attention]
        browser.find_element(By.CSS_SELECTOR, f"section.related li[data-paper='{attention}'] a").click()
        wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, f"article.paper-page[data-paper='{attention}']")))

        browser.get(f"{url}/?view=reading-list")
        wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "ol.reading-list li")))
        titles = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "ol.reading-list li strong")]
        assert titles and titles == to_read  # the library's own list (works it lacks), in its order
        anchors = browser.find_elements(By.CSS_SELECTOR, "ol.reading-list a.paper-link")
        citing = {a.get_attribute("data-paper") for a in anchors}
        assert citing and citing <= set(ids.values())

        browser.get(f"{url}/?ask={quote('how fast do inverted indexes answer queries')}")
        mark = wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "figure.evidence mark")))
        assert mark.text in "Inverted indexes over learned sparse weights answer queries in milliseconds."
        assert csp_violations(browser) == []
