"""Standing suite: a web page or a planted instruction trying to read the library out through
`serve` and `mcp` (issue #27).  Real `papershelf serve` on 127.0.0.1, real HTTP requests with the
headers a browser sends for each kind of cross-site request, and a capture server standing for
the attacker: after every attack it must have received nothing."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from tests.servers import make_library, running_server
from tests.test_mcp import session_run

from .capture import capture_server

CHROME = {"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131",
          "Accept-Language": "en-US,en;q=0.9", "sec-ch-ua-platform": '"Linux"'}

# What a browser sends when a page on another site makes it request the server.
BROWSER_ATTACKS = {
    "img tag": {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image",
                "Accept": "image/avif,image/webp,*/*", "Referer": "http://attacker.test/"},
    "no-cors fetch": {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "empty",
                      "Referer": "http://attacker.test/"},
    "script tag": {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "script"},
    "link click": {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document",
                   "Sec-Fetch-User": "?1"},
    "iframe": {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"},
    "form GET": {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document",
                 "Origin": "null"},
    "cors fetch from another local port": {"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "cors",
                                           "Sec-Fetch-Dest": "empty", "Origin": "http://127.0.0.1:3000"},
    "img from another local port": {"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "no-cors",
                                    "Sec-Fetch-Dest": "image", "Referer": "http://localhost:3000/"},
}


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    return make_library(tmp_path_factory.mktemp("attacked"))


def _routes(url: str, capture_url: str, pdf_id: str) -> list[str]:
    q = f"query=wound+healing&mode=lexical&limit=50&per_paper=50&rerank_url={capture_url}&rerank_top=200"
    return [f"{url}/api/search?{q}", f"{url}/api/search?query=wound", f"{url}/api/status", f"{url}/api/papers",
            f"{url}/api/passage?paper_id={pdf_id}", f"{url}/api/show/{pdf_id}", f"{url}/papers/{pdf_id}/pdf",
            f"{url}/units/{pdf_id}:obj:figure:1/image"]


def _pdf_id(url: str) -> str:
    return next(p["id"] for p in httpx.get(f"{url}/api/papers").json() if p["source_format"] == "pdf")


def test_cross_site_requests_deliver_nothing(library):
    """Every browser-made cross-site request is refused on every route, and the request parameter
    that once made the server POST the hits' text anywhere no longer exists."""
    with capture_server() as cap, running_server(library) as (url, _):
        pdf_id = _pdf_id(url)
        refused = 0
        for name, headers in BROWSER_ATTACKS.items():
            for route in _routes(url, cap.url, pdf_id):
                r = httpx.get(route, headers=CHROME | headers)
                assert r.status_code == 403, (name, route, r.status_code)
                assert "refused" in r.json()["error"] and b"wound" not in r.content.lower()
                refused += 1
        # A browser too old to send Sec-Fetch-*, or a program: the parameter itself is refused.
        r = httpx.get(_routes(url, cap.url, pdf_id)[0], headers=CHROME | {"Referer": "http://attacker.test/"})
        assert r.status_code == 422 and "rerank_url: unknown argument" in r.json()["error"]
        # The page itself may be opened from a link elsewhere (static HTML, no library data) ...
        assert httpx.get(f"{url}/", headers=CHROME | BROWSER_ATTACKS["link click"]).status_code == 200
        # ... and its own requests, and programs on this machine, still work.
        for site in ({"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors"}, {"Sec-Fetch-Site": "none"}, {}):
            assert httpx.get(f"{url}/api/search?query=wound", headers=CHROME | site).status_code == 200
        assert refused == len(BROWSER_ATTACKS) * 8
    assert cap.received == [], f"{len(cap.received)} requests delivered to the capture server"


def test_the_users_reranker_is_configuration_and_cross_site_pages_cannot_trigger_it(library):
    """With `serve --rerank-url`, the page's own searches are reranked (the capture server does
    receive them: the test can see a delivery), while a cross-site request triggers nothing."""
    with capture_server() as mine, running_server(library, "--rerank-url", mine.url) as (url, _):
        for headers in BROWSER_ATTACKS.values():
            assert httpx.get(f"{url}/api/search?query=wound", headers=CHROME | headers).status_code == 403
        assert mine.received == []
        r = httpx.get(f"{url}/api/search?query=wound&mode=lexical",
                      headers=CHROME | {"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors"})
        assert r.status_code == 200 and r.json()["results"][0]["rerank_score"] == 1.0
        assert len(mine.received) == 1


def test_with_a_token_the_cookie_a_browser_attaches_is_not_enough(library):
    """Another port of localhost is the same site: the browser attaches the SameSite=Strict token
    cookie to its requests, so a same-site request must name the token itself."""
    with running_server(library, "--token", "s3cret") as (url, _), httpx.Client() as c:
        assert c.get(f"{url}/", params={"token": "s3cret"}).status_code == 200  # the cookie is set
        same_site = CHROME | BROWSER_ATTACKS["img from another local port"]
        assert c.get(f"{url}/api/status", headers=same_site).status_code == 403
        assert c.get(f"{url}/api/status").status_code == 200
        assert c.get(f"{url}/api/status", headers=same_site | {"Authorization": "Bearer s3cret"}).status_code == 200
        # ?token= is the guard's parameter, not an unknown argument of the route (issue #27 item 9)
        assert c.get(f"{url}/api/search", params={"query": "wound", "token": "s3cret"}).status_code == 200


