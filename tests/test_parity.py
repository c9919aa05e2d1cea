"""One search through every door: a table of queries x filters asked of the CLI in-process, the CLI
via a running server, the HTTP API and MCP (the SDK's client over stdio) must give the same hits in
the same order with the same relevance and the same no_confident_match; every id form names the
same paper through every door; every endpoint and tool refuses an unknown parameter by name.

The library: the examples (Markdown, text), a two-column PDF with figures and tables, and a Zotero
data directory (collections, tags, authors, years, item and attachment keys), embedded with the
hash provider."""

from __future__ import annotations

import sys
from urllib.parse import quote

import anyio
import httpx
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from typer.testing import CliRunner

from papershelf import Library
from papershelf.frontends import cli
from papershelf.frontends.params import SearchParams

from .conftest import HASH
from .servers import cli_env, make_library, running_server
from .zotero_fixture import build_library

QUERIES = ["macrophages inflammatory", "coral bleaching by depth", "western blot of phosphorylated STAT3",
           '"trans-signalling"', "graph retrieval citations", "qqxv zzyzx wumpus"]
FILTERS: list[dict] = [{}, {"mode": "lexical"}, {"mode": "vector"}, {"kind": "figure"}, {"source": ["body_unit"]},
                       {"collection": ["Biology"]}, {"tag": ["macrophages"]}, {"author": "okafor"},
                       {"year_from": 2020, "year_to": 2022}, {"paper": ["JOUR1"]}, {"collection": ["biology/wounds"],
                                                                                    "tag": ["TO READ"]},
                       {"min_score": 0.3, "limit": 5, "per_paper": 1}]


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    folder = tmp_path_factory.mktemp("parity")
    db = make_library(folder)
    zdir = build_library(folder / "Zotero")
    with Library(str(db)) as lib:
        report = lib.add([str(zdir)])
        assert [f.path.split("/")[-2] for f in report.failed] == ["ATTM"]  # the fixture's missing file
        lib.embed(HASH)
    return db


@pytest.fixture(scope="module")
def server(library):
    with running_server(library) as (url, _):
        yield url


