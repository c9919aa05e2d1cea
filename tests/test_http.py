"""`papershelf serve` through a real HTTP client against a real server on 127.0.0.1."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
from urllib.parse import urlsplit

import httpx
import pytest

from papershelf import Library, SearchOptions
from papershelf.models import Filters

from .servers import cli_env, make_library, running_server

PDF_PAPER = "okafortrans"


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    return make_library(tmp_path_factory.mktemp("served"))


@pytest.fixture(scope="module")
def server(library):
    with running_server(library) as (url, _):
        yield url


def pdf_paper_id(url: str) -> str:
    papers = [p for p in httpx.get(f"{url}/api/papers").json() if p["source_format"] == "pdf"]
    assert len(papers) == 1
    return papers[0]["id"]


def raw_get(url: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """GET a path exactly as written (no client-side normalization of `..`)."""
    u = urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    conn.request("GET", path, headers=headers or {})
    r = conn.getresponse()
    return r.status, r.read()


def without_timings(d: dict) -> dict:
    return {k: v for k, v in d.items() if k != "timings_ms"}


def test_search_answers_the_shape_of_search_json(server, library):
    r = httpx.get(f"{server}/api/search", params={"query": "western blot STAT3", "kind": "figure", "limit": 5})
    assert r.status_code == 200, r.text
    body = r.json()
    with Library(str(library), create=False) as lib:
        local = lib.search("western blot STAT3", SearchOptions(limit=5, filters=Filters(
            sources=["object_unit"], object_kind="figure"))).to_dict()
    assert without_timings(body) == without_timings(local)
    assert body["results"] and all(h["object_kind"] == "figure" for h in body["results"])


def test_min_score_filters_hits_and_paper_filter_repeats(server):
    # min_score filters on the calibrated relevance (0-1), not on the per-query rank score
    all_hits = httpx.get(f"{server}/api/search", params={"query": "macrophages"}).json()["results"]
    cut = max(h["relevance"] for h in all_hits)
    kept = httpx.get(f"{server}/api/search", params={"query": "macrophages", "min_score": cut}).json()["results"]
    assert kept == [h for h in all_hits if h["relevance"] >= cut] and kept
    none = httpx.get(f"{server}/api/search", params={"query": "macrophages", "min_score": 1}).json()["results"]
    assert none == [h for h in all_hits if h["relevance"] >= 1]
    bad = httpx.get(f"{server}/api/search", params={"query": "macrophages", "min_score": 2})
    assert bad.status_code in (400, 422)
    two = httpx.get(f"{server}/api/search", params=[("query", "the"), ("mode", "lexical"), ("paper", "okafor2024il6"),
                                                    ("paper", "mbeki2022coral")]).json()["results"]
    assert {h["paper_id"] for h in two} <= {"okafor2024il6", "mbeki2022coral"} and two


@pytest.mark.parametrize("params, fragment", [
    ({"query": "x", "per_papr": "2"}, "per_papr: unknown argument"),
    ({"query": "x", "limit": "0"}, "limit: Input should be greater than or equal to 1"),
    ({"query": "x", "mode": "semantic"}, "mode: Input should be 'hybrid', 'lexical' or 'vector'"),
    ({"query": "x", "kind": "photo"}, "kind:"),
    ({"query": ""}, "query: String should have at least 1 character"),
    ({}, "give query (words) or like"),
    ({"like": ["p"] * 21}, "like: List should have at most 20 items"),
    ({"query": "x", "year_from": "soon"}, "year_from: Input should be a valid integer"),
])
def test_bad_search_parameters_are_422_with_the_parameter_named(server, params, fragment):
    r = httpx.get(f"{server}/api/search", params=params)
    assert r.status_code == 422
    assert fragment in r.json()["error"]


def test_errors_map_to_their_http_status(server):
    r = httpx.get(f"{server}/api/show/no-such-paper")
    assert (r.status_code, r.json()) == (
        404, {"error": "no paper with id, id prefix, citekey, DOI or Zotero key 'no-such-paper'"})
    r = httpx.get(f"{server}/api/search", params={"query": "   "})
    assert r.status_code == 400 and "empty query" in r.json()["error"]
    r = httpx.get(f"{server}/api/passage", params={"paper_id": "okafor2024il6", "cursor": "banana"})
    assert r.status_code == 400 and "bad cursor" in r.json()["error"]
    r = httpx.get(f"{server}/api/passage", params={"paper_id": "okafor2024il6", "page_from": 5, "page_to": 2})
    assert r.status_code == 400 and "page_from" in r.json()["error"]


def test_show_paper_and_unit_with_its_section(server):
    paper = httpx.get(f"{server}/api/show/okafor2024il6").json()
    assert paper["type"] == "paper" and paper["sections"] and paper["objects"]
    unit_id = paper["sections"][1]["unit_id"]
    unit = httpx.get(f"{server}/api/show/{unit_id}").json()
    assert unit["type"] == "unit" and unit["id"] == unit_id
    assert [n["unit_id"] for n in unit["neighbours"] if n["is_target"]] == [unit_id]
    assert all(n["section_path"] == unit["section_path"] for n in unit["neighbours"])


def test_passage_reads_a_whole_paper_through_its_cursor(server):
    pieces, cursor = [], None
    for _ in range(50):
        params = {"paper_id": "okafor2024il6", "budget_chars": 300, **({"cursor": cursor} if cursor else {})}
        d = httpx.get(f"{server}/api/passage", params=params).json()
        assert len(d["text"]) <= 300 + 80  # a section header may ride on the first piece
        pieces.append(d)
        cursor = d["next_cursor"]
        if cursor is None:
            break
    assert len(pieces) > 2 and cursor is None
    whole = httpx.get(f"{server}/api/passage", params={"paper_id": "okafor2024il6", "budget_chars": 100000}).json()
    assert whole["next_cursor"] is None
    def squash(s: str) -> str:
        return "".join(s.split())

    assert squash("".join(p["text"] for p in pieces)) == squash(whole["text"])
    methods = httpx.get(f"{server}/api/passage", params={"paper_id": "okafor2024il6", "section": "methods"}).json()
    assert methods["sections"] and all(s.lower().startswith("methods") for s in methods["sections"])


def test_papers_filter_by_author_and_year(server):
    every = httpx.get(f"{server}/api/papers").json()
    assert len(every) == 5
    by_year = httpx.get(f"{server}/api/papers", params={"year_from": 2023}).json()
    assert by_year and all(p["year"] >= 2023 for p in by_year)
    assert httpx.get(f"{server}/api/papers", params={"author": "okafor"}).json()
    assert httpx.get(f"{server}/api/papers", params={"titel": "x"}).status_code == 422


def test_status_health_and_openapi(server, library):
    assert httpx.get(f"{server}/api/health").json()["library"] == str(library)
    st = httpx.get(f"{server}/api/status").json()
    assert st["papers"] == 5 and st["embedding"]["pending_papers"] == 0 and st["embedding"]["build_running"] is None
    spec = httpx.get(f"{server}/openapi.json").json()
    assert {"/api/search", "/api/show/{id}", "/api/passage", "/api/papers", "/api/status",
            "/api/health"} <= set(spec["paths"])
    assert httpx.get(f"{server}/").text.startswith("<!doctype html>")


def test_foreign_host_or_origin_is_refused(server):
    port = urlsplit(server).port
    for headers in ({"Host": "evil.example"}, {"Host": f"evil.example:{port}"}, {"Host": "127.0.0.1.nip.io"},
                    {"Origin": "http://evil.example"}, {"Origin": f"http://attacker.test:{port}"}):
        r = httpx.get(f"{server}/api/status", headers=headers)
        assert r.status_code == 403, headers
        assert "refused" in r.json()["error"]
    for headers in ({"Host": f"localhost:{port}"}, {"Origin": f"http://127.0.0.1:{port}"},
                    {"Origin": f"http://localhost:{port}"}):
        assert httpx.get(f"{server}/api/status", headers=headers).status_code == 200, headers


def test_only_papers_pdfs_are_served_no_path_traversal(server, library):
    pid = pdf_paper_id(server)
    r = httpx.get(f"{server}/papers/{pid}/pdf")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf" and r.content[:5] == b"%PDF-"
    db_name = library.name
    for path in ("/papers/../../../../etc/passwd/pdf", "/papers/..%2F..%2F..%2F..%2Fetc%2Fpasswd/pdf",
                 f"/papers/{pid}/../../{db_name}", f"/static/..%2F..%2F{db_name}", "/static/..%2Fhttp.py",
                 "/static/%2Fetc%2Fpasswd", "/papers/%2Fetc%2Fpasswd/pdf", f"/papers/{pid}%2F..%2F..%2Fpdf/pdf",
                 "/papers/okafor2024il6/pdf", "/static/../../../../etc/passwd"):
        status, body = raw_get(server, path)
        assert status == 404, (path, status)
        assert b"root:" not in body and b"SQLite format" not in body and b"def " not in body
    assert raw_get(server, "/papers/okafor2024il6/pdf")[1] == b'{"error":"paper \'okafor2024il6\' has no PDF file"}'


def test_figure_image_is_a_png_of_the_page_region(server):
    pid = pdf_paper_id(server)
    r = httpx.get(f"{server}/units/{pid}:obj:figure:1/image")
    assert r.status_code == 200 and r.content[:8] == b"\x89PNG\r\n\x1a\n"
    from io import BytesIO

    from PIL import Image

    w, h = Image.open(BytesIO(r.content)).size
    assert h < w * 11 / 8.5 * 0.8  # cropped around the caption, not the whole letter page
    assert httpx.get(f"{server}/units/okafor2024il6:obj:figure:1/image").status_code == 404  # Markdown: no PDF


def test_token_is_required_beyond_loopback_and_checked(tmp_path):
    db = make_library(tmp_path)
    p = subprocess.run([sys.executable, "-m", "papershelf", "-L", str(db), "serve", "--host", "0.0.0.0",
                        "--port", "0"], env=cli_env(), capture_output=True, text=True, timeout=60, check=False)
    assert p.returncode == 2 and "--token is required" in p.stderr
    with running_server(db, "--token", "s3cret") as (url, info):
        assert info["token"] == "s3cret" and oct(os.stat(str(db) + ".server.json").st_mode & 0o777) == "0o600"
        assert httpx.get(f"{url}/api/status").status_code == 403
        assert httpx.get(f"{url}/api/status", headers={"Authorization": "Bearer wrong"}).status_code == 403
        assert httpx.get(f"{url}/api/status", headers={"Authorization": "Bearer s3cret"}).status_code == 200
        with httpx.Client() as c:  # the page opened once with ?token= keeps working through its cookie
            assert c.get(f"{url}/", params={"token": "s3cret"}).status_code == 200
            assert c.get(f"{url}/api/status").status_code == 200


def test_a_build_in_another_process_shows_in_status_and_search_sees_its_papers(tmp_path, write):
    db = make_library(tmp_path)
    write("new.md", "---\ncitekey: zz2025new\ntitle: Quokka foraging\nyear: 2025\n---\n\n# Results\n\n"
                    "Quokkas forage at dusk on Rottnest Island.\n")
    with running_server(db) as (url, _):
        query = {"query": "quokkas forage at dusk on Rottnest Island", "mode": "vector"}
        assert all(h["paper_id"] != "zz2025new" for h in httpx.get(f"{url}/api/search", params=query).json()["results"])
        env = cli_env(PAPERSHELF_LIBRARY=str(db), PAPERSHELF_HASH_DELAY="0.4")
        subprocess.run([sys.executable, "-m", "papershelf", "add", str(write.root)], env=env, check=True,
                       capture_output=True, timeout=60)
        build = subprocess.Popen([sys.executable, "-m", "papershelf", "embed", "--force"], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            seen = None
            deadline = time.monotonic() + 30
            while seen is None and build.poll() is None and time.monotonic() < deadline:
                seen = httpx.get(f"{url}/api/status").json()["embedding"]["build_running"]
                time.sleep(0.05)
            assert seen is not None and seen["pid"] == build.pid
        finally:
            assert build.wait(60) == 0
        assert httpx.get(f"{url}/api/status").json()["embedding"]["build_running"] is None
        hits = httpx.get(f"{url}/api/search", params=query).json()["results"]  # vectors of the new paper
        assert hits and hits[0]["paper_id"] == "zz2025new"
