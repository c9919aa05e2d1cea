"""The citation graph through every door — CLI, CLI via a running server, HTTP, MCP, the web page's
script — answering the same shapes as the Library."""

from __future__ import annotations

import json
import subprocess
import sys

import bibtexparser
import httpx
import pytest

from papershelf import Library

from .citation_fixtures import write_papers
from .servers import cli_env, running_server
from .test_mcp import session_run


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    folder = tmp_path_factory.mktemp("citations")
    write_papers(folder / "papers")
    db = folder / "library.db"
    with Library(str(db)) as lib:
        assert not lib.add([str(folder / "papers")]).failed
        ids = {w: next(s.paper.id for s in lib.papers() if w in (s.paper.title or "").lower())
               for w in ("survey", "attention", "sparse", "dimensionality")}
        expected = {"refs": lib.references(ids["survey"]).to_dict(), "citing": lib.citing(ids["attention"]).to_dict()}
        expected["cited_by"] = {"paper_id": ids["attention"], "cited_by": expected["citing"]["citing"]}  # old name
    return db, ids, expected


def cli(db, *args, ok=0) -> subprocess.CompletedProcess:
    p = subprocess.run([sys.executable, "-m", "papershelf", "-L", str(db), *args], env=cli_env(),
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == ok, (p.stdout, p.stderr)
    assert "Traceback" not in p.stderr
    return p


def test_cli_refs_cited_by_and_bibtex(library):
    db, ids, expected = library
    assert json.loads(cli(db, "refs", ids["survey"], "--json").stdout) == expected["refs"]
    assert json.loads(cli(db, "citing", ids["attention"], "--json").stdout) == expected["citing"]
    assert json.loads(cli(db, "cited-by", ids["attention"], "--json").stdout) == expected["cited_by"]  # old name
    assert "cited-by" not in cli(db, "--help").stdout and "citing" in cli(db, "--help").stdout
    missing = bibtexparser.parse_string(cli(db, "refs", ids["survey"], "--missing", "--format", "bibtex").stdout)
    assert {e.key for e in missing.entries} == {"turing2020sparse"}  # Hinton, Hopper 2021 (its 2020 paper) held
    papers = bibtexparser.parse_string(cli(db, "papers", "--format", "bibtex").stdout)
    assert {e["title"] for e in papers.entries} >= {"A Survey of Scholarly Search", "Sparse Retrieval at Scale"}
    assert "5 references (4 in this library)" in cli(db, "show", ids["survey"]).stdout
    err = cli(db, "refs", "no-such-paper", "--json", ok=1).stderr
    assert "no-such-paper" in err and len(err.strip().splitlines()) == 1
    cli(db, "refs", ids["survey"], "--format", "xml", ok=2)


def test_http_and_cli_via_server_answer_the_same(library):
    db, ids, expected = library
    with running_server(db) as (url, _):
        assert httpx.get(f"{url}/api/refs/{ids['survey']}").json() == expected["refs"]
        assert httpx.get(f"{url}/api/citing/{ids['attention']}").json() == expected["citing"]
        assert httpx.get(f"{url}/api/cited-by/{ids['attention']}").json() == expected["cited_by"]  # old name
        missing = httpx.get(f"{url}/api/refs/{ids['survey']}", params={"missing": "true", "format": "bibtex"}).json()
        assert [r["n"] for r in missing["references"]] == [3] and "@" in missing["bibtex"]
        for name in ("references_of", "cited_by"):  # cited_by: the old name, its old meaning
            r = httpx.get(f"{url}/api/search", params={"query": "retrieval OR search OR citation", "mode": "lexical",
                                                       name: ids["survey"]})
            assert r.status_code == 200, r.text
            assert {h["paper_id"] for h in r.json()["results"]} == {ids["attention"], ids["sparse"]}
        assert httpx.get(f"{url}/api/refs/nope").status_code == 404
        assert "renderCitations" in httpx.get(f"{url}/static/citations.js").text
        assert "citations.js" in httpx.get(f"{url}/").text
        via_server = json.loads(cli(db, "search", "retrieval OR search OR citation", "--mode", "lexical",
                                    "--citing", ids["attention"], "--json").stdout)
        local = json.loads(cli(db, "search", "retrieval OR search OR citation", "--mode", "lexical",
                               "--cites", ids["attention"], "--no-server", "--json").stdout)  # --cites: the old name
        assert [h["unit_id"] for h in via_server["results"]] == [h["unit_id"] for h in local["results"]]
        assert {h["paper_id"] for h in local["results"]} == {ids["survey"]}


def test_mcp_citations_tool(library):
    db, ids, expected = library
    out = {}

    async def script(s):
        tools = {t.name: t for t in (await s.list_tools()).tools}
        out["schemas"] = [tools["refs"].input_schema, tools["citing"].input_schema]
        out["refs"] = await s.call_tool("refs", {"paper_id": ids["survey"]})
        out["cited"] = await s.call_tool("citing", {"paper_id": ids["attention"]})
        out["old cited_by"] = await s.call_tool("cited_by", {"paper_id": ids["attention"]})
        out["bad"] = await s.call_tool("refs", {"paper_id": ids["survey"], "directon": "x"})
        # the tool of earlier versions still answers, unlisted
        out["old"] = [await s.call_tool("citations", {"paper_id": ids["survey"]}),
                      await s.call_tool("citations", {"paper_id": ids["attention"], "direction": "cited_by"})]
        out["listed"] = set(tools)

    session_run(db, script)
    for schema in out["schemas"]:
        assert schema["additionalProperties"] is False and schema["required"] == ["paper_id"]
    assert out["refs"].structured_content == expected["refs"] == out["old"][0].structured_content
    assert "in library" in out["refs"].content[0].text
    assert out["cited"].structured_content == expected["citing"]
    assert out["old cited_by"].structured_content == expected["cited_by"] == out["old"][1].structured_content
    assert out["bad"].is_error and "directon" in out["bad"].content[0].text
    assert "citations" not in out["listed"] and "cited_by" not in out["listed"]