def _cli(library, *args: str) -> dict:
    import json

    r = CliRunner().invoke(cli.app, ["-L", str(library), *args], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _argv(query: str, f: dict) -> list[str]:
    """The CLI flags for one row of the table (the request model's names, as flags)."""
    argv = ["search", query, "--json"]
    for k, v in f.items():
        for x in v if isinstance(v, list) else [v]:
            argv += [cli.cli_flags()[k], str(x)]
    return argv


def _mcp(library, calls: list[tuple[str, dict]]) -> list:
    params = StdioServerParameters(command=sys.executable, args=["-m", "papershelf", "-L", str(library), "mcp"],
                                   env=cli_env())
    out: list = []

    async def main():
        with anyio.fail_after(300):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                for name, args in calls:
                    out.append(await session.call_tool(name, args))

    anyio.run(main)
    return out


def _same(d: dict) -> dict:
    """What must agree between doors: everything but the timings."""
    return {k: v for k, v in d.items() if k != "timings_ms"}


def test_every_door_gives_the_same_answer_for_every_query_and_filter(library, server):
    table = [(q, f) for q in QUERIES for f in FILTERS]
    mcp_answers = _mcp(library, [("search", {"query": q, **f}) for q, f in table])
    seen_empty = seen_hits = seen_confident = seen_unsure = 0
    for (q, f), via_mcp in zip(table, mcp_answers):
        local = _cli(library, *_argv(q, f), "--no-server")
        via_server = _cli(library, *_argv(q, f))
        http = httpx.get(f"{server}/api/search", params=SearchParams(query=q, **f).to_query(), timeout=60)
        assert http.status_code == 200, http.text
        assert not via_mcp.is_error, via_mcp.content[0].text
        assert _same(local) == _same(via_server) == _same(http.json()) == _same(via_mcp.structured_content), (q, f)
        hits = local["results"]
        seen_hits += bool(hits)
        seen_empty += not hits
        seen_confident += not local["no_confident_match"]
        seen_unsure += local["no_confident_match"]
        _filters_hold(hits, f)
    # the table is not vacuous: hits and no hits, confident and not
    assert seen_hits >= 30 and seen_empty >= 1 and seen_confident >= 5 and seen_unsure >= 5


def _filters_hold(hits: list[dict], f: dict) -> None:
    """Each filter really restricted the hits (a filter dropped on the way would show here)."""
    for h in hits:
        if "collection" in f:
            assert any(c.lower().startswith("biology") for c in h["collections"]), h
        if "tag" in f:
            assert {t.lower() for t in h["tags"]} >= {t.lower() for t in f["tag"]}, h
        if "author" in f:
            assert any("okafor" in a.lower() for a in h["authors"]), h
        if "year_from" in f:
            assert h["year"] is not None and 2020 <= h["year"] <= 2022, h
        if "kind" in f:
            assert h["object_kind"] == "figure", h
        if "source" in f:
            assert h["source"] == "body_unit", h
        if "paper" in f:
            assert h["paper_id"] == "JOUR1", h
        if "min_score" in f:
            assert h["relevance"] >= 0.3, h


ID_FORMS = {"JOUR1": "JOUR1", "full id": "okafor2021", "citekey": "okafor2021", "DOI": "doi:10.1234/JWB.2021.7",
            "doi.org URL": "https://doi.org/10.1234/jwb.2021.7", "Zotero item key": "CONF1",
            "Zotero attachment key": "ATT1", "zotero:// link": "zotero://open-pdf/library/items/ATT2?page=1",
            "unique prefix": "mbeki20"}
EXPECTED = {"JOUR1": "JOUR1", "full id": "okafor2021", "citekey": "okafor2021", "DOI": "JOUR1",
            "doi.org URL": "JOUR1", "Zotero item key": "okafor2021", "Zotero attachment key": "JOUR1",
            "zotero:// link": "okafor2021", "unique prefix": "mbeki2022coral"}


def test_every_id_form_names_the_same_paper_through_every_door(library, server):
    calls = []
    for ref in ID_FORMS.values():
        calls += [("show", {"id": ref}), ("get_passage", {"paper_id": ref, "budget_chars": 300}),
                  ("search", {"query": "what was found", "mode": "vector", "paper": [ref]})]
    calls.append(("show", {"id": "okafor"}))
    answers = iter(_mcp(library, calls))
    for form, ref in ID_FORMS.items():
        want = EXPECTED[form]
        assert _cli(library, "show", ref, "--json")["id"] == want, form
        assert httpx.get(f"{server}/api/show/{quote(ref, safe='')}").json()["id"] == want, form
        assert httpx.get(f"{server}/api/passage", params={"paper_id": ref}).json()["paper_id"] == want, form
        hits = httpx.get(f"{server}/api/search",
                         params={"query": "what was found", "mode": "vector", "paper": ref}).json()
        assert {h["paper_id"] for h in hits["results"]} == {want}, form
        cli_hits = _cli(library, "search", "what was found", "--mode", "vector", "--paper", ref, "--json")
        assert {h["paper_id"] for h in cli_hits["results"]} == {want}, form
        shown, passage, search = next(answers), next(answers), next(answers)
        assert shown.structured_content["id"] == want and passage.structured_content["paper_id"] == want, form
        assert {h["paper_id"] for h in search.structured_content["results"]} == {want}, form
    ambiguous = next(answers)
    assert ambiguous.is_error and "papers: " in ambiguous.content[0].text and "okafor2021" in ambiguous.content[0].text
    r = httpx.get(f"{server}/api/show/okafor")
    assert r.status_code == 400 and "okafortrans" in r.json()["error"] and "okafor2024il6" in r.json()["error"]
    pdf = httpx.get(f"{server}/papers/ATT1/pdf")  # the attachment key of every zotero:// link
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    unit = httpx.get(f"{server}/api/show/JOUR1").json()["sections"][0]["unit_id"]
    short = unit.replace("JOUR1", "ATT1")  # a unit named through its paper's Zotero key
    assert httpx.get(f"{server}/api/show/{short}").json()["id"] == unit


ENDPOINTS = ["/api/health", "/api/status", "/api/search?query=x", "/api/show/JOUR1", "/api/passage?paper_id=JOUR1",
             "/api/papers", "/papers/JOUR1/pdf", "/units/JOUR1:body:0/image", "/static/app.js"]


@pytest.mark.parametrize("path", ENDPOINTS)
def test_every_endpoint_refuses_an_unknown_parameter_by_name(server, path):
    r = httpx.get(server + path + ("&" if "?" in path else "?") + "colour=blue")
    assert r.status_code == 422 and "colour: unknown argument" in r.json()["error"], (path, r.text[:200])


def test_papers_over_http_say_how_many_match_beyond_the_limit(server):
    r = httpx.get(f"{server}/api/papers", params={"limit": 2})
    assert r.status_code == 200 and len(r.json()) == 2
    assert r.headers["x-total-count"] == "7"  # 4 examples, a PDF, 2 Zotero papers
    r = httpx.get(f"{server}/api/papers", params=[("tag", "macrophages"), ("collection", "Biology")])
    assert [p["id"] for p in r.json()] == ["JOUR1"] and r.headers["x-total-count"] == "1"


def test_every_tool_refuses_an_unknown_argument_by_name(library):
    calls = [("search", {"query": "x", "colour": "blue"}), ("show", {"id": "JOUR1", "colour": "blue"}),
             ("get_passage", {"paper_id": "JOUR1", "colour": "blue"}), ("list_papers", {"colour": "blue"}),
             ("status", {"colour": "blue"})]
    for (name, _), r in zip(calls, _mcp(library, calls)):
        assert r.is_error and "colour: unknown argument" in r.content[0].text, name
