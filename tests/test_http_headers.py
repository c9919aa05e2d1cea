"""Every response of a real `papershelf serve` on 127.0.0.1 carries a strict Content-Security-Policy,
X-Content-Type-Options: nosniff and X-Frame-Options: DENY (the page, its files, JSON, PDFs, images,
errors and refusals alike), and every endpoint — the citation graph's too — refuses an unknown
parameter by name."""

from __future__ import annotations

import httpx
import pytest

from .servers import make_citing_library, running_server


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db, ids = make_citing_library(tmp_path_factory.mktemp("headers"))
    with running_server(db) as (url, _):
        yield url, ids["survey"], ids["pdf"]


def _paths(survey: str, pdf: str) -> list[str]:
    return ["/", "/static/app.js", "/static/style.css", "/favicon.svg", "/api/health", "/api/status",
            "/api/search?query=x", f"/api/show/{survey}", f"/api/refs/{survey}", f"/api/citing/{survey}",
            f"/api/passage?paper_id={survey}", "/api/papers", f"/papers/{pdf}/pdf", f"/units/{pdf}:obj:figure:1/image",
            "/api/show/no-such-paper", "/api/search?query=x&colour=blue", "/static/nothing.js", "/openapi.json",
            "/docs", "/redoc"]


def test_every_response_carries_the_security_headers(served):
    url, survey, pdf = served
    seen = set()
    for path in _paths(survey, pdf):
        r = httpx.get(url + path)
        seen.add(r.status_code)
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["x-frame-options"] == "DENY", path
        csp = r.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp, path
        if path not in ("/docs", "/redoc"):
            assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, path
        if path == "/":
            assert "script-src 'self';" in csp and "connect-src 'self'" in csp
    refused = httpx.get(url + "/api/status", headers={"Origin": "http://evil.example"})
    assert refused.status_code == 403 and refused.headers["x-frame-options"] == "DENY"
    assert "content-security-policy" in refused.headers
    assert seen >= {200, 404, 422}


@pytest.mark.parametrize("route", ["/api/refs/{survey}", "/api/citing/{survey}", "/api/cited-by/{survey}",
                                   "/api/show/{survey}",
                                   "/api/refs/{survey}?missing=true", "/api/passage?paper_id={survey}"])
def test_the_citation_graph_refuses_an_unknown_parameter_by_name(served, route):
    url, survey, _ = served
    path = route.format(survey=survey)
    r = httpx.get(url + path + ("&" if "?" in path else "?") + "colour=blue")
    assert r.status_code == 422 and r.json() == {"error": "colour: unknown argument"}, (path, r.text)
    bad = httpx.get(url + f"/api/refs/{survey}", params={"format": "xml"})
    assert bad.status_code == 422 and bad.json()["error"].startswith("format:")