def test_mcp_search_cannot_name_a_reranker(library):
    """Text in a paper could talk an agent into calling `search` with a rerank URL: refused."""
    with capture_server() as cap:
        async def script(s):
            planted = await s.call_tool("search", {"query": "wound", "rerank_url": cap.url})
            schema = {t.name: t for t in (await s.list_tools()).tools}["search"].input_schema
            return planted, schema

        planted, schema = session_run(library, script)
    assert planted.is_error and "rerank_url: unknown argument" in planted.content[0].text
    assert not {"rerank_url", "rerank_top", "rerank_timeout"} & set(schema["properties"])
    assert cap.received == []


def _swaps(pdf: Path, original: bytes) -> dict[str, tuple[Callable[[], None], int]]:
    """Ways the file at a paper's recorded path can stop being what was indexed, and the status
    each must get; the last ones keep it the same file and must still serve it."""
    elsewhere = pdf.parent.parent / "elsewhere"
    elsewhere.mkdir(exist_ok=True)

    def link(target: str | Path) -> Callable[[], None]:
        return lambda: (pdf.unlink(), os.symlink(target, pdf))

    def write(data: bytes) -> Callable[[], None]:
        return lambda: (pdf.unlink(), pdf.write_bytes(data))

    (elsewhere / "copy.pdf").write_bytes(original)
    (pdf.parent / ".same.pdf").write_bytes(original)
    return {
        "symlink to /etc/passwd": (link("/etc/passwd"), 409),
        "symlink to an identical copy outside the folder": (link(elsewhere / "copy.pdf"), 409),
        "random bytes of the same size": (write(random.Random(1).randbytes(len(original))), 409),
        "random bytes": (write(random.Random(2).randbytes(5000)), 409),
        "a truncated copy": (write(original[: len(original) // 2]), 409),
        "one byte flipped": (write(original[:100] + bytes([original[100] ^ 1]) + original[101:]), 409),
        "a FIFO": (lambda: (pdf.unlink(), os.mkfifo(pdf)), 409),
        "a folder": (lambda: (pdf.unlink(), pdf.mkdir()), 409),
        "deleted": (lambda: pdf.unlink(), 404),
        "a dangling link": (link("missing.pdf"), 404),
        "touched, same bytes": (lambda: os.utime(pdf, (1e9, 1e9)), 200),
        "rewritten with the same bytes": (write(original), 200),
        "a link to an identical file in its folder": (link(".same.pdf"), 200),
    }


def _restore(pdf: Path, original: bytes) -> None:
    if pdf.is_dir() and not pdf.is_symlink():
        pdf.rmdir()
    elif pdf.exists() or pdf.is_symlink():
        pdf.unlink()
    pdf.write_bytes(original)


def test_only_the_recorded_pdf_is_served(tmp_path):
    """`/papers/ID/pdf` and `/units/ID/image` hand out the file only while it is the one indexed."""
    db = make_library(tmp_path)
    pdf = tmp_path / "papers" / "okafor-wounds.pdf"
    original = pdf.read_bytes()
    with running_server(db) as (url, _):
        pid = _pdf_id(url)
        assert httpx.get(f"{url}/papers/{pid}/pdf").content == original
        tried = 0
        for name, (swap, status) in _swaps(pdf, original).items():
            swap()
            r = httpx.get(f"{url}/papers/{pid}/pdf", timeout=10)
            assert r.status_code == status, (name, r.status_code, r.text[:200])
            img = httpx.get(f"{url}/units/{pid}:obj:figure:1/image", timeout=10)
            assert img.status_code == status, (name, img.status_code, img.text[:200])
            if status == 200:
                assert r.content == original and img.content[:4] == b"\x89PNG"
            else:
                assert b"root:" not in r.content and b"%PDF" not in r.content and "error" in r.json()
                assert "not served" in r.json()["error"] or "no longer" in r.json()["error"], (name, r.json())
            _restore(pdf, original)
            tried += 1
        assert tried == 13


def test_mcp_images_skip_a_changed_pdf_and_keep_the_hits(tmp_path):
    db = make_library(tmp_path)
    pdf = tmp_path / "papers" / "okafor-wounds.pdf"
    pdf.unlink()
    os.symlink("/etc/passwd", pdf)

    async def script(s):
        found = await s.call_tool("search", {"query": "figure", "mode": "lexical", "kind": "figure", "images": True})
        hits = found.structured_content["results"]
        unit = next(h["unit_id"] for h in hits if h["unit_id"].startswith("okafortrans"))
        return found, await s.call_tool("show", {"id": unit, "image": True})

    found, shown = session_run(db, script)
    assert not found.is_error and len(found.structured_content["results"]) >= 2
    assert not shown.is_error and "no image" in shown.content[0].text and "not served" in shown.content[0].text
    assert all(c.type == "text" for c in found.content + shown.content)
